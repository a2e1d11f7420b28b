import { appendFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect } from 'vitest';

/**
 * Runs `step` and, when `QUIRE_E2E_TIMING` names a file, appends a line to it: spec, step, milliseconds. It shows where
 * a spec's time goes (server start, first scan, sign-in, ...); sum the lines with
 * `awk -F'\t' '{s[$2]+=$3} END {for (k in s) print k, s[k]}'`.
 */
export async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
  const file = process.env.QUIRE_E2E_TIMING;
  if (!file) return step();
  const start = performance.now();
  try {
    return await step();
  } finally {
    const spec = basename(expect.getState().testPath ?? '');
    appendFileSync(file, `${spec}\t${name}\t${Math.round(performance.now() - start)}\n`);
  }
}

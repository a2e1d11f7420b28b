import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INPUTS, OUTPUTS, STAMP, staleness } from './build-staleness.mjs';

/** `npm start` builds only when needed (issue 12 item 15): what counts as a stale build. */
let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (path: string, at: number) => {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '');
  utimesSync(file, at / 1000, at / 1000);
};
const HOUR = 3600_000;

/** A repository whose every input was written an hour before a complete build started. */
function built(): number {
  root = mkdtempSync(join(tmpdir(), 'quire-staleness-'));
  const startedAt = Date.now() - HOUR;
  for (const input of INPUTS) {
    const file = /\.\w+$/.test(input) ? input : `${input}/index.ts`;
    write(file, startedAt - HOUR);
    // A folder's own time changes when an entry is added or removed.
    if (file !== input) utimesSync(join(root, input), (startedAt - HOUR) / 1000, (startedAt - HOUR) / 1000);
  }
  for (const output of OUTPUTS) write(output, startedAt + 1000);
  mkdirSync(dirname(join(root, STAMP)), { recursive: true });
  writeFileSync(join(root, STAMP), JSON.stringify({ startedAt }));
  return startedAt;
}

describe('staleness', () => {
  it('is null for a complete build newer than every input: a restart starts at once', () => {
    built();
    expect(staleness(root)).toBeNull();
  });

  it('names the first reason to build: nothing built yet (a fresh clone), a missing output', () => {
    built();
    rmSync(join(root, STAMP));
    expect(staleness(root)).toBe('no build recorded');
    built();
    rmSync(join(root, 'packages/web/dist/index.html'));
    expect(staleness(root)).toBe('packages/web/dist/index.html is missing');
  });

  it('sees a source edited, added or deleted deep in a package, and new dependencies', () => {
    const startedAt = built();
    write('packages/server/src/http/routes/new-route.ts', startedAt + HOUR / 2);
    expect(staleness(root)).toBe('packages/server/src changed since the last build');

    built();
    const folder = join(root, 'packages/web/src');
    rmSync(join(folder, 'index.ts'));
    expect(staleness(root)).toBe('packages/web/src changed since the last build');

    const again = built();
    write('node_modules/.package-lock.json', again + 10);
    expect(staleness(root)).toBe('node_modules/.package-lock.json changed since the last build');
  });

  it('treats an input changed while the build ran as stale (the build recorded its start)', () => {
    const startedAt = built();
    write('packages/api/src/index.ts', startedAt + 500);
    expect(staleness(root)).toBe('packages/api/src changed since the last build');
  });
});

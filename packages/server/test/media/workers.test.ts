import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A worker module as the server ships them: plain JavaScript beside its caller.
let dir: string;
let WORKER_URL: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-workers-'));
  await writeFile(join(dir, 'worker.mjs'), 'export default (call) => call;');
  WORKER_URL = pathToFileURL(join(dir, 'worker.mjs')).href;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * Run in a fresh Node process: the young generation only ever grows, and this test process's has grown already.
 * The child keeps it small, starts a worker, then allocates objects that survive a few scavenges, the pattern that
 * makes V8 grow it, and prints its size.
 */
const child = () => `
import { getHeapSpaceStatistics } from 'node:v8';
import { limitYoungGeneration } from ${JSON.stringify(new URL('../../src/heap.ts', import.meta.url).href)};
import { WorkerPool } from ${JSON.stringify(new URL('../../src/media/workers.ts', import.meta.url).href)};
limitYoungGeneration();
const pool = new WorkerPool({ module: new URL(${JSON.stringify(WORKER_URL)}), threads: 1, idleTimeoutMs: 60_000 });
await pool.run(1);
const keep = [];
for (let i = 0; i < 2_000_000; i++) {
  keep.push({ i, s: 'x' + i });
  if (keep.length > 200_000) keep.splice(0, 100_000);
}
await pool.close();
const newSpace = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
console.log(newSpace.space_size / 2 ** 20);
`;

describe('WorkerPool', () => {
  it('keeps the young generation small after a pool starts a thread (unchecked, it grows to 32 MB)', async () => {
    await writeFile(join(dir, 'child.mjs'), child());
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(dir, 'child.mjs')], {
      cwd: import.meta.dirname,
    });
    // 2 MB, or 4 when it grew once while tsx compiled the child's imports, before the limit was set.
    expect(Number(stdout.trim())).toBeLessThanOrEqual(4);
  });
});

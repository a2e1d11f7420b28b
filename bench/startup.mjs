// Start-up time (spawn → first answer from /actuator/health) and idle memory (RSS after 5 s idle)
// of the built server, over several runs with a fresh data dir each. Run `npm run build` first.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { memoryMb, sleep } from './support/server.mjs';

const runs = Number(process.argv[2] ?? 5);
const main = resolve(import.meta.dirname, '../packages/server/dist/main.js');
/** RSS of a process just spawned (so it has a pid), in MiB. */
const rssMb = async (/** @type {import('node:child_process').ChildProcess} */ child) =>
  (await memoryMb(/** @type {number} */ (child.pid))).rss;

/** @param {number} port */
async function once(port) {
  const dataDir = await mkdtemp(join(tmpdir(), 'quire-bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      QUIRE_PORT: String(port),
      QUIRE_HOST: '127.0.0.1',
      QUIRE_DATA_DIR: dataDir,
      QUIRE_LOG_STDOUT: 'false',
    },
    stdio: 'ignore',
  });
  /** @type {number} */
  let ms;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/actuator/health`)).ok) {
        ms = performance.now() - started;
        break;
      }
    } catch {
      /* not up yet */
    }
    if (performance.now() - started > 30_000) throw new Error('server did not start');
    await sleep(5);
  }
  await sleep(5000);
  const rss = await rssMb(child);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  await rm(dataDir, { recursive: true, force: true });
  return { ms, rss };
}

// Baseline: a bare `node -e` process, to show what Node itself costs.
const bare = spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 6000)'], { stdio: 'ignore' });
await sleep(1000);
const bareRss = await rssMb(bare);
bare.kill();
const results = [];
for (let i = 0; i < runs; i++) results.push(await once(26600 + i));
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
console.log(`runs: ${runs}`);
console.log(
  `start-up to first answer: median ${median(results.map((r) => r.ms)).toFixed(0)} ms (all: ${results.map((r) => r.ms.toFixed(0)).join(', ')})`,
);
console.log(`idle RSS after 5 s: median ${median(results.map((r) => r.rss)).toFixed(1)} MB`);
console.log(
  `baseline: a bare node process: RSS ${bareRss.toFixed(1)} MB; ratio ${(median(results.map((r) => r.rss)) / bareRss).toFixed(2)}x`,
);

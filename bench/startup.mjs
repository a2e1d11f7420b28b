// Start-up time (spawn → first answer from /actuator/health) and idle memory (RSS after 5 s idle)
// of the built server, over several runs with a fresh data dir each. Run `npm run build` first.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryMb, sleep, startServer } from './support/server.mjs';

const runs = Number(process.argv[2] ?? 5);

/** @param {number} port */
async function once(port) {
  const dataDir = await mkdtemp(join(tmpdir(), 'quire-bench-'));
  const started = performance.now();
  const server = await startServer({ dataDir, port, pollMs: 5 });
  const ms = performance.now() - started;
  await sleep(5000);
  const { rss } = await memoryMb(server.pid);
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
  return { ms, rss };
}

// Baseline: a bare `node -e` process, to show what Node itself costs.
const bare = spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 6000)'], { stdio: 'ignore' });
await sleep(1000);
const { rss: bareRss } = await memoryMb(/** @type {number} */ (bare.pid));
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

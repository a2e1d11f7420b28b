#!/usr/bin/env node
// `npm test` after its build and check (pretest): every test pass, in two lanes that run at the same time, each pass
// of a lane after the one before it. A lane is mostly one process waiting on another (a vitest worker on the
// server it started, on Chromium), so two lanes keep both cores of a CI machine busy where one left one idle; what
// each pass took is printed at the end (docs/architecture.md, Tests: the CI budget). Every pass runs even when an
// earlier one failed, so one run shows every failure; the exit code is 1 when any failed.
//   node scripts/test.mjs              every pass
//   node scripts/test.mjs web e2e      only these passes (same lanes, same order)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules/.bin/vitest');
/** @type {Record<string, string>} */
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;

/** @typedef {{ name: string, command: string[] | null, why?: string }} Pass */

/** @type {Pass[][]} */
const LANES = [
  [
    { name: 'server', command: [vitest, 'run', '--project', 'server'] },
    // The same server suite on PostgreSQL (issue 20): the script starts its own cluster.
    scripts['test:server:pg']
      ? { name: 'server-pg', command: ['npm', 'run', 'test:server:pg'] }
      : { name: 'server-pg', command: null, why: 'no "test:server:pg" script in package.json' },
  ],
  [
    { name: 'web', command: [vitest, 'run', '--project', 'web'] },
    { name: 'e2e', command: [vitest, 'run', '--config', 'e2e/vitest.config.ts'] },
  ],
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !LANES.flat().some((p) => p.name === w));
if (unknown.length > 0) {
  console.error(
    `Unknown pass ${unknown.join(', ')}; the passes are ${LANES.flat()
      .map((p) => p.name)
      .join(', ')}.`,
  );
  process.exit(2);
}
const lanes = LANES.map((lane) => lane.filter((p) => wanted.length === 0 || wanted.includes(p.name)));

/**
 * Runs one pass with its output prefixed by its name (two lanes write at once), and resolves with its exit code.
 * @param {string} name
 * @param {string[]} command
 * @returns {Promise<number>}
 */
function run(name, [program, ...args]) {
  return new Promise((resolve) => {
    const child = spawn(/** @type {string} */ (program), args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
    child.on('error', (err) => {
      console.log(`[${name}] ${err.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** @type {{ name: string, result: string, seconds: number }[]} */
const summary = [];
const started = Date.now();
await Promise.all(
  lanes.map(async (lane) => {
    for (const pass of lane) {
      if (!pass.command) {
        console.log(`[${pass.name}] NOT RUN: ${pass.why}`);
        summary.push({ name: pass.name, result: `not run (${pass.why})`, seconds: 0 });
        continue;
      }
      const passStarted = Date.now();
      const code = await run(pass.name, pass.command);
      summary.push({
        name: pass.name,
        result: code === 0 ? 'passed' : `FAILED (exit ${code})`,
        seconds: Math.round((Date.now() - passStarted) / 1000),
      });
    }
  }),
);

const minutes = (/** @type {number} */ s) => `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
console.log('\nTest passes:');
for (const s of summary) console.log(`  ${s.name.padEnd(10)} ${minutes(s.seconds).padStart(13)}  ${s.result}`);
console.log(`  ${'all'.padEnd(10)} ${minutes(Math.round((Date.now() - started) / 1000)).padStart(13)}`);
process.exit(summary.some((s) => s.result.startsWith('FAILED')) ? 1 : 0);

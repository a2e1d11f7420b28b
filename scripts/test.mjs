#!/usr/bin/env node
// `npm test` after its build and check (pretest): the test passes one after the other (LANES below); what each took
// is printed at the end (docs/architecture.md, Tests: the CI budget). Every pass runs even when an earlier one
// failed, so one run shows every failure; the exit code is 1 when any failed.
//   node scripts/test.mjs              the default passes: server, web, e2e
//   node scripts/test.mjs server-pg    only the passes named (server-pg: the server tests on PostgreSQL)
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules/.bin/vitest');

/** @typedef {{ name: string, command: string[] | null, why?: string }} Pass */

/**
 * The passes `npm test` runs, one lane after the other. Two lanes at once (server then PostgreSQL beside web then
 * browser) were tried: on a 2-core CI machine the run took ~28 min, over the 20-minute budget, and the timing tests
 * and one browser flow failed under the doubled load. The PostgreSQL pass is therefore its own command for now
 * (`npm run test:server:pg`, or `node scripts/test.mjs server-pg`), not part of the default run.
 * @type {Pass[][]}
 */
const LANES = [
  [
    { name: 'server', command: [vitest, 'run', '--project', 'server'] },
    { name: 'web', command: [vitest, 'run', '--project', 'web'] },
    { name: 'e2e', command: [vitest, 'run', '--config', 'e2e/vitest.config.ts'] },
  ],
];
/** Passes run only when named. */
/** @type {Pass[]} */
const ON_REQUEST = [{ name: 'server-pg', command: ['npm', 'run', 'test:server:pg'] }];

const wanted = process.argv.slice(2);
const every = [...LANES.flat(), ...ON_REQUEST];
const unknown = wanted.filter((w) => !every.some((p) => p.name === w));
if (unknown.length > 0) {
  console.error(`Unknown pass ${unknown.join(', ')}; the passes are ${every.map((p) => p.name).join(', ')}.`);
  process.exit(2);
}
const lanes = wanted.length === 0 ? LANES : [every.filter((p) => wanted.includes(p.name))];

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

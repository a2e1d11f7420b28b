#!/usr/bin/env node
// `npm test` after its build and check (pretest): the test passes one after the other (PASSES below); what each
// took is printed at the end (docs/architecture.md, Tests: the CI budget). Every pass runs even when an earlier one
// failed, so one run shows every failure; the exit code is 1 when any failed.
//   node scripts/test.mjs                  the default passes: unit (server, server-pg, web), then e2e
//   node scripts/test.mjs server-pg web    only the vitest projects or passes named
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules/.bin/vitest');

/**
 * The default passes. The unit pass is one vitest run of its three projects (the server tests on SQLite, the same
 * tests on PostgreSQL, the web client's), so the two CPUs of a CI machine are kept busy to its end: run one after
 * the other, each project's slowest file left a core idle at its tail, and the split cost ~2.5 min. Two processes
 * at once (the PostgreSQL pass beside the browser pass) were tried: on two cores the run went over the 20-minute
 * budget, and the doubled load failed timing tests and a browser flow.
 * @type {{ name: string, command: string[] }[]}
 */
const PASSES = [
  { name: 'unit', command: [vitest, 'run'] },
  { name: 'e2e', command: [vitest, 'run', '--config', 'e2e/vitest.config.ts'] },
];
const PROJECTS = ['server', 'server-pg', 'web'];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !PROJECTS.includes(w) && !PASSES.some((p) => p.name === w));
if (unknown.length > 0) {
  console.error(`Unknown pass ${unknown.join(', ')}; the passes are ${[...PASSES.map((p) => p.name), ...PROJECTS]}.`);
  process.exit(2);
}
const projects = wanted.filter((w) => PROJECTS.includes(w));
const passes =
  wanted.length === 0
    ? PASSES
    : [
        ...(projects.length > 0
          ? [{ name: projects.join('+'), command: [vitest, 'run', ...projects.flatMap((p) => ['--project', p])] }]
          : []),
        ...PASSES.filter((p) => wanted.includes(p.name)),
      ];

/**
 * Runs one pass with its output as it comes, and resolves with its exit code.
 * @param {string[]} command
 * @returns {Promise<number>}
 */
function run([program, ...args]) {
  return new Promise((resolve) => {
    const child = spawn(/** @type {string} */ (program), args, { cwd: root, stdio: 'inherit' });
    child.on('error', (err) => {
      console.log(err.message);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** @type {{ name: string, result: string, seconds: number }[]} */
const summary = [];
const started = Date.now();
for (const pass of passes) {
  const passStarted = Date.now();
  const code = await run(pass.command);
  summary.push({
    name: pass.name,
    result: code === 0 ? 'passed' : `FAILED (exit ${code})`,
    seconds: Math.round((Date.now() - passStarted) / 1000),
  });
}

const minutes = (/** @type {number} */ s) => `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
console.log('\nTest passes:');
for (const s of summary) console.log(`  ${s.name.padEnd(10)} ${minutes(s.seconds).padStart(13)}  ${s.result}`);
console.log(`  ${'all'.padEnd(10)} ${minutes(Math.round((Date.now() - started) / 1000)).padStart(13)}`);
process.exit(summary.some((s) => s.result.startsWith('FAILED')) ? 1 : 0);

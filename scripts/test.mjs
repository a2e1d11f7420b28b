#!/usr/bin/env node
// `npm test` after its build and check (pretest): the test passes one after the other (PASSES below); what each
// took is printed at the end (docs/architecture.md, Tests: the CI budget), after what failed in each
// (scripts/failures-reporter.mjs). Every pass runs even when an earlier one failed, so one run shows every failure;
// the exit code is 1 when any failed.
//   node scripts/test.mjs                  the default passes: unit (server, server-pg, web), then e2e
//   node scripts/test.mjs server-pg web    only the vitest projects or passes named
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules/.bin/vitest');
const reporters = ['--reporter=default', `--reporter=${join(root, 'scripts/failures-reporter.mjs')}`];

/**
 * The default passes. The unit pass is one vitest run of its three projects (the server tests on SQLite, the same
 * tests on PostgreSQL, the web client's), so the two CPUs of a CI machine are kept busy to its end: run one after
 * the other, each project's slowest file left a core idle at its tail, and the split cost ~2.5 min. Two processes
 * at once (the PostgreSQL pass beside the browser pass) were tried: on two cores the run went over the 20-minute
 * budget, and the doubled load failed timing tests and a browser flow.
 * @type {{ name: string, command: string[] }[]}
 */
const PASSES = [
  { name: 'unit', command: [vitest, 'run', ...reporters] },
  { name: 'e2e', command: [vitest, 'run', '--config', 'e2e/vitest.config.ts', ...reporters] },
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
          ? [
              {
                name: projects.join('+'),
                command: [vitest, 'run', ...reporters, ...projects.flatMap((p) => ['--project', p])],
              },
            ]
          : []),
        ...PASSES.filter((p) => wanted.includes(p.name)),
      ];

/**
 * Runs one pass with its output as it comes, and resolves with its exit code.
 * @param {string[]} command
 * @param {string} failures the file where the pass's failures reporter writes
 * @returns {Promise<number>}
 */
function run([program, ...args], failures) {
  return new Promise((resolve) => {
    const env = { ...process.env, QUIRE_TEST_FAILURES: failures };
    const child = spawn(/** @type {string} */ (program), args, { cwd: root, stdio: 'inherit', env });
    child.on('error', (err) => {
      console.log(err.message);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** @type {{ name: string, result: string, seconds: number, failures: string }[]} */
const summary = [];
const started = Date.now();
const failuresDir = mkdtempSync(join(tmpdir(), 'quire-test-'));
for (const pass of passes) {
  const passStarted = Date.now();
  const failuresFile = join(failuresDir, pass.name);
  const code = await run(pass.command, failuresFile);
  let failures = '';
  try {
    failures = readFileSync(failuresFile, 'utf8');
  } catch {
    // The pass wrote none: it passed, or vitest itself stopped before its reporters ran.
  }
  summary.push({
    name: pass.name,
    result: code === 0 ? 'passed' : `FAILED (exit ${code})`,
    seconds: Math.round((Date.now() - passStarted) / 1000),
    failures,
  });
}
rmSync(failuresDir, { recursive: true, force: true });

for (const s of summary.filter((s) => s.failures !== '')) console.log(`\nFailed in the ${s.name} pass:\n${s.failures}`);

const minutes = (/** @type {number} */ s) => `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
console.log('\nTest passes:');
for (const s of summary) console.log(`  ${s.name.padEnd(10)} ${minutes(s.seconds).padStart(13)}  ${s.result}`);
console.log(`  ${'all'.padEnd(10)} ${minutes(Math.round((Date.now() - started) / 1000)).padStart(13)}`);
process.exit(summary.some((s) => s.result.startsWith('FAILED')) ? 1 : 0);

#!/usr/bin/env node
// Builds the three packages (api, server, web) in order, then records what the build was made from.
// `--if-stale` (npm start) builds only when the last build is missing, incomplete, or older than any of its inputs:
// sources, package manifests, TypeScript and Vite configuration, installed dependencies. So a restart starts at
// once, and a fresh clone, a `git pull` or an edit still gets a fresh build before the server starts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGES, STAMP, staleness } from './build-staleness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv.includes('--if-stale')) {
  const reason = staleness(root);
  if (!reason) process.exit(0);
  console.log(`Building Quire: ${reason}.`);
}

// An input changed while building leaves the build stale: the recorded time is the start.
const startedAt = Date.now();
for (const p of PACKAGES) {
  const { status } = spawnSync('npm', ['run', 'build', '-w', `@quire/${p}`], { cwd: root, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
mkdirSync(dirname(join(root, STAMP)), { recursive: true });
writeFileSync(join(root, STAMP), `${JSON.stringify({ startedAt })}\n`);

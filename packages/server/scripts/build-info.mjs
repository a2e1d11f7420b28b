#!/usr/bin/env node
// Records when the build was made and the git commit it was made from, for /actuator/info (api.md §9.1) and
// /api/v1/releases: `dist/build-info.json`.
// A tree that is not a git checkout of its own (a release tarball, even one unpacked inside another repository)
// records branch and commit "unknown" and a null time, keeping the shape clients read.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repository = realpathSync(join(here, '../../..'));
const out = process.argv[2] ?? join(here, '../dist/build-info.json');

const git = (/** @type {string[]} */ ...args) =>
  execFileSync('git', ['-C', repository, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

const utcSeconds = (/** @type {Date} */ date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function gitInfo() {
  try {
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== repository) throw new Error('not our repository');
    const [id, seconds] = git('log', '-1', '--format=%h %ct').split(' ');
    // Spring's git info gives the commit time in UTC, to the second.
    const time = utcSeconds(new Date(Number(seconds) * 1000));
    return { branch: git('rev-parse', '--abbrev-ref', 'HEAD'), commit: { id, time } };
  } catch {
    return { branch: 'unknown', commit: { id: 'unknown', time: null } };
  }
}

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ time: utcSeconds(new Date()), git: gitInfo() }, null, 2)}\n`);

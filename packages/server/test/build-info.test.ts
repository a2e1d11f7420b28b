import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** scripts/build-info.mjs: what the build records for /actuator/info's `git` section. */
const script = join(import.meta.dirname, '../scripts/build-info.mjs');
const temp = mkdtempSync(join(tmpdir(), 'quire-build-info-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const run = (scriptPath: string, out: string) => {
  execFileSync(process.execPath, [scriptPath, out]);
  return JSON.parse(readFileSync(out, 'utf8')) as unknown;
};
const git = (...args: string[]) =>
  execFileSync('git', ['-C', import.meta.dirname, ...args], { encoding: 'utf8' }).trim();

describe('build-info.mjs', () => {
  it('records the branch, short commit id and commit time (UTC, to the second) of the checkout', () => {
    const seconds = Number(git('log', '-1', '--format=%ct'));
    const before = Math.floor(Date.now() / 1000) * 1000;
    const recorded = run(script, join(temp, 'checkout.json')) as { time: string };
    expect(Date.parse(recorded.time)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(recorded.time)).toBeLessThanOrEqual(Date.now());
    expect(recorded).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:]{8}Z$/),
      git: {
        branch: git('rev-parse', '--abbrev-ref', 'HEAD'),
        commit: {
          id: git('rev-parse', '--short', 'HEAD'),
          time: new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        },
      },
    });
  });

  it('says "unknown" in the same shape for a tree that is not a git checkout of its own', () => {
    // A copy of the script inside an unpacked "tarball" (no .git) that itself sits in a temp dir.
    const copy = join(temp, 'tarball/packages/server/scripts/build-info.mjs');
    cpSync(script, copy);
    expect(run(copy, join(temp, 'tarball.json'))).toEqual({
      time: expect.any(String),
      git: { branch: 'unknown', commit: { id: 'unknown', time: null } },
    });
  });
});

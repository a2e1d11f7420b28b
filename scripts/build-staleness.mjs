// Whether the last build (scripts/build.mjs) still matches its inputs; shared by the build and its test.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PACKAGES = ['api', 'server', 'web'];

/** Written by a successful build, relative to the repository: when that build started. */
export const STAMP = 'node_modules/.cache/quire/build.json';

/** What a build reads. A file here newer than the last build makes it stale. */
export const INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  // npm rewrites it on every install: a changed dependency means a new web bundle.
  'node_modules/.package-lock.json',
  ...PACKAGES.flatMap((p) => [`packages/${p}/package.json`, `packages/${p}/tsconfig.json`, `packages/${p}/src`]),
  'packages/server/scripts',
  'packages/web/index.html',
  'packages/web/vite.config.ts',
  'packages/web/public',
];

/** What a build leaves; a missing one means the last build is incomplete. */
export const OUTPUTS = ['packages/api/dist/index.js', 'packages/server/dist/main.js', 'packages/web/dist/index.html'];

/**
 * The newest modification time under `path` (a file or a folder), 0 when it does not exist.
 * @param {string} path
 * @returns {number}
 */
function newest(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let max = stats.mtimeMs;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

/**
 * Why the repository at `root` needs a build, or null when its last one is still good.
 * @param {string} root
 */
export function staleness(root) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, STAMP), 'utf8'));
  } catch {
    return 'no build recorded';
  }
  const missing = OUTPUTS.find((o) => !existsSync(join(root, o)));
  if (missing) return `${missing} is missing`;
  const changed = INPUTS.find((i) => newest(join(root, i)) > stamp.startedAt);
  return changed ? `${changed} changed since the last build` : null;
}

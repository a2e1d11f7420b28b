import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared folder with the real fixture files and reference documents. QUIRE_SHARED_DIR overrides;
 * by default it is `../shared` beside the repository, where CI and developers have it.
 */
export const sharedDir = resolve(
  process.env.QUIRE_SHARED_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '../../../../../shared'),
);
if (!existsSync(sharedDir)) throw new Error(`Shared fixtures not found at ${sharedDir}; set QUIRE_SHARED_DIR`);

export const sharedPath = (relative: string) => join(sharedDir, relative);
/** A real file under shared/fixtures/real, read in place. */
export const fixture = (relative: string) => join(sharedDir, 'fixtures/real', relative);

/**
 * A copy of a real file inside a library folder (created if needed); returns its path. A library's books
 * must lie inside its root: a fixture read in place is outside any test library but the file system's root.
 */
export async function copyFixture(relative: string, folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, basename(relative));
  await copyFile(fixture(relative), path);
  return path;
}

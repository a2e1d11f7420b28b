import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

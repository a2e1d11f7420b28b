import { epubResources } from './analyze.js';
import { withEpub } from './package.js';
import { safeResourcePath } from './paths.js';
import { ZipArchive } from './zip.js';
import type { EntryStream } from '../types.js';

/** A client asked for a path that tries to leave the EPUB (`..`, absolute, backslash…): refuse (400/404). */
export class UnsafeResourcePathError extends Error {
  constructor(readonly path: string) {
    super(`Refused resource path: ${JSON.stringify(path)}`);
    this.name = 'UnsafeResourcePathError';
  }
}

export interface KnownResource {
  fileName: string;
  mediaType: string | null;
}

/**
 * Reads one resource of an EPUB by its path relative to the EPUB root (as listed in `Media.files`,
 * already percent-decoded by the router). Paths are matched exactly, case-sensitively, against the
 * known resources (engine.md §4.6): `files` when given (the stored Media.files), else the OPF manifest.
 * Returns null when no such resource exists; throws {@link UnsafeResourcePathError} for traversal attempts.
 */
export async function readEpubResource(
  file: string,
  path: string,
  files?: readonly KnownResource[],
): Promise<{ bytes: Buffer; mediaType: string | null } | null> {
  const safe = safeResourcePath(path);
  if (safe === null) throw new UnsafeResourcePathError(path);
  return withEpub(file, async (epub) => {
    const known = files ?? epubResources(epub);
    const match = known.find((f) => f.fileName === safe);
    if (!match || !epub.zip.has(safe)) return null;
    return { bytes: await epub.zip.read(safe), mediaType: match.mediaType || null };
  });
}

/**
 * Opens one resource known from the stored analysis (`files`, as Media.files) to stream it as it is: the package
 * is not parsed again, only the ZIP directory read. Null when no such resource exists; throws
 * {@link UnsafeResourcePathError} for traversal attempts.
 */
export async function openEpubResource(
  file: string,
  path: string,
  files: readonly KnownResource[],
): Promise<(EntryStream & { mediaType: string | null }) | null> {
  const safe = safeResourcePath(path);
  if (safe === null) throw new UnsafeResourcePathError(path);
  const match = files.find((f) => f.fileName === safe);
  if (!match) return null;
  const zip = await ZipArchive.open(file);
  if (!zip.has(safe)) {
    zip.close();
    return null;
  }
  return { ...(await zip.streamAndClose(safe)), mediaType: match.mediaType || null };
}

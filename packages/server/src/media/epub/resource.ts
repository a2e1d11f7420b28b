import { epubResources } from './analyze.js';
import { withEpub } from './package.js';
import { safeResourcePath } from './paths.js';

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

/**
 * The one way to a library's files on disk: a stored `file:` URL (book, series folder, sidecar) becomes the
 * path to open only if, with every symbolic link resolved, it lies inside its library's root.
 *
 * The scanner already skips links that lead out of the root; this check is repeated whenever a file is opened
 * (a page, a download, a poster, an analysis…) because a link can be swapped in after the scan. The resolved
 * real path is what callers open, so the link that was checked is not followed a second time.
 */
import { realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LibraryRepository } from '../domain/ports.js';

/** Is the real path `real` the real root itself or below it? */
export function isInside(realRoot: string, real: string): boolean {
  return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

/** The real path of `path` when it exists and lies inside `realRoot`; else null. */
export async function realPathInside(realRoot: string, path: string): Promise<string | null> {
  try {
    const real = await realpath(path);
    return isInside(realRoot, real) ? real : null;
  } catch {
    return null;
  }
}

/** A stored file of a library. */
export interface LibraryFile {
  libraryId: string;
  url: string;
}

export interface LibraryFilesLogger {
  warn(obj: object, msg: string): void;
}

/**
 * How long a library root's resolved real path is reused. An import opens every book several times (analysis,
 * metadata refresh, posters) within seconds, and each resolved the root again: 600+ `realpath` calls of the same
 * folder per 300 books on libuv's four threads, which the reads and the image decodes are waiting for (issue 18).
 */
const ROOT_TTL_MS = 2000;

export class LibraryFiles {
  /** Real roots by library id, with the root they were resolved from (an edited root is resolved afresh). */
  private readonly roots = new Map<string, { root: string; real: string; at: number }>();

  constructor(
    private readonly d: {
      libraries: Pick<LibraryRepository, 'find'>;
      logger?: LibraryFilesLogger;
      now?: () => number;
    },
  ) {}

  /**
   * The real root of a library; null when the library or its folder is gone. `fresh`: resolved now, not taken
   * from the last {@link ROOT_TTL_MS}.
   */
  async realRoot(libraryId: string, fresh = false): Promise<string | null> {
    const library = await this.d.libraries.find(libraryId);
    if (!library) return null;
    const now = this.d.now?.() ?? performance.now();
    const known = this.roots.get(libraryId);
    if (!fresh && known?.root === library.root && now - known.at < ROOT_TTL_MS) return known.real;
    try {
      const real = await realpath(library.root);
      this.roots.set(libraryId, { root: library.root, real, at: now });
      return real;
    } catch {
      this.roots.delete(libraryId);
      return null;
    }
  }

  /**
   * The real path to open for a stored file: null when it is missing, its library is gone, or links lead it
   * out of the library root (logged: an administrator should know why a book stopped reading). A file refused
   * against a root resolved a moment ago is checked again against the root resolved now, so a root that was
   * moved or relinked since never makes a file unreadable.
   */
  async pathOf(file: LibraryFile): Promise<string | null> {
    let path: string;
    try {
      path = fileURLToPath(file.url);
    } catch {
      return null;
    }
    let root = await this.realRoot(file.libraryId);
    if (!root) return null;
    let real = await realPathInside(root, path);
    if (!real) {
      root = await this.realRoot(file.libraryId, true);
      if (!root) return null;
      real = await realPathInside(root, path);
    }
    if (!real) {
      const target = await realpath(path).catch(() => null);
      if (target) this.d.logger?.warn({ path, target, root }, 'Refusing a file that links out of its library root');
    }
    return real;
  }
}

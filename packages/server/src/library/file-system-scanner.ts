/**
 * The file-system walk of a library scan (engine.md §2.1–§2.3): which folders are series, which
 * files are books, which sidecars go with them. Returns plain data; the reconciliation with the
 * database is `domain/changes.ts`.
 */
import { readdir as readdirCb, realpath as realpathCb, stat as statCb, type Dirent, type Stats } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bookNameFromFileName } from '../domain/book-numbering.js';
import { QuireError } from '../domain/errors.js';
import {
  bookExtensions,
  bookSidecarMatcher,
  fileExtension,
  isBookSidecarCandidate,
  normalizeOneshotsDirectory,
  seriesLastModified,
  seriesSidecarType,
  type LibraryOptions,
  type SidecarSource,
  type SidecarType,
} from '../domain/library.js';
import { seriesNameFromFolder } from '../domain/series-title.js';
import { isInside } from './library-files.js';

export interface ScannedBook {
  /** File name without its last extension. */
  name: string;
  /** `file:` URL of the file (the identity the reconciliation uses). */
  url: string;
  /** Absolute path. */
  path: string;
  fileSize: number;
  /** Epoch milliseconds (integer): the later of modification and birth time. */
  fileLastModified: number;
  oneshot: boolean;
}

export interface ScannedSeries {
  /** Folder name, or the book name for a one-shot. */
  name: string;
  /** Folder URL (ending with `/`), or for a one-shot the book's URL. */
  url: string;
  path: string;
  fileLastModified: number;
  oneshot: boolean;
  /** In file-name order (code units); numbering order is decided later by `sortBooks`. */
  books: ScannedBook[];
}

export interface ScannedSidecar {
  url: string;
  path: string;
  /** URL of the series folder (SERIES) or of the book file (BOOK). */
  parentUrl: string;
  fileLastModified: number;
  type: SidecarType;
  source: SidecarSource;
}

export interface ScanProblem {
  path: string;
  /** Node error code (`EACCES`, `ELOOP`…) or `LOOP` for a symbolic-link cycle. */
  code: string;
}

export interface FileSystemScanResult {
  /** Depth-first, directory entries in code-unit order; a folder's own series before its sub-folders'. */
  series: ScannedSeries[];
  sidecars: ScannedSidecar[];
  /**
   * Folders that could not be read, with their URL (ending with `/`). Komga skips them silently and
   * then soft-deletes their series (§2.1 QUIRK); the reconciliation leaves everything under them alone.
   */
  unreadableFolders: (ScanProblem & { url: string })[];
  /** Files that vanished or could not be stat'ed between listing and stat; skipped. */
  skippedFiles: ScanProblem[];
  /** Symbolic links (to files or folders) whose real path is outside the library root; skipped. */
  linksOutsideRoot: { path: string; target: string }[];
}

export type ScanOptions = Pick<
  LibraryOptions,
  'scanCbx' | 'scanPdf' | 'scanEpub' | 'scanDirectoryExclusions' | 'oneshotsDirectory' | 'scanForceModifiedTime'
> & {
  /**
   * Also count the inode change time (ctime) as "updated". Default false: Komga's rule is
   * max(mtime, birth time) (§1.1); ctime also moves on chmod/chown/xattr changes.
   */
  includeChangeTime?: boolean;
};

/** The library root is missing, unreadable or not a directory (ERR_1016). */
export class DirectoryNotAccessibleError extends QuireError {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(400, 'ERR_1016');
    this.name = 'DirectoryNotAccessibleError';
  }
}

/**
 * How many file-system calls a walk keeps in flight. They run on libuv's thread pool (4 threads), which every
 * request shares (file reads, `statfs` of the health check, hashing, image work): a walk that queued thousands
 * of calls at once, as it did, made every request wait for the whole queue (seconds on a 200,000-entry tree).
 */
const WALK_CONCURRENCY = 4;

/** Runs at most `n` of the given calls at a time, in call order. */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(call: () => Promise<T>): Promise<T> => {
    if (active < n) active++;
    else await new Promise<void>((resume) => waiting.push(resume));
    try {
      return await call();
    } finally {
      const next = waiting.shift();
      if (next)
        next(); // the slot passes to the next call
      else active--;
    }
  };
}

// The callback API: measurably cheaper per call than `fs/promises` (no FileHandle/promise plumbing in core).
const statNow = (path: string) => new Promise<Stats>((ok, ko) => statCb(path, (err, s) => (err ? ko(err) : ok(s))));
const realpathNow = (path: string) =>
  new Promise<string>((ok, ko) => realpathCb.native(path, (err, p) => (err ? ko(err) : ok(p))));
const readdirNow = (path: string) =>
  new Promise<Dirent[]>((ok, ko) => readdirCb(path, { withFileTypes: true }, (err, e) => (err ? ko(err) : ok(e))));

/** `file:` URL of a directory, with the trailing slash Java's `Path.toUri()` gives directories. */
export function directoryUrl(path: string): string {
  const href = pathToFileURL(path).href;
  return href.endsWith('/') ? href : `${href}/`;
}

export function fileUrl(path: string): string {
  return pathToFileURL(path).href;
}

/** A file's time as scans store it: the later of modification and creation (and change, when forced). */
export function updatedTime(s: Stats, includeChangeTime: boolean): number {
  let t = Math.max(s.mtimeMs, s.birthtimeMs || 0);
  if (includeChangeTime) t = Math.max(t, s.ctimeMs);
  return Math.floor(t);
}

const errorCode = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code ?? 'UNKNOWN';
const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

interface DirResult {
  series: ScannedSeries[];
  sidecars: ScannedSidecar[];
}

/**
 * Walks a library root (§2.1): depth-first, following symbolic links that stay inside the root (cycles
 * are detected and skipped), unlimited depth.
 * - Symbolic links are resolved to their real path; a link (to a file or a folder) whose real path is
 *   outside the root's real path is skipped and reported (Komga follows it anywhere: a `passwd.cbz` link to
 *   `/etc/passwd` became a downloadable book). Every other entry is inside by construction: it is a plain
 *   entry of a folder whose real path is inside.
 * - Books: regular files (or links to them) whose lower-cased last extension is collected by the
 *   library's scan flags; names starting with `.` are skipped.
 * - Directories: skipped with their subtree when the name starts with `.`, or when their path
 *   relative to the root (written `/a/b`) contains an exclusion, case-insensitively. The root itself
 *   is always walked (Komga would skip a hidden or "excluded" root and soft-delete the whole library).
 * - Each folder holding books directly is a series (§2.2), unless its absolute path contains the
 *   one-shots directory (case-insensitive), in which case each book is its own one-shot series.
 * - Sidecars (§2.3) are collected for folders that produced series (series sidecars: not for
 *   one-shot folders) and for books.
 * Only candidate files (books and possible sidecars) are stat'ed; everything is asynchronous.
 *
 * @throws DirectoryNotAccessibleError when the root is missing, unreadable or not a directory.
 */
export async function scanLibraryFolder(root: string, options: ScanOptions): Promise<FileSystemScanResult> {
  const rootPath = resolve(root);
  const limited = limiter(WALK_CONCURRENCY);
  const stat = (path: string) => limited(() => statNow(path));
  const realpath = (path: string) => limited(() => realpathNow(path));
  const readdir = (path: string) => limited(() => readdirNow(path));
  const extensions = bookExtensions(options);
  const exclusions = options.scanDirectoryExclusions.filter((x) => x !== '').map((x) => x.toLowerCase());
  const oneshots = normalizeOneshotsDirectory(options.oneshotsDirectory)?.toLowerCase() ?? null;
  const includeChangeTime = options.includeChangeTime ?? false;
  const unreadableFolders: FileSystemScanResult['unreadableFolders'] = [];
  const skippedFiles: ScanProblem[] = [];

  let rootStat: Stats;
  try {
    rootStat = await stat(rootPath);
  } catch (e) {
    throw new DirectoryNotAccessibleError(rootPath, errorCode(e));
  }
  if (!rootStat.isDirectory()) throw new DirectoryNotAccessibleError(rootPath, 'ENOTDIR');
  let realRoot: string;
  try {
    realRoot = await realpath(rootPath);
  } catch (e) {
    throw new DirectoryNotAccessibleError(rootPath, errorCode(e));
  }
  const linksOutsideRoot: FileSystemScanResult['linksOutsideRoot'] = [];

  const isExcluded = (dirPath: string): boolean => {
    if (exclusions.length === 0) return false;
    const relative = dirPath.slice(rootPath.length).split(sep).join('/').toLowerCase();
    return exclusions.some((x) => relative.includes(x));
  };

  const statOrNull = async (path: string): Promise<Stats | null> => {
    try {
      return await stat(path);
    } catch (e) {
      skippedFiles.push({ path, code: errorCode(e) });
      return null;
    }
  };

  /** `ancestors`: dev:ino of the folders on the current branch, for link-cycle detection. */
  const visit = async (dirPath: string, dirStat: Stats, ancestors: ReadonlySet<string>): Promise<DirResult> => {
    const result: DirResult = { series: [], sidecars: [] };
    let entries: Dirent[];
    try {
      entries = await readdir(dirPath);
    } catch (e) {
      if (dirPath === rootPath) throw new DirectoryNotAccessibleError(rootPath, errorCode(e));
      unreadableFolders.push({ path: dirPath, url: directoryUrl(dirPath), code: errorCode(e) });
      return result;
    }
    entries.sort(byName);

    const bookFiles: { name: string; path: string }[] = [];
    const sidecarFiles: { name: string; path: string }[] = [];
    const subdirs: { path: string; stat: Stats | null }[] = [];
    const links: Dirent[] = [];

    const classifyFile = (name: string, path: string) => {
      if (extensions.has(fileExtension(name))) bookFiles.push({ name, path });
      if (seriesSidecarType(name) !== null || isBookSidecarCandidate(name)) sidecarFiles.push({ name, path });
    };

    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dirPath, entry.name);
      if (entry.isDirectory()) subdirs.push({ path, stat: null });
      else if (entry.isFile()) classifyFile(entry.name, path);
      else if (entry.isSymbolicLink()) links.push(entry);
      // sockets, FIFOs, devices: never books
    }

    // Symbolic links are followed when their real path is inside the root: one stat tells whether the
    // target is a folder or a file. A broken link is skipped (Komga: "a symlink as seen after following").
    const linkStats = await Promise.all(
      links.map(async (l) => {
        const path = join(dirPath, l.name);
        const s = await statOrNull(path);
        if (!s) return null;
        const target = await realpath(path).catch(() => null);
        if (target === null || !isInside(realRoot, target)) {
          if (target !== null) linksOutsideRoot.push({ path, target });
          return null;
        }
        return s;
      }),
    );
    const fileStats = new Map<string, Stats>();
    links.forEach((link, i) => {
      const s = linkStats[i];
      if (!s) return;
      const path = join(dirPath, link.name);
      if (s.isDirectory()) subdirs.push({ path, stat: s });
      else if (s.isFile()) {
        fileStats.set(path, s);
        classifyFile(link.name, path);
      }
    });
    bookFiles.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    sidecarFiles.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    subdirs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

    // Sub-folders are walked concurrently; their results are concatenated in name order below.
    const childPromises = subdirs
      .filter((d) => !isExcluded(d.path))
      .map(async (d): Promise<DirResult> => {
        const s = d.stat ?? (await statOrNull(d.path));
        if (!s || !s.isDirectory()) return { series: [], sidecars: [] };
        const id = `${s.dev}:${s.ino}`;
        if (ancestors.has(id)) {
          unreadableFolders.push({ path: d.path, url: directoryUrl(d.path), code: 'LOOP' });
          return { series: [], sidecars: [] };
        }
        return visit(d.path, s, new Set(ancestors).add(id));
      });

    if (bookFiles.length > 0) {
      const needStat = [...bookFiles, ...sidecarFiles].filter((f) => !fileStats.has(f.path));
      const stats = await Promise.all(needStat.map((f) => statOrNull(f.path)));
      needStat.forEach((f, i) => {
        const s = stats[i];
        if (s) fileStats.set(f.path, s);
      });
      const oneshot = oneshots !== null && dirPath.toLowerCase().includes(oneshots);
      const books: ScannedBook[] = [];
      for (const f of bookFiles) {
        const s = fileStats.get(f.path);
        if (!s || !s.isFile()) continue;
        books.push({
          name: bookNameFromFileName(f.name),
          url: fileUrl(f.path),
          path: f.path,
          fileSize: s.size,
          fileLastModified: updatedTime(s, includeChangeTime),
          oneshot,
        });
      }

      if (books.length > 0) {
        const sidecarOf = (
          f: { name: string; path: string },
          parentUrl: string,
          type: SidecarType,
          source: SidecarSource,
        ) => {
          const s = fileStats.get(f.path);
          if (!s || !s.isFile()) return;
          result.sidecars.push({
            url: fileUrl(f.path),
            path: f.path,
            parentUrl,
            fileLastModified: updatedTime(s, includeChangeTime),
            type,
            source,
          });
        };

        if (oneshot) {
          for (const b of books) {
            result.series.push({
              name: b.name,
              url: b.url,
              path: b.path,
              fileLastModified: b.fileLastModified,
              oneshot: true,
              books: [b],
            });
          }
        } else {
          const url = directoryUrl(dirPath);
          result.series.push({
            name: seriesNameFromFolder(dirPath),
            url,
            path: dirPath,
            fileLastModified: seriesLastModified(
              updatedTime(dirStat, includeChangeTime),
              books.map((b) => b.fileLastModified),
              options.scanForceModifiedTime,
            ),
            oneshot: false,
            books,
          });
          for (const f of sidecarFiles) {
            const type = seriesSidecarType(f.name);
            if (type) sidecarOf(f, url, type, 'SERIES');
          }
        }

        // Book artwork: once attached to a book, a file leaves the pool for the other books (§2.3).
        const pool = sidecarFiles.filter((f) => isBookSidecarCandidate(f.name));
        for (const b of books) {
          const matches = bookSidecarMatcher(b.name);
          for (let i = 0; i < pool.length;) {
            const f = pool[i]!;
            if (matches(f.name)) {
              sidecarOf(f, b.url, 'ARTWORK', 'BOOK');
              pool.splice(i, 1);
            } else i++;
          }
        }
      }
    }

    for (const child of await Promise.all(childPromises)) {
      result.series.push(...child.series);
      result.sidecars.push(...child.sidecars);
    }
    return result;
  };

  const walked = await visit(rootPath, rootStat, new Set([`${rootStat.dev}:${rootStat.ino}`]));
  unreadableFolders.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  skippedFiles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  linksOutsideRoot.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { series: walked.series, sidecars: walked.sidecars, unreadableFolders, skippedFiles, linksOutsideRoot };
}

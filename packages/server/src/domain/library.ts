/**
 * Libraries: options with Komga's defaults, the enums the scanner needs, and the small pure rules
 * around them (engine.md §1.2, §1.4, §2.1, §2.3, §2.9). The defaults are shared with the web client
 * through `@quire/api/constants`, an entry without dependencies.
 */
import {
  LIBRARY_OPTION_DEFAULTS,
  SCAN_INTERVALS,
  SERIES_COVERS,
  SUGGESTED_DIRECTORY_EXCLUSIONS,
} from '@quire/api/constants';

export { SCAN_INTERVALS, SERIES_COVERS, SUGGESTED_DIRECTORY_EXCLUSIONS };
export type ScanInterval = (typeof SCAN_INTERVALS)[number];

const HOUR = 3_600_000;
/** Period of the fixed-rate scan timer (§2.9); null = no timer. */
export const SCAN_INTERVAL_MS: Readonly<Record<ScanInterval, number | null>> = {
  DISABLED: null,
  HOURLY: HOUR,
  EVERY_6H: 6 * HOUR,
  EVERY_12H: 12 * HOUR,
  DAILY: 24 * HOUR,
  WEEKLY: 7 * 24 * HOUR,
};

export type SeriesCover = (typeof SERIES_COVERS)[number];

/** Every option of a library (§1.2), same names as Komga's `LibraryDto`. */
export interface LibraryOptions {
  importComicInfoBook: boolean;
  importComicInfoSeries: boolean;
  importComicInfoCollection: boolean;
  importComicInfoReadList: boolean;
  importComicInfoSeriesAppendVolume: boolean;
  importEpubBook: boolean;
  importEpubSeries: boolean;
  importMylarSeries: boolean;
  importLocalArtwork: boolean;
  importBarcodeIsbn: boolean;
  scanForceModifiedTime: boolean;
  scanOnStartup: boolean;
  scanInterval: ScanInterval;
  scanCbx: boolean;
  scanPdf: boolean;
  scanEpub: boolean;
  /** Case-insensitive substrings; a directory whose path contains one is skipped with its subtree. */
  scanDirectoryExclusions: string[];
  repairExtensions: boolean;
  convertToCbz: boolean;
  emptyTrashAfterScan: boolean;
  seriesCover: SeriesCover;
  hashFiles: boolean;
  hashPages: boolean;
  hashKoreader: boolean;
  analyzeDimensions: boolean;
  /** Case-insensitive substring of a folder path whose books are one-shots; never blank (blank → null). */
  oneshotsDirectory: string | null;
}

export interface Library extends LibraryOptions {
  id: string;
  name: string;
  /** Absolute path of the root folder. */
  root: string;
  /** Set when the root was not accessible during a scan; cleared by a successful walk. */
  unavailableDate: Date | null;
}

/** Komga's defaults (§1.2). The API default for exclusions is the empty set. */
export const DEFAULT_LIBRARY_OPTIONS: Readonly<LibraryOptions> = Object.freeze({
  ...LIBRARY_OPTION_DEFAULTS,
  oneshotsDirectory: null,
} satisfies LibraryOptions);

/** Blank (empty or whitespace) → null, as Komga's `oneshotsDirectory?.ifBlank { null }`. */
export function normalizeOneshotsDirectory(value: string | null | undefined): string | null {
  if (value == null || value.trim() === '') return null;
  return value;
}

/** Options from a partial input, filling Komga's defaults and normalising (fresh arrays, blank → null). */
export function libraryOptions(partial: Partial<LibraryOptions> = {}): LibraryOptions {
  const merged: LibraryOptions = { ...DEFAULT_LIBRARY_OPTIONS, ...partial };
  return {
    ...merged,
    scanDirectoryExclusions: [...new Set(merged.scanDirectoryExclusions)],
    oneshotsDirectory: normalizeOneshotsDirectory(merged.oneshotsDirectory),
  };
}

/**
 * Book file extensions per scan flag (§2.1), lower case. Quire reads 7z and TAR archives too, so
 * `scanCbx` also collects `cb7, 7z, cbt, tar` (Komga collects only `cbz, zip, cbr, rar`).
 */
export const CBX_EXTENSIONS: readonly string[] = ['cbz', 'zip', 'cbr', 'rar', 'cb7', '7z', 'cbt', 'tar'];
export const PDF_EXTENSIONS: readonly string[] = ['pdf'];
export const EPUB_EXTENSIONS: readonly string[] = ['epub'];

/** The set of lower-case extensions a library collects as books. */
export function bookExtensions(opts: Pick<LibraryOptions, 'scanCbx' | 'scanPdf' | 'scanEpub'>): Set<string> {
  const out = new Set<string>();
  if (opts.scanCbx) CBX_EXTENSIONS.forEach((e) => out.add(e));
  if (opts.scanPdf) PDF_EXTENSIONS.forEach((e) => out.add(e));
  if (opts.scanEpub) EPUB_EXTENSIONS.forEach((e) => out.add(e));
  return out;
}

/** The last extension of a file name, lower-cased, without the dot ('' when none). */
export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** Sidecars (§2.3). */
export const SIDECAR_TYPES = ['ARTWORK', 'METADATA'] as const;
export type SidecarType = (typeof SIDECAR_TYPES)[number];
export const SIDECAR_SOURCES = ['SERIES', 'BOOK'] as const;
export type SidecarSource = (typeof SIDECAR_SOURCES)[number];

export const ARTWORK_EXTENSIONS: readonly string[] = ['png', 'jpeg', 'jpg', 'tbn', 'webp', 'gif'];
export const SERIES_ARTWORK_NAMES: readonly string[] = ['cover', 'default', 'folder', 'poster', 'series'];
export const MYLAR_SERIES_FILE = 'series.json';

/**
 * Series sidecar by exact file name, case-insensitive (§2.3):
 * `{cover,default,folder,poster,series}.{png,jpeg,jpg,tbn,webp,gif}` → ARTWORK, `series.json` → METADATA.
 */
export function seriesSidecarType(fileName: string): SidecarType | null {
  const lower = fileName.toLowerCase();
  if (lower === MYLAR_SERIES_FILE) return 'METADATA';
  const dot = lower.lastIndexOf('.');
  if (dot < 0) return null;
  return SERIES_ARTWORK_NAMES.includes(lower.slice(0, dot)) && ARTWORK_EXTENSIONS.includes(lower.slice(dot + 1))
    ? 'ARTWORK'
    : null;
}

/** The book-sidecar prefilter `.*(-\d+)?\.(png|jpeg|jpg|tbn|webp|gif)`, case-insensitive (§2.3). */
export function isBookSidecarCandidate(fileName: string): boolean {
  return ARTWORK_EXTENSIONS.includes(fileExtension(fileName));
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether an artwork file belongs to a book (§2.3): its base name (minus last extension) is the book
 * name, optionally followed by `-<digits>`, case-insensitively (`Book 1.jpg`, `book 1-2.PNG`).
 */
export function bookSidecarMatcher(bookName: string): (fileName: string) => boolean {
  const re = new RegExp(`^${escapeRegExp(bookName)}(-\\d+)?$`, 'i');
  return (fileName) => {
    const dot = fileName.lastIndexOf('.');
    return re.test(dot < 0 ? fileName : fileName.slice(0, dot));
  };
}

/** Options whose change makes a library update trigger a scan (§2.9). */
export const SCAN_TRIGGERING_OPTIONS = [
  'oneshotsDirectory',
  'scanCbx',
  'scanPdf',
  'scanEpub',
  'scanForceModifiedTime',
  'scanDirectoryExclusions',
] as const satisfies readonly (keyof LibraryOptions)[];

/** Whether updating a library from `before` to `after` must enqueue a scan (§2.9). */
export function libraryUpdateNeedsScan(
  before: Pick<Library, 'root'> & LibraryOptions,
  after: Pick<Library, 'root'> & LibraryOptions,
): boolean {
  if (before.root !== after.root) return true;
  for (const key of SCAN_TRIGGERING_OPTIONS) {
    if (key === 'scanDirectoryExclusions') {
      const a = new Set(before.scanDirectoryExclusions);
      const b = new Set(after.scanDirectoryExclusions);
      if (a.size !== b.size || [...a].some((x) => !b.has(x))) return true;
    } else if (before[key] !== after[key]) return true;
  }
  return false;
}

/**
 * Whether two library roots clash: one is the other or inside it, compared component-wise like
 * `Path.startsWith` (`/comics2` does not clash with `/comics`) (§1.2). Paths must be absolute.
 */
export function rootsOverlap(a: string, b: string): boolean {
  const parts = (p: string) => p.split('/').filter((x) => x !== '' && x !== '.');
  const pa = parts(a);
  const pb = parts(b);
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) if (pa[i] !== pb[i]) return false;
  return true;
}

/** Series time (§2.2): the folder's time, or with `scanForceModifiedTime` the later of it and its newest book. */
export function seriesLastModified(folderTime: number, bookTimes: readonly number[], force: boolean): number {
  if (!force) return folderTime;
  let t = folderTime;
  for (const b of bookTimes) if (b > t) t = b;
  return t;
}

/**
 * Folders a library may not be rooted at or in: kernel, device and runtime trees (a walk of them never ends, or
 * reads devices) and boot files. Komga accepts any folder; a library rooted at `/` made every request wait.
 */
export const SYSTEM_FOLDERS: readonly string[] = ['/proc', '/sys', '/dev', '/run', '/boot'];

/**
 * Why a library root is refused (the message of a 400), or null when it is acceptable. Both paths are real paths
 * (links resolved). Refused: the file system's root, a system folder or anything in it, and Quire's data folder,
 * anything in it, or any folder that contains it (a scan would read the database and posters as they change).
 */
export function refusedRootReason(root: string, dataDir: string): string | null {
  if (root === '/') return 'The file system root cannot be a library root';
  // Only `/` contains a system folder, so an overlap means the root is one or is inside one.
  const system = SYSTEM_FOLDERS.find((f) => rootsOverlap(f, root));
  if (system) return `${system} is a system folder: it cannot hold a library`;
  if (rootsOverlap(root, dataDir)) return `A library root cannot be in or around Quire's data folder (${dataDir})`;
  return null;
}

export interface SidecarRecord {
  url: string;
  parentUrl: string;
  libraryId: string;
  /** Epoch milliseconds. */
  lastModified: number;
}

/**
 * The contract's values without TypeBox: error codes, library defaults and the enums screens list. This entry
 * (`@quire/api/constants`) imports nothing, so the web client and the server's `domain/` can import its values
 * while the schemas stay out of the browser bundle (checked by `scripts/web-bundle.test.ts`).
 */
export * from './errors.js';
export * from './library-defaults.js';

export const SERIES_STATUSES = ['ENDED', 'ONGOING', 'ABANDONED', 'HIATUS'] as const;
export type SeriesStatus = (typeof SERIES_STATUSES)[number];
export const READING_DIRECTIONS = ['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT', 'VERTICAL', 'WEBTOON'] as const;
export type ReadingDirection = (typeof READING_DIRECTIONS)[number];

/** Event types of the history (spec.md §3, engine.md §11.5). */
export const HISTORICAL_EVENT_TYPES = [
  'BookConverted',
  'BookFileDeleted',
  'BookImported',
  'DuplicatePageDeleted',
  'SeriesFolderDeleted',
] as const;
export type HistoricalEventType = (typeof HISTORICAL_EVENT_TYPES)[number];

/** Largest poster upload accepted; bigger files are refused with 400. */
export const MAX_THUMBNAIL_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Largest ComicRack list the read-list import accepts (spec.md §5; the web client flags a bigger file before
 * uploading, the server refuses it with 400 without reading past the limit). The largest real lists are ~150 KiB.
 */
export const MAX_READ_LIST_IMPORT_BYTES = 10 * 1024 * 1024;

/**
 * How an imported book's file reaches its series folder (api.md §4.1 `BookImportBatchDto`): moved, copied, or
 * hard-linked (copied when the link cannot be made, e.g. across file systems).
 */
export const COPY_MODES = ['MOVE', 'COPY', 'HARDLINK'] as const;
export type CopyMode = (typeof COPY_MODES)[number];

/** What an administrator decided for a duplicate page (engine.md §5.4). */
export const PAGE_HASH_ACTIONS = ['DELETE_AUTO', 'DELETE_MANUAL', 'IGNORE'] as const;
export type PageHashAction = (typeof PAGE_HASH_ACTIONS)[number];
/** Default page size of the new-duplicates list (spec.md §9). */
export const NEW_DUPLICATES_PAGE_SIZE = 10;

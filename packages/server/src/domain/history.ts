import type { HistoricalEventType } from '@quire/api/constants';
import type { ContentViewer } from './restrictions.js';

export type { HistoricalEventType };

/**
 * Historical events (spec.md §3, engine.md §11.5): what happened to files on disk, kept after the book or series
 * is gone. `properties` is a string map whose keys are the reference's own (`name`, `former file`, `page number`…),
 * since clients show them as they are.
 */
export interface HistoricalEvent {
  id: string;
  type: HistoricalEventType;
  bookId: string | null;
  seriesId: string | null;
  /**
   * The library of the book or series: a restricted user's history is narrowed by library sharing even after the
   * series is gone (Komga does not record it; it shows history to admins only).
   */
  libraryId: string | null;
  /** ISO-8601 UTC with milliseconds. */
  timestamp: string;
  properties: Record<string, string>;
}

/** An event to record; the recorder gives it its id and time. */
export type NewHistoricalEvent = Omit<HistoricalEvent, 'id' | 'timestamp'>;

export const HISTORY_SORT_PROPERTIES = ['type', 'bookId', 'seriesId', 'timestamp'] as const;
export type HistorySortProperty = (typeof HISTORY_SORT_PROPERTIES)[number];

export interface HistoryPageRequest {
  /** Only what this viewer may see (library sharing, age rating, labels); everything when absent. */
  viewer?: ContentViewer;
  /** Only these types; every type when absent or empty. */
  types?: readonly HistoricalEventType[];
  sort: { property: HistorySortProperty; descending: boolean }[];
  offset: number;
  limit: number;
}

/** Where historical events are kept (db/repositories/history.ts). */
export interface HistoryRepository {
  insert(event: HistoricalEvent): Promise<void>;
  page(request: HistoryPageRequest): Promise<{ events: HistoricalEvent[]; total: number }>;
}

/** Reasons and property names as the reference records them (engine.md §11.5, §12.4). */
export const DELETION_REASONS = {
  byUser: 'File was deleted by user request',
  afterConversion: 'File was deleted after conversion to CBZ',
  emptyFolder: 'Folder was deleted because it was empty',
  upgradedByImport: 'File was deleted to import an upgrade',
} as const;

interface BookRef {
  bookId: string;
  seriesId: string;
  libraryId: string;
}

/** The book's file was removed from disk: `name` is its path. */
export const bookFileDeleted = (book: BookRef, path: string, reason: string): NewHistoricalEvent => ({
  type: 'BookFileDeleted',
  ...book,
  properties: { reason, name: path },
});

/** A series' folder was removed because nothing was left in it: `name` is its path. */
export const seriesFolderDeleted = (
  series: { seriesId: string; libraryId: string },
  path: string,
  reason: string = DELETION_REASONS.emptyFolder,
): NewHistoricalEvent => ({
  type: 'SeriesFolderDeleted',
  bookId: null,
  ...series,
  properties: { reason, name: path },
});

/** A book's file was rewritten as a CBZ: `name` is the new path, `former file` the old one. */
export const bookConverted = (book: BookRef, path: string, formerPath: string): NewHistoricalEvent => ({
  type: 'BookConverted',
  ...book,
  properties: { name: path, 'former file': formerPath },
});

/** A file was imported into a series (the imports issue records it). */
export const bookImported = (book: BookRef, path: string, source: string, upgrade: boolean): NewHistoricalEvent => ({
  type: 'BookImported',
  ...book,
  properties: { name: path, source, upgrade: upgrade ? 'Yes' : 'No' },
});

/** One page removed from a book because its hash was marked for deletion. */
export const duplicatePageDeleted = (
  book: BookRef,
  path: string,
  page: { number: number; fileName: string; fileHash: string; fileSize: number | null; mediaType: string },
): NewHistoricalEvent => ({
  type: 'DuplicatePageDeleted',
  ...book,
  properties: {
    name: path,
    'page number': String(page.number),
    'page file name': page.fileName,
    'page file hash': page.fileHash,
    'page file size': page.fileSize === null ? '' : String(page.fileSize),
    'page media type': page.mediaType,
  },
});

import type { CopyMode } from '@quire/api/constants';
import type { PageToRemove } from '../domain/page-hashes.js';

/**
 * Task definitions (engine.md §8, appendix B): plain data, one variant per Komga task type that Quire queues
 * (Komga's others arrive with the issue that queues them; a stored row of
 * a kind this version lacks is dropped by the queue). The `kind` is Komga's simple type name, which is also the
 * `countByType` key of the SSE `TaskQueueStatus` event and the `type` tag of the task metrics (api.md §6, §9.1).
 *
 * Every variant has a unique id (the dedup key: submitting the same id again updates the queued task)
 * and, when it touches one series' books in an order-sensitive way, a group id (the series id): tasks of
 * one group never run concurrently.
 */

/** Komga's priorities; derived tasks use `p + 1` / `p - 1` and may go outside 0..8 (§8.1). */
export const PRIORITY = { HIGHEST: 8, HIGH: 6, DEFAULT: 4, LOW: 2, LOWEST: 0 } as const;
export type Priority = number;

/** Which metadata fields a book refresh may import (engine.md §1.4). */
export const BOOK_METADATA_PATCH_CAPABILITIES = [
  'TITLE',
  'SUMMARY',
  'NUMBER',
  'NUMBER_SORT',
  'RELEASE_DATE',
  'AUTHORS',
  'TAGS',
  'ISBN',
  'READ_LISTS',
  'THUMBNAILS',
  'LINKS',
] as const;
export type BookMetadataPatchCapability = (typeof BOOK_METADATA_PATCH_CAPABILITIES)[number];

export type Task =
  | { kind: 'ScanLibrary'; libraryId: string; deep: boolean }
  | { kind: 'FindBooksToConvert'; libraryId: string }
  | { kind: 'FindBooksWithMissingPageHash'; libraryId: string }
  | { kind: 'FindDuplicatePagesToDelete'; libraryId: string }
  | { kind: 'EmptyTrash'; libraryId: string }
  | { kind: 'AnalyzeBook'; bookId: string; seriesId: string }
  | { kind: 'GenerateBookThumbnail'; bookId: string }
  | {
      kind: 'RefreshBookMetadata';
      bookId: string;
      seriesId: string;
      capabilities: BookMetadataPatchCapability[];
      /**
       * Queued by an analysis in a library that searches barcodes: the queue holds it back while any analysis is
       * queued or running ({@link waitsForAnalyses}).
       */
      afterAnalyses?: boolean;
    }
  | { kind: 'HashBook'; bookId: string }
  | { kind: 'HashBookPages'; bookId: string }
  | { kind: 'HashBookKoreader'; bookId: string }
  | { kind: 'RefreshSeriesMetadata'; seriesId: string }
  | { kind: 'AggregateSeriesMetadata'; seriesId: string }
  | { kind: 'RefreshBookLocalArtwork'; bookId: string }
  | { kind: 'RefreshSeriesLocalArtwork'; seriesId: string }
  | {
      kind: 'ImportBook';
      sourceFile: string;
      seriesId: string;
      copyMode: CopyMode;
      destinationName: string | null;
      upgradeBookId: string | null;
    }
  | { kind: 'ConvertBook'; bookId: string; seriesId: string }
  | { kind: 'RepairExtension'; bookId: string; seriesId: string }
  | { kind: 'RemoveHashedPages'; bookId: string; seriesId: string; pages: PageToRemove[] }
  | { kind: 'DeleteBook'; bookId: string }
  | { kind: 'DeleteSeries'; seriesId: string }
  | { kind: 'FindBookThumbnailsToRegenerate'; forBiggerResultOnly: boolean };

export type TaskKind = Task['kind'];
export type TaskOf<K extends TaskKind> = Extract<Task, { kind: K }>;

interface Rule<K extends TaskKind> {
  uniqueId(task: TaskOf<K>): string;
  groupId?(task: TaskOf<K>): string;
}

/** Appendix B of engine.md, one line per kind; a kind without a rule does not compile. */
const RULES: { [K in TaskKind]: Rule<K> } = {
  ScanLibrary: { uniqueId: (t) => `SCAN_LIBRARY_${t.libraryId}_DEEP_${t.deep}` },
  FindBooksToConvert: { uniqueId: (t) => `FIND_BOOKS_TO_CONVERT_${t.libraryId}` },
  FindBooksWithMissingPageHash: { uniqueId: (t) => `FIND_BOOKS_WITH_MISSING_PAGE_HASH_${t.libraryId}` },
  FindDuplicatePagesToDelete: { uniqueId: (t) => `FIND_DUPLICATE_PAGES_TO_DELETE_${t.libraryId}` },
  EmptyTrash: { uniqueId: (t) => `EMPTY_TRASH_${t.libraryId}` },
  AnalyzeBook: { uniqueId: (t) => `ANALYZE_BOOK_${t.bookId}`, groupId: (t) => t.seriesId },
  GenerateBookThumbnail: { uniqueId: (t) => `GENERATE_BOOK_THUMBNAIL_${t.bookId}` },
  RefreshBookMetadata: { uniqueId: (t) => `REFRESH_BOOK_METADATA_${t.bookId}`, groupId: (t) => t.seriesId },
  HashBook: { uniqueId: (t) => `HASH_BOOK_${t.bookId}` },
  HashBookPages: { uniqueId: (t) => `HASH_BOOK_PAGES_${t.bookId}` },
  HashBookKoreader: { uniqueId: (t) => `HASH_BOOK_KOREADER_${t.bookId}` },
  RefreshSeriesMetadata: { uniqueId: (t) => `REFRESH_SERIES_METADATA_${t.seriesId}`, groupId: (t) => t.seriesId },
  AggregateSeriesMetadata: { uniqueId: (t) => `AGGREGATE_SERIES_METADATA_${t.seriesId}`, groupId: (t) => t.seriesId },
  RefreshBookLocalArtwork: { uniqueId: (t) => `REFRESH_BOOK_LOCAL_ARTWORK_${t.bookId}` },
  RefreshSeriesLocalArtwork: { uniqueId: (t) => `REFRESH_SERIES_LOCAL_ARTWORK_${t.seriesId}` },
  ImportBook: { uniqueId: (t) => `IMPORT_BOOK_${t.seriesId}_${t.sourceFile}`, groupId: (t) => t.seriesId },
  ConvertBook: { uniqueId: (t) => `CONVERT_BOOK_${t.bookId}`, groupId: (t) => t.seriesId },
  RepairExtension: { uniqueId: (t) => `REPAIR_EXTENSION_${t.bookId}`, groupId: (t) => t.seriesId },
  // Quire: the removed pages are part of the id, so that asking for a second page of a book while the first
  // removal waits queues both (Komga's id is the book's alone: the second request replaced the first). The
  // series group keeps them, and the book's analysis, from rewriting one file at the same time.
  RemoveHashedPages: {
    uniqueId: (t) =>
      `REMOVE_HASHED_PAGES_${t.bookId}_${t.pages
        .map((p) => `${p.hash}:${p.fileName}`)
        .sort()
        .join('|')}`,
    groupId: (t) => t.seriesId,
  },
  DeleteBook: { uniqueId: (t) => `DELETE_BOOK_${t.bookId}` },
  DeleteSeries: { uniqueId: (t) => `DELETE_SERIES_${t.seriesId}` },
  FindBookThumbnailsToRegenerate: { uniqueId: () => 'FIND_BOOK_THUMBNAILS_TO_REGENERATE' },
};

/** Every kind, in api.md §6's order. */
export const TASK_KINDS = Object.keys(RULES) as TaskKind[];

/** The rule of a task's own kind, seen through the union (the one cast of this file). */
const ruleOf = (task: Task) =>
  RULES[task.kind] as unknown as { uniqueId(task: Task): string; groupId?(task: Task): string };

/** The dedup key: two tasks with the same unique id are one queued task. */
export function uniqueIdOf(task: Task): string {
  return ruleOf(task).uniqueId(task);
}

/** The series id for tasks that must not run concurrently with others of the same series; else null. */
export function groupIdOf(task: Task): string | null {
  return ruleOf(task).groupId?.(task) ?? null;
}

/**
 * Whether the queue hands the task out only once no AnalyzeBook is queued or running, on any instance (issue 18):
 * the metadata refresh an analysis queues in a library that searches barcodes, whose search (the zxing thread, a
 * page's pixels) would otherwise run beside the last analyses of an import (their whole-file buffers and posters)
 * and make its peak memory. Its priority alone does not keep it after them: a runner that cannot take the next
 * analysis (its series' group is busy) takes the highest task it can, and that was such a refresh.
 */
export function waitsForAnalyses(task: Task): boolean {
  return task.kind === 'RefreshBookMetadata' && task.afterAnalyses === true;
}

export function isTaskKind(kind: string): kind is TaskKind {
  return Object.hasOwn(RULES, kind);
}

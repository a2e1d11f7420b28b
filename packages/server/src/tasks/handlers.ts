import { PRIORITY, TASK_KINDS, type Priority, type Task, type TaskKind, type TaskOf } from './definitions.js';
import type { BookAnalyzer } from '../library/book-analyzer.js';
import type { BookConverter } from '../library/book-converter.js';
import type { BookHasher } from '../library/book-hasher.js';
import type { LibraryScanner } from '../library/library-scanner.js';
import type { Trash } from '../library/trash.js';
import type { Thumbnails } from '../library/thumbnails.js';
import type { FileDeletion } from '../library/file-deletion.js';
import type { MetadataRefresh } from '../metadata/metadata-refresh.js';

/** What the worker pool logs through; a pino logger fits. */
export interface TaskLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Given to every handler: the priority it runs at and a way to queue follow-ups (engine.md §8.3). */
export interface TaskContext {
  /** Follow-ups use `priority + 1` or `priority - 1`, as in Komga's TaskHandler. */
  priority: Priority;
  submit(tasks: readonly Task[], priority: Priority): Promise<void>;
}

export type TaskHandler<K extends TaskKind> = (task: TaskOf<K>, ctx: TaskContext) => Promise<void>;

/** One handler per kind: a kind without a handler does not compile. */
export type Handlers = { [K in TaskKind]: TaskHandler<K> };

/** Runs `task` with its own handler: the one place where the union is narrowed to a kind. */
export function runTask(handlers: Handlers, task: Task, ctx: TaskContext): Promise<void> {
  const handler = handlers[task.kind] as (task: Task, ctx: TaskContext) => Promise<void>;
  return handler(task, ctx);
}

/** Handlers for the kinds given, `fallback` for the rest (tests, and wiring the engine kind by kind). */
export function completeHandlers(
  some: Partial<Handlers>,
  fallback: (task: Task, ctx: TaskContext) => Promise<void>,
): Handlers {
  const all = Object.fromEntries(TASK_KINDS.map((kind) => [kind, some[kind] ?? fallback]));
  return all as Handlers;
}

/**
 * The services the handlers call. Empty until the library engine lands: each service (scanner, book
 * lifecycle, thumbnails, metadata, hasher…) is added here and called from its handler below.
 */
export interface TaskServices {
  logger: TaskLogger;
  /** AnalyzeBook. */
  analyzer?: Pick<BookAnalyzer, 'analyzeAndPersist'>;
  /** HashBook, HashBookPages, HashBookKoreader, FindBooksWithMissingPageHash. */
  hasher?: Pick<BookHasher, 'hashBook' | 'hashBookPages' | 'hashBookKoreader' | 'booksWithMissingPageHashes'>;
  /** FindBooksToConvert, ConvertBook, RepairExtension. */
  converter?: Pick<BookConverter, 'booksToConvert' | 'convertToCbz' | 'repairExtension'>;
  /** ScanLibrary. */
  scanner?: Pick<LibraryScanner, 'scan'>;
  /** EmptyTrash. */
  trash?: Pick<Trash, 'empty'>;
  /** GenerateBookThumbnail, FindBookThumbnailsToRegenerate, Refresh{Book,Series}LocalArtwork. */
  thumbnails?: Pick<
    Thumbnails,
    'generateForBook' | 'booksToRegenerate' | 'refreshBookLocalArtwork' | 'refreshSeriesLocalArtwork'
  >;
  /** DeleteBook, DeleteSeries. */
  deletion?: Pick<FileDeletion, 'deleteBook' | 'deleteSeries'>;
  /** After ScanLibrary and EmptyTrash: empty collections and read lists go (engine.md §12.3). */
  collections?: { deleteEmptyAfterScan(): Promise<void> };
  /** RefreshBookMetadata, RefreshSeriesMetadata, AggregateSeriesMetadata. */
  metadata?: Pick<MetadataRefresh, 'refreshBook' | 'refreshSeries' | 'aggregateSeries'>;
}

/**
 * The handler table: from a task to a service call and its follow-up tasks (Komga's TaskHandler). Until a
 * kind's service exists its handler logs and completes, so a queued task is consumed, not stuck.
 */
export function createHandlers(services: TaskServices): Handlers {
  const notYet = async (task: Task) => {
    services.logger.warn({ task }, `No handler for ${task.kind} yet; task skipped`);
  };
  const some: Partial<Handlers> = {};
  const { scanner, trash } = services;
  if (scanner) {
    // engine.md §8.3: the scan queues its own refreshes; then analysis of new/changed books and hashing.
    some.ScanLibrary = async (task, ctx) => {
      const outcome = await scanner.scan(task.libraryId, task.deep);
      if (!outcome || outcome.unavailable) return;
      await ctx.submit(
        outcome.booksToAnalyze.map((b): Task => ({ kind: 'AnalyzeBook', bookId: b.id, seriesId: b.seriesId })),
        PRIORITY.DEFAULT,
      );
      await ctx.submit(
        outcome.booksToRepair.map((b): Task => ({ kind: 'RepairExtension', bookId: b.id, seriesId: b.seriesId })),
        PRIORITY.LOW,
      );
      const lowest: Task[] = [
        ...(outcome.convertToCbz ? [{ kind: 'FindBooksToConvert' as const, libraryId: task.libraryId }] : []),
        ...(outcome.hashPages ? [{ kind: 'FindBooksWithMissingPageHash' as const, libraryId: task.libraryId }] : []),
        ...outcome.booksToHash.map((bookId): Task => ({ kind: 'HashBook', bookId })),
        ...outcome.booksToHashKoreader.map((bookId): Task => ({ kind: 'HashBookKoreader', bookId })),
      ];
      await ctx.submit(lowest, PRIORITY.LOWEST);
      await services.collections?.deleteEmptyAfterScan();
    };
  }
  if (trash) {
    some.EmptyTrash = async (task) => {
      await trash.empty(task.libraryId);
      await services.collections?.deleteEmptyAfterScan();
    };
  }
  const { thumbnails } = services;
  if (thumbnails) {
    // engine.md §7.1, §8.3: regeneration queues one GenerateBookThumbnail per book at the same priority.
    some.GenerateBookThumbnail = async (task) => void (await thumbnails.generateForBook(task.bookId));
    some.FindBookThumbnailsToRegenerate = async (task, ctx) => {
      const bookIds = await thumbnails.booksToRegenerate(task.forBiggerResultOnly);
      await ctx.submit(
        bookIds.map((bookId): Task => ({ kind: 'GenerateBookThumbnail', bookId })),
        ctx.priority,
      );
    };
    some.RefreshBookLocalArtwork = (task) => thumbnails.refreshBookLocalArtwork(task.bookId);
    some.RefreshSeriesLocalArtwork = (task) => thumbnails.refreshSeriesLocalArtwork(task.seriesId);
  }
  const { analyzer, hasher } = services;
  if (analyzer) {
    // engine.md §4.5, §8.3: a READY book gets a metadata refresh and a thumbnail (and the extension repair or
    // conversion its library asks for) at priority - 1, where Komga uses + 1: every book of a scan becomes readable
    // before any metadata is read or poster drawn (docs/architecture.md, "Analysis first").
    some.AnalyzeBook = async (task, ctx) => {
      await ctx.submit(await analyzer.analyzeAndPersist(task.bookId), ctx.priority - 1);
    };
  }
  if (hasher) {
    some.HashBook = async (task) => void (await hasher.hashBook(task.bookId));
    some.HashBookPages = async (task) => void (await hasher.hashBookPages(task.bookId));
    some.HashBookKoreader = async (task) => void (await hasher.hashBookKoreader(task.bookId));
    some.FindBooksWithMissingPageHash = async (task, ctx) => {
      const books = await hasher.booksWithMissingPageHashes(task.libraryId);
      await ctx.submit(
        books.map((b): Task => ({ kind: 'HashBookPages', bookId: b.id })),
        ctx.priority + 1,
      );
    };
  }
  const { converter } = services;
  if (converter) {
    // engine.md §8.3: candidates are re-checked by ConvertBook itself.
    some.FindBooksToConvert = async (task, ctx) => {
      const books = await converter.booksToConvert(task.libraryId);
      await ctx.submit(
        books.map((b): Task => ({ kind: 'ConvertBook', bookId: b.id, seriesId: b.seriesId })),
        ctx.priority + 1,
      );
    };
    some.ConvertBook = async (task) => void (await converter.convertToCbz(task.bookId));
    some.RepairExtension = async (task) => void (await converter.repairExtension(task.bookId));
  }
  const { deletion } = services;
  if (deletion) {
    some.DeleteBook = (task) => deletion.deleteBook(task.bookId);
    some.DeleteSeries = (task) => deletion.deleteSeries(task.seriesId);
  }
  const { metadata } = services;
  if (metadata) {
    // engine.md §8.3: book → its series at priority - 1 → the series' aggregation at the same priority.
    some.RefreshBookMetadata = async (task, ctx) => {
      const refreshed = await metadata.refreshBook(task.bookId, task.capabilities);
      if (refreshed)
        await ctx.submit([{ kind: 'RefreshSeriesMetadata', seriesId: refreshed.seriesId }], ctx.priority - 1);
    };
    some.RefreshSeriesMetadata = async (task, ctx) => {
      if (await metadata.refreshSeries(task.seriesId))
        await ctx.submit([{ kind: 'AggregateSeriesMetadata', seriesId: task.seriesId }], ctx.priority);
    };
    some.AggregateSeriesMetadata = async (task) => void (await metadata.aggregateSeries(task.seriesId));
  }
  return completeHandlers(some, notYet);
}

import { PRIORITY, type Priority, type Task, type TaskKind, type TaskOf } from './definitions.js';
import type { TaskEmitter } from './emitter.js';
import type { BookAnalyzer } from '../library/book-analyzer.js';
import type { BookConverter } from '../library/book-converter.js';
import type { BookImporter } from '../library/book-importer.js';
import type { BookHasher } from '../library/book-hasher.js';
import type { LibraryScanner } from '../library/library-scanner.js';
import type { Trash } from '../library/trash.js';
import type { Thumbnails } from '../library/thumbnails.js';
import type { FileDeletion } from '../library/file-deletion.js';
import type { BookPageEditor } from '../library/book-page-editor.js';
import type { DuplicatePages } from '../library/duplicate-pages.js';
import type { MetadataRefresh } from '../metadata/metadata-refresh.js';

/** What the worker pool logs through; a pino logger fits. */
export interface TaskLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Given to every handler: the priority it runs at, and the emitter for its follow-ups (engine.md §8.3). */
export interface TaskContext extends TaskEmitter {
  /** Follow-ups use `priority + 1` or `priority - 1`, as in Komga's TaskHandler. */
  priority: Priority;
}

export type TaskHandler<K extends TaskKind> = (task: TaskOf<K>, ctx: TaskContext) => Promise<void>;

/** One handler per kind: a kind without a handler does not compile. */
export type Handlers = { [K in TaskKind]: TaskHandler<K> };

/** Runs `task` with its own handler: the one place where the union is narrowed to a kind. */
export function runTask(handlers: Handlers, task: Task, ctx: TaskContext): Promise<void> {
  const handler = handlers[task.kind] as (task: Task, ctx: TaskContext) => Promise<void>;
  return handler(task, ctx);
}

/**
 * The services the handlers call, every one required: the composition root cannot leave one out, so no queued
 * task can find its handler without the service it needs.
 */
export interface TaskServices {
  /** AnalyzeBook. */
  analyzer: Pick<BookAnalyzer, 'analyzeAndPersist'>;
  /** HashBook, HashBookPages, HashBookKoreader, FindBooksWithMissingPageHash. */
  hasher: Pick<BookHasher, 'hashBook' | 'hashBookPages' | 'hashBookKoreader' | 'booksWithMissingPageHashes'>;
  /** FindBooksToConvert, ConvertBook, RepairExtension. */
  converter: Pick<BookConverter, 'booksToConvert' | 'convertToCbz' | 'repairExtension'>;
  /** ScanLibrary. */
  scanner: Pick<LibraryScanner, 'scan'>;
  /** EmptyTrash. */
  trash: Pick<Trash, 'empty'>;
  /** GenerateBookThumbnail, FindBookThumbnailsToRegenerate, Refresh{Book,Series}LocalArtwork. */
  thumbnails: Pick<
    Thumbnails,
    'generateForBook' | 'booksToRegenerate' | 'refreshBookLocalArtwork' | 'refreshSeriesLocalArtwork'
  >;
  /** FindDuplicatePagesToDelete. */
  duplicatePages: Pick<DuplicatePages, 'autoDeletions'>;
  /** RemoveHashedPages. */
  pageEditor: Pick<BookPageEditor, 'removeHashedPages'>;
  /** ImportBook. */
  importer: Pick<BookImporter, 'importBook'>;
  /** DeleteBook, DeleteSeries. */
  deletion: Pick<FileDeletion, 'deleteBook' | 'deleteSeries'>;
  /** After ScanLibrary and EmptyTrash: empty collections and read lists go (engine.md §12.3). */
  collections: { deleteEmptyAfterScan(): Promise<void> };
  /** RefreshBookMetadata, RefreshSeriesMetadata, AggregateSeriesMetadata. */
  metadata: Pick<MetadataRefresh, 'refreshBook' | 'refreshSeries' | 'aggregateSeries'>;
}

/**
 * The handler table: from a task to a service call and its follow-up tasks (Komga's TaskHandler). Total by type:
 * a kind without a handler here, or a handler whose service is missing, does not compile.
 */
export function createHandlers(services: TaskServices): Handlers {
  const { analyzer, hasher, converter, scanner, trash, thumbnails, deletion, collections, metadata } = services;
  const { duplicatePages, pageEditor, importer } = services;
  return {
    // engine.md §8.3: the scan queues its own refreshes; then analysis of new/changed books and hashing.
    ScanLibrary: async (task, ctx) => {
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
        { kind: 'FindDuplicatePagesToDelete', libraryId: task.libraryId },
        ...outcome.booksToHash.map((bookId): Task => ({ kind: 'HashBook', bookId })),
        ...outcome.booksToHashKoreader.map((bookId): Task => ({ kind: 'HashBookKoreader', bookId })),
      ];
      await ctx.submit(lowest, PRIORITY.LOWEST);
      await collections.deleteEmptyAfterScan();
    },
    EmptyTrash: async (task) => {
      await trash.empty(task.libraryId);
      await collections.deleteEmptyAfterScan();
    },
    GenerateBookThumbnail: async (task) => void (await thumbnails.generateForBook(task.bookId)),
    // engine.md §7.1, §8.3: regeneration queues one GenerateBookThumbnail per book at the same priority.
    FindBookThumbnailsToRegenerate: async (task, ctx) => {
      const bookIds = await thumbnails.booksToRegenerate(task.forBiggerResultOnly);
      await ctx.submit(
        bookIds.map((bookId): Task => ({ kind: 'GenerateBookThumbnail', bookId })),
        ctx.priority,
      );
    },
    RefreshBookLocalArtwork: (task) => thumbnails.refreshBookLocalArtwork(task.bookId),
    RefreshSeriesLocalArtwork: (task) => thumbnails.refreshSeriesLocalArtwork(task.seriesId),
    // engine.md §4.5, §8.3: a READY book gets a thumbnail (and the extension repair or conversion its library asks
    // for) at priority - 1 and a metadata refresh at priority - 2, where Komga queues both at + 1: every book of a
    // scan becomes readable first, then gets its poster, then its metadata (ComicInfo, the barcode search that can
    // decode six pages a book); docs/architecture.md, "Analysis first". A ZIP's poster is made by the analysis
    // itself, from the first page it has just read (no GenerateBookThumbnail among the follow-ups then).
    AnalyzeBook: async (task, ctx) => {
      const next = await analyzer.analyzeAndPersist(task.bookId);
      await ctx.submit(
        next.filter((t) => t.kind !== 'RefreshBookMetadata'),
        ctx.priority - 1,
      );
      await ctx.submit(
        next.filter((t) => t.kind === 'RefreshBookMetadata'),
        ctx.priority - 2,
      );
    },
    HashBook: async (task) => void (await hasher.hashBook(task.bookId)),
    HashBookPages: async (task) => void (await hasher.hashBookPages(task.bookId)),
    HashBookKoreader: async (task) => void (await hasher.hashBookKoreader(task.bookId)),
    FindBooksWithMissingPageHash: async (task, ctx) => {
      const books = await hasher.booksWithMissingPageHashes(task.libraryId);
      await ctx.submit(
        books.map((b): Task => ({ kind: 'HashBookPages', bookId: b.id })),
        ctx.priority + 1,
      );
    },
    // engine.md §8.3: candidates are re-checked by ConvertBook itself.
    FindBooksToConvert: async (task, ctx) => {
      const books = await converter.booksToConvert(task.libraryId);
      await ctx.submit(
        books.map((b): Task => ({ kind: 'ConvertBook', bookId: b.id, seriesId: b.seriesId })),
        ctx.priority + 1,
      );
    },
    // The conversion blanks the book's hashes; they are asked for again for the new file, since the scan's hashing
    // may have run on the RAR before the conversion when the pool has several runners.
    ConvertBook: async (task, ctx) => {
      if (!(await converter.convertToCbz(task.bookId))) return;
      const { bookId } = task;
      await ctx.submit(
        [
          { kind: 'HashBook', bookId },
          { kind: 'HashBookKoreader', bookId },
          { kind: 'HashBookPages', bookId },
        ],
        PRIORITY.LOWEST,
      );
    },
    // engine.md §8.3: one removal per book at priority + 1; each asks for a new poster when page 1 went (+ 1).
    FindDuplicatePagesToDelete: async (task, ctx) => {
      await ctx.submit(await duplicatePages.autoDeletions(task.libraryId), ctx.priority + 1);
    },
    RemoveHashedPages: async (task, ctx) => {
      const outcome = await pageEditor.removeHashedPages(task.bookId, task.pages);
      await ctx.submit(outcome.next, ctx.priority + 1);
    },
    RepairExtension: async (task) => void (await converter.repairExtension(task.bookId)),
    // engine.md §8.3: the imported file is analysed next (p + 1), with the renumbering's refreshes.
    ImportBook: async (task, ctx) => {
      await ctx.submit(await importer.importBook(task), ctx.priority + 1);
    },
    DeleteBook: (task) => deletion.deleteBook(task.bookId),
    DeleteSeries: (task) => deletion.deleteSeries(task.seriesId),
    // engine.md §8.3: book → its series at priority - 1 → the series' aggregation at the same priority.
    RefreshBookMetadata: async (task, ctx) => {
      const refreshed = await metadata.refreshBook(task.bookId, task.capabilities);
      if (refreshed)
        await ctx.submit([{ kind: 'RefreshSeriesMetadata', seriesId: refreshed.seriesId }], ctx.priority - 1);
    },
    RefreshSeriesMetadata: async (task, ctx) => {
      if (await metadata.refreshSeries(task.seriesId))
        await ctx.submit([{ kind: 'AggregateSeriesMetadata', seriesId: task.seriesId }], ctx.priority);
    },
    AggregateSeriesMetadata: async (task) => void (await metadata.aggregateSeries(task.seriesId)),
  };
}

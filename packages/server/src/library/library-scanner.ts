/**
 * The ScanLibrary use case (engine.md §2.4–§2.8): walk the root, reconcile the walk with what the
 * database holds, persist the outcome, announce it, and say which books now need analysing/hashing.
 */
import { fileURLToPath } from 'node:url';
import type { QuireEvent } from '@quire/api';
import type {
  BookRepository,
  LibraryRepository,
  Repositories,
  SeriesRepository,
  SidecarRepository,
  UnitOfWork,
} from '../domain/ports.js';
import { reconcileLibrary, type SnapshotBook, type SnapshotSeries } from '../domain/changes.js';
import { initialBookMetadata, numberBooks } from '../domain/book-numbering.js';
import { initialSeriesMetadata, restoredBookTitle, restoredSeriesTitles } from '../domain/series-title.js';
import { newId } from '../domain/ids.js';
import type { Library, SidecarSource } from '../domain/library.js';
import type { EventBus } from '../events/bus.js';
import { CANONICAL_EXTENSIONS } from '../media/detect.js';
import { PRIORITY, type Task } from '../tasks/definitions.js';
import type { TaskEmitter } from '../tasks/emitter.js';
import { DirectoryNotAccessibleError, scanLibraryFolder } from './file-system-scanner.js';

export interface ScanLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface LibraryScannerDeps {
  uow: UnitOfWork;
  libraries: LibraryRepository;
  series: SeriesRepository;
  books: BookRepository;
  sidecars: SidecarRepository;
  events: EventBus;
  /** Where the scan's own follow-ups go (refreshes after renumbering, restores and sidecar changes, DEFAULT). */
  tasks: TaskEmitter;
  /** File hash of an absolute path (media/hash.ts `hashFile`). */
  hashFile(path: string): Promise<string>;
  /** Hard-deletes the library's trash; called at the end of a scan when `emptyTrashAfterScan`. */
  emptyTrash(libraryId: string): Promise<unknown>;
  logger: ScanLogger;
  now?: () => Date;
}

export interface ScanOutcome {
  libraryId: string;
  /** The root could not be read: nothing was touched, `unavailableDate` is set. */
  unavailable: boolean;
  seriesAdded: number;
  seriesDeleted: number;
  booksAdded: number;
  booksChanged: number;
  booksDeleted: number;
  booksRestored: number;
  /** Live books whose media is UNKNOWN or OUTDATED after the scan: queue AnalyzeBook for them. */
  booksToAnalyze: { id: string; seriesId: string }[];
  /** Live books without a file hash: queue HashBook for them when the library has `hashFiles`. */
  booksToHash: string[];
  /** Live books without a KOReader hash, when the library has `hashKoreader`: queue HashBookKoreader. */
  booksToHashKoreader: string[];
  /** Live books whose extension does not match their type, when the library has `repairExtensions`. */
  booksToRepair: { id: string; seriesId: string }[];
  /** The library has `convertToCbz`: queue FindBooksToConvert. */
  convertToCbz: boolean;
  /** The library has `hashPages`: queue FindBooksWithMissingPageHash. */
  hashPages: boolean;
}

const toSnapshotSeries = (s: { id: string; url: string; fileLastModified: number; deletedDate: Date | null }) =>
  ({ id: s.id, url: s.url, fileLastModified: s.fileLastModified, deletedDate: s.deletedDate }) satisfies SnapshotSeries;
const toSnapshotBook = (b: SnapshotBook): SnapshotBook => ({
  id: b.id,
  seriesId: b.seriesId,
  url: b.url,
  fileSize: b.fileSize,
  fileLastModified: b.fileLastModified,
  fileHash: b.fileHash,
  deletedDate: b.deletedDate,
});

export class LibraryScanner {
  private readonly now: () => Date;

  constructor(private readonly d: LibraryScannerDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** Scans a library; undefined when it does not exist (any more). */
  async scan(libraryId: string, deep = false): Promise<ScanOutcome | undefined> {
    const { d } = this;
    const library = await d.libraries.find(libraryId);
    if (!library) return undefined;
    const outcome: ScanOutcome = {
      libraryId,
      unavailable: false,
      seriesAdded: 0,
      seriesDeleted: 0,
      booksAdded: 0,
      booksChanged: 0,
      booksDeleted: 0,
      booksRestored: 0,
      booksToAnalyze: [],
      booksToHash: [],
      booksToHashKoreader: [],
      booksToRepair: [],
      convertToCbz: false,
      hashPages: false,
    };
    const started = Date.now();

    let walk: Awaited<ReturnType<typeof scanLibraryFolder>>;
    try {
      walk = await scanLibraryFolder(library.root, library);
    } catch (err) {
      if (!(err instanceof DirectoryNotAccessibleError)) throw err;
      // §2.4.1: a missing mount deletes nothing.
      d.logger.warn({ libraryId, root: library.root, code: err.code }, 'Library root not accessible; scan skipped');
      await d.libraries.setUnavailable(libraryId, this.now());
      d.events.emit({ type: 'LibraryChanged', data: { libraryId } });
      return { ...outcome, unavailable: true };
    }
    for (const link of walk.linksOutsideRoot)
      d.logger.warn({ libraryId, ...link, root: library.root }, 'Skipped a link that leads out of the library root');
    if (library.unavailableDate) {
      await d.libraries.setUnavailable(libraryId, null);
      d.events.emit({ type: 'LibraryChanged', data: { libraryId } });
    }

    const [storedSeries, storedBooks, otherSeries, otherBooks] = await Promise.all([
      d.series.findByLibrary(libraryId),
      d.books.findByLibrary(libraryId),
      d.series.findDeletedOutside(libraryId),
      d.books.findDeletedOutside(libraryId),
    ]);
    const result = await reconcileLibrary({
      library: { series: storedSeries.map(toSnapshotSeries), books: storedBooks.map(toSnapshotBook) },
      otherLibrariesTrash: { series: otherSeries.map(toSnapshotSeries), books: otherBooks.map(toSnapshotBook) },
      walk: { series: walk.series, unreadableFolders: walk.unreadableFolders },
      deep,
      hash: (url) => d.hashFile(fileURLToPath(url)),
    });
    await nextTurn(); // the reconciliation of a big library is tens of milliseconds of work; so is what follows

    const events: QuireEvent[] = [];
    const followUps: Task[] = [];
    const seriesEvent = (type: 'SeriesAdded' | 'SeriesChanged', seriesId: string, libId = libraryId) =>
      events.push({ type, data: { seriesId, libraryId: libId } });
    const bookEvent = (type: 'BookAdded' | 'BookChanged', bookId: string, seriesId: string, libId = libraryId) =>
      events.push({ type, data: { bookId, seriesId, libraryId: libId } });
    const booksById = new Map([...storedBooks, ...otherBooks].map((b) => [b.id, b]));
    const seriesById = new Map([...storedSeries, ...otherSeries].map((s) => [s.id, s]));
    const oneshotByUrl = new Map(walk.series.flatMap((s) => s.books.map((b) => [b.url, b.oneshot] as const)));
    const now = this.now();
    const toSort = new Set(result.toSort);
    const missingSeries = new Set(result.series.missing);

    /** §2.4.5: sortBooks, then RefreshSeriesMetadata (queued once per series). */
    const refreshed = new Set<string>();
    /** Books this scan inserts: their media is UNKNOWN, so their analysis follows (findToAnalyze, below). */
    const newBooks = new Set<string>();
    const sortSeries = async (seriesId: string, tx: Repositories) => {
      const { books, bookCount } = numberBooks(await tx.books.numberingOf(seriesId));
      for (const b of books) {
        if (b.changed) await tx.books.setNumbers(b.id, b, now);
        // Not for a new book (issue 18): its NUMBER refresh would run before its analysis (same priority, queued
        // first) and find no READY media, a no-op, while the refresh its analysis queues asks for every capability.
        // On a new library these no-ops were one task per book between the scan and the first analysis, and each
        // moved its series' RefreshSeriesMetadata behind the analyses, where it read every ComicInfo.xml once more.
        if (b.refreshNumbers && !newBooks.has(b.id))
          followUps.push({
            kind: 'RefreshBookMetadata',
            bookId: b.id,
            seriesId,
            capabilities: ['NUMBER', 'NUMBER_SORT'],
          });
      }
      await tx.series.setBookCount(seriesId, bookCount, now);
      if (!refreshed.has(seriesId)) {
        refreshed.add(seriesId);
        followUps.push({ kind: 'RefreshSeriesMetadata', seriesId });
      }
    };

    // The outcome is written as many small units, each consistent on its own (a series with its books and
    // their numbering), committed a few at a time (see `inBatches`).
    const units: Unit[] = [];

    // §2.4.2–3: soft deletes first (a restore below may take a book or series from the trash just filled).
    const missingBooksBySeries = groupBy(result.books.missing, (id) => booksById.get(id)!.seriesId);
    const missingSeriesIds = result.series.missing;
    for (let i = 0; i < missingSeriesIds.length; i += MISSING_PER_UNIT) {
      const ids = missingSeriesIds.slice(i, i + MISSING_PER_UNIT);
      units.push(async (tx) => {
        await tx.series.softDelete(ids, now);
        await tx.books.softDelete(
          ids.flatMap((id) => missingBooksBySeries.get(id) ?? []),
          now,
        );
        for (const id of ids) {
          seriesEvent('SeriesChanged', id);
          for (const bookId of missingBooksBySeries.get(id) ?? []) bookEvent('BookChanged', bookId, id);
        }
      });
    }
    for (const [seriesId, bookIds] of missingBooksBySeries) {
      if (missingSeries.has(seriesId)) continue;
      units.push(async (tx) => {
        await tx.books.softDelete(bookIds, now);
        for (const id of bookIds) bookEvent('BookChanged', id, seriesId);
        await sortSeries(seriesId, tx);
      });
    }
    outcome.seriesDeleted = result.series.missing.length;
    outcome.booksDeleted = result.books.missing.length;

    // Then one unit per series: its new or taken-over row, changed time, changed and added books, numbering.
    const changedSeries = new Map(result.series.changed.map((c) => [c.id, c]));
    const changedBooks = groupBy(result.books.changed, (c) => c.seriesId);
    const addedToExisting = groupBy(
      result.books.added.filter((ab) => ab.seriesId !== null),
      (ab) => ab.seriesId!,
    );
    const addedToNew = groupBy(
      result.books.added.filter((ab) => ab.seriesId === null),
      (ab) => ab.seriesUrl,
    );

    const writeBooks = async (
      seriesId: string,
      changed: typeof result.books.changed,
      added: typeof result.books.added,
      tx: Repositories,
    ) => {
      // §2.5: changed books.
      for (const c of changed) {
        await tx.books.updateFile(c, now);
        bookEvent('BookChanged', c.id, c.seriesId);
        outcome.booksChanged++;
      }
      // New books, or deleted ones taken over (§2.7).
      const inserted: Parameters<BookRepository['insert']>[0][number][] = [];
      for (const ab of added) {
        const wb = ab.book;
        const base = {
          seriesId,
          libraryId,
          name: wb.name,
          url: wb.url,
          fileSize: wb.fileSize,
          fileLastModified: wb.fileLastModified,
          oneshot: oneshotByUrl.get(wb.url) ?? false,
        };
        if (ab.restoredFrom) {
          const old = ab.restoredFrom;
          const oldTitle = await tx.books.titleOf(old.id);
          const { title, refreshTitle } = restoredBookTitle(oldTitle ?? { title: wb.name, titleLock: false }, wb.name);
          await tx.books.revive(old.id, { ...base, fileHash: ab.fileHash || old.fileHash, title }, now);
          if (refreshTitle)
            followUps.push({ kind: 'RefreshBookMetadata', bookId: old.id, seriesId, capabilities: ['TITLE'] });
          const before = booksById.get(old.id);
          if (before && before.libraryId !== libraryId)
            events.push({
              type: 'BookDeleted',
              data: { bookId: old.id, seriesId: before.seriesId, libraryId: before.libraryId },
            });
          // The series it left is renumbered in the same transaction.
          if (before && before.seriesId !== seriesId && seriesById.get(before.seriesId)?.libraryId === libraryId)
            await sortSeries(before.seriesId, tx);
          bookEvent(before?.libraryId === libraryId ? 'BookChanged' : 'BookAdded', old.id, seriesId);
          outcome.booksRestored++;
        } else {
          const id = newId();
          inserted.push({ id, ...base, fileHash: ab.fileHash, ...initialBookMetadata(wb.name) });
          newBooks.add(id);
          bookEvent('BookAdded', id, seriesId);
          outcome.booksAdded++;
        }
      }
      await tx.books.insert(inserted, now);
      await sortSeries(seriesId, tx);
    };

    // New series, or a deleted one taken over (§2.7), with their books.
    for (const added of result.series.added) {
      const ws = added.series;
      units.push(async (tx) => {
        const base = {
          libraryId,
          name: ws.name,
          url: ws.url,
          fileLastModified: ws.fileLastModified,
          oneshot: ws.oneshot,
        };
        let seriesId: string;
        if (added.restoredFrom) {
          seriesId = added.restoredFrom.id;
          const old = await tx.series.titles(seriesId);
          const titles = old ? restoredSeriesTitles(old, ws.name) : initialSeriesMetadata(ws.name);
          await tx.series.revive(seriesId, { ...base, ...titles }, now);
          seriesEvent('SeriesChanged', seriesId);
          const from = seriesById.get(seriesId);
          if (from && from.libraryId !== libraryId)
            events.push({ type: 'SeriesDeleted', data: { seriesId, libraryId: from.libraryId } });
        } else {
          seriesId = newId();
          await tx.series.insert([{ id: seriesId, ...base, ...initialSeriesMetadata(ws.name) }], now);
          seriesEvent('SeriesAdded', seriesId);
          outcome.seriesAdded++;
        }
        await writeBooks(seriesId, [], addedToNew.get(ws.url) ?? [], tx);
      });
    }

    // Existing series: §2.4.4 changed time, changed and added books, numbering.
    const existing = new Set([...changedSeries.keys(), ...changedBooks.keys(), ...addedToExisting.keys(), ...toSort]);
    for (const seriesId of existing) {
      if (missingSeries.has(seriesId)) continue;
      units.push(async (tx) => {
        const c = changedSeries.get(seriesId);
        if (c) {
          if (c.timeChanged) await tx.series.updateFileLastModified(c.id, c.fileLastModified, now);
          seriesEvent('SeriesChanged', c.id);
        }
        await writeBooks(seriesId, changedBooks.get(seriesId) ?? [], addedToExisting.get(seriesId) ?? [], tx);
      });
    }

    // Events and follow-ups leave with each committed batch: clients see a big scan fill in as it goes.
    await inBatches(d.uow, units, async () => {
      for (const e of dedupe(events.splice(0))) d.events.emit(e);
      await d.tasks.submit(followUps.splice(0), PRIORITY.DEFAULT);
    });

    await d.tasks.submit(await this.sidecars(library, walk.sidecars), PRIORITY.DEFAULT);

    if (library.emptyTrashAfterScan) await d.emptyTrash(libraryId);

    outcome.booksToAnalyze = await d.books.findToAnalyze(libraryId);
    outcome.booksToHash = library.hashFiles ? await d.books.findUnhashed(libraryId) : [];
    outcome.booksToHashKoreader = library.hashKoreader ? await d.books.findWithoutKoreaderHash(libraryId) : [];
    outcome.booksToRepair = library.repairExtensions
      ? await d.books.findWithWrongExtension(libraryId, CANONICAL_EXTENSIONS)
      : [];
    outcome.convertToCbz = library.convertToCbz;
    outcome.hashPages = library.hashPages;
    d.logger.info(
      {
        deep,
        ms: Date.now() - started,
        ...outcome,
        booksToAnalyze: outcome.booksToAnalyze.length,
        booksToHash: outcome.booksToHash.length,
        booksToHashKoreader: outcome.booksToHashKoreader.length,
        booksToRepair: outcome.booksToRepair.length,
      },
      'Library scanned',
    );
    return outcome;
  }

  /**
   * HashBook (engine.md §5.1): stores the file hash of a live book. Returns false when the book is gone
   * or its file cannot be read.
   */
  async hashBook(bookId: string): Promise<boolean> {
    const book = await this.d.books.find(bookId);
    if (!book || book.deletedDate) return false;
    let hash: string;
    try {
      hash = await this.d.hashFile(fileURLToPath(book.url));
    } catch {
      return false;
    }
    if (hash !== book.fileHash) await this.d.books.setFileHash(bookId, hash, this.now());
    return true;
  }

  /** §2.8: queue refreshes for new or changed sidecars of live series/books, then store what was seen. */
  private async sidecars(library: Library, seen: Awaited<ReturnType<typeof scanLibraryFolder>>['sidecars']) {
    const { d } = this;
    const tasks: Task[] = [];
    const stored = await d.sidecars.findByUrls(seen.map((s) => s.url));
    // Only the parents of the sidecars seen (reading the whole library held the event loop on big ones).
    const parents = (source: SidecarSource) => [
      ...new Set(seen.filter((s) => s.source === source).map((s) => s.parentUrl)),
    ];
    const [series, books] = await Promise.all([
      d.series.findLiveByUrls(library.id, parents('SERIES')),
      d.books.findLiveByUrls(library.id, parents('BOOK')),
    ]);
    const liveSeries = new Map(series.map((s) => [s.url, s.id]));
    const liveBooks = new Map(books.map((b) => [b.url, b]));
    for (const s of seen) {
      const before = stored.get(s.url);
      if (before && before.lastModified === s.fileLastModified) continue;
      if (s.source === 'SERIES') {
        const seriesId = liveSeries.get(s.parentUrl);
        if (!seriesId) continue;
        tasks.push(
          s.type === 'ARTWORK'
            ? { kind: 'RefreshSeriesLocalArtwork', seriesId }
            : { kind: 'RefreshSeriesMetadata', seriesId },
        );
      } else {
        const book = liveBooks.get(s.parentUrl);
        if (!book) continue;
        tasks.push(
          s.type === 'ARTWORK'
            ? { kind: 'RefreshBookLocalArtwork', bookId: book.id }
            : { kind: 'RefreshBookMetadata', bookId: book.id, seriesId: book.seriesId, capabilities: [] },
        );
      }
    }
    const seenUrls = new Set(seen.map((s) => s.url));
    await d.uow.run(async (tx) => {
      await tx.sidecars.save(
        seen.map((s) => ({
          url: s.url,
          parentUrl: s.parentUrl,
          libraryId: library.id,
          lastModified: s.fileLastModified,
        })),
      );
      await tx.sidecars.deleteUrls((await tx.sidecars.urlsOfLibrary(library.id)).filter((u) => !seenUrls.has(u)));
    });
    return tasks;
  }
}

/** A piece of a scan's outcome, written inside a unit of work. */
type Unit = (tx: Repositories) => Promise<void>;

/** Missing series soft-deleted per unit. */
const MISSING_PER_UNIT = 500;
/** A transaction is committed once its units have run this long; then the event loop gets a turn. */
const BATCH_MS = 10;

/**
 * Runs units in transactions of about {@link BATCH_MS} each, yielding to the event loop between them, and calls
 * `committed` after each. better-sqlite3 is synchronous and Kysely has one connection: a single transaction for
 * a whole scan held both (17 s for 100,000 new books; `/actuator/health` and every request waited). Each unit
 * leaves the database consistent (a series with its books and numbering), so a process killed between two
 * batches keeps what was committed and the next scan does the rest.
 */
async function inBatches(uow: UnitOfWork, units: readonly Unit[], committed: () => Promise<void>): Promise<void> {
  let next = 0;
  while (next < units.length) {
    await uow.run(async (tx) => {
      const started = performance.now();
      do await units[next++]!(tx);
      while (next < units.length && performance.now() - started < BATCH_MS);
    });
    await committed();
    await nextTurn();
  }
  await committed();
}

/** Lets the event loop run what is waiting (requests, timers) before going on. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** One event per type and target, first occurrence kept. */
function dedupe(events: QuireEvent[]): QuireEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => {
    const key = `${e.type}:${JSON.stringify(e.data)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * ImportBook (engine.md §9.2): a file from outside every library brought into a series folder, as a new book or as
 * the upgrade of one of the series' books. `POST /api/v1/books/import` queues one task per book; the task does the
 * checks in the reference's order, moves the file (library/file-transfer.ts), records the book, and reports the
 * outcome as history and as a `BookImported` event.
 */
import { createHash } from 'node:crypto';
import { readdir, realpath, stat, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CopyMode } from '@quire/api/constants';
import { bookNameFromFileName, initialBookMetadata, numberBooks } from '../domain/book-numbering.js';
import type { BookImportJournal, BookImportRecord } from '../domain/book-imports.js';
import { bookFileDeleted, bookImported, DELETION_REASONS } from '../domain/history.js';
import { newId } from '../domain/ids.js';
import {
  bookExtensions,
  bookSidecarMatcher,
  fileExtension,
  isBookSidecarCandidate,
  libraryOptions,
} from '../domain/library.js';
import type {
  BookRepository,
  LibraryRepository,
  Repositories,
  SeriesRepository,
  ThumbnailRepository,
  UnitOfWork,
} from '../domain/ports.js';
import type { SeriesRecord } from '../domain/series.js';
import type { EventBus } from '../events/bus.js';
import { PRIORITY, uniqueIdOf, type Task, type TaskOf } from '../tasks/definitions.js';
import type { TaskEmitter } from '../tasks/emitter.js';
import { fileUrl, updatedTime } from './file-system-scanner.js';
import { DestinationExistsError, exists, nodeTransferFs, place, stage, type TransferFs } from './file-transfer.js';
import type { HistoryRecorder } from './history.js';
import { isInside } from './library-files.js';

/** An import refused or failed with one of the reference's codes; the code is the event's message. */
export class ImportError extends Error {
  constructor(
    readonly code: 'ERR_1018' | 'ERR_1019' | 'ERR_1020' | 'ERR_1021' | 'ERR_1022',
    detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'ImportError';
  }
}

export interface BookImporterLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface BookImportRequest {
  sourceFile: string;
  seriesId: string;
  upgradeBookId?: string | undefined;
  destinationName?: string | undefined;
}

/** Every file family: an import takes any book the scanner would take in some library. */
const BOOK_EXTENSIONS = bookExtensions(libraryOptions());

/** Temporary files of imports start with a dot, so a scan of the folder never takes one for a book. */
const TEMP_PREFIX = '.quire_import_';

/**
 * The name a file gets in the series folder: `<destinationName>.<source extension>` when a destination name is
 * given, of which only the final path component counts (no folder, no `..`), leading dots removed (a hidden file
 * is never scanned); otherwise the source's own name.
 */
export function destinationFileName(sourceName: string, destinationName: string | null | undefined): string {
  const component = (destinationName ?? '').replace(/\0/g, '').split(/[/\\]/).pop()!.trim().replace(/^\.+/, '');
  return component ? `${component}${extname(sourceName)}` : sourceName;
}

/**
 * A sidecar's new name (engine.md §9.2): with a destination name, every case-insensitive occurrence of the source's
 * base name is replaced by it.
 */
export function sidecarFileName(sidecarName: string, sourceBaseName: string, newBaseName: string): string {
  if (sourceBaseName === newBaseName || !sourceBaseName) return sidecarName;
  const escaped = sourceBaseName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return sidecarName.replace(new RegExp(escaped, 'gi'), () => newBaseName);
}

export class BookImporter {
  constructor(
    private readonly d: {
      uow: UnitOfWork;
      libraries: Pick<LibraryRepository, 'list' | 'find'>;
      series: Pick<SeriesRepository, 'find'>;
      books: Pick<BookRepository, 'find'>;
      /** The journal of imports in progress, outside the transactions (a row must outlive a failed one). */
      bookImports: BookImportJournal;
      thumbnails: Pick<ThumbnailRepository, 'findAllByOwner'>;
      events: EventBus;
      tasks: TaskEmitter;
      history: HistoryRecorder;
      logger: BookImporterLogger;
      fs?: TransferFs;
      now?: () => Date;
    },
  ) {}

  /**
   * `POST /api/v1/books/import`: one ImportBook task per book at the highest priority (engine.md §8.2). Nothing is
   * checked here, as in the reference: each task reports its own outcome.
   */
  async queueImports(books: readonly BookImportRequest[], copyMode: CopyMode): Promise<void> {
    await this.d.tasks.submit(
      books.map((b): Task => ({
        kind: 'ImportBook',
        sourceFile: b.sourceFile,
        seriesId: b.seriesId,
        copyMode,
        destinationName: b.destinationName ?? null,
        upgradeBookId: b.upgradeBookId ?? null,
      })),
      PRIORITY.HIGHEST,
    );
  }

  /**
   * Runs one import. Success and failure alike end in a `BookImported` event; a success also in a `BookImported`
   * history event. Returns the follow-up tasks (the new file's analysis, its posters from sidecars); a failure
   * throws after its event.
   */
  async importBook(task: TaskOf<'ImportBook'>): Promise<Task[]> {
    try {
      return await this.run(task);
    } catch (e) {
      // A failed task is not run again: its journal would only be left behind.
      await this.d.bookImports.delete(uniqueIdOf(task)).catch(() => undefined);
      const message = e instanceof ImportError ? e.code : e instanceof Error ? e.message : String(e);
      this.d.events.emit({ type: 'BookImported', data: { sourceFile: task.sourceFile, success: false, message } });
      throw e;
    }
  }

  private async run(task: TaskOf<'ImportBook'>): Promise<Task[]> {
    const { d } = this;
    const fs = d.fs ?? nodeTransferFs;
    const taskId = uniqueIdOf(task);
    const series = await d.series.find(task.seriesId);
    if (!series) throw new Error(`Series not found: ${task.seriesId}`);
    const journal = await d.bookImports.find(taskId);
    // An earlier run recorded the book and was interrupted in what follows: that is all there is left to do.
    if (journal?.stage === 'RECORDED' && journal.bookId)
      return this.resumeRecorded(task, series, journal.bookId, journal);

    const source = await this.resolveSource(task.sourceFile);
    if (series.oneshot && !task.upgradeBookId)
      throw new Error('Destination series is a one-shot: the book to upgrade must be given');
    const roots = await this.libraryRoots();
    if (roots.some((root) => isInside(root, source.real) || isInside(root, source.asGiven)))
      throw new ImportError('ERR_1019', `${task.sourceFile} is inside a library`);
    const upgraded = task.upgradeBookId ? await d.books.find(task.upgradeBookId) : undefined;
    if (upgraded && upgraded.seriesId !== series.id)
      throw new ImportError('ERR_1020', `Book ${upgraded.id} is not in series ${series.id}`);
    if (!BOOK_EXTENSIONS.has(fileExtension(source.real)))
      throw new ImportError('ERR_1022', `${task.sourceFile} is not a book file`);

    const { folder, root } = await this.destinationFolder(series);
    const target = join(folder, destinationFileName(basename(source.real), task.destinationName));
    const oldEntry = upgraded ? await resolvedEntry(fileURLToPath(upgraded.url)) : null;
    // An upgraded file is only ever deleted inside its library.
    const oldPath = oldEntry && isInside(root, dirname(oldEntry)) ? oldEntry : null;
    const replacesOld = oldPath === target;
    // Named after the task, so that its run after a crash finds (and replaces) what this one left.
    const temp = join(folder, `${TEMP_PREFIX}${createHash('sha256').update(taskId).digest('hex').slice(0, 20)}.part`);
    // The file is under its name already when an interrupted run journalled its placing and its temporary file is
    // gone: the rename happened.
    const placedBefore =
      journal?.stage === 'PLACING' &&
      journal.targetUrl === fileUrl(target) &&
      !(await exists(temp, fs)) &&
      (await exists(target, fs));
    if (!placedBefore && !replacesOld && (await exists(target, fs)))
      throw new ImportError('ERR_1021', `${target} already exists`);
    const sourceBase = bookNameFromFileName(basename(source.real));
    const newBase = bookNameFromFileName(basename(target));
    const sidecars = (await sidecarFilesOf(source.real)).map((from) => ({
      from,
      to: join(folder, basename(sidecarFileName(basename(from), sourceBase, newBase))),
    }));
    const oldSidecars = oldPath ? (await sidecarFilesOf(oldPath)).filter((p) => p !== target) : [];

    // The file under a temporary name, then its own: the source stays as it is until the book is recorded.
    const placing = { taskId, stage: 'PLACING' as const, targetUrl: fileUrl(target), bookId: null, upgradedUrl: null };
    if (!placedBefore) {
      const how = await stage(source.real, temp, task.copyMode, fs);
      await d.bookImports.save(placing, this.now());
      try {
        await place(temp, target, folder, replacesOld, fs);
      } catch (e) {
        await d.bookImports.delete(taskId);
        if (e instanceof DestinationExistsError) throw new ImportError('ERR_1021', e.message);
        throw e;
      }
      d.logger.info({ source: source.real, target, copyMode: task.copyMode, how }, 'Book file imported');
    }
    // From here until the record, a failure takes the new file away again (never the old one it replaced).
    const undo = async () => {
      if (!replacesOld) await unlink(target).catch(() => undefined);
      await d.bookImports.delete(taskId);
    };

    let written;
    try {
      written = await stat(target);
      if (!written.isFile()) throw new Error(`${target} is not a file`);
    } catch (e) {
      await undo();
      throw new ImportError('ERR_1022', `${target} could not be read back: ${(e as Error).message}`);
    }

    // Sidecars go along; one that cannot be brought is logged, never a reason to fail the book.
    const placedSidecars: string[] = [];
    for (const s of sidecars) {
      const sideTemp = `${temp}.${placedSidecars.length}`;
      try {
        await stage(s.from, sideTemp, task.copyMode, fs);
        await place(sideTemp, s.to, folder, true, fs);
        placedSidecars.push(s.to);
      } catch (err) {
        d.logger.warn({ err, sidecar: s.from }, 'Sidecar could not be imported');
      }
    }

    const now = this.now();
    const name = bookNameFromFileName(basename(target));
    const file = {
      name,
      url: fileUrl(target),
      fileSize: written.size,
      fileLastModified: updatedTime(written, false),
    };
    let bookId: string;
    const next: Task[] = [];
    try {
      bookId = await d.uow.run(async (tx) => {
        let id: string;
        if (upgraded) {
          id = upgraded.id;
          await tx.books.upgradeFile(id, file, now);
          // A one-shot's series is its book's file (engine.md §9.2).
          if (series.oneshot) await tx.series.moveOneshot(series.id, file, now);
        } else {
          id = newId();
          await tx.books.insert(
            [
              {
                id,
                seriesId: series.id,
                libraryId: series.libraryId,
                ...file,
                fileHash: '',
                oneshot: series.oneshot,
                ...initialBookMetadata(name),
              },
            ],
            now,
          );
        }
        next.push(...(await renumber(tx, series.id, now)));
        await tx.sidecars.save(
          placedSidecars.map((path) => ({
            url: fileUrl(path),
            parentUrl: file.url,
            libraryId: series.libraryId,
            lastModified: now.getTime(),
          })),
        );
        const upgradedUrl = oldPath && !replacesOld ? fileUrl(oldPath) : null;
        await tx.bookImports.save({ ...placing, stage: 'RECORDED', bookId: id, upgradedUrl }, now);
        return id;
      });
    } catch (e) {
      // Nothing points at the new file: it goes, and the source (untouched so far) is where it was.
      await undo();
      throw e;
    }

    await this.afterRecord(task, series, bookId, {
      target,
      source: source.real,
      // a link given as the source goes with the file it led to
      moveSources: [
        source.real,
        ...(source.asGiven !== source.real ? [source.asGiven] : []),
        ...sidecars.map((s) => s.from),
      ],
      upgraded: upgraded !== undefined,
      oldPath,
      oldSidecars,
      placedSidecars,
    });
    next.unshift({ kind: 'AnalyzeBook', bookId, seriesId: series.id });
    if (placedSidecars.length > 0) next.push({ kind: 'RefreshBookLocalArtwork', bookId });
    return next;
  }

  /**
   * What follows the record of the book: a MOVE's sources removed, an upgrade's old files deleted, history and
   * events, and the journal closed. Run again, to the same effect, by the next run after a crash.
   */
  private async afterRecord(
    task: TaskOf<'ImportBook'>,
    series: SeriesRecord,
    bookId: string,
    f: {
      target: string;
      source: string;
      moveSources: readonly string[];
      upgraded: boolean;
      oldPath: string | null;
      oldSidecars: readonly string[];
      placedSidecars: readonly string[];
    },
  ): Promise<void> {
    const { d } = this;
    if (task.copyMode === 'MOVE') {
      for (const path of f.moveSources)
        await unlink(path).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') d.logger.warn({ err, path }, 'Moved file could not be removed from its source');
        });
    }
    const ref = { bookId, seriesId: series.id, libraryId: series.libraryId };
    if (f.upgraded) await this.removeUpgradedFiles(f.oldPath, f.target, f.oldSidecars, f.placedSidecars, ref);
    await d.history.record(bookImported(ref, f.target, f.source, f.upgraded));
    d.events.emit({ type: f.upgraded ? 'BookChanged' : 'BookAdded', data: ref });
    d.events.emit({ type: 'SeriesChanged', data: { seriesId: series.id, libraryId: series.libraryId } });
    d.events.emit({ type: 'BookImported', data: { bookId, sourceFile: task.sourceFile, success: true } });
    await d.bookImports.delete(uniqueIdOf(task));
  }

  /** The run after a crash that followed the record: the rest of the import, from the journal. */
  private async resumeRecorded(
    task: TaskOf<'ImportBook'>,
    series: SeriesRecord,
    bookId: string,
    journal: BookImportRecord,
  ): Promise<Task[]> {
    const target = fileURLToPath(journal.targetUrl);
    const source = await realpath(task.sourceFile).catch(() => task.sourceFile);
    const moveSources = (await exists(source)) ? [source, ...(await sidecarFilesOf(source))] : [];
    const upgraded = task.upgradeBookId === bookId;
    const oldPath = journal.upgradedUrl ? fileURLToPath(journal.upgradedUrl) : upgraded ? target : null;
    await this.afterRecord(task, series, bookId, {
      target,
      source,
      moveSources,
      upgraded,
      oldPath,
      oldSidecars: [],
      placedSidecars: [],
    });
    return [{ kind: 'AnalyzeBook', bookId, seriesId: series.id }];
  }

  /** The source as given (its folder resolved) and its real path; ERR_1018 when it is not an existing file. */
  private async resolveSource(sourceFile: string): Promise<{ asGiven: string; real: string }> {
    const missing = () => new ImportError('ERR_1018', `File not found: ${sourceFile}`);
    if (!sourceFile.startsWith('/') || sourceFile.includes('\0')) throw missing();
    try {
      const real = await realpath(sourceFile);
      if (!(await stat(real)).isFile()) throw missing();
      return { asGiven: await resolvedEntry(sourceFile), real };
    } catch {
      throw missing();
    }
  }

  /** Real paths of every library root that resolves (one that does not is compared as stored). */
  private async libraryRoots(): Promise<string[]> {
    return Promise.all((await this.d.libraries.list()).map((l) => realpath(l.root).catch(() => l.root)));
  }

  /**
   * The real path of the folder the file goes to: the series folder, or for a one-shot the folder of its file
   * (engine.md §9.2); it must lie inside its library's real root.
   */
  private async destinationFolder(series: SeriesRecord): Promise<{ folder: string; root: string }> {
    const library = await this.d.libraries.find(series.libraryId);
    const path = fileURLToPath(series.url);
    const folder = series.oneshot ? dirname(path) : path;
    const [root, real] = await Promise.all([
      library ? realpath(library.root).catch(() => null) : null,
      realpath(folder).catch(() => null),
    ]);
    if (!root || !real || !isInside(root, real) || !(await stat(real)).isDirectory())
      throw new Error(`The series folder ${folder} is missing or outside its library`);
    return { folder: real, root };
  }

  /**
   * After an upgrade: the old file (unless the new one took its name) and its old sidecars that the new ones did not
   * replace are deleted, with what the database knew of those sidecars. The book keeps its id, so its metadata,
   * locks, uploaded posters, read progress and read-list places stay.
   */
  private async removeUpgradedFiles(
    oldPath: string | null,
    target: string,
    oldSidecars: readonly string[],
    placedSidecars: readonly string[],
    ref: { bookId: string; seriesId: string; libraryId: string },
  ): Promise<void> {
    const { d } = this;
    if (oldPath === target) {
      await d.history.record(bookFileDeleted(ref, target, DELETION_REASONS.upgradedByImport));
    } else if (oldPath) {
      try {
        await unlink(oldPath);
        await d.history.record(bookFileDeleted(ref, oldPath, DELETION_REASONS.upgradedByImport));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
          d.logger.warn({ err, path: oldPath }, 'The upgraded file could not be deleted');
      }
    }
    const kept = new Set(placedSidecars);
    const gone = oldSidecars.filter((p) => !kept.has(p));
    for (const path of gone) await unlink(path).catch(() => undefined);
    const goneUrls = new Set(gone.map(fileUrl));
    const posters = (await d.thumbnails.findAllByOwner('book', ref.bookId)).filter(
      (t) => t.type === 'SIDECAR' && t.url !== null && goneUrls.has(t.url),
    );
    await d.uow.run(async (tx) => {
      await tx.sidecars.deleteUrls([...goneUrls]);
      if (posters.length > 0)
        await tx.thumbnails.delete(
          'book',
          posters.map((t) => t.id),
        );
    });
  }

  private now(): Date {
    return this.d.now?.() ?? new Date();
  }
}

/** Artwork sidecars of a book file (the scan's matching, engine.md §2.3): files beside it named after it. */
async function sidecarFilesOf(bookPath: string): Promise<string[]> {
  const matches = bookSidecarMatcher(bookNameFromFileName(basename(bookPath)));
  const entries = await readdir(dirname(bookPath), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && isBookSidecarCandidate(e.name) && matches(e.name))
    .map((e) => join(dirname(bookPath), e.name))
    .sort();
}

/** A path with its folder resolved through links, the entry itself not followed. */
async function resolvedEntry(path: string): Promise<string> {
  return join(await realpath(dirname(path)).catch(() => dirname(path)), basename(path));
}

/**
 * `sortBooks(series)` (engine.md §3.2) inside the import's transaction; returns the number refreshes of the books
 * whose numbers moved, as a scan queues them.
 */
async function renumber(tx: Repositories, seriesId: string, now: Date): Promise<Task[]> {
  const { books, bookCount } = numberBooks(await tx.books.numberingOf(seriesId));
  const refreshes: Task[] = [];
  for (const b of books) {
    if (b.changed) await tx.books.setNumbers(b.id, b, now);
    if (b.refreshNumbers)
      refreshes.push({ kind: 'RefreshBookMetadata', bookId: b.id, seriesId, capabilities: ['NUMBER', 'NUMBER_SORT'] });
  }
  await tx.series.setBookCount(seriesId, bookCount, now);
  return refreshes;
}

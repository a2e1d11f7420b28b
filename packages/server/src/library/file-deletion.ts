/**
 * DeleteBook and DeleteSeries (engine.md §12.4): remove a book's file or a series' files from disk, with their
 * sidecar posters and the folders left empty, then soft-delete the rows (they stay in the trash).
 *
 * Nothing outside the library root is ever removed: every path is resolved through symbolic links and checked
 * to lie strictly inside the root (which itself is never removed). A symbolic link is removed, never its target.
 */
import { constants } from 'node:fs';
import { access, lstat, readdir, realpath, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  BookRepository,
  LibraryRepository,
  SeriesRepository,
  ThumbnailRepository,
  UnitOfWork,
} from '../domain/ports.js';
import type { BookRecord } from '../domain/book.js';
import type { EventBus } from '../events/bus.js';
import { PRIORITY } from '../tasks/definitions.js';
import type { TaskEmitter } from '../tasks/emitter.js';
import { isInside } from './library-files.js';
import { bookFileDeleted, DELETION_REASONS, seriesFolderDeleted } from '../domain/history.js';
import type { HistoryRecorder } from './history.js';

export interface FileDeletionLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface FileDeletionDeps {
  uow: UnitOfWork;
  libraries: LibraryRepository;
  series: SeriesRepository;
  books: BookRepository;
  thumbnails: Pick<ThumbnailRepository, 'findAllByOwner'>;
  events: EventBus;
  tasks: TaskEmitter;
  history: HistoryRecorder;
  logger: FileDeletionLogger;
  now?: () => Date;
}

/** A path from a stored location: a `file:` URL or an absolute path. */
function pathOf(location: string): string {
  return location.startsWith('file:') ? fileURLToPath(location) : resolve(location);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function writable(path: string): Promise<boolean> {
  try {
    await access(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The library root, resolved through links; deletions must stay strictly below it. */
class Root {
  private constructor(private readonly real: string) {}

  static async of(location: string): Promise<Root | null> {
    try {
      return new Root(await realpath(pathOf(location)));
    } catch {
      return null;
    }
  }

  /** Is the entry `path` (its parent resolved, the entry itself not followed) strictly inside the root? */
  async contains(path: string): Promise<boolean> {
    try {
      const real = join(await realpath(dirname(path)), basename(path));
      return real !== this.real && isInside(this.real, real);
    } catch {
      return false;
    }
  }
}

export class FileDeletion {
  private readonly now: () => Date;

  constructor(private readonly d: FileDeletionDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /**
   * DELETE /books/{id}/file (api.md §3.2): queues DeleteBook at the highest priority. As in Komga an unknown id is
   * not an error: its task does nothing.
   */
  async queueBookDeletion(bookId: string): Promise<void> {
    await this.d.tasks.submit([{ kind: 'DeleteBook', bookId }], PRIORITY.HIGHEST);
  }

  /** DELETE /series/{id}/file (api.md §3.3): queues DeleteSeries at the highest priority; unknown ids as above. */
  async queueSeriesDeletion(seriesId: string): Promise<void> {
    await this.d.tasks.submit([{ kind: 'DeleteSeries', seriesId }], PRIORITY.HIGHEST);
  }

  /** DeleteBook: a one-shot takes its series with it (engine.md §16). Unknown ids are skipped. */
  async deleteBook(bookId: string): Promise<void> {
    const book = await this.d.books.find(bookId);
    if (!book) return;
    if (book.oneshot) return this.deleteSeries(book.seriesId);
    const root = await this.rootOf(book.libraryId);
    if (!root) return;
    if (!(await this.removeBookFiles(book, root))) return;
    await this.d.books.softDelete([book.id], this.now());
    this.d.events.emit({
      type: 'BookChanged',
      data: { bookId: book.id, seriesId: book.seriesId, libraryId: book.libraryId },
    });
  }

  /**
   * DeleteSeries: every book file, the series' sidecar posters, then the folder if nothing else is left in it
   * (a `series.json` keeps it). The series is trashed once none of its books is left on disk.
   */
  async deleteSeries(seriesId: string): Promise<void> {
    const series = await this.d.series.find(seriesId);
    if (!series) return;
    const root = await this.rootOf(series.libraryId);
    if (!root) return;
    const folder = pathOf(series.url);
    if (!(await exists(folder)) || !(await writable(folder))) {
      this.d.logger.info({ seriesId, path: folder }, 'Cannot delete series files: path missing or not writable');
      return;
    }
    const books = await this.d.books.findBySeries(seriesId);
    const live = books.filter((b) => !b.deletedDate);
    const removed: BookRecord[] = [];
    let remaining = 0;
    for (const book of live) {
      if (await this.removeBookFiles(book, root)) removed.push(book);
      else if (await exists(pathOf(book.url))) remaining++;
    }
    await this.removeSidecarPosters('series', seriesId, root);
    if ((await stat(folder).catch(() => null))?.isDirectory())
      await this.removeIfEmpty(folder, root, { seriesId, libraryId: series.libraryId });

    const now = this.now();
    const trashSeries = remaining === 0 && !series.deletedDate;
    await this.d.uow.run(async ({ books, series }) => {
      await books.softDelete(
        removed.map((b) => b.id),
        now,
      );
      if (trashSeries) await series.softDelete([seriesId], now);
    });
    for (const b of removed)
      this.d.events.emit({ type: 'BookChanged', data: { bookId: b.id, seriesId, libraryId: b.libraryId } });
    if (trashSeries) this.d.events.emit({ type: 'SeriesChanged', data: { seriesId, libraryId: series.libraryId } });
  }

  private async rootOf(libraryId: string): Promise<Root | null> {
    const library = await this.d.libraries.find(libraryId);
    const root = library ? await Root.of(library.root) : null;
    if (!root) this.d.logger.warn({ libraryId }, 'Cannot delete files: library root not accessible');
    return root;
  }

  /**
   * The book's file and its sidecar posters, then its folder if left empty. False when the file is missing,
   * not writable, outside the library root, or could not be removed.
   */
  private async removeBookFiles(book: BookRecord, root: Root): Promise<boolean> {
    const file = pathOf(book.url);
    if (!(await exists(file)) || !(await writable(file))) {
      this.d.logger.info({ bookId: book.id, path: file }, 'Cannot delete book file: path missing or not writable');
      return false;
    }
    if (!(await root.contains(file)) || (await lstat(file)).isDirectory()) {
      this.d.logger.warn({ bookId: book.id, path: file }, 'Refusing to delete a book file outside its library root');
      return false;
    }
    try {
      await unlink(file);
    } catch (err) {
      this.d.logger.warn({ bookId: book.id, path: file, err }, 'Book file could not be deleted');
      return false;
    }
    const reason = DELETION_REASONS.byUser;
    this.d.logger.info({ bookId: book.id, path: file, reason }, 'BookFileDeleted');
    const ref = { bookId: book.id, seriesId: book.seriesId, libraryId: book.libraryId };
    await this.d.history.record(bookFileDeleted(ref, file, reason));
    await this.removeSidecarPosters('book', book.id, root);
    await this.removeIfEmpty(dirname(file), root, { seriesId: book.seriesId, libraryId: book.libraryId });
    return true;
  }

  private async removeSidecarPosters(owner: 'book' | 'series', ownerId: string, root: Root): Promise<void> {
    const posters = await this.d.thumbnails.findAllByOwner(owner, ownerId);
    for (const t of posters) {
      if (t.type !== 'SIDECAR' || !t.url) continue;
      const path = pathOf(t.url);
      if (!(await exists(path)) || !(await root.contains(path)) || (await lstat(path)).isDirectory()) continue;
      try {
        await unlink(path);
        this.d.logger.info({ path }, 'Deleted sidecar poster');
      } catch (err) {
        this.d.logger.warn({ path, err }, 'Sidecar poster could not be deleted');
      }
    }
  }

  /** Removes `folder` (of that series) when it is empty and strictly inside the root. */
  private async removeIfEmpty(
    folder: string,
    root: Root,
    series: { seriesId: string; libraryId: string },
  ): Promise<void> {
    if (!(await root.contains(folder))) return;
    try {
      if ((await readdir(folder)).length > 0) return;
      await rmdir(folder);
      this.d.logger.info({ ...series, path: folder, reason: DELETION_REASONS.emptyFolder }, 'SeriesFolderDeleted');
      await this.d.history.record(seriesFolderDeleted(series, folder));
    } catch (err) {
      this.d.logger.warn({ path: folder, err }, 'Empty folder could not be deleted');
    }
  }
}

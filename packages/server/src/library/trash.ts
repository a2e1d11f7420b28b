/**
 * EmptyTrash (engine.md §12.2): hard-delete the soft-deleted series and books of a library, renumber the
 * series that lost books, and remove the stored thumbnail files of everything deleted.
 */
import type { BookRepository, SeriesRepository, UnitOfWork } from '../domain/ports.js';
import { numberBooks } from '../domain/book-numbering.js';
import type { EventBus } from '../events/bus.js';
import { deleteThumbnailFiles } from './thumbnails.js';

export interface TrashDeps {
  uow: UnitOfWork;
  series: SeriesRepository;
  books: BookRepository;
  events: EventBus;
  /** Poster files live under `<dataDir>/thumbnails`, one folder per book or series. */
  dataDir: string;
  now?: () => Date;
}

export class Trash {
  private readonly now: () => Date;

  constructor(private readonly d: TrashDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** Returns how many series and books were hard-deleted. */
  async empty(libraryId: string): Promise<{ series: number; books: number }> {
    const { d } = this;
    const deletedSeries = await d.series.findDeletedIds(libraryId);
    const allBooks = await d.books.findByLibrary(libraryId);
    const deletedSeriesSet = new Set(deletedSeries);
    const booksOfDeletedSeries = allBooks.filter((b) => deletedSeriesSet.has(b.seriesId));
    const deletedBooks = allBooks.filter((b) => b.deletedDate && !deletedSeriesSet.has(b.seriesId));
    if (deletedSeries.length === 0 && deletedBooks.length === 0) return { series: 0, books: 0 };

    const goneBooks = [...booksOfDeletedSeries, ...deletedBooks];
    const survivors = [...new Set(deletedBooks.map((b) => b.seriesId))];
    const now = this.now();

    await d.uow.run(async (tx) => {
      await tx.books.hardDelete(goneBooks.map((b) => b.id));
      await tx.series.hardDelete(deletedSeries);
      // §12.2.3: books 2 and 3 become numbers 1 and 2.
      for (const seriesId of survivors) {
        const { books, bookCount } = numberBooks(await tx.books.numberingOf(seriesId));
        for (const b of books) if (b.changed) await tx.books.setNumbers(b.id, b, now);
        await tx.series.setBookCount(seriesId, bookCount, now);
      }
    });
    await deleteThumbnailFiles(d.dataDir, { bookIds: goneBooks.map((b) => b.id), seriesIds: deletedSeries });

    for (const b of goneBooks)
      d.events.emit({ type: 'BookDeleted', data: { bookId: b.id, seriesId: b.seriesId, libraryId } });
    for (const id of deletedSeries) d.events.emit({ type: 'SeriesDeleted', data: { seriesId: id, libraryId } });
    for (const id of survivors) d.events.emit({ type: 'SeriesChanged', data: { seriesId: id, libraryId } });
    return { series: deletedSeries.length, books: goneBooks.length };
  }
}

import type { LibraryFigures } from '../../domain/metrics.js';
import type { Db } from '../database.js';

type Grouped = { library_id: string; value: number | string | bigint | null }[];
const byLibrary = (rows: Grouped) => new Map(rows.map((r) => [r.library_id, Number(r.value ?? 0)]));

/**
 * The gauges of api.md §9.1, computed when asked: counts and sums grouped by library over the library indexes (the
 * disk-space sum reads book_library_file_size_idx alone), never rows loaded into memory. Like the reference, rows in
 * the trash count until it is emptied, and a library without any series, book or sidecar has no value for it.
 */
export class MetricsQueries {
  constructor(private readonly db: Db) {}

  async libraryFigures(): Promise<LibraryFigures> {
    const count = (table: 'series' | 'book' | 'sidecar') =>
      this.db
        .selectFrom(table)
        .select((eb) => ['library_id', eb.fn.countAll<number>().as('value')])
        .groupBy('library_id')
        .execute();
    const [series, books, sidecars, sizes] = await Promise.all([
      count('series'),
      count('book'),
      count('sidecar'),
      this.db
        .selectFrom('book')
        .select((eb) => ['library_id', eb.fn.sum<number>('file_size').as('value')])
        .groupBy('library_id')
        .execute(),
    ]);
    return {
      series: byLibrary(series),
      books: byLibrary(books),
      booksFileSize: byLibrary(sizes),
      sidecars: byLibrary(sidecars),
    };
  }

  async totals(): Promise<{ libraries: number; collections: number; readlists: number }> {
    const count = async (table: 'library' | 'collection' | 'readlist') =>
      Number(
        (
          await this.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const [libraries, collections, readlists] = await Promise.all([
      count('library'),
      count('collection'),
      count('readlist'),
    ]);
    return { libraries, collections, readlists };
  }
}

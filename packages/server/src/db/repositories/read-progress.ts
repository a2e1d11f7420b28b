import type { Db } from '../database.js';
import type { ReadProgressRepository } from '../../domain/ports.js';
import type {
  StoredReadProgress,
  NewReadProgress,
  AccessFacts,
  ProgressBook,
  BookState,
} from '../../domain/read-progress.js';

/**
 * Read progress rows (engine.md §13.1): one per (book, user), upserted. Plus the reads progress updates need:
 * a book's media and what access checks read, the books of a series or a read list with the caller's state.
 */

const CHUNK = 500;
const chunks = <T>(xs: readonly T[]) => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
};

type Row = {
  book_id: string;
  user_id: string;
  page: number;
  completed: number | boolean;
  read_date: string;
  device_id: string;
  device_name: string;
  locator: string | null;
  created_date: string;
  last_modified_date: string;
};

const toProgress = (r: Row): StoredReadProgress => ({
  bookId: r.book_id,
  userId: r.user_id,
  page: Number(r.page),
  completed: Boolean(r.completed),
  readDate: r.read_date,
  deviceId: r.device_id,
  deviceName: r.device_name,
  locator: r.locator === null ? null : parseLocator(r.locator),
  createdDate: r.created_date,
  lastModifiedDate: r.last_modified_date,
});

function parseLocator(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

export class KyselyReadProgressRepository implements ReadProgressRepository {
  constructor(private readonly db: Db) {}

  async find(bookId: string, userId: string): Promise<StoredReadProgress | undefined> {
    const row = await this.db
      .selectFrom('read_progress')
      .selectAll()
      .where('book_id', '=', bookId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && toProgress(row);
  }

  async findMany(bookIds: readonly string[], userId: string): Promise<StoredReadProgress[]> {
    const out: StoredReadProgress[] = [];
    for (const part of chunks(bookIds)) {
      const rows = await this.db
        .selectFrom('read_progress')
        .selectAll()
        .where('book_id', 'in', part)
        .where('user_id', '=', userId)
        .execute();
      out.push(...rows.map(toProgress));
    }
    return out;
  }

  /**
   * Inserts or replaces each (book, user) row; a replaced row keeps its creation date. Update, then insert when
   * nothing was updated (call it in a transaction): no UPSERT, whose conflict clause SQLite would also impose on
   * the statements of triggers on this table.
   */
  async save(rows: readonly NewReadProgress[], at: Date): Promise<void> {
    const now = at.toISOString();
    for (const p of rows) {
      const values = {
        page: p.page,
        completed: p.completed ? 1 : 0,
        read_date: p.readDate,
        device_id: p.deviceId,
        device_name: p.deviceName,
        locator: p.locator === null || p.locator === undefined ? null : JSON.stringify(p.locator),
        last_modified_date: now,
      };
      const updated = await this.db
        .updateTable('read_progress')
        .set(values)
        .where('book_id', '=', p.bookId)
        .where('user_id', '=', p.userId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) continue;
      await this.db
        .insertInto('read_progress')
        .values({ book_id: p.bookId, user_id: p.userId, created_date: now, ...values })
        .execute();
    }
  }

  async delete(bookIds: readonly string[], userId: string): Promise<void> {
    for (const part of chunks(bookIds)) {
      await this.db.deleteFrom('read_progress').where('book_id', 'in', part).where('user_id', '=', userId).execute();
    }
  }

  /** A book with its media and access facts; undefined when unknown. */
  async book(bookId: string): Promise<ProgressBook | undefined> {
    const [book] = await this.progressBooks({ bookId });
    return book;
  }

  /** The live books whose KOReader document hash is this one (kosync); the hash is indexed (migration 0018). */
  async booksWithKoreaderHash(hash: string): Promise<ProgressBook[]> {
    if (hash === '') return [];
    return this.progressBooks({ koreaderHash: hash });
  }

  private async progressBooks(by: { bookId: string } | { koreaderHash: string }): Promise<ProgressBook[]> {
    let query = this.db
      .selectFrom('book as b')
      .innerJoin('series_metadata as sm', 'sm.series_id', 'b.series_id')
      .leftJoin('media as m', 'm.book_id', 'b.id')
      .select([
        'b.id',
        'b.series_id',
        'b.library_id',
        'sm.age_rating',
        'm.status',
        'm.media_type',
        'm.page_count',
        'm.epub_divina_compatible',
        'm.extension',
      ]);
    query =
      'bookId' in by
        ? query.where('b.id', '=', by.bookId)
        : query.where('b.file_hash_koreader', '=', by.koreaderHash).where('b.deleted_date', 'is', null);
    const rows = await query.execute();
    const labels = await this.labels([...new Set(rows.map((r) => r.series_id))]);
    return rows.map((r) => ({
      id: r.id,
      seriesId: r.series_id,
      access: { libraryId: r.library_id, ageRating: r.age_rating, sharingLabels: labels.get(r.series_id) ?? [] },
      mediaStatus: r.status,
      mediaType: r.media_type,
      pageCount: Number(r.page_count ?? 0),
      epubDivinaCompatible: Boolean(r.epub_divina_compatible),
      extension: r.extension,
    }));
  }

  /** The file names of a book's entries that are not pages (EPUB resources). */
  async fileNames(bookId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('media_file').select('file_name').where('book_id', '=', bookId).execute();
    return rows.map((r) => r.file_name);
  }

  /** Access facts of a series; undefined when unknown. */
  async series(seriesId: string): Promise<AccessFacts | undefined> {
    const r = await this.db
      .selectFrom('series as s')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .select(['s.library_id', 'sm.age_rating'])
      .where('s.id', '=', seriesId)
      .executeTakeFirst();
    if (!r) return undefined;
    const labels = await this.labels([seriesId]);
    return { libraryId: r.library_id, ageRating: r.age_rating, sharingLabels: labels.get(seriesId) ?? [] };
  }

  /** Every book of the series, soft-deleted ones included, by `numberSort` then position. */
  async seriesBooks(seriesId: string, userId: string): Promise<BookState[]> {
    const rows = await this.states(userId)
      .where('b.series_id', '=', seriesId)
      .orderBy('bm.number_sort')
      .orderBy('b.number')
      .orderBy('b.id')
      .execute();
    return this.withLabels(rows);
  }

  async readListExists(readListId: string): Promise<boolean> {
    const r = await this.db.selectFrom('readlist').select('id').where('id', '=', readListId).executeTakeFirst();
    return r !== undefined;
  }

  /** The books of a read list in list order. */
  async readListBooks(readListId: string, userId: string): Promise<BookState[]> {
    const rows = await this.states(userId)
      .innerJoin('readlist_book as rb', 'rb.book_id', 'b.id')
      .where('rb.readlist_id', '=', readListId)
      .orderBy('rb.number')
      .execute();
    return this.withLabels(rows);
  }

  private states(userId: string) {
    return this.db
      .selectFrom('book as b')
      .innerJoin('series_metadata as sm', 'sm.series_id', 'b.series_id')
      .leftJoin('book_metadata as bm', 'bm.book_id', 'b.id')
      .leftJoin('media as m', 'm.book_id', 'b.id')
      .leftJoin('read_progress as r', (j) => j.onRef('r.book_id', '=', 'b.id').on('r.user_id', '=', userId))
      .select([
        'b.id',
        'b.series_id',
        'b.library_id',
        'sm.age_rating',
        'bm.number_sort',
        'm.page_count',
        'r.completed',
      ]);
  }

  private async withLabels(
    rows: {
      id: string;
      series_id: string;
      library_id: string;
      age_rating: number | null;
      number_sort: number | null;
      page_count: number | null;
      completed: number | boolean | null;
    }[],
  ): Promise<BookState[]> {
    const labels = await this.labels([...new Set(rows.map((r) => r.series_id))]);
    return rows.map((r) => ({
      id: r.id,
      seriesId: r.series_id,
      numberSort: Number(r.number_sort ?? 0),
      pageCount: Number(r.page_count ?? 0),
      completed: r.completed === null ? null : Boolean(r.completed),
      access: { libraryId: r.library_id, ageRating: r.age_rating, sharingLabels: labels.get(r.series_id) ?? [] },
    }));
  }

  private async labels(seriesIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const part of chunks(seriesIds)) {
      const rows = await this.db
        .selectFrom('series_metadata_sharing')
        .select(['series_id', 'label'])
        .where('series_id', 'in', part)
        .orderBy('position')
        .execute();
      for (const r of rows) out.set(r.series_id, [...(out.get(r.series_id) ?? []), r.label]);
    }
    return out;
  }
}

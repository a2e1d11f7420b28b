import { atomically, type Db } from '../database.js';
import { notLikeNocase } from '../dialect.js';
import type { BookRepository } from '../../domain/ports.js';
import type { BookRecord, NewBook, BookNumbering } from '../../domain/book.js';

const iso = (ms: number) => new Date(ms).toISOString();
const CHUNK = 500;
const chunks = <T>(xs: readonly T[]) => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
};

type Row = {
  id: string;
  series_id: string;
  library_id: string;
  name: string;
  url: string;
  number: number;
  file_size: number;
  file_last_modified: string;
  file_hash: string;
  oneshot: number | boolean;
  deleted_date: string | null;
};

const COLUMNS = [
  'id',
  'series_id',
  'library_id',
  'name',
  'url',
  'number',
  'file_size',
  'file_last_modified',
  'file_hash',
  'oneshot',
  'deleted_date',
] as const;

const toRecord = (r: Row): BookRecord => ({
  id: r.id,
  seriesId: r.series_id,
  libraryId: r.library_id,
  name: r.name,
  url: r.url,
  number: Number(r.number),
  fileSize: Number(r.file_size),
  fileLastModified: Date.parse(r.file_last_modified),
  fileHash: r.file_hash,
  oneshot: Boolean(r.oneshot),
  deletedDate: r.deleted_date ? new Date(r.deleted_date) : null,
});

/** Rows per page of the reads that can cover a whole library. */
const PAGE = 5000;

/**
 * A read that can cover a whole library (100,000 books), in pages by id with the event loop's turn between them:
 * better-sqlite3 reads a whole result synchronously, and one such read held every request for a second.
 */
async function byIdPages<R extends { id: string }>(page: (after: string) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let after = ''; ;) {
    const rows = await page(after);
    for (const r of rows) out.push(r);
    if (rows.length < PAGE) return out;
    after = rows[rows.length - 1]!.id;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Write side of books, their initial metadata and media rows, plus the reads the scanner and trash need. */
export class KyselyBookRepository implements BookRepository {
  constructor(private readonly db: Db) {}

  async find(id: string, t: Db = this.db): Promise<BookRecord | undefined> {
    const row = await t.selectFrom('book').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  /** Every book of the library, soft-deleted ones included. */
  async findByLibrary(libraryId: string, t: Db = this.db): Promise<BookRecord[]> {
    const rows = await byIdPages((after) =>
      t
        .selectFrom('book')
        .select(COLUMNS)
        .where('library_id', '=', libraryId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute(),
    );
    return rows.map(toRecord);
  }

  /** The live books of the library at these URLs. */
  async findLiveByUrls(libraryId: string, urls: readonly string[], t: Db = this.db): Promise<BookRecord[]> {
    const out: BookRecord[] = [];
    for (const part of chunks(urls)) {
      const rows = await t
        .selectFrom('book')
        .select(COLUMNS)
        .where('library_id', '=', libraryId)
        .where('deleted_date', 'is', null)
        .where('url', 'in', part)
        .execute();
      out.push(...rows.map(toRecord));
    }
    return out;
  }

  async findBySeries(seriesId: string, t: Db = this.db): Promise<BookRecord[]> {
    const rows = await t.selectFrom('book').select(COLUMNS).where('series_id', '=', seriesId).orderBy('id').execute();
    return rows.map(toRecord);
  }

  /** Soft-deleted books of every other library (restore candidates, engine.md §2.7). */
  async findDeletedOutside(libraryId: string, t: Db = this.db): Promise<BookRecord[]> {
    const rows = await t
      .selectFrom('book')
      .select(COLUMNS)
      .where('library_id', '!=', libraryId)
      .where('deleted_date', 'is not', null)
      .execute();
    return rows.map(toRecord);
  }

  /** Soft-deleted books of the library, whatever the state of their series. */
  async findDeleted(libraryId: string, t: Db = this.db): Promise<BookRecord[]> {
    const rows = await t
      .selectFrom('book')
      .select(COLUMNS)
      .where('library_id', '=', libraryId)
      .where('deleted_date', 'is not', null)
      .execute();
    return rows.map(toRecord);
  }

  /** Book rows, their metadata and a `Media(status = UNKNOWN)` each (engine.md §2.4 `addBooks`). */
  async insert(books: readonly NewBook[], at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    for (const part of chunks(books)) {
      await t
        .insertInto('book')
        .values(
          part.map((b) => ({
            id: b.id,
            series_id: b.seriesId,
            library_id: b.libraryId,
            name: b.name,
            url: b.url,
            file_last_modified: iso(b.fileLastModified),
            file_size: b.fileSize,
            file_hash: b.fileHash,
            oneshot: b.oneshot ? 1 : 0,
            deleted_date: null,
            created_date: now,
            last_modified_date: now,
          })),
        )
        .execute();
      await t
        .insertInto('book_metadata')
        .values(
          part.map((b) => ({
            book_id: b.id,
            title: b.title,
            number: b.number,
            number_sort: b.numberSort,
            created_date: now,
            last_modified_date: now,
          })),
        )
        .execute();
      await t
        .insertInto('media')
        .values(part.map((b) => ({ book_id: b.id, status: 'UNKNOWN', created_date: now, last_modified_date: now })))
        .execute();
    }
  }

  /**
   * A changed file (engine.md §2.5): new time, size and hash; its media becomes OUTDATED when `outdated`, and its
   * KOReader hash is blanked then (Komga keeps it), so HashBookKoreader hashes the new bytes: a device that opens
   * the new file computes the new hash and must find the book.
   */
  async updateFile(
    change: { id: string; fileSize: number; fileLastModified: number; fileHash: string; outdated: boolean },
    at: Date,
    t: Db = this.db,
  ): Promise<void> {
    const now = at.toISOString();
    await t
      .updateTable('book')
      .set({
        file_size: change.fileSize,
        file_last_modified: iso(change.fileLastModified),
        file_hash: change.fileHash,
        ...(change.outdated ? { file_hash_koreader: '' } : {}),
        last_modified_date: now,
      })
      .where('id', '=', change.id)
      .execute();
    if (change.outdated) {
      await t
        .updateTable('media')
        .set({ status: 'OUTDATED', last_modified_date: now })
        .where('book_id', '=', change.id)
        .execute();
    }
  }

  async setFileHash(id: string, fileHash: string, at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    await t.updateTable('book').set({ file_hash: fileHash, last_modified_date: now }).where('id', '=', id).execute();
  }

  async softDelete(ids: readonly string[], at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    for (const part of chunks(ids)) {
      await t.updateTable('book').set({ deleted_date: now, last_modified_date: now }).where('id', 'in', part).execute();
    }
  }

  /** Soft-deletes the live books of these series. */
  async softDeleteInSeries(seriesIds: readonly string[], at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    for (const part of chunks(seriesIds)) {
      await t
        .updateTable('book')
        .set({ deleted_date: now, last_modified_date: now })
        .where('series_id', 'in', part)
        .where('deleted_date', 'is', null)
        .execute();
    }
  }

  async titleOf(id: string, t: Db = this.db): Promise<{ title: string; titleLock: boolean } | undefined> {
    const row = await t
      .selectFrom('book_metadata')
      .select(['title', 'title_lock'])
      .where('book_id', '=', id)
      .executeTakeFirst();
    return row && { title: row.title, titleLock: Boolean(row.title_lock) };
  }

  /**
   * Brings a soft-deleted book back at a new place (rename/move, engine.md §2.7): it keeps its id, media,
   * metadata, thumbnails and everybody's read progress; url, name, series, library and file facts are new.
   */
  async revive(
    id: string,
    to: Pick<
      NewBook,
      'seriesId' | 'libraryId' | 'name' | 'url' | 'fileSize' | 'fileLastModified' | 'fileHash' | 'oneshot' | 'title'
    >,
    at: Date,
    t: Db = this.db,
  ): Promise<void> {
    const now = at.toISOString();
    await t
      .updateTable('book')
      .set({
        series_id: to.seriesId,
        library_id: to.libraryId,
        name: to.name,
        url: to.url,
        file_size: to.fileSize,
        file_last_modified: iso(to.fileLastModified),
        file_hash: to.fileHash,
        oneshot: to.oneshot ? 1 : 0,
        deleted_date: null,
        last_modified_date: now,
      })
      .where('id', '=', id)
      .execute();
    await t
      .updateTable('book_metadata')
      .set({ title: to.title, last_modified_date: now })
      .where('book_id', '=', id)
      .execute();
  }

  /** Every book of the series (soft-deleted ones included) with what numbering needs. */
  async numberingOf(seriesId: string, t: Db = this.db): Promise<BookNumbering[]> {
    const rows = await t
      .selectFrom('book')
      .innerJoin('book_metadata', 'book_metadata.book_id', 'book.id')
      .select([
        'book.id',
        'book.name',
        'book.number',
        'book_metadata.number as m_number',
        'book_metadata.number_sort',
        'book_metadata.number_lock',
        'book_metadata.number_sort_lock',
      ])
      .where('book.series_id', '=', seriesId)
      .orderBy('book.number')
      .orderBy('book.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      number: Number(r.number),
      metadata: {
        number: r.m_number,
        numberSort: Number(r.number_sort),
        numberLock: Boolean(r.number_lock),
        numberSortLock: Boolean(r.number_sort_lock),
      },
    }));
  }

  async setNumbers(
    id: string,
    numbers: { number: number; metadataNumber: string; metadataNumberSort: number },
    at: Date,
    t: Db = this.db,
  ): Promise<void> {
    const now = at.toISOString();
    await t.updateTable('book').set({ number: numbers.number }).where('id', '=', id).execute();
    await t
      .updateTable('book_metadata')
      .set({ number: numbers.metadataNumber, number_sort: numbers.metadataNumberSort, last_modified_date: now })
      .where('book_id', '=', id)
      .execute();
  }

  /** Live books of the library whose media is UNKNOWN or OUTDATED (engine.md §8.3). */
  async findToAnalyze(libraryId: string, t: Db = this.db): Promise<{ id: string; seriesId: string }[]> {
    const rows = await byIdPages((after) =>
      t
        .selectFrom('book')
        .innerJoin('media', 'media.book_id', 'book.id')
        .select(['book.id', 'book.series_id'])
        .where('book.library_id', '=', libraryId)
        .where('book.deleted_date', 'is', null)
        .where('media.status', 'in', ['UNKNOWN', 'OUTDATED'])
        .where('book.id', '>', after)
        .orderBy('book.id')
        .limit(PAGE)
        .execute(),
    );
    return rows.map((r) => ({ id: r.id, seriesId: r.series_id }));
  }

  /** Live books of the library without a file hash. */
  async findUnhashed(libraryId: string, t: Db = this.db): Promise<string[]> {
    const rows = await byIdPages((after) =>
      t
        .selectFrom('book')
        .select('id')
        .where('library_id', '=', libraryId)
        .where('deleted_date', 'is', null)
        .where('file_hash', '=', '')
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute(),
    );
    return rows.map((r) => r.id);
  }

  async findWithoutKoreaderHash(libraryId: string, t: Db = this.db): Promise<string[]> {
    const rows = await byIdPages((after) =>
      t
        .selectFrom('book')
        .select('id')
        .where('library_id', '=', libraryId)
        .where('deleted_date', 'is', null)
        .where('file_hash_koreader', '=', '')
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute(),
    );
    return rows.map((r) => r.id);
  }

  /**
   * Live books whose file extension is not the one `extensions` gives for their analysed media type (engine.md
   * §11.2), comparing ASCII without regard to case, so `Book.CBZ` is fine.
   */
  async findWithWrongExtension(
    libraryId: string,
    extensions: Readonly<Record<string, string>>,
    t: Db = this.db,
  ): Promise<{ id: string; seriesId: string }[]> {
    const rows = await t
      .selectFrom('book as b')
      .innerJoin('media as m', 'm.book_id', 'b.id')
      .select(['b.id', 'b.series_id'])
      .where('b.library_id', '=', libraryId)
      .where('b.deleted_date', 'is', null)
      .where((eb) =>
        eb.or(
          Object.entries(extensions).map(([mediaType, ext]) =>
            eb.and([eb('m.media_type', '=', mediaType), eb('b.url', notLikeNocase(t), `%.${ext}`)]),
          ),
        ),
      )
      .orderBy('b.id')
      .execute();
    return rows.map((r) => ({ id: r.id, seriesId: r.series_id }));
  }

  /** Live books of a library with one of the given media types (FindBooksToConvert, engine.md §11.1). */
  async findByMediaType(
    libraryId: string,
    mediaTypes: readonly string[],
    t: Db = this.db,
  ): Promise<{ id: string; seriesId: string }[]> {
    const rows = await t
      .selectFrom('book as b')
      .innerJoin('media as m', 'm.book_id', 'b.id')
      .select(['b.id', 'b.series_id'])
      .where('b.library_id', '=', libraryId)
      .where('b.deleted_date', 'is', null)
      .where('m.media_type', 'in', mediaTypes)
      .orderBy('b.id')
      .execute();
    return rows.map((r) => ({ id: r.id, seriesId: r.series_id }));
  }

  /**
   * The book's file was replaced by another (conversion) or renamed (extension repair): its url, size and time;
   * hashes as given (blank when the bytes changed).
   */
  async replaceFile(
    id: string,
    file: { url: string; fileSize: number; fileLastModified: number; fileHash: string; fileHashKoreader: string },
    at: Date,
    t: Db = this.db,
  ): Promise<void> {
    const now = at.toISOString();
    await t
      .updateTable('book')
      .set({
        url: file.url,
        file_size: file.fileSize,
        file_last_modified: iso(file.fileLastModified),
        file_hash: file.fileHash,
        file_hash_koreader: file.fileHashKoreader,
        last_modified_date: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async upgradeFile(
    id: string,
    file: { name: string; url: string; fileSize: number; fileLastModified: number },
    at: Date,
    t: Db = this.db,
  ): Promise<void> {
    const now = at.toISOString();
    await atomically(t, async (tx) => {
      await tx
        .updateTable('book')
        .set({
          name: file.name,
          url: file.url,
          file_size: file.fileSize,
          file_last_modified: iso(file.fileLastModified),
          file_hash: '',
          file_hash_koreader: '',
          deleted_date: null,
          last_modified_date: now,
        })
        .where('id', '=', id)
        .execute();
      await tx
        .updateTable('media')
        .set({ status: 'OUTDATED', last_modified_date: now })
        .where('book_id', '=', id)
        .execute();
    });
  }

  /** Hard delete; metadata, media, pages, thumbnail rows and read progress go through the cascades. */
  async hardDelete(ids: readonly string[], t: Db = this.db): Promise<void> {
    for (const part of chunks(ids)) await t.deleteFrom('book').where('id', 'in', part).execute();
  }
}

import type { Db } from '../database.js';
import type { SeriesRepository } from '../../domain/ports.js';
import type { SeriesRecord, NewSeries } from '../../domain/series.js';

const iso = (ms: number) => new Date(ms).toISOString();
const CHUNK = 500;
const chunks = <T>(xs: readonly T[]) => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
};

type Row = {
  id: string;
  library_id: string;
  name: string;
  url: string;
  file_last_modified: string;
  oneshot: number | boolean;
  book_count: number;
  deleted_date: string | null;
};

const toRecord = (r: Row): SeriesRecord => ({
  id: r.id,
  libraryId: r.library_id,
  name: r.name,
  url: r.url,
  fileLastModified: Date.parse(r.file_last_modified),
  oneshot: Boolean(r.oneshot),
  bookCount: Number(r.book_count),
  deletedDate: r.deleted_date ? new Date(r.deleted_date) : null,
});

const COLUMNS = [
  'id',
  'library_id',
  'name',
  'url',
  'file_last_modified',
  'oneshot',
  'book_count',
  'deleted_date',
] as const;

/** Write side of series (and the simple reads the scanner and the trash need). */
export class KyselySeriesRepository implements SeriesRepository {
  constructor(private readonly db: Db) {}

  async find(id: string, t: Db = this.db): Promise<SeriesRecord | undefined> {
    const row = await t.selectFrom('series').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  /** Every series of the library, soft-deleted ones included. */
  async findByLibrary(libraryId: string, t: Db = this.db): Promise<SeriesRecord[]> {
    const rows = await t
      .selectFrom('series')
      .select(COLUMNS)
      .where('library_id', '=', libraryId)
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  /** The live series of the library at these URLs. */
  async findLiveByUrls(libraryId: string, urls: readonly string[], t: Db = this.db): Promise<SeriesRecord[]> {
    const out: SeriesRecord[] = [];
    for (const part of chunks(urls)) {
      const rows = await t
        .selectFrom('series')
        .select(COLUMNS)
        .where('library_id', '=', libraryId)
        .where('deleted_date', 'is', null)
        .where('url', 'in', part)
        .execute();
      out.push(...rows.map(toRecord));
    }
    return out;
  }

  /** Soft-deleted series of every other library. */
  async findDeletedOutside(libraryId: string, t: Db = this.db): Promise<SeriesRecord[]> {
    const rows = await t
      .selectFrom('series')
      .select(COLUMNS)
      .where('library_id', '!=', libraryId)
      .where('deleted_date', 'is not', null)
      .execute();
    return rows.map(toRecord);
  }

  async findDeletedIds(libraryId: string, t: Db = this.db): Promise<string[]> {
    const rows = await t
      .selectFrom('series')
      .select('id')
      .where('library_id', '=', libraryId)
      .where('deleted_date', 'is not', null)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Series row, its metadata (`title = titleSort = name` by default) and an empty book-metadata aggregation. */
  async insert(series: readonly NewSeries[], at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    for (const part of chunks(series)) {
      await t
        .insertInto('series')
        .values(
          part.map((s) => ({
            id: s.id,
            library_id: s.libraryId,
            name: s.name,
            url: s.url,
            file_last_modified: iso(s.fileLastModified),
            oneshot: s.oneshot ? 1 : 0,
            deleted_date: null,
            created_date: now,
            last_modified_date: now,
          })),
        )
        .execute();
      await t
        .insertInto('series_metadata')
        .values(
          part.map((s) => ({
            series_id: s.id,
            title: s.title,
            title_sort: s.titleSort,
            created_date: now,
            last_modified_date: now,
          })),
        )
        .execute();
      await t
        .insertInto('book_metadata_aggregation')
        .values(part.map((s) => ({ series_id: s.id, created_date: now, last_modified_date: now })))
        .execute();
    }
  }

  async updateFileLastModified(id: string, fileLastModified: number, at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    await t
      .updateTable('series')
      .set({ file_last_modified: iso(fileLastModified), last_modified_date: now })
      .where('id', '=', id)
      .execute();
  }

  async allTitles(t: Db = this.db) {
    return t.selectFrom('series_metadata').select(['series_id as id', 'title']).orderBy('series_id').execute();
  }

  async moveOneshot(id: string, file: { url: string; fileLastModified: number }, at: Date, t: Db = this.db) {
    await t
      .updateTable('series')
      .set({ url: file.url, file_last_modified: iso(file.fileLastModified), last_modified_date: at.toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async softDelete(ids: readonly string[], at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    for (const part of chunks(ids)) {
      await t
        .updateTable('series')
        .set({ deleted_date: now, last_modified_date: now })
        .where('id', 'in', part)
        .execute();
    }
  }

  async titles(id: string, t: Db = this.db) {
    const row = await t
      .selectFrom('series_metadata')
      .select(['title', 'title_sort', 'title_lock', 'title_sort_lock'])
      .where('series_id', '=', id)
      .executeTakeFirst();
    return row
      ? {
          title: row.title,
          titleSort: row.title_sort,
          titleLock: Boolean(row.title_lock),
          titleSortLock: Boolean(row.title_sort_lock),
        }
      : undefined;
  }

  /**
   * Brings a soft-deleted series back at a new place (rename/move, engine.md §2.7): it keeps its id, its
   * metadata, its thumbnails and collections; its url, name, library and time are the walked ones.
   */
  async revive(id: string, to: Omit<NewSeries, 'id'>, at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    await t
      .updateTable('series')
      .set({
        library_id: to.libraryId,
        name: to.name,
        url: to.url,
        file_last_modified: iso(to.fileLastModified),
        oneshot: to.oneshot ? 1 : 0,
        deleted_date: null,
        last_modified_date: now,
      })
      .where('id', '=', id)
      .execute();
    await t
      .updateTable('series_metadata')
      .set({ title: to.title, title_sort: to.titleSort, last_modified_date: now })
      .where('series_id', '=', id)
      .execute();
  }

  async setBookCount(id: string, bookCount: number, at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    await t
      .updateTable('series')
      .set({ book_count: bookCount, last_modified_date: now })
      .where('id', '=', id)
      .where('book_count', '!=', bookCount)
      .execute();
  }

  /** Hard delete; books, metadata, thumbnails rows… go through the foreign keys' cascades. */
  async hardDelete(ids: readonly string[], t: Db = this.db): Promise<void> {
    for (const part of chunks(ids)) await t.deleteFrom('series').where('id', 'in', part).execute();
  }
}

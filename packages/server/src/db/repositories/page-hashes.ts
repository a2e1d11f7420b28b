import { sql, type RawBuilder } from 'kysely';
import type {
  Found,
  KnownPageHash,
  PageHashAction,
  PageHashMatch,
  PageHashRepository,
  PageHashSlice,
  PageHashSort,
  PageToRemove,
  UnknownPageHash,
} from '../../domain/page-hashes.js';
import type { Db } from '../database.js';

/** The ZIP media type, the only one whose pages are hashed (engine.md §5.3). */
const ZIP = 'application/zip';

/** The unknown list's default order; written exactly as `page_hash_count_total_idx` so that SQLite walks it. */
const TOTAL_SIZE = 'c.match_count * coalesce(c.file_size, 0)';

const KNOWN_SORTS: Record<string, string> = {
  hash: 'k.hash',
  matchCount: 'coalesce(c.match_count, 0)',
  deleteCount: 'k.delete_count',
  deleteSize: 'k.delete_count * coalesce(k.size, 0)',
  fileSize: 'k.size',
  size: 'k.size',
  created: 'k.created_date',
  createdDate: 'k.created_date',
  lastModified: 'k.last_modified_date',
  lastModifiedDate: 'k.last_modified_date',
};
const UNKNOWN_SORTS: Record<string, string> = {
  hash: 'c.hash',
  fileSize: 'c.file_size',
  size: 'c.file_size',
  matchCount: 'c.match_count',
  totalSize: TOTAL_SIZE,
};
const MATCH_SORTS: Record<string, string> = {
  url: 'lower(b.url)',
  bookId: 'p.book_id',
  pageNumber: 'p.number',
  fileName: 'p.file_name',
  fileSize: 'p.file_size',
  size: 'p.file_size',
  mediaType: 'p.media_type',
};

/** `ORDER BY` of the known properties in `sort` (unknown ones ignored, as Spring Data does), else `fallback`. */
function orderBy(
  sort: readonly PageHashSort[],
  columns: Record<string, string>,
  fallback: string,
): RawBuilder<unknown> {
  const parts = sort.flatMap((s) => {
    const column = Object.hasOwn(columns, s.property) ? columns[s.property] : undefined;
    return column ? [`${column} ${s.descending ? 'DESC' : 'ASC'}`] : [];
  });
  return sql.raw(parts.length ? parts.join(', ') : fallback);
}

const limit = (slice: PageHashSlice) => (slice ? sql`LIMIT ${slice.limit} OFFSET ${slice.offset}` : sql``);

interface KnownRow {
  hash: string;
  size: number | null;
  action: string;
  delete_count: number;
  match_count: number;
  created_date: string;
  last_modified_date: string;
}
const toKnown = (r: KnownRow): KnownPageHash => ({
  hash: r.hash,
  size: r.size,
  action: r.action as PageHashAction,
  deleteCount: r.delete_count,
  matchCount: r.match_count,
  createdDate: r.created_date,
  lastModifiedDate: r.last_modified_date,
});

/** {@link PageHashRepository} on SQLite: `page_hash`, `page_hash_thumbnail`, and `page_hash_count` (migration 0011). */
export class KyselyPageHashRepository implements PageHashRepository {
  constructor(private readonly db: Db) {}

  async findKnown(hash: string): Promise<KnownPageHash | undefined> {
    const { rows } = await sql<KnownRow>`
      SELECT k.*, coalesce(c.match_count, 0) AS match_count
      FROM page_hash k LEFT JOIN page_hash_count c ON c.hash = k.hash
      WHERE k.hash = ${hash}`.execute(this.db);
    return rows[0] && toKnown(rows[0]);
  }

  async listKnown(
    actions: readonly PageHashAction[],
    sort: readonly PageHashSort[],
    slice: PageHashSlice,
  ): Promise<Found<KnownPageHash>> {
    const where = actions.length ? sql`WHERE k.action IN (${sql.join(actions)})` : sql``;
    const { rows } = await sql<KnownRow>`
      SELECT k.*, coalesce(c.match_count, 0) AS match_count
      FROM page_hash k LEFT JOIN page_hash_count c ON c.hash = k.hash
      ${where}
      ORDER BY ${orderBy(sort, KNOWN_SORTS, 'k.last_modified_date DESC')}, k.hash
      ${limit(slice)}`.execute(this.db);
    const total = await sql<{ n: number }>`SELECT count(*) AS n FROM page_hash k ${where}`.execute(this.db);
    return { items: rows.map(toKnown), total: total.rows[0]?.n ?? 0 };
  }

  async listUnknown(sort: readonly PageHashSort[], slice: PageHashSlice): Promise<Found<UnknownPageHash>> {
    const unknown = sql`c.match_count > 1 AND NOT EXISTS (SELECT 1 FROM page_hash k WHERE k.hash = c.hash)`;
    const { rows } = await sql<{ hash: string; file_size: number | null; match_count: number }>`
      SELECT c.hash, c.file_size, c.match_count FROM page_hash_count c
      WHERE ${unknown}
      ORDER BY ${orderBy(sort, UNKNOWN_SORTS, `${TOTAL_SIZE} DESC`)}, c.hash
      ${limit(slice)}`.execute(this.db);
    const total = await sql<{ n: number }>`SELECT count(*) AS n FROM page_hash_count c WHERE ${unknown}`.execute(
      this.db,
    );
    return {
      items: rows.map((r) => ({ hash: r.hash, size: r.file_size, matchCount: r.match_count })),
      total: total.rows[0]?.n ?? 0,
    };
  }

  async listMatches(hash: string, sort: readonly PageHashSort[], slice: PageHashSlice): Promise<Found<PageHashMatch>> {
    const { rows } = await sql<{
      book_id: string;
      series_id: string;
      url: string;
      number: number;
      file_name: string;
      file_size: number | null;
      media_type: string;
    }>`
      SELECT p.book_id, b.series_id, b.url, p.number, p.file_name, p.file_size, p.media_type
      FROM media_page p JOIN book b ON b.id = p.book_id
      WHERE p.file_hash = ${hash}
      ORDER BY ${orderBy(sort, MATCH_SORTS, 'lower(b.url)')}, p.book_id, p.number
      ${limit(slice)}`.execute(this.db);
    const total = await sql<{ n: number }>`SELECT count(*) AS n FROM media_page WHERE file_hash = ${hash}`.execute(
      this.db,
    );
    return {
      items: rows.map((r) => ({
        bookId: r.book_id,
        seriesId: r.series_id,
        url: r.url,
        number: r.number,
        fileName: r.file_name,
        fileSize: r.file_size,
        mediaType: r.media_type,
      })),
      total: total.rows[0]?.n ?? 0,
    };
  }

  async create(
    known: { hash: string; size: number | null; action: PageHashAction; thumbnail: Uint8Array | null },
    now: string,
  ): Promise<void> {
    await this.db.transaction().execute(async (t) => {
      await t
        .insertInto('page_hash')
        .values({
          hash: known.hash,
          size: known.size,
          action: known.action,
          created_date: now,
          last_modified_date: now,
        })
        .execute();
      if (known.thumbnail) {
        await t.insertInto('page_hash_thumbnail').values({ hash: known.hash, thumbnail: known.thumbnail }).execute();
      }
    });
  }

  async updateAction(hash: string, action: PageHashAction, now: string): Promise<void> {
    await this.db.updateTable('page_hash').set({ action, last_modified_date: now }).where('hash', '=', hash).execute();
  }

  async thumbnail(hash: string): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom('page_hash_thumbnail')
      .select('thumbnail')
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row?.thumbnail;
  }

  async addDeleted(hash: string, count: number, now: string): Promise<void> {
    await this.db
      .updateTable('page_hash')
      .set((eb) => ({ delete_count: eb('delete_count', '+', count), last_modified_date: now }))
      .where('hash', '=', hash)
      .execute();
  }

  async autoDeletePages(libraryId: string): Promise<Map<string, { seriesId: string; pages: PageToRemove[] }>> {
    const rows = await this.db
      .selectFrom('page_hash as k')
      .innerJoin('media_page as p', 'p.file_hash', 'k.hash')
      .innerJoin('book as b', 'b.id', 'p.book_id')
      .innerJoin('media as m', 'm.book_id', 'b.id')
      .select(['b.id', 'b.series_id', 'p.number', 'p.file_name', 'p.media_type', 'p.file_hash'])
      .where('k.action', '=', 'DELETE_AUTO')
      .where('b.library_id', '=', libraryId)
      .where('b.deleted_date', 'is', null)
      .where('m.status', '=', 'READY')
      .where('m.media_type', '=', ZIP)
      .orderBy('b.id')
      .orderBy('p.number')
      .execute();
    const byBook = new Map<string, { seriesId: string; pages: PageToRemove[] }>();
    for (const r of rows) {
      let entry = byBook.get(r.id);
      if (!entry) byBook.set(r.id, (entry = { seriesId: r.series_id, pages: [] }));
      entry.pages.push({ hash: r.file_hash, fileName: r.file_name, mediaType: r.media_type, number: r.number });
    }
    return byBook;
  }
}

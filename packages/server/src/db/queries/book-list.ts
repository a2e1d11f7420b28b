import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { SearchConditionBook } from '@quire/api';
import type { Db } from '../database.js';
import type { FullTextSearch } from '../search/full-text-search.js';
import { jsonArrayRows } from '../dialect.js';
import { and, bookVisibility, compileBookCondition, seriesVisibility, type ListContext } from './conditions.js';
import type { IdPage, Slice } from './series-list.js';
import { BOOK_SORTS, resolveSort, type SortOrder } from './sort.js';

/**
 * Book lists (api.md §3.3, §3.5, §5): pages of visible books for a condition tree and a full-text query, on deck
 * (engine.md §13.4), the neighbours of a book in its series and in a read list, and which collections and read
 * lists the caller may open. DTOs are built from the ids by BookQueries.
 */

export interface BookListRequest {
  ctx: ListContext;
  condition: SearchConditionBook | null;
  fullText?: string | null;
}

const EMPTY: IdPage = { ids: [], total: 0, sorted: false };
const none = sql``;

interface Prepared {
  where: RawBuilder<SqlBool>;
  joins: Set<string>;
  fts: string | null;
  readListId: string | undefined;
}

export class BookListQueries {
  constructor(
    private readonly db: Db,
    private readonly search: FullTextSearch,
  ) {}

  async list(request: BookListRequest, orders: readonly SortOrder[], slice: Slice): Promise<IdPage> {
    const q = await this.prepare(request);
    if (!q) return EMPTY;
    const sort = resolveSort(orders, BOOK_SORTS, {
      relevance: q.fts !== null,
      collection: false,
      readlist: q.readListId !== undefined,
    });
    const joins = new Set<string>([...q.joins, ...sort.joins]);
    const from = this.from(request.ctx, joins, q.fts, q.readListId);
    const orderBy = sort.orderBy.length ? sql`ORDER BY ${sql.join([...sort.orderBy, sql`b.id`])}` : none;
    const limit = slice ? sql`LIMIT ${slice.limit} OFFSET ${slice.offset}` : none;
    // The total comes with the page: `count(*) OVER ()` counts every matching row before LIMIT, in the pass that
    // reads them all to sort them anyway; a second query counting them read thousands of rows again at 1,000,000
    // books. Only a page past the end, which has no row to carry it, still counts apart.
    const { rows } = await sql<{ id: string; total: number }>`
      SELECT b.id, count(*) OVER () AS total FROM ${from} WHERE ${q.where} ${orderBy} ${limit}`.execute(this.db);
    const ids = rows.map((r) => r.id);
    let total = rows.length ? Number(rows[0]!.total) : 0;
    if (slice && rows.length === 0 && slice.offset > 0) {
      const counted = await sql<{ n: number }>`
        SELECT count(*) AS n FROM ${this.from(request.ctx, q.joins, q.fts, undefined)} WHERE ${q.where}`.execute(
        this.db,
      );
      total = Number(counted.rows[0]?.n ?? 0);
    }
    return { ids, total, sorted: sort.orderBy.length > 0 };
  }

  /**
   * On deck: for each visible series the caller has read some of, with nothing in progress and not everything
   * read, its first book without progress (smallest numberSort, then id); most recently read series first.
   */
  async onDeck(ctx: ListContext, libraryIds: readonly string[] | null, slice: Slice): Promise<IdPage> {
    const where = and([
      seriesVisibility(ctx),
      libraryIds === null
        ? null
        : libraryIds.length
          ? sql<SqlBool>`s.library_id IN (${sql.join(libraryIds)})`
          : sql<SqlBool>`FALSE`,
    ]);
    // series_metadata only when the caller's restrictions read it (age rating, labels): every series has its row,
    // and counting a deck of thousands of series read it for nothing.
    const metadata = where !== null && /\bsm\./.test(where.compile(this.db).sql);
    const deck = sql`read_progress_series rs
      JOIN series s ON s.id = rs.series_id
      ${metadata ? sql`JOIN series_metadata sm ON sm.series_id = s.id` : none}
      WHERE rs.user_id = ${ctx.userId} AND rs.in_progress_count = 0 AND rs.read_count != s.book_count
      ${where ? sql`AND ${where}` : none}`;
    const limit = slice ? sql`LIMIT ${slice.limit} OFFSET ${slice.offset}` : none;
    const { rows } = await sql<{ id: string | null }>`
      SELECT (
        SELECT b.id FROM book b JOIN book_metadata bm ON bm.book_id = b.id
        WHERE b.series_id = s.id
          AND NOT EXISTS (SELECT 1 FROM read_progress r WHERE r.book_id = b.id AND r.user_id = ${ctx.userId})
        ORDER BY bm.number_sort, b.id LIMIT 1
      ) AS id
      FROM ${deck}
      ORDER BY rs.most_recent_read_date DESC, s.id ${limit}`.execute(this.db);
    const ids = rows.map((r) => r.id).filter((id): id is string => id !== null);
    let total = rows.length;
    if (slice && !(slice.offset === 0 && rows.length < slice.limit)) {
      const counted = await sql<{ n: number }>`SELECT count(*) AS n FROM ${deck}`.execute(this.db);
      total = Number(counted.rows[0]?.n ?? 0);
    }
    return { ids, total, sorted: false };
  }

  /** The next (or previous) book of the book's series by numberSort (then id), deleted ones included. */
  async siblingInSeries(bookId: string, next: boolean): Promise<string | undefined> {
    const me = await this.db
      .selectFrom('book as b')
      .innerJoin('book_metadata as bm', 'bm.book_id', 'b.id')
      .select(['b.series_id', 'bm.number_sort'])
      .where('b.id', '=', bookId)
      .executeTakeFirst();
    if (!me) return undefined;
    const after = next
      ? sql<SqlBool>`(bm.number_sort > ${me.number_sort} OR (bm.number_sort = ${me.number_sort} AND b.id > ${bookId}))`
      : sql<SqlBool>`(bm.number_sort < ${me.number_sort} OR (bm.number_sort = ${me.number_sort} AND b.id < ${bookId}))`;
    const direction = next ? sql`ASC` : sql`DESC`;
    const { rows } = await sql<{ id: string }>`
      SELECT b.id FROM book b JOIN book_metadata bm ON bm.book_id = b.id
      WHERE b.series_id = ${me.series_id} AND ${after}
      ORDER BY bm.number_sort ${direction}, b.id ${direction} LIMIT 1`.execute(this.db);
    return rows[0]?.id;
  }

  /**
   * The next (or previous) visible book of a read list, in list order when the list is ordered, else by release
   * date (then id), as `/readlists/{id}/books` lists them. Undefined when the book is not a visible member.
   */
  async siblingInReadList(
    ctx: ListContext,
    readListId: string,
    bookId: string,
    next: boolean,
  ): Promise<string | undefined> {
    const list = await this.db.selectFrom('readlist').select('ordered').where('id', '=', readListId).executeTakeFirst();
    if (!list) return undefined;
    const page = await this.list(
      { ctx, condition: { readListId: { operator: 'is', value: readListId } } },
      [{ property: list.ordered ? 'readList.number' : 'metadata.releaseDate', descending: false }],
      null,
    );
    const i = page.ids.indexOf(bookId);
    if (i < 0) return undefined;
    return page.ids[next ? i + 1 : i - 1];
  }

  /**
   * Whether the caller may open this collection or read list (api.md §2.10: invisible → 404): it exists, and
   * either nothing restricts the caller or at least one member is visible to them.
   */
  async canOpen(
    ctx: ListContext,
    kind: 'collection' | 'readlist',
    id: string,
  ): Promise<{ ordered: boolean } | undefined> {
    const owner =
      kind === 'collection'
        ? await this.db.selectFrom('collection').select('ordered').where('id', '=', id).executeTakeFirst()
        : await this.db.selectFrom('readlist').select('ordered').where('id', '=', id).executeTakeFirst();
    if (!owner) return undefined;
    const unrestricted =
      ctx.libraryIds === null &&
      ctx.ageRestriction === null &&
      ctx.labelsAllow.length === 0 &&
      ctx.labelsExclude.length === 0;
    if (!unrestricted) {
      const member =
        kind === 'collection'
          ? sql<{ x: number }>`SELECT 1 AS x FROM collection_series cs JOIN series s ON s.id = cs.series_id
              JOIN series_metadata sm ON sm.series_id = s.id
              WHERE cs.collection_id = ${id} AND ${seriesVisibility(ctx) ?? sql`TRUE`} LIMIT 1`
          : sql<{ x: number }>`SELECT 1 AS x FROM readlist_book rb JOIN book b ON b.id = rb.book_id
              JOIN series_metadata sm ON sm.series_id = b.series_id
              WHERE rb.readlist_id = ${id} AND ${bookVisibility(ctx) ?? sql`TRUE`} LIMIT 1`;
      if ((await member.execute(this.db)).rows.length === 0) return undefined;
    }
    return { ordered: Boolean(owner.ordered) };
  }

  private async prepare(request: BookListRequest): Promise<Prepared | null> {
    await this.search.refresh();
    const hits = await this.search.search('book', request.fullText);
    if (hits !== null && hits.length === 0) return null;
    const compiled = compileBookCondition(request.condition);
    const joins = new Set<string>(compiled.joins);
    if (request.ctx.ageRestriction) joins.add('sm');
    return {
      where: and([bookVisibility(request.ctx), compiled.where]) ?? sql<SqlBool>`TRUE`,
      joins,
      fts: hits === null ? null : JSON.stringify(hits),
      readListId: compiled.readListId,
    };
  }

  private from(ctx: ListContext, joins: Set<string>, fts: string | null, readListId: string | undefined) {
    return sql`book b
      ${joins.has('bm') ? sql`JOIN book_metadata bm ON bm.book_id = b.id` : none}
      ${joins.has('sm') ? sql`JOIN series_metadata sm ON sm.series_id = b.series_id` : none}
      ${joins.has('m') ? sql`LEFT JOIN media m ON m.book_id = b.id` : none}
      ${joins.has('r') ? sql`LEFT JOIN read_progress r ON r.book_id = b.id AND r.user_id = ${ctx.userId}` : none}
      ${joins.has('bs') ? sql`LEFT JOIN book_search bs ON bs.book_id = b.id` : none}
      ${joins.has('ss') ? sql`LEFT JOIN series_search ss ON ss.series_id = b.series_id` : none}
      ${
        joins.has('readlist') && readListId !== undefined
          ? sql`LEFT JOIN readlist_book rlo ON rlo.book_id = b.id AND rlo.readlist_id = ${readListId}`
          : none
      }
      ${fts ? sql`JOIN (SELECT value AS id, key AS rank FROM ${jsonArrayRows(this.db, fts)} j) fts ON fts.id = b.id` : none}`;
  }
}

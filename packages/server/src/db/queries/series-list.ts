import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { SearchConditionSeries } from '@quire/api';
import type { Db } from '../database.js';
import type { FullTextSearch } from '../search/full-text-search.js';
import { jsonArrayRows, walkIndex } from '../dialect.js';
import { and, compileSeriesCondition, seriesVisibility, type ListContext } from './conditions.js';
import { resolveSort, SERIES_SORTS, type SortOrder } from './sort.js';

/**
 * Series lists (api.md §3.2, §5): the ids of one page of series the caller may see, matching a condition tree and
 * a full-text query, in the requested order, with the total count. DTOs are built from the ids by SeriesQueries.
 */

/** A page to read: `null` for every row (unpaged). */
export type Slice = { offset: number; limit: number } | null;

export interface IdPage {
  ids: string[];
  total: number;
  /** Whether an order was applied (Spring's `sort.sorted`). */
  sorted: boolean;
}

export interface SeriesListRequest {
  ctx: ListContext;
  condition: SearchConditionSeries | null;
  fullText?: string | null;
  /** Deprecated `search_regex`: a case-insensitive, unanchored match on the title or sort title. */
  regex?: { pattern: string; field: 'title' | 'titleSort' } | null;
  /** `/series/updated`: only series changed since they were added. */
  updatedOnly?: boolean;
}

const EMPTY: IdPage = { ids: [], total: 0, sorted: false };
const none = sql``;

export class SeriesListQueries {
  constructor(
    private readonly db: Db,
    private readonly search: FullTextSearch,
  ) {}

  async list(request: SeriesListRequest, orders: readonly SortOrder[], slice: Slice): Promise<IdPage> {
    const q = await this.prepare(request);
    if (!q) return EMPTY;
    const sort = resolveSort(orders, SERIES_SORTS, {
      relevance: q.fts !== null,
      collection: q.collectionId !== undefined,
      readlist: false,
    });
    const joins = new Set<string>([...q.joins, ...sort.joins]);
    const orderBy = sort.orderBy.length ? sql`ORDER BY ${sql.join([...sort.orderBy, sql`s.id`])}` : none;
    const limit = slice ? sql`LIMIT ${slice.limit} OFFSET ${slice.offset}` : none;
    // A page sorted on a folded title or name can be read by walking that key's index, stopping once the page is
    // full, instead of sorting every matching series: far cheaper when many series match (the default grid of a
    // library of 50,000 series: 0.1 ms against 40 ms), far dearer when few do (it would walk the whole index).
    // The count decides: walking reads about (offset + limit) × all / matching index entries, sorting reads
    // `matching` rows.
    const index = slice && q.fts === null && q.collectionId === undefined ? walkableIndex(orders) : undefined;
    let total: number | undefined;
    let walk: string | undefined;
    if (index && slice) {
      total = await this.count(request.ctx, q);
      const all = await this.allSeries();
      if ((slice.offset + slice.limit) * all < total * total) walk = index;
    }
    const from = this.from(request.ctx, joins, q.fts, q.collectionId, walk);
    const { rows } = await sql<{ id: string }>`SELECT s.id FROM ${from} WHERE ${q.where} ${orderBy} ${limit}`.execute(
      this.db,
    );
    const ids = rows.map((r) => r.id);
    total ??=
      !slice || (slice.offset === 0 && ids.length < slice.limit) ? ids.length : await this.count(request.ctx, q);
    return { ids, total, sorted: sort.orderBy.length > 0 };
  }

  private async allSeries(): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM series`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** Series count per lower-cased first character of the sort title (`/series/list/alphabetical-groups`). */
  async groups(request: SeriesListRequest): Promise<{ group: string; count: number }[]> {
    const q = await this.prepare(request);
    if (!q) return [];
    const from = this.from(request.ctx, q.joins, q.fts, undefined);
    const { rows } = await sql<{ g: string; n: number }>`
      SELECT substr(sm.title_sort, 1, 1) AS g, count(*) AS n FROM ${from} WHERE ${q.where} GROUP BY g`.execute(this.db);
    const counts = new Map<string, number>();
    for (const r of rows) {
      const g = r.g.toLowerCase();
      counts.set(g, (counts.get(g) ?? 0) + Number(r.n));
    }
    return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([group, count]) => ({ group, count }));
  }

  /**
   * How many series match. Without the join to series_metadata when the condition does not read it (every series
   * has its metadata row, written with it): that join was 90% of counting a library of 25,000 series.
   */
  private async count(ctx: ListContext, q: Prepared): Promise<number> {
    const metadata = /\bsm\./.test(q.where.compile(this.db).sql);
    const from = this.from(ctx, q.joins, q.fts, undefined, undefined, metadata);
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${from} WHERE ${q.where}`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  private async prepare(request: SeriesListRequest): Promise<Prepared | null> {
    await this.search.refresh();
    const hits = await this.search.search('series', request.fullText);
    if (hits !== null && hits.length === 0) return null;
    const compiled = compileSeriesCondition(request.condition);
    const parts: (RawBuilder<SqlBool> | null)[] = [seriesVisibility(request.ctx), compiled.where];
    if (request.updatedOnly) parts.push(sql<SqlBool>`s.created_date != s.last_modified_date`);
    if (request.regex) {
      const matching = await this.regexMatches(request.regex.pattern, request.regex.field);
      if (matching.length === 0) return null;
      parts.push(sql<SqlBool>`s.id IN (SELECT value FROM ${jsonArrayRows(this.db, JSON.stringify(matching))} m)`);
    }
    const joins = new Set<string>(compiled.joins);
    return {
      where: and(parts) ?? sql<SqlBool>`TRUE`,
      joins,
      fts: hits === null ? null : JSON.stringify(hits),
      collectionId: compiled.collectionId,
    };
  }

  /**
   * The joined tables of a list. With `walk` (an index of series_search), the query reads series in that index's
   * order (CROSS JOIN fixes the loop order); every series has its search row once the index is refreshed.
   * `metadata: false` leaves series_metadata out, for a count whose condition does not read it.
   */
  private from(
    ctx: ListContext,
    joins: Set<string>,
    fts: string | null,
    collectionId: string | undefined,
    walk?: string,
    metadata = true,
  ) {
    return sql`${
      walk ? walkIndex(this.db, 'series_search ss', walk, 'series s', sql`s.id = ss.series_id`) : sql`series s`
    } ${metadata ? sql`JOIN series_metadata sm ON sm.series_id = s.id` : none}
      ${joins.has('ag') ? sql`LEFT JOIN book_metadata_aggregation ag ON ag.series_id = s.id` : none}
      ${joins.has('rs') ? sql`LEFT JOIN read_progress_series rs ON rs.series_id = s.id AND rs.user_id = ${ctx.userId}` : none}
      ${joins.has('ss') && !walk ? sql`LEFT JOIN series_search ss ON ss.series_id = s.id` : none}
      ${
        joins.has('collection') && collectionId !== undefined
          ? sql`LEFT JOIN collection_series cso ON cso.series_id = s.id AND cso.collection_id = ${collectionId}`
          : none
      }
      ${fts ? sql`JOIN (SELECT value AS id, key AS rank FROM ${jsonArrayRows(this.db, fts)} j) fts ON fts.id = s.id` : none}`;
  }

  /** Ids of the series whose title (or sort title) the regular expression finds, case-insensitively. */
  private async regexMatches(pattern: string, field: 'title' | 'titleSort'): Promise<string[]> {
    let re: RegExp;
    try {
      re = new RegExp(pattern, 'i');
    } catch {
      return [];
    }
    const rows = await this.db.selectFrom('series_metadata').select(['series_id', 'title', 'title_sort']).execute();
    return rows.filter((r) => re.test(field === 'title' ? r.title : r.title_sort)).map((r) => r.series_id);
  }
}

/** Series sorts whose first key has an index of series_search (migration 0006) a page can be read along. */
const WALKABLE_INDEXES: Record<string, string> = {
  'metadata.titleSort': 'series_search_title_sort_idx',
  name: 'series_search_name_idx',
};

/** The index to walk for these orders: the one of the first order the list applies, if it has one. */
function walkableIndex(orders: readonly SortOrder[]): string | undefined {
  const first = orders.find((o) => Object.hasOwn(SERIES_SORTS, o.property));
  return first && Object.hasOwn(WALKABLE_INDEXES, first.property) ? WALKABLE_INDEXES[first.property] : undefined;
}

interface Prepared {
  where: RawBuilder<SqlBool>;
  joins: Set<string>;
  fts: string | null;
  collectionId: string | undefined;
}

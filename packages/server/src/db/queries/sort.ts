import { sql, type RawBuilder } from 'kysely';
import type { Join } from './conditions.js';

/**
 * Sort properties of series and book lists (api.md §1.4) and their SQL. Text sorts use the folded keys the search
 * index keeps (case- and accent-insensitive, like Komga's ICU collation), then the original text; `url` and
 * `media.*` compare without ASCII case (NOCASE). Unknown properties are ignored, as Spring Data's are.
 */

export interface SortOrder {
  property: string;
  descending: boolean;
}

/** `sort=prop[,prop…][,asc|desc]` parameters, in order (Spring's reading). */
export function parseSort(params: readonly string[] | undefined): SortOrder[] {
  const out: SortOrder[] = [];
  for (const entry of params ?? []) {
    const parts = entry
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const last = parts.at(-1)?.toLowerCase();
    const descending = last === 'desc';
    if (last === 'asc' || last === 'desc') parts.pop();
    for (const property of parts) out.push({ property, descending });
  }
  return out;
}

/** What a sort reads besides the base tables; `collection`, `readlist` and `relevance` exist only in some lists. */
export type SortJoin = Join | 'collection' | 'readlist' | 'relevance';

interface SortColumn {
  /** Expressions compared in turn (the folded key, then the original as a tie-breaker). */
  exprs: RawBuilder<unknown>[];
  joins: SortJoin[];
}

const col = (expr: string, ...joins: SortJoin[]): SortColumn => ({ exprs: [sql.raw(expr)], joins });
const folded = (key: string, original: string, ...joins: SortJoin[]): SortColumn => ({
  exprs: [sql.raw(key), sql.raw(original)],
  joins,
});

export const SERIES_SORTS: Record<string, SortColumn> = {
  'metadata.titleSort': folded('ss.title_sort_fold', 'sm.title_sort', 'ss'),
  created: col('s.created_date'),
  createdDate: col('s.created_date'),
  lastModified: col('s.last_modified_date'),
  lastModifiedDate: col('s.last_modified_date'),
  'booksMetadata.releaseDate': col('ag.release_date', 'ag'),
  readDate: col('rs.most_recent_read_date', 'rs'),
  'collection.number': col('cso.number', 'collection'),
  name: folded('ss.name_fold', 's.name', 'ss'),
  booksCount: col('s.book_count'),
  random: col('random()'),
  relevance: col('fts.rank', 'relevance'),
};

export const BOOK_SORTS: Record<string, SortColumn> = {
  name: folded('bs.name_fold', 'b.name', 'bs'),
  series: folded('ss.title_sort_fold', 'sm.title_sort', 'ss', 'sm'),
  created: col('b.created_date'),
  createdDate: col('b.created_date'),
  lastModified: col('b.last_modified_date'),
  lastModifiedDate: col('b.last_modified_date'),
  fileSize: col('b.file_size'),
  size: col('b.file_size'),
  fileHash: col('b.file_hash'),
  url: col('lower(b.url)'),
  'media.status': col('lower(m.status)', 'm'),
  'media.comment': col('lower(m.comment)', 'm'),
  'media.mediaType': col('lower(m.media_type)', 'm'),
  'media.pagesCount': col('m.page_count', 'm'),
  // The book's copies of book_search.title_fold and book_metadata.title (migration 0022): no join.
  'metadata.title': folded('b.sort_title_fold', 'b.sort_title'),
  'metadata.numberSort': col('bm.number_sort', 'bm'),
  'metadata.releaseDate': col('bm.release_date', 'bm'),
  'readProgress.lastModified': col('r.last_modified_date', 'r'),
  'readProgress.readDate': col('r.read_date', 'r'),
  'readList.number': col('rlo.number', 'readlist'),
  relevance: col('fts.rank', 'relevance'),
};

export interface ResolvedSort {
  /** ORDER BY items; empty when nothing applies (the page then says "unsorted"). */
  orderBy: RawBuilder<unknown>[];
  joins: Set<SortJoin>;
}

/**
 * The ORDER BY of `orders` on `sorts`. Orders needing what the query lacks (relevance without a full-text search,
 * collection / read-list order without such a condition) are dropped, like unknown properties.
 */
export function resolveSort(
  orders: readonly SortOrder[],
  sorts: Record<string, SortColumn>,
  available: { relevance: boolean; collection: boolean; readlist: boolean },
): ResolvedSort {
  const orderBy: RawBuilder<unknown>[] = [];
  const joins = new Set<SortJoin>();
  for (const o of orders) {
    const c = Object.hasOwn(sorts, o.property) ? sorts[o.property] : undefined;
    if (!c) continue;
    if (c.joins.includes('relevance') && !available.relevance) continue;
    if (c.joins.includes('collection') && !available.collection) continue;
    if (c.joins.includes('readlist') && !available.readlist) continue;
    for (const j of c.joins) joins.add(j);
    // Nulls sort low, as SQLite sorts them (PostgreSQL's own default is high). Said on both: SQLite's default,
    // so its plans do not change.
    for (const e of c.exprs) orderBy.push(o.descending ? sql`${e} DESC NULLS LAST` : sql`${e} ASC NULLS FIRST`);
  }
  return { orderBy, joins };
}

import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../database.js';
import type { DB } from '../schema.js';
import type { ContentViewer } from '../../domain/restrictions.js';
import { seesEverything } from '../../domain/restrictions.js';
import { seriesVisibleTo } from './conditions.js';

/**
 * Referential values (api.md §3.6): the distinct authors, genres, tags, publishers… of what a user may see.
 * Visibility is applied in SQL with the rules of api.md §2.10 (shared libraries, age rating, sharing labels),
 * so a value carried only by hidden series never appears. Matching and ordering happen on the distinct values:
 * `search` is a case- and accent-insensitive "contains", strings sort by Unicode collation.
 */

/** Narrows values to some libraries, collections, series or read lists (one kind at a time). */
export interface EntityFilter {
  kind: 'library' | 'collection' | 'series' | 'readlist';
  ids: readonly string[];
}

export interface ValueQuery {
  search?: string;
  filter?: EntityFilter | null;
}

export interface AuthorQuery extends ValueQuery {
  role?: string;
}

export type SeriesValueKind = 'genre' | 'seriesTag' | 'sharingLabel' | 'publisher' | 'language';

type SeriesScope = ExpressionBuilder<DB & { s: DB['series']; sm: DB['series_metadata'] }, 's' | 'sm'>;

const collator = new Intl.Collator('en');

/** Lower-cased, accents removed (NFD without combining marks), as the "contains" filters compare. */
export function foldForSearch(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

function matching(values: Iterable<string>, search: string | undefined): string[] {
  const wanted = search ? foldForSearch(search) : '';
  const out: string[] = [];
  for (const v of values) if (!wanted || foldForSearch(v).includes(wanted)) out.push(v);
  return out;
}

const sorted = (values: string[]) => values.sort((a, b) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));

export class ReferentialQueries {
  constructor(private readonly db: Db) {}

  /** Distinct (name, role) pairs of book authors, by name. */
  async authors(viewer: ContentViewer, q: AuthorQuery): Promise<{ name: string; role: string }[]> {
    const rows = await this.authorRows(viewer, q);
    const names = new Set(matching(new Set(rows.map((r) => r.name)), q.search));
    const pairs = rows.filter((r) => names.has(r.name));
    return pairs.sort((a, b) => collator.compare(a.name, b.name) || collator.compare(a.role, b.role));
  }

  async authorNames(viewer: ContentViewer, q: AuthorQuery): Promise<string[]> {
    const rows = await this.authorRows(viewer, q);
    return sorted(matching(new Set(rows.map((r) => r.name)), q.search));
  }

  async authorRoles(viewer: ContentViewer, q: ValueQuery): Promise<string[]> {
    const rows = await this.authorRows(viewer, { filter: q.filter });
    return sorted([...new Set(rows.map((r) => r.role))]);
  }

  /** A series-level list: genres, series tags, sharing labels, publishers or languages ("" left out). */
  async seriesValues(viewer: ContentViewer, kind: SeriesValueKind, q: ValueQuery): Promise<string[]> {
    if (!seesAnyLibrary(viewer)) return [];
    const visible = this.visibleSeries(viewer, q.filter);
    let values: string[];
    if (kind === 'publisher' || kind === 'language') {
      const column = kind === 'publisher' ? 'publisher' : 'language';
      let query = this.db.selectFrom('series_metadata').select(column).distinct().where(column, '!=', '');
      if (visible) query = query.where('series_id', 'in', visible);
      values = (await query.execute()).map((r) => (r as Record<typeof column, string>)[column]);
    } else if (kind === 'genre') {
      let query = this.db.selectFrom('series_metadata_genre').select('genre').distinct();
      if (visible) query = query.where('series_id', 'in', visible);
      values = (await query.execute()).map((r) => r.genre);
    } else if (kind === 'seriesTag') {
      let query = this.db.selectFrom('series_metadata_tag').select('tag').distinct();
      if (visible) query = query.where('series_id', 'in', visible);
      values = (await query.execute()).map((r) => r.tag);
    } else {
      let query = this.db.selectFrom('series_metadata_sharing').select('label').distinct();
      if (visible) query = query.where('series_id', 'in', visible);
      values = (await query.execute()).map((r) => r.label);
    }
    return sorted(matching(new Set(values), q.search));
  }

  /** Tags of the books themselves. */
  async bookTags(viewer: ContentViewer, q: ValueQuery): Promise<string[]> {
    if (!seesAnyLibrary(viewer)) return [];
    const books = this.visibleBooks(viewer, q.filter);
    let query = this.db.selectFrom('book_metadata_tag').select('tag').distinct();
    if (books) query = query.where('book_id', 'in', books);
    const values = (await query.execute()).map((r) => r.tag);
    return sorted(matching(new Set(values), q.search));
  }

  /** Series and book tags together, each once. */
  async allTags(viewer: ContentViewer, q: ValueQuery): Promise<string[]> {
    const [series, books] = await Promise.all([this.seriesValues(viewer, 'seriesTag', q), this.bookTags(viewer, q)]);
    return sorted([...new Set([...series, ...books])]);
  }

  /** Distinct age ratings, ascending; null (no rating) first when some visible series has none. */
  async ageRatings(viewer: ContentViewer, q: ValueQuery): Promise<(number | null)[]> {
    if (!seesAnyLibrary(viewer)) return [];
    const visible = this.visibleSeries(viewer, q.filter);
    let query = this.db.selectFrom('series_metadata').select('age_rating').distinct();
    if (visible) query = query.where('series_id', 'in', visible);
    const values = (await query.execute()).map((r) => r.age_rating);
    return values.sort((a, b) => (a === null ? -1 : b === null ? 1 : a - b));
  }

  /** Years of the series release dates (earliest book date, engine.md §6.9), newest first. */
  async releaseYears(viewer: ContentViewer, q: ValueQuery): Promise<string[]> {
    if (!seesAnyLibrary(viewer)) return [];
    const visible = this.visibleSeries(viewer, q.filter);
    let query = this.db
      .selectFrom('book_metadata_aggregation')
      .select('release_date')
      .distinct()
      .where('release_date', 'is not', null);
    if (visible) query = query.where('series_id', 'in', visible);
    const years = new Set<string>();
    for (const r of await query.execute()) {
      const year = /^(\d{4})/.exec(r.release_date ?? '')?.[1];
      if (year) years.add(year);
    }
    return [...years].sort((a, b) => b.localeCompare(a));
  }

  private async authorRows(viewer: ContentViewer, q: AuthorQuery): Promise<{ name: string; role: string }[]> {
    if (!seesAnyLibrary(viewer)) return [];
    const books = this.visibleBooks(viewer, q.filter);
    let query = this.db.selectFrom('book_metadata_author').select(['name', 'role']).distinct();
    if (q.role !== undefined) query = query.where('role', '=', q.role);
    if (books) query = query.where('book_id', 'in', books);
    return query.execute();
  }

  /**
   * For book-level values: the ids of the books of visible series, narrowed by `filter` (a read list narrows
   * to its own books, not to their series); null when that is every book.
   */
  private visibleBooks(viewer: ContentViewer, filter: EntityFilter | null | undefined) {
    const readList = filter?.kind === 'readlist' ? [...filter.ids] : null;
    const series = this.visibleSeries(viewer, readList ? null : filter);
    if (!series && !readList) return null;
    let query = this.db.selectFrom('book').select('id');
    if (series) query = query.where('series_id', 'in', series);
    if (readList)
      query = query.where('id', 'in', (eb) =>
        eb.selectFrom('readlist_book').select('book_id').where('readlist_id', 'in', readList),
      );
    return query;
  }

  /**
   * The ids of the series the viewer may see, narrowed by `filter`; null when that is every series (no
   * restriction, no filter), so callers can skip the join.
   */
  private visibleSeries(viewer: ContentViewer, filter: EntityFilter | null | undefined) {
    if (!filter && seesEverything(viewer)) return null;
    return this.db
      .selectFrom('series as s')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .select('s.id')
      .where((eb) => eb.and([seriesVisibleTo(viewer), ...(filter ? [narrowing(eb, filter)] : [])]));
  }
}

const canSeeAllLibraries = (v: ContentViewer) => v.roles.has('ADMIN') || v.sharedAllLibraries;

function seesAnyLibrary(v: ContentViewer): boolean {
  return canSeeAllLibraries(v) || v.sharedLibraryIds.length > 0;
}

function narrowing(eb: SeriesScope, filter: EntityFilter) {
  const ids = [...filter.ids];
  switch (filter.kind) {
    case 'library':
      return eb('s.library_id', 'in', ids);
    case 'series':
      return eb('s.id', 'in', ids);
    case 'collection':
      return eb('s.id', 'in', eb.selectFrom('collection_series').select('series_id').where('collection_id', 'in', ids));
    case 'readlist':
      return eb(
        's.id',
        'in',
        eb
          .selectFrom('readlist_book as rb')
          .innerJoin('book as rbb', 'rbb.id', 'rb.book_id')
          .select('rbb.series_id')
          .where('rb.readlist_id', 'in', ids),
      );
  }
}

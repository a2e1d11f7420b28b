import type { FastifyRequest } from 'fastify';
import type {
  BookDto,
  MediaStatus,
  Page,
  ReadStatus,
  SearchConditionBook,
  SearchConditionSeries,
  SeriesDto,
  SeriesStatus,
} from '@quire/api';
import type { IdPage, Slice } from '../db/queries/series-list.js';
import type { BookQueries } from '../db/queries/books.js';
import type { SeriesQueries } from '../db/queries/series.js';
import { listContext } from '../db/queries/conditions.js';
import { parseSort, type SortOrder } from '../db/queries/sort.js';
import { isAdmin, type CurrentUser } from '../domain/user.js';
import { toBookDto } from './mappers/books.js';
import { toSeriesDto } from './mappers/series.js';

/**
 * What every list endpoint shares (api.md §1.4, §5.3): paging, Spring's page envelope, and the deprecated GET
 * filters turned into the conditions of `POST /series/list` and `/books/list`. The query parameters arrive as
 * Spring binds them (plugins/binding.ts): arrays split, booleans and enum values converted, undeclared ones dropped.
 */

const DEFAULT_SIZE = 20;
const MAX_SIZE = 2000;

export interface PageRequest {
  page: number;
  size: number;
  unpaged: boolean;
  slice: Slice;
}

/** page (0-based, negative → 0), size (default 20, < 1 → 20, at most 2000), unpaged. */
export function pageRequest(q: { page?: number; size?: number; unpaged?: boolean }): PageRequest {
  const page = Math.max(0, q.page ?? 0);
  const size = q.size === undefined || q.size < 1 ? DEFAULT_SIZE : Math.min(q.size, MAX_SIZE);
  const unpaged = q.unpaged === true;
  return { page, size, unpaged, slice: unpaged ? null : { offset: page * size, limit: size } };
}

/**
 * Spring's serialised PageImpl, the envelope of every paged list (api.md §1.4). An unpaged answer still looks
 * paged (size = max(total, 20)), as Komga's does. `sorted` is false only for a list query given no order.
 */
export function toPage<T>(
  content: T[],
  total: number,
  req: Pick<PageRequest, 'page' | 'size' | 'unpaged'>,
  sorted = true,
): Page<T> {
  const sort = { empty: !sorted, sorted, unsorted: !sorted };
  const number = req.unpaged ? 0 : req.page;
  const size = req.unpaged ? Math.max(total, DEFAULT_SIZE) : req.size;
  const totalPages = Math.ceil(total / size);
  return {
    content,
    pageable: { pageNumber: number, pageSize: size, offset: number * size, paged: true, unpaged: false, sort },
    totalElements: total,
    totalPages,
    last: number + 1 >= totalPages,
    first: number === 0,
    size,
    number,
    numberOfElements: content.length,
    empty: content.length === 0,
    sort,
  };
}

/** One page of values already in memory and in order (referential lists). */
export function pageOf<T>(values: T[], req: PageRequest): Page<T> {
  const content = req.slice ? values.slice(req.slice.offset, req.slice.offset + req.slice.limit) : values;
  return toPage(content, values.length, req);
}

/** The requested orders; with none, relevance when there is a full-text search (api.md §1.4). */
export function ordersOf(sort: string[] | undefined, fullText: string | null | undefined): SortOrder[] {
  const orders = parseSort(sort);
  if (orders.length === 0 && fullText && fullText.trim() !== '') return [{ property: 'relevance', descending: false }];
  return orders;
}

/**
 * A search list (`POST /api/v1/books/list`, `/series/list`, api.md §5): the body's condition and full-text search
 * for the caller, the query's paging and orders.
 */
export function searchRequest<C>(req: {
  user: CurrentUser;
  body: { condition?: C | null; fullTextSearch?: string | null };
  query: { page?: number; size?: number; unpaged?: boolean; sort?: string[] };
}) {
  const fullText = req.body.fullTextSearch;
  return {
    search: { ctx: listContext(req.user), condition: req.body.condition ?? null, fullText },
    orders: ordersOf(req.query.sort, fullText),
    page: pageRequest(req.query),
  };
}

/** What turns the ids of a list query into DTOs (narrowed from the routes' dependencies). */
export interface SeriesViews {
  books: { series: Pick<SeriesQueries, 'findMany'> };
}
export interface BookViews {
  books: { queries: Pick<BookQueries, 'findMany'> };
}

/** A page of SeriesDto for the ids of a list query. */
export async function seriesPage(deps: SeriesViews, req: FastifyRequest, found: IdPage, page: PageRequest) {
  const user = req.user!;
  const views = await deps.books.series.findMany(found.ids, user.id);
  return toPage<SeriesDto>(
    views.map((v) => toSeriesDto(v, isAdmin(user))),
    found.total,
    page,
    found.sorted,
  );
}

/** A page of BookDto for the ids of a list query. */
export async function bookPage(deps: BookViews, req: FastifyRequest, found: IdPage, page: PageRequest) {
  const user = req.user!;
  const views = await deps.books.queries.findMany(found.ids, user.id);
  return toPage<BookDto>(
    views.map((v) => toBookDto(v, isAdmin(user))),
    found.total,
    page,
    found.sorted,
  );
}

// ---- deprecated GET filters → conditions (api.md §5.3) ----

/** `author=name,role`, split on the last comma; values without a comma are ignored. */
export function authorsOf(values: readonly string[] | undefined): { name: string; role: string }[] {
  return (values ?? []).flatMap((v) => {
    const i = v.lastIndexOf(',');
    return i < 0 ? [] : [{ name: v.slice(0, i), role: v.slice(i + 1) }];
  });
}

type AnyCondition = SearchConditionSeries | SearchConditionBook;

/** Values of one parameter are alternatives (anyOf); parameters add up (allOf). */
function anyOf<C extends AnyCondition, V extends string = string>(
  values: readonly V[] | undefined,
  make: (v: V) => C,
): C[] {
  return values && values.length ? [{ anyOf: values.map(make) } as C] : [];
}
const bool = (v: boolean) => ({ operator: v ? ('isTrue' as const) : ('isFalse' as const) });

export interface SeriesFilters {
  library_id?: string[];
  collection_id?: string[];
  status?: SeriesStatus[];
  read_status?: ReadStatus[];
  publisher?: string[];
  language?: string[];
  genre?: string[];
  tag?: string[];
  age_rating?: string[];
  release_year?: string[];
  sharing_label?: string[];
  deleted?: boolean;
  complete?: boolean;
  oneshot?: boolean;
  author?: string[];
}

export function seriesFilterCondition(q: SeriesFilters, extra: SearchConditionSeries[] = []): SearchConditionSeries {
  const is = <T extends string>(value: T) => ({ operator: 'is' as const, value });
  const all: SearchConditionSeries[] = [
    ...extra,
    ...anyOf<SearchConditionSeries>(q.library_id, (v) => ({ libraryId: is(v) })),
    ...anyOf<SearchConditionSeries>(q.collection_id, (v) => ({ collectionId: is(v) })),
    ...anyOf<SearchConditionSeries, SeriesStatus>(q.status, (v) => ({ seriesStatus: is(v) })),
    ...anyOf<SearchConditionSeries>(q.publisher, (v) => ({ publisher: is(v) })),
    ...anyOf<SearchConditionSeries>(q.language, (v) => ({ language: is(v) })),
    ...anyOf<SearchConditionSeries>(q.genre, (v) => ({ genre: is(v) })),
    ...anyOf<SearchConditionSeries>(q.tag, (v) => ({ tag: is(v) })),
    ...anyOf<SearchConditionSeries, ReadStatus>(q.read_status, (v) => ({ readStatus: is(v) })),
  ];
  const authors = authorsOf(q.author);
  if (authors.length) all.push({ anyOf: authors.map((a) => ({ author: { operator: 'is', value: a } })) });
  all.push(
    ...anyOf<SearchConditionSeries>(q.age_rating, (v) => {
      const n = /^[-+]?\d+$/.test(v.trim()) ? Number(v) : NaN;
      return { ageRating: Number.isInteger(n) ? { operator: 'is', value: n } : { operator: 'isNull' } };
    }),
  );
  const years = (q.release_year ?? [])
    .map((y) => (/^[-+]?\d+$/.test(y.trim()) ? Number(y) : NaN))
    .filter(Number.isInteger);
  if (years.length) {
    all.push({
      anyOf: years.map((y) => ({
        allOf: [
          { releaseDate: { operator: 'after', dateTime: `${String(y - 1).padStart(4, '0')}-12-31T12:00:00Z` } },
          { releaseDate: { operator: 'before', dateTime: `${String(y + 1).padStart(4, '0')}-01-01T12:00:00Z` } },
        ],
      })),
    });
  }
  all.push(...anyOf<SearchConditionSeries>(q.sharing_label, (v) => ({ sharingLabel: is(v) })));
  if (q.oneshot !== undefined) all.push({ oneShot: bool(q.oneshot) });
  if (q.complete !== undefined) all.push({ complete: bool(q.complete) });
  if (q.deleted !== undefined) all.push({ deleted: bool(q.deleted) });
  return { allOf: all };
}

export interface BookFilters {
  library_id?: string[];
  media_status?: MediaStatus[];
  read_status?: ReadStatus[];
  tag?: string[];
  deleted?: boolean;
  author?: string[];
  released_after?: string;
}

export function bookFilterCondition(q: BookFilters, extra: SearchConditionBook[] = []): SearchConditionBook {
  const is = <T extends string>(value: T) => ({ operator: 'is' as const, value });
  const all: SearchConditionBook[] = [
    ...extra,
    ...anyOf<SearchConditionBook>(q.library_id, (v) => ({ libraryId: is(v) })),
    ...anyOf<SearchConditionBook, MediaStatus>(q.media_status, (v) => ({ mediaStatus: is(v) })),
    ...anyOf<SearchConditionBook, ReadStatus>(q.read_status, (v) => ({ readStatus: is(v) })),
    ...anyOf<SearchConditionBook>(q.tag, (v) => ({ tag: is(v) })),
  ];
  const authors = authorsOf(q.author);
  if (authors.length) all.push({ anyOf: authors.map((a) => ({ author: { operator: 'is', value: a } })) });
  if (q.released_after) all.push({ releaseDate: { operator: 'after', dateTime: `${q.released_after}T00:00:00Z` } });
  if (q.deleted !== undefined) all.push({ deleted: bool(q.deleted) });
  return { allOf: all };
}

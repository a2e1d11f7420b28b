import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  type QueryKey,
} from '@tanstack/react-query';
import type {
  AuthorMatch,
  BookDto,
  BookSearch,
  EqualityOperator,
  MediaStatus,
  Page,
  ReadStatus,
  SearchConditionBook,
} from '@quire/api';
import { ApiError, client, operationUrl, type PathFor } from './client';

/**
 * Books (api.md §3.3, §5): detail, the search list, series and read-list members, on deck. This file also holds
 * the paging and search-condition vocabulary every list of the web client shares (series.ts builds on it).
 */
export type { AuthorMatch, BookDto, BookSearch, EqualityOperator, Page, ReadStatus };

// ---------------------------------------------------------------------------------------------------------------
// Paging

/** Paging of a list request: `page` is 0-based as on the wire; `sort` entries read `property,asc|desc`. */
export interface PageParams {
  page?: number;
  size?: number;
  sort?: readonly string[];
  unpaged?: boolean;
}

/** Paging of a list in its own order (a collection's series, a read list's books): no sort. */
export const pagingQuery = (p: PageParams) => ({ page: p.page, size: p.size, unpaged: p.unpaged || undefined });

export const pageQuery = (p: PageParams) => ({ ...pagingQuery(p), sort: p.sort });

/** Default size of one page of a horizontal scroller (the server's default, ui.md §2.7). */
export const SCROLLER_PAGE_SIZE = 20;

/** The next page number of an infinite list, or undefined at the end. */
export const nextPageParam = <T>(last: Page<T>): number | undefined => (last.last ? undefined : last.number + 1);

/** Every item of an infinite query's pages, in order. */
export const flattenPages = <T>(data: { pages: Page<T>[] } | undefined): T[] =>
  data ? data.pages.flatMap((p) => p.content) : [];

/**
 * An infinite list fetched page by page (horizontal scrollers). `fetchPage` receives the 0-based page number and the
 * page size.
 */
export function infiniteList<T>(
  queryKey: QueryKey,
  fetchPage: (page: number, size: number) => Promise<Page<T>>,
  opts: { staleTime?: number } = {},
) {
  return infiniteQueryOptions({
    ...opts,
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam, SCROLLER_PAGE_SIZE),
    initialPageParam: 0,
    getNextPageParam: (last: Page<T>) => nextPageParam(last),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Search conditions (api.md §5.1): single-key objects, combined with allOf / anyOf. The grammar is the server's
// request schema (`@quire/api` search.ts); its types come from there, as types only.

/** Read statuses in the order the filters offer them. */
export const READ_STATUSES = ['UNREAD', 'IN_PROGRESS', 'READ'] as const satisfies readonly ReadStatus[];

export type BookCondition = SearchConditionBook;

/** Conditions ANDed together; undefined when there are none, one condition stays as it is. */
export function allOf<C>(conditions: (C | undefined | null | false)[]): { allOf: C[] } | C | undefined {
  const list = conditions.filter((c): c is C => !!c);
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : { allOf: list };
}

/** One of the libraries (no condition for the `all` pseudo-library, an empty list or undefined). */
export function inLibraries(
  libraryIds: readonly string[] | undefined,
): { anyOf: { libraryId: EqualityOperator<string> }[] } | undefined {
  if (!libraryIds?.length) return undefined;
  return { anyOf: libraryIds.map((value) => ({ libraryId: { operator: 'is', value } })) };
}

// ---------------------------------------------------------------------------------------------------------------
// Queries

export interface BookListParams extends PageParams, BookSearch {}

/** Filters of a read list's or series' members (the deprecated GET filters, api.md §3.2, §3.5). */
export interface MemberBookParams extends PageParams {
  read_status?: readonly ReadStatus[];
  tag?: readonly string[];
  media_status?: readonly MediaStatus[];
  deleted?: boolean;
  /** `name,role` each. */
  author?: readonly string[];
  library_id?: readonly string[];
}

export interface OnDeckParams {
  libraryIds?: readonly string[];
}

export const bookKeys = {
  all: ['books'] as const,
  lists: () => [...bookKeys.all, 'list'] as const,
  list: (params: BookListParams) => [...bookKeys.lists(), params] as const,
  infinite: (params: BookListParams) => [...bookKeys.all, 'infinite', params] as const,
  detail: (id: string) => [...bookKeys.all, 'detail', id] as const,
  /** Previous or next book, in the series or in a read list. */
  sibling: (id: string, direction: 'next' | 'previous', readListId?: string) =>
    [...bookKeys.all, 'sibling', id, direction, readListId ?? null] as const,
  /**
   * The reader's neighbours, asked once per book opened: outside `books` so that the read-progress events of every
   * page turn do not ask again (a book at the end of its series answered 404 on each turn).
   */
  readerSibling: (id: string, direction: 'next' | 'previous', readListId?: string) =>
    ['reader-sibling', id, direction, readListId ?? null] as const,
  inSeries: (seriesId: string, params: MemberBookParams) => [...bookKeys.all, 'series', seriesId, params] as const,
  inReadList: (readListId: string, params: MemberBookParams) =>
    [...bookKeys.all, 'readlist', readListId, params] as const,
  onDeck: (params: OnDeckParams) => [...bookKeys.all, 'ondeck', params] as const,
  /** Under `books`, so that live book events refresh it like every other book list. */
  duplicates: (params: PageParams) => [...bookKeys.all, 'duplicates', params] as const,
};

const searchBody = (p: BookSearch): BookSearch => ({
  ...(p.condition ? { condition: p.condition } : {}),
  ...(p.fullTextSearch ? { fullTextSearch: p.fullTextSearch } : {}),
});

/** The deprecated filters of a series' or read list's books, as a query. */
const memberFilters = ({ read_status, tag, media_status, deleted, author }: MemberBookParams) => ({
  read_status,
  tag,
  media_status,
  deleted,
  author,
});

export const fetchBookList = (params: BookListParams) =>
  client.post('/api/v1/books/list', { query: pageQuery(params), body: searchBody(params) });

export const fetchOnDeck = (params: OnDeckParams & PageParams) =>
  client.get('/api/v1/books/ondeck', {
    query: { library_id: params.libraryIds && [...params.libraryIds], page: params.page, size: params.size },
  });

export const bookQueries = {
  detail: (id: string) =>
    queryOptions({
      queryKey: bookKeys.detail(id),
      queryFn: () => client.get('/api/v1/books/{bookId}', { params: { bookId: id } }),
    }),
  list: (params: BookListParams) =>
    queryOptions({
      queryKey: bookKeys.list(params),
      queryFn: () => fetchBookList(params),
      placeholderData: keepPreviousData,
    }),
  infinite: (params: Omit<BookListParams, 'page' | 'size'>) =>
    infiniteList(bookKeys.infinite(params), (page, size) => fetchBookList({ ...params, page, size })),
  inSeries: (seriesId: string, params: MemberBookParams = {}) =>
    queryOptions({
      queryKey: bookKeys.inSeries(seriesId, params),
      queryFn: () =>
        client.get('/api/v1/series/{seriesId}/books', {
          params: { seriesId },
          query: { ...pageQuery(params), ...memberFilters(params) },
        }),
      placeholderData: keepPreviousData,
    }),
  inReadList: (readListId: string, params: MemberBookParams = {}) =>
    queryOptions({
      queryKey: bookKeys.inReadList(readListId, params),
      queryFn: () =>
        client.get('/api/v1/readlists/{id}/books', {
          params: { id: readListId },
          query: { ...pagingQuery(params), ...memberFilters(params), library_id: params.library_id },
        }),
      placeholderData: keepPreviousData,
    }),
  onDeck: (params: OnDeckParams = {}) =>
    infiniteList(bookKeys.onDeck(params), (page, size) => fetchOnDeck({ ...params, page, size })),
  /** Books whose files have the same hash and size, in every library (admins; ui.md §13.6). */
  duplicates: (params: PageParams) =>
    queryOptions({
      queryKey: bookKeys.duplicates(params),
      queryFn: () => client.get('/api/v1/books/duplicates', { query: pageQuery(params) }),
      placeholderData: keepPreviousData,
    }),
  /** The neighbour in the series (or in the read list when given); null at either end (404). */
  sibling: (id: string, direction: 'next' | 'previous', readListId?: string) =>
    queryOptions({
      queryKey: bookKeys.sibling(id, direction, readListId),
      queryFn: () => fetchSibling(id, direction, readListId),
    }),
  /** The same neighbour for a reading session: fetched once, kept while the reader is open. */
  readerSibling: (id: string, direction: 'next' | 'previous', readListId?: string) =>
    queryOptions({
      queryKey: bookKeys.readerSibling(id, direction, readListId),
      queryFn: () => fetchSibling(id, direction, readListId),
      staleTime: Infinity,
    }),
};

async function fetchSibling(id: string, direction: 'next' | 'previous', readListId?: string): Promise<BookDto | null> {
  try {
    if (readListId) {
      const inList = { params: { id: readListId, bookId: id } };
      return await (direction === 'next'
        ? client.get('/api/v1/readlists/{id}/books/{bookId}/next', inList)
        : client.get('/api/v1/readlists/{id}/books/{bookId}/previous', inList));
    }
    const inSeries = { params: { bookId: id } };
    return await (direction === 'next'
      ? client.get('/api/v1/books/{bookId}/next', inSeries)
      : client.get('/api/v1/books/{bookId}/previous', inSeries));
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

export const useBook = (id: string) => useQuery(bookQueries.detail(id));
/** A page of `POST /api/v1/books/list`. */
export const useBooks = (params: BookListParams, options: { enabled?: boolean } = {}) =>
  useQuery({ ...bookQueries.list(params), ...options });
/** The same search fetched page after page (horizontal scrollers). */
export const useBooksInfinite = (params: Omit<BookListParams, 'page' | 'size'>, options: { enabled?: boolean } = {}) =>
  useInfiniteQuery({ ...bookQueries.infinite(params), ...options });
export const useSeriesBooks = (seriesId: string, params: MemberBookParams = {}) =>
  useQuery(bookQueries.inSeries(seriesId, params));
export const useReadListBooks = (readListId: string, params: MemberBookParams = {}) =>
  useQuery(bookQueries.inReadList(readListId, params));
/** First unread book of each series being read (GET /books/ondeck), page after page. */
export const useOnDeck = (params: OnDeckParams = {}, options: { enabled?: boolean } = {}) =>
  useInfiniteQuery({ ...bookQueries.onDeck(params), ...options });
export const useDuplicateBooks = (params: PageParams) => useQuery(bookQueries.duplicates(params));
export const useNextBook = (id: string, readListId?: string) => useQuery(bookQueries.sibling(id, 'next', readListId));
export const usePreviousBook = (id: string, readListId?: string) =>
  useQuery(bookQueries.sibling(id, 'previous', readListId));

// ---------------------------------------------------------------------------------------------------------------
// Posters

export type PosterKind = 'books' | 'series' | 'collections' | 'readlists';

/**
 * One cache entry per poster holding a version number: 0 until a thumbnail event invalidates it, then the time of
 * the refetch, appended to the URL so the browser loads the new image. Kept apart from the entity keys so that
 * refreshing a list does not reload every poster on screen.
 */
export const thumbnailKeys = {
  all: ['thumbnail'] as const,
  of: (kind: PosterKind, id: string) => [...thumbnailKeys.all, kind, id] as const,
};

/** The poster operations of one kind of owner: paths of the operation table, and the owner's path parameters. */
function posterPathsOf<const Base extends string, Params extends object>(base: Base, params: (id: string) => Params) {
  return {
    poster: `${base}/thumbnail` as const,
    list: `${base}/thumbnails` as const,
    one: `${base}/thumbnails/{thumbnailId}` as const,
    selected: `${base}/thumbnails/{thumbnailId}/selected` as const,
    params,
  };
}

/**
 * Where each owner's posters are, by operation path: `satisfies` checks that every path has the operations the
 * client calls on it, so a poster call cannot name a route the table does not have.
 */
export const posterPaths = {
  books: posterPathsOf('/api/v1/books/{bookId}', (bookId) => ({ bookId })),
  series: posterPathsOf('/api/v1/series/{seriesId}', (seriesId) => ({ seriesId })),
  collections: posterPathsOf('/api/v1/collections/{id}', (id) => ({ id })),
  readlists: posterPathsOf('/api/v1/readlists/{id}', (id) => ({ id })),
} satisfies Record<
  PosterKind,
  {
    poster: PathFor<'GET'>;
    list: PathFor<'GET'> & PathFor<'POST'>;
    one: PathFor<'GET'> & PathFor<'DELETE'>;
    selected: PathFor<'PUT'>;
  }
>;

/** The selected poster's image; `version` (ignored by the server) makes the browser load a changed poster. */
export function thumbnailUrl(kind: PosterKind, id: string, version = 0): string {
  const { poster, params } = posterPaths[kind];
  const url = operationUrl(poster, { params: params(id) });
  return version ? `${url}?v=${version}` : url;
}

/** The poster's URL, changing after a thumbnail event for it. */
export function useThumbnailUrl(kind: PosterKind, id: string): string {
  const version = useQuery({
    queryKey: thumbnailKeys.of(kind, id),
    queryFn: () => Date.now(),
    initialData: 0,
    staleTime: Infinity,
  }).data;
  return thumbnailUrl(kind, id, version);
}

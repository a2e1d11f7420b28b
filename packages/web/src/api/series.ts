import { keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type {
  GroupCountDto,
  ReadStatus,
  SearchConditionSeries,
  SeriesDto,
  SeriesSearch,
  SeriesStatus,
} from '@quire/api';
import { client } from './client';
import { infiniteList, pageQuery, pagingQuery, type PageParams } from './books';

/** Series (api.md §3.2, §5): detail, the search list, alphabetical groups, new and updated series. */
export type { GroupCountDto, SeriesDto, SeriesSearch, SeriesStatus };

export { SERIES_STATUSES } from '@quire/api/constants';

/** The condition tree of a series search: the server's request schema, as a type. */
export type SeriesCondition = SearchConditionSeries;

export interface SeriesListParams extends PageParams, SeriesSearch {}

/** `GET /series/new|updated|latest` parameters. */
export interface RecentSeriesParams {
  libraryIds?: readonly string[];
  oneshot?: boolean;
  deleted?: boolean;
}

/** Filters of a collection's series (deprecated GET filters, api.md §3.4). */
export interface CollectionSeriesParams extends PageParams {
  library_id?: readonly string[];
  status?: readonly SeriesStatus[];
  read_status?: readonly ReadStatus[];
  publisher?: readonly string[];
  language?: readonly string[];
  genre?: readonly string[];
  tag?: readonly string[];
  age_rating?: readonly string[];
  release_year?: readonly string[];
  deleted?: boolean;
  complete?: boolean;
  /** `name,role` each. */
  author?: readonly string[];
}

export type RecentSeriesKind = 'new' | 'updated' | 'latest';

export const seriesKeys = {
  all: ['series'] as const,
  lists: () => [...seriesKeys.all, 'list'] as const,
  list: (params: SeriesListParams) => [...seriesKeys.lists(), params] as const,
  infinite: (params: SeriesListParams) => [...seriesKeys.all, 'infinite', params] as const,
  detail: (id: string) => [...seriesKeys.all, 'detail', id] as const,
  alphabeticalGroups: (search: SeriesSearch) => [...seriesKeys.all, 'alphabetical-groups', search] as const,
  recent: (kind: RecentSeriesKind, params: RecentSeriesParams) => [...seriesKeys.all, kind, params] as const,
  inCollection: (collectionId: string, params: CollectionSeriesParams) =>
    [...seriesKeys.all, 'collection', collectionId, params] as const,
};

const searchBody = (p: SeriesSearch): SeriesSearch => ({
  ...(p.condition ? { condition: p.condition } : {}),
  ...(p.fullTextSearch ? { fullTextSearch: p.fullTextSearch } : {}),
});

export const fetchSeriesList = (params: SeriesListParams) =>
  client.post('/api/v1/series/list', { query: pageQuery(params), body: searchBody(params) });

export const fetchRecentSeries = (kind: RecentSeriesKind, params: RecentSeriesParams & PageParams) =>
  client.get(`/api/v1/series/${kind}`, {
    query: {
      library_id: params.libraryIds && [...params.libraryIds],
      oneshot: params.oneshot,
      deleted: params.deleted,
      page: params.page,
      size: params.size,
      unpaged: params.unpaged || undefined,
    },
  });

export const seriesQueries = {
  detail: (id: string) =>
    queryOptions({
      queryKey: seriesKeys.detail(id),
      queryFn: () => client.get('/api/v1/series/{seriesId}', { params: { seriesId: id } }),
    }),
  list: (params: SeriesListParams) =>
    queryOptions({
      queryKey: seriesKeys.list(params),
      queryFn: () => fetchSeriesList(params),
      placeholderData: keepPreviousData,
    }),
  infinite: (params: Omit<SeriesListParams, 'page' | 'size'>) =>
    infiniteList(seriesKeys.infinite(params), (page, size) => fetchSeriesList({ ...params, page, size })),
  alphabeticalGroups: (search: SeriesSearch) =>
    queryOptions({
      queryKey: seriesKeys.alphabeticalGroups(search),
      queryFn: () => client.post('/api/v1/series/list/alphabetical-groups', { body: searchBody(search) }),
      placeholderData: keepPreviousData,
    }),
  recent: (kind: RecentSeriesKind, params: RecentSeriesParams = {}) =>
    infiniteList(seriesKeys.recent(kind, params), (page, size) => fetchRecentSeries(kind, { ...params, page, size })),
  inCollection: (collectionId: string, params: CollectionSeriesParams = {}) =>
    queryOptions({
      queryKey: seriesKeys.inCollection(collectionId, params),
      queryFn: () => {
        // The collection's own order: a sort is never sent.
        const { sort: _sort, ...filters } = params;
        return client.get('/api/v1/collections/{id}/series', {
          params: { id: collectionId },
          query: { ...filters, ...pagingQuery(params) },
        });
      },
      placeholderData: keepPreviousData,
    }),
};

export const useSeries = (id: string) => useQuery(seriesQueries.detail(id));
/** A page of `POST /api/v1/series/list`. */
export const useSeriesList = (params: SeriesListParams, options: { enabled?: boolean } = {}) =>
  useQuery({ ...seriesQueries.list(params), ...options });
export const useSeriesListInfinite = (
  params: Omit<SeriesListParams, 'page' | 'size'>,
  options: { enabled?: boolean } = {},
) => useInfiniteQuery({ ...seriesQueries.infinite(params), ...options });
/** Series count per first letter of the sort title, for the alphabetical navigation. */
export const useAlphabeticalGroups = (search: SeriesSearch, options: { enabled?: boolean } = {}) =>
  useQuery({ ...seriesQueries.alphabeticalGroups(search), ...options });
/** Recently added (`new`), recently updated (`updated`) or either (`latest`), page after page. */
export const useRecentSeries = (
  kind: RecentSeriesKind,
  params: RecentSeriesParams = {},
  options: { enabled?: boolean } = {},
) => useInfiniteQuery({ ...seriesQueries.recent(kind, params), ...options });
export const useCollectionSeries = (collectionId: string, params: CollectionSeriesParams = {}) =>
  useQuery(seriesQueries.inCollection(collectionId, params));

/**
 * Series with no poster at all (Quire's `GET /api/v1/media-management/series-without-poster`, admins). Under
 * `series`, so that the live events of analysed books refresh it.
 */
export const useSeriesWithoutPoster = (params: { page: number; size: number }) =>
  useQuery({
    queryKey: [...seriesKeys.all, 'without-poster', params] as const,
    queryFn: () => client.get('/api/v1/media-management/series-without-poster', { query: params }),
    placeholderData: keepPreviousData,
  });

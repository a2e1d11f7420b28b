import { keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { CollectionDto, Page } from '@quire/api';
import { api } from './client';
import { infiniteList, type PageParams } from './books';

/** Collections of series (api.md §3.4): the paged list, one collection, the collections holding a series. */
export type { CollectionDto };

export interface CollectionListParams extends PageParams {
  search?: string;
  libraryIds?: readonly string[];
}

export const collectionKeys = {
  all: ['collections'] as const,
  lists: () => [...collectionKeys.all, 'list'] as const,
  list: (params: CollectionListParams) => [...collectionKeys.lists(), params] as const,
  infinite: (params: CollectionListParams) => [...collectionKeys.all, 'infinite', params] as const,
  detail: (id: string) => [...collectionKeys.all, 'detail', id] as const,
  ofSeries: (seriesId: string) => [...collectionKeys.all, 'series', seriesId] as const,
};

const enc = encodeURIComponent;

export const fetchCollections = (params: CollectionListParams) =>
  api<Page<CollectionDto>>('/api/v1/collections', {
    query: {
      search: params.search || undefined,
      library_id: params.libraryIds,
      page: params.page,
      size: params.size,
      unpaged: params.unpaged || undefined,
    },
  });

export const collectionQueries = {
  detail: (id: string) =>
    queryOptions({
      queryKey: collectionKeys.detail(id),
      queryFn: () => api<CollectionDto>(`/api/v1/collections/${enc(id)}`),
    }),
  list: (params: CollectionListParams) =>
    queryOptions({
      queryKey: collectionKeys.list(params),
      queryFn: () => fetchCollections(params),
      placeholderData: keepPreviousData,
    }),
  infinite: (params: Omit<CollectionListParams, 'page' | 'size'>) =>
    infiniteList(collectionKeys.infinite(params), (page, size) => fetchCollections({ ...params, page, size })),
  ofSeries: (seriesId: string) =>
    queryOptions({
      queryKey: collectionKeys.ofSeries(seriesId),
      queryFn: () => api<CollectionDto[]>(`/api/v1/series/${enc(seriesId)}/collections`),
    }),
};

export const useCollection = (id: string) => useQuery(collectionQueries.detail(id));
export const useCollections = (params: CollectionListParams = {}, options: { enabled?: boolean } = {}) =>
  useQuery({ ...collectionQueries.list(params), ...options });
export const useCollectionsInfinite = (
  params: Omit<CollectionListParams, 'page' | 'size'>,
  options: { enabled?: boolean } = {},
) => useInfiniteQuery({ ...collectionQueries.infinite(params), ...options });
/** The collections a series belongs to (those the user can see). */
export const useSeriesCollections = (seriesId: string) => useQuery(collectionQueries.ofSeries(seriesId));

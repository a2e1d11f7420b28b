import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CollectionDto } from '@quire/api';
import { client } from './client';
import { pagedList, setListQuery, type SetListParams } from './paged';

/** Collections of series (api.md §3.4): the paged list, one collection, the collections holding a series. */
export type { CollectionDto };

export type CollectionListParams = SetListParams;

const list = pagedList(['collections'], (params: CollectionListParams) =>
  client.get('/api/v1/collections', { query: setListQuery(params) }),
);

export const collectionKeys = {
  all: ['collections'] as const,
  ...list.keys,
  detail: (id: string) => [...collectionKeys.all, 'detail', id] as const,
  ofSeries: (seriesId: string) => [...collectionKeys.all, 'series', seriesId] as const,
};

export const collectionQueries = {
  ...list.queries,
  detail: (id: string) =>
    queryOptions({
      queryKey: collectionKeys.detail(id),
      queryFn: () => client.get('/api/v1/collections/{id}', { params: { id } }),
    }),
  ofSeries: (seriesId: string) =>
    queryOptions({
      queryKey: collectionKeys.ofSeries(seriesId),
      queryFn: () => client.get('/api/v1/series/{seriesId}/collections', { params: { seriesId } }),
    }),
};

export const useCollection = (id: string) => useQuery(collectionQueries.detail(id));
export const useCollections = list.useList;
export const useCollectionsInfinite = list.useInfinite;
/** The collections a series belongs to (those the user can see). */
export const useSeriesCollections = (seriesId: string) => useQuery(collectionQueries.ofSeries(seriesId));

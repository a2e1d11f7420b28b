import { keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Page, ReadListDto } from '@quire/api';
import { api } from './client';
import { infiniteList, type PageParams } from './books';

/** Read lists of books (api.md §3.5): the paged list, one read list, the read lists holding a book. */
export type { ReadListDto };

export interface ReadListListParams extends PageParams {
  search?: string;
  libraryIds?: readonly string[];
}

export const readListKeys = {
  all: ['readlists'] as const,
  lists: () => [...readListKeys.all, 'list'] as const,
  list: (params: ReadListListParams) => [...readListKeys.lists(), params] as const,
  infinite: (params: ReadListListParams) => [...readListKeys.all, 'infinite', params] as const,
  detail: (id: string) => [...readListKeys.all, 'detail', id] as const,
  ofBook: (bookId: string) => [...readListKeys.all, 'book', bookId] as const,
};

const enc = encodeURIComponent;

export const fetchReadLists = (params: ReadListListParams) =>
  api<Page<ReadListDto>>('/api/v1/readlists', {
    query: {
      search: params.search || undefined,
      library_id: params.libraryIds,
      page: params.page,
      size: params.size,
      unpaged: params.unpaged || undefined,
    },
  });

export const readListQueries = {
  detail: (id: string) =>
    queryOptions({
      queryKey: readListKeys.detail(id),
      queryFn: () => api<ReadListDto>(`/api/v1/readlists/${enc(id)}`),
    }),
  list: (params: ReadListListParams) =>
    queryOptions({
      queryKey: readListKeys.list(params),
      queryFn: () => fetchReadLists(params),
      placeholderData: keepPreviousData,
    }),
  infinite: (params: Omit<ReadListListParams, 'page' | 'size'>) =>
    infiniteList(readListKeys.infinite(params), (page, size) => fetchReadLists({ ...params, page, size })),
  ofBook: (bookId: string) =>
    queryOptions({
      queryKey: readListKeys.ofBook(bookId),
      queryFn: () => api<ReadListDto[]>(`/api/v1/books/${enc(bookId)}/readlists`),
    }),
};

export const useReadList = (id: string) => useQuery(readListQueries.detail(id));
export const useReadLists = (params: ReadListListParams = {}, options: { enabled?: boolean } = {}) =>
  useQuery({ ...readListQueries.list(params), ...options });
export const useReadListsInfinite = (
  params: Omit<ReadListListParams, 'page' | 'size'>,
  options: { enabled?: boolean } = {},
) => useInfiniteQuery({ ...readListQueries.infinite(params), ...options });
/** The read lists a book belongs to (those the user can see). */
export const useBookReadLists = (bookId: string) => useQuery(readListQueries.ofBook(bookId));

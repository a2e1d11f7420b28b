import { keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Page } from '@quire/api';
import { infiniteList, type PageParams } from './books';

/**
 * One paged list of the server, declared once: its query keys under `root`, a page at a time (grids, menus) or
 * page by page (scrollers), and the hooks. `fetchPage` makes the call; the rest is the same for every list.
 */
export function pagedList<P extends PageParams, T>(
  root: readonly [string],
  fetchPage: (params: P) => Promise<Page<T>>,
) {
  const keys = {
    lists: () => [...root, 'list'] as const,
    list: (params: P) => [...root, 'list', params] as const,
    infinite: (params: Omit<P, 'page' | 'size'>) => [...root, 'infinite', params] as const,
  };
  const queries = {
    list: (params: P) =>
      queryOptions({
        queryKey: keys.list(params),
        queryFn: () => fetchPage(params),
        placeholderData: keepPreviousData,
      }),
    infinite: (params: Omit<P, 'page' | 'size'>) =>
      infiniteList(keys.infinite(params), (page, size) => fetchPage({ ...params, page, size } as P)),
  };
  return {
    keys,
    queries,
    useList: (params = {} as P, options: { enabled?: boolean } = {}) =>
      useQuery({ ...queries.list(params), ...options }),
    useInfinite: (params: Omit<P, 'page' | 'size'>, options: { enabled?: boolean } = {}) =>
      useInfiniteQuery({ ...queries.infinite(params), ...options }),
  };
}

/** What the lists of collections and read lists are filtered by (api.md §3.4-3.5). */
export interface SetListParams extends PageParams {
  search?: string;
  libraryIds?: readonly string[];
}

/** Their query: an empty search and `unpaged=false` are left out. */
export const setListQuery = (params: SetListParams) => ({
  search: params.search || undefined,
  library_id: params.libraryIds && [...params.libraryIds],
  page: params.page,
  size: params.size,
  unpaged: params.unpaged || undefined,
});

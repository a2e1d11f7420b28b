import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ReadListDto, ReadListRequestMatchDto } from '@quire/api';
import { client } from './client';
import { pagedList, setListQuery, type SetListParams } from './paged';

/** Read lists of books (api.md §3.5): the paged list, one read list, the read lists holding a book. */
export type { ReadListDto, ReadListRequestMatchDto };

export type ReadListListParams = SetListParams;

const list = pagedList(['readlists'], (params: ReadListListParams) =>
  client.get('/api/v1/readlists', { query: setListQuery(params) }),
);

export const readListKeys = {
  all: ['readlists'] as const,
  ...list.keys,
  detail: (id: string) => [...readListKeys.all, 'detail', id] as const,
  ofBook: (bookId: string) => [...readListKeys.all, 'book', bookId] as const,
};

export const readListQueries = {
  ...list.queries,
  detail: (id: string) =>
    queryOptions({
      queryKey: readListKeys.detail(id),
      queryFn: () => client.get('/api/v1/readlists/{id}', { params: { id } }),
    }),
  ofBook: (bookId: string) =>
    queryOptions({
      queryKey: readListKeys.ofBook(bookId),
      queryFn: () => client.get('/api/v1/books/{bookId}/readlists', { params: { bookId } }),
    }),
};

export const useReadList = (id: string) => useQuery(readListQueries.detail(id));
export const useReadLists = list.useList;
export const useReadListsInfinite = list.useInfinite;
/** The read lists a book belongs to (those the user can see). */
export const useBookReadLists = (bookId: string) => useQuery(readListQueries.ofBook(bookId));

/**
 * Matches a ComicRack list (`.cbl`) against every library (admins, ui.md §13.9). Nothing is created: the screen
 * then sends the chosen books to `POST /api/v1/readlists`.
 */
export function useMatchComicRackList() {
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return client.post('/api/v1/readlists/match/comicrack', { body });
    },
  });
}

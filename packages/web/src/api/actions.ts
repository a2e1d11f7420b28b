import { queryOptions, useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { client, operationUrl } from './client';
import type { BookDto } from '@quire/api';
import { bookKeys, fetchBookList } from './books';
import { collectionKeys } from './collections';
import { readListKeys } from './readlists';
import { seriesKeys } from './series';

/**
 * Actions on books, series, collections and read lists (ui.md §2.3, §2.4, §12.8). Each mutation acts on one or
 * several items, one request per item (the API has no bulk form of these), and refreshes every list the change can
 * show up in once all requests have settled.
 */

/** Some of the requests of a multi-item action failed; the others went through. */
export class PartialFailureError extends Error {
  constructor(
    /** One entry per failed item, in the order they were given. */
    readonly failures: { id: string; error: unknown }[],
    readonly total: number,
  ) {
    super(`${failures.length} of ${total} failed`);
    this.name = 'PartialFailureError';
  }
}

/** At most this many requests of one action are in flight at once: enough to be quick, gentle on the server. */
const CONCURRENCY = 4;

/** Runs `run` for every id, a few at a time; throws a PartialFailureError naming the ids that failed. */
export async function forEachId(ids: readonly string[], run: (id: string) => Promise<unknown>): Promise<void> {
  const failures: { id: string; error: unknown; index: number }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const index = next++;
      const id = ids[index]!;
      try {
        await run(id);
      } catch (error) {
        failures.push({ id, error, index });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
  if (failures.length === 1 && ids.length === 1) throw failures[0]!.error;
  if (failures.length) {
    failures.sort((a, b) => a.index - b.index);
    throw new PartialFailureError(
      failures.map(({ id, error }) => ({ id, error })),
      ids.length,
    );
  }
}

const book = (bookId: string) => ({ params: { bookId } });
const series = (seriesId: string) => ({ params: { seriesId } });

function invalidate(qc: QueryClient, keys: QueryKey[]) {
  return Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey })));
}

/** Read state shows on books, series (counts), collections' series and read lists' books, and the dashboard. */
const readStateKeys = (): QueryKey[] => [bookKeys.all, seriesKeys.all, collectionKeys.all, readListKeys.all];

/**
 * A mutation that refreshes `keys` once settled. `awaitRefresh: false` lets the caller react first: a detail page
 * whose item was deleted leaves before its own query comes back 404.
 */
function useItemsMutation<V>(run: (vars: V) => Promise<void>, keys: () => QueryKey[], awaitRefresh = true) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => {
      const refresh = invalidate(qc, keys());
      return awaitRefresh ? refresh : undefined;
    },
  });
}

/** Marks books read (progress completed at the last page) or unread (progress removed). */
export function useMarkBooksRead() {
  return useItemsMutation(
    ({ bookIds, read }: { bookIds: string[]; read: boolean }) =>
      forEachId(bookIds, (id) =>
        read
          ? client.patch('/api/v1/books/{bookId}/read-progress', { ...book(id), body: { completed: true } })
          : client.delete('/api/v1/books/{bookId}/read-progress', book(id)),
      ),
    readStateKeys,
  );
}

/** Marks every book of each series read or unread. */
export function useMarkSeriesRead() {
  return useItemsMutation(
    ({ seriesIds, read }: { seriesIds: string[]; read: boolean }) =>
      forEachId(seriesIds, (id) =>
        read
          ? client.post('/api/v1/series/{seriesId}/read-progress', series(id))
          : client.delete('/api/v1/series/{seriesId}/read-progress', series(id)),
      ),
    readStateKeys,
  );
}

/** Queues analysis (admin). The results arrive later through live events, so nothing is refreshed now. */
export function useAnalyzeBooks() {
  return useMutation({
    mutationFn: ({ ids }: { ids: string[] }) =>
      forEachId(ids, (id) => client.post('/api/v1/books/{bookId}/analyze', book(id))),
  });
}

export function useAnalyzeSeries() {
  return useMutation({
    mutationFn: ({ ids }: { ids: string[] }) =>
      forEachId(ids, (id) => client.post('/api/v1/series/{seriesId}/analyze', series(id))),
  });
}

/** Queues a metadata refresh (admin); results arrive through live events. */
export function useRefreshBooksMetadata() {
  return useMutation({
    mutationFn: ({ ids }: { ids: string[] }) =>
      forEachId(ids, (id) => client.post('/api/v1/books/{bookId}/metadata/refresh', book(id))),
  });
}

export function useRefreshSeriesMetadata() {
  return useMutation({
    mutationFn: ({ ids }: { ids: string[] }) =>
      forEachId(ids, (id) => client.post('/api/v1/series/{seriesId}/metadata/refresh', series(id))),
  });
}

/** Everything a deleted book or series can appear in. */
const contentKeys = (): QueryKey[] => [bookKeys.all, seriesKeys.all, collectionKeys.all, readListKeys.all];

/** Deletes books and their files from disk (admin, irreversible). */
export function useDeleteBooks() {
  return useItemsMutation(
    ({ bookIds }: { bookIds: string[] }) =>
      forEachId(bookIds, (id) => client.delete('/api/v1/books/{bookId}/file', book(id))),
    contentKeys,
    false,
  );
}

/** Deletes series, their books and their files from disk (admin, irreversible). */
export function useDeleteSeries() {
  return useItemsMutation(
    ({ seriesIds }: { seriesIds: string[] }) =>
      forEachId(seriesIds, (id) => client.delete('/api/v1/series/{seriesId}/file', series(id))),
    contentKeys,
    false,
  );
}

/** Deletes a collection; its series stay. */
export function useDeleteCollection() {
  return useItemsMutation(
    async (id: string) => {
      await client.delete('/api/v1/collections/{id}', { params: { id } });
    },
    () => [collectionKeys.all, seriesKeys.all],
    false,
  );
}

/** Deletes a read list; its books stay. */
export function useDeleteReadList() {
  return useItemsMutation(
    async (id: string) => {
      await client.delete('/api/v1/readlists/{id}', { params: { id } });
    },
    () => [readListKeys.all, bookKeys.all],
    false,
  );
}

/**
 * Every book of the given series, series by series in the given order, each by number: what "add to read list" on
 * series adds, and how a one-shot's single book is found.
 */
export async function fetchSeriesBooks(seriesIds: readonly string[]): Promise<BookDto[]> {
  const pages = await Promise.all(
    seriesIds.map((value) =>
      fetchBookList({
        condition: { seriesId: { operator: 'is', value } },
        unpaged: true,
        sort: ['metadata.numberSort,asc'],
      }),
    ),
  );
  return pages.flatMap((p) => p.content);
}

/** Every book of a read list in list order (the CBL export needs them all, not the page on screen). */
export async function fetchReadListBooks(readListId: string): Promise<BookDto[]> {
  const page = await client.get('/api/v1/readlists/{id}/books', {
    params: { id: readListId },
    query: { unpaged: true },
  });
  return page.content;
}

/** The single book of a one-shot series (null if it has none left). */
export const oneshotBookQuery = (seriesId: string) =>
  queryOptions({
    queryKey: [...bookKeys.all, 'oneshot', seriesId] as const,
    queryFn: async (): Promise<BookDto | null> => (await fetchSeriesBooks([seriesId]))[0] ?? null,
  });

/** Download links (FILE_DOWNLOAD): the book's file, a series or read list as one ZIP. */
export const bookFileUrl = (id: string) => operationUrl('/api/v1/books/{bookId}/file', book(id));
export const seriesFileUrl = (id: string) => operationUrl('/api/v1/series/{seriesId}/file', series(id));
export const readListFileUrl = (id: string) => operationUrl('/api/v1/readlists/{id}/file', { params: { id } });
/** The read list as a ComicRack reading list (Quire's `/cbl` endpoint). */
export const readListCblUrl = (id: string) => operationUrl('/api/v1/readlists/{id}/cbl', { params: { id } });

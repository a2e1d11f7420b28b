import { queryOptions, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type {
  BookMetadataUpdateDto,
  CollectionCreationDto,
  CollectionUpdateDto,
  ReadListCreationDto,
  ReadListUpdateDto,
  SeriesMetadataUpdateDto,
} from '@quire/api';
import { client, operationUrl } from './client';
import { bookKeys, posterPaths, thumbnailKeys, type PosterKind } from './books';
import { seriesKeys } from './series';
import { collectionKeys } from './collections';
import { readListKeys } from './readlists';
import { referentialKeys } from './referential';

/**
 * Writes of the edit dialogs (ui.md §12): metadata PATCHes, posters, collections and read lists. Every mutation
 * refreshes what it changed through E1's key prefixes; the server's live events do the same for other tabs.
 */

export { READING_DIRECTIONS, SERIES_STATUSES, type ReadingDirection, type SeriesStatus } from '@quire/api/constants';

/** `BookMetadataUpdateDto`: a field left out is unchanged. */
export type BookMetadataUpdate = BookMetadataUpdateDto;

/** `SeriesMetadataUpdateDto`: a field left out is unchanged; null clears reading direction, age rating, total count. */
export type SeriesMetadataUpdate = SeriesMetadataUpdateDto;

/** The four things that carry posters, as they appear in the API paths. */
export type PosterOwner = PosterKind;

/** One stored poster of any owner (`Thumbnail{Book,Series,SeriesCollection,ReadList}Dto`). */
export type PosterDto = Awaited<ReturnType<typeof listPosters>>[number];

/** The poster changes of one save, applied in order: uploads, then a selection, then deletions (ui.md §12.1). */
export interface PosterChanges {
  uploads: { file: File; selected: boolean }[];
  /** An existing poster to mark as selected. */
  select?: string | null;
  remove: string[];
}

export const posterKeys = {
  all: ['posters'] as const,
  list: (owner: PosterOwner, id: string) => [...posterKeys.all, owner, id] as const,
};

const listPosters = (owner: PosterOwner, id: string) => {
  const { list, params } = posterPaths[owner];
  return client.get(list, { params: params(id) });
};

/** The image of one stored poster. */
export const posterUrl = (owner: PosterOwner, id: string, thumbnailId: string) => {
  const { one, params } = posterPaths[owner];
  return operationUrl(one, { params: { ...params(id), thumbnailId } });
};

export const posterQueries = {
  list: (owner: PosterOwner, id: string) =>
    queryOptions({
      queryKey: posterKeys.list(owner, id),
      queryFn: () => listPosters(owner, id),
    }),
};

/** The stored posters of a book, series, collection or read list. */
export const usePosters = (owner: PosterOwner, id: string, enabled = true) =>
  useQuery({ ...posterQueries.list(owner, id), enabled });

/** What changes when an owner's poster changes: its poster list, the poster image's version, and the entity. */
function posterAffected(owner: PosterOwner, id: string): QueryKey[] {
  const entity = {
    books: [bookKeys.all, seriesKeys.all],
    series: [seriesKeys.all],
    collections: [collectionKeys.all],
    readlists: [readListKeys.all],
  }[owner];
  return [posterKeys.list(owner, id), thumbnailKeys.of(owner, id), ...entity];
}

function useInvalidate() {
  const qc = useQueryClient();
  return (keys: QueryKey[]) => Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey })));
}

/** Refreshes what shows an owner's posters, after poster changes made outside a mutation (applyPosterChanges). */
export function useInvalidatePosters() {
  const invalidate = useInvalidate();
  return (owner: PosterOwner, id: string) => invalidate(posterAffected(owner, id));
}

/** `PATCH /api/v1/books/{id}/metadata`. The series aggregates and the referential lists change with it. */
export function useUpdateBookMetadata() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ bookId, changes }: { bookId: string; changes: BookMetadataUpdate }) =>
      client.patch('/api/v1/books/{bookId}/metadata', { params: { bookId }, body: changes }),
    onSuccess: () => invalidate([bookKeys.all, seriesKeys.all, referentialKeys.all]),
  });
}

/** `PATCH /api/v1/books/metadata`: several books in one request, `{bookId: changes}`. */
export function useUpdateBooksMetadata() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (changes: Record<string, BookMetadataUpdate>) =>
      client.patch('/api/v1/books/metadata', { body: changes }),
    onSuccess: () => invalidate([bookKeys.all, seriesKeys.all, referentialKeys.all]),
  });
}

/** `PATCH /api/v1/series/{id}/metadata`. Books carry their series' title, so they are refreshed too. */
export function useUpdateSeriesMetadata() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ seriesId, changes }: { seriesId: string; changes: SeriesMetadataUpdate }) =>
      client.patch('/api/v1/series/{seriesId}/metadata', { params: { seriesId }, body: changes }),
    onSuccess: () => invalidate([seriesKeys.all, bookKeys.all, referentialKeys.all]),
  });
}

function uploadPoster(owner: PosterOwner, id: string, file: File, selected: boolean) {
  const { list, params } = posterPaths[owner];
  const form = new FormData();
  form.append('file', file);
  form.append('selected', String(selected));
  return client.post(list, { params: params(id), body: form });
}
function selectPoster(owner: PosterOwner, id: string, thumbnailId: string) {
  const { selected, params } = posterPaths[owner];
  return client.put(selected, { params: { ...params(id), thumbnailId } });
}
function deletePoster(owner: PosterOwner, id: string, thumbnailId: string) {
  const { one, params } = posterPaths[owner];
  return client.delete(one, { params: { ...params(id), thumbnailId } });
}

/** `POST …/thumbnails` (multipart `file`, `selected`). */
export function useUploadPoster(owner: PosterOwner) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, file, selected = true }: { id: string; file: File; selected?: boolean }) =>
      uploadPoster(owner, id, file, selected),
    onSuccess: (_, { id }) => invalidate(posterAffected(owner, id)),
  });
}

/** `PUT …/thumbnails/{thumbnailId}/selected`. */
export function useSelectPoster(owner: PosterOwner) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, thumbnailId }: { id: string; thumbnailId: string }) => selectPoster(owner, id, thumbnailId),
    onSuccess: (_, { id }) => invalidate(posterAffected(owner, id)),
  });
}

/** `DELETE …/thumbnails/{thumbnailId}` (uploaded posters only). */
export function useDeletePoster(owner: PosterOwner) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, thumbnailId }: { id: string; thumbnailId: string }) => deletePoster(owner, id, thumbnailId),
    onSuccess: (_, { id }) => invalidate(posterAffected(owner, id)),
  });
}

/**
 * The poster part of an edit dialog's save, one request at a time so the server sees the same order as the user:
 * uploads, then the chosen existing poster, then deletions. The first failure stops it (the dialog stays open).
 */
export async function applyPosterChanges(owner: PosterOwner, id: string, changes: PosterChanges): Promise<void> {
  for (const upload of changes.uploads) await uploadPoster(owner, id, upload.file, upload.selected);
  if (changes.select) await selectPoster(owner, id, changes.select);
  for (const thumbnailId of changes.remove) await deletePoster(owner, id, thumbnailId);
}

export const hasPosterChanges = (c: PosterChanges) => c.uploads.length > 0 || !!c.select || c.remove.length > 0;

/** Applies `applyPosterChanges` and refreshes what shows the poster, also after a partial failure. */
export function useSavePosters(owner: PosterOwner) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: PosterChanges }) => applyPosterChanges(owner, id, changes),
    onSettled: (_, __, { id }) => invalidate(posterAffected(owner, id)),
  });
}

/** Every collection, for the add-to-collection dialog (name order from the server; the dialog re-sorts). */
export const allCollectionsKey = [...collectionKeys.all, 'metadata-all'] as const;
export const allReadListsKey = [...readListKeys.all, 'metadata-all'] as const;

export function useAllCollections(enabled = true) {
  return useQuery({
    queryKey: allCollectionsKey,
    queryFn: async () => (await client.get('/api/v1/collections', { query: { unpaged: true } })).content,
    enabled,
  });
}

export function useAllReadLists(enabled = true) {
  return useQuery({
    queryKey: allReadListsKey,
    queryFn: async () => (await client.get('/api/v1/readlists', { query: { unpaged: true } })).content,
    enabled,
  });
}

/** Collections hold series: both are refreshed (a series page lists its collections). */
const collectionAffected = (): QueryKey[] => [collectionKeys.all, seriesKeys.all];
const readListAffected = (): QueryKey[] => [readListKeys.all, bookKeys.all];

/** `POST /api/v1/collections`. */
export function useCreateCollection() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: CollectionCreationDto) => client.post('/api/v1/collections', { body }),
    onSuccess: () => invalidate(collectionAffected()),
  });
}

/** `PATCH /api/v1/collections/{id}`: name, manual ordering and/or the whole member list. */
export function useUpdateCollection() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: CollectionUpdateDto }) =>
      client.patch('/api/v1/collections/{id}', { params: { id }, body: changes }),
    onSuccess: () => invalidate(collectionAffected()),
  });
}

/** The collection's series in the given order (`PATCH {seriesIds}`); used by the collection page's reordering. */
export function useReorderCollection() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, seriesIds }: { id: string; seriesIds: string[] }) =>
      client.patch('/api/v1/collections/{id}', { params: { id }, body: { seriesIds } }),
    onSuccess: () => invalidate([collectionKeys.all]),
  });
}

/** `POST /api/v1/readlists`. */
export function useCreateReadList() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: ReadListCreationDto) => client.post('/api/v1/readlists', { body }),
    onSuccess: () => invalidate(readListAffected()),
  });
}

/** `PATCH /api/v1/readlists/{id}`. */
export function useUpdateReadList() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: ReadListUpdateDto }) =>
      client.patch('/api/v1/readlists/{id}', { params: { id }, body: changes }),
    onSuccess: () => invalidate(readListAffected()),
  });
}

/** The read list's books in the given order (`PATCH {bookIds}`); used by the read list page's reordering. */
export function useReorderReadList() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, bookIds }: { id: string; bookIds: string[] }) =>
      client.patch('/api/v1/readlists/{id}', { params: { id }, body: { bookIds } }),
    onSuccess: () => invalidate([readListKeys.all]),
  });
}

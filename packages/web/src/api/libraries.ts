import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DirectoryListingDto, LibraryCreationDto, LibraryDto, LibraryUpdateDto, PathDto } from '@quire/api';
import {
  LIBRARY_FORM_DEFAULTS,
  SCAN_INTERVALS as ALL_SCAN_INTERVALS,
  SERIES_COVERS as ALL_SERIES_COVERS,
} from '@quire/api/constants';
import { ApiError, client } from './client';

/** Libraries (api.md §3.1) and the server's folder browser (§9.6). The DTO types come from @quire/api. */
export type { DirectoryListingDto, LibraryCreationDto, LibraryDto, LibraryUpdateDto, PathDto };

export type ScanInterval = LibraryDto['scanInterval'];
export type SeriesCover = LibraryDto['seriesCover'];

export const SCAN_INTERVALS: readonly ScanInterval[] = ALL_SCAN_INTERVALS;
export const SERIES_COVERS: readonly SeriesCover[] = ALL_SERIES_COVERS;

/** Every option of a library: what the add/edit dialog sets besides name, root and the one-shots directory. */
export type LibraryOptions = Omit<LibraryDto, 'id' | 'name' | 'root' | 'oneshotsDirectory' | 'unavailable'>;

/** What the add-library dialog pre-fills (`LIBRARY_FORM_DEFAULTS` says why it differs from the API's). */
export const LIBRARY_DEFAULTS: LibraryOptions = LIBRARY_FORM_DEFAULTS;

export const libraryKeys = {
  all: ['libraries'] as const,
  list: () => [...libraryKeys.all, 'list'] as const,
  detail: (id: string) => [...libraryKeys.all, 'detail', id] as const,
};

export const filesystemKeys = {
  all: ['filesystem'] as const,
  listing: (path: string, showFiles: boolean) => [...filesystemKeys.all, path, showFiles] as const,
};

/**
 * How long the library list is used without asking again. Not forever: the live events sent while their stream
 * reconnects are lost, and the next screen after this catches up.
 */
export const LIBRARIES_FRESH_MS = 30_000;

export const libraryQueries = {
  /**
   * Every library the user can see. A failure other than 401 counts as "no libraries", so the shell can still
   * decide where to go (welcome screen) instead of showing an error everywhere. Fresh for {@link LIBRARIES_FRESH_MS}:
   * the guards, the drawer and the screen ask for it as each mounts, and a list stale at once was asked for again by
   * each (three or four times in a page's first second, issue 18). Changes reach it sooner through live events
   * (LibraryAdded, LibraryChanged, LibraryDeleted) and the app's own mutations, which mark it stale.
   */
  list: () =>
    queryOptions({
      queryKey: libraryKeys.list(),
      staleTime: LIBRARIES_FRESH_MS,
      queryFn: async (): Promise<LibraryDto[]> => {
        try {
          const libraries = await client.get('/api/v1/libraries');
          return Array.isArray(libraries) ? libraries : [];
        } catch (e) {
          if (e instanceof ApiError && e.status === 401) throw e;
          return [];
        }
      },
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: libraryKeys.detail(id),
      queryFn: () => client.get('/api/v1/libraries/{libraryId}', { params: { libraryId: id } }),
    }),
  /** One folder of the server (ADMIN), with its files when asked. `''` lists the file-system roots. */
  directory: (path: string, showFiles = false) =>
    queryOptions({
      queryKey: filesystemKeys.listing(path, showFiles),
      queryFn: () => client.post('/api/v1/filesystem', { body: { path, showFiles } }),
      staleTime: 10_000,
    }),
};

export const useLibraries = () => useQuery(libraryQueries.list());
export const useLibrary = (id: string) => useQuery(libraryQueries.detail(id));
export const useDirectoryListing = (path: string, { enabled = true, showFiles = false } = {}) =>
  useQuery({ ...libraryQueries.directory(path, showFiles), enabled });

function useInvalidateLibraries() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: libraryKeys.all });
}

/** Adds a library; the server queues its first scan. */
export function useCreateLibrary() {
  const invalidate = useInvalidateLibraries();
  return useMutation({
    mutationFn: (body: LibraryCreationDto) => client.post('/api/v1/libraries', { body }),
    onSuccess: invalidate,
  });
}

export function useUpdateLibrary() {
  const invalidate = useInvalidateLibraries();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: LibraryUpdateDto }) =>
      client.patch('/api/v1/libraries/{libraryId}', { params: { libraryId: id }, body: changes }),
    onSuccess: invalidate,
  });
}

/** Removes the library from the server's database; its files stay where they are. */
export function useDeleteLibrary() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.delete('/api/v1/libraries/{libraryId}', { params: { libraryId: id } }),
    onSuccess: (_, id) => {
      qc.removeQueries({ queryKey: libraryKeys.detail(id) });
      return qc.invalidateQueries({ queryKey: libraryKeys.list() });
    },
  });
}

/** Queues a scan; `deep` ignores modification times. */
export function useScanLibrary() {
  return useMutation({
    mutationFn: ({ id, deep }: { id: string; deep: boolean }) =>
      client.post('/api/v1/libraries/{libraryId}/scan', { params: { libraryId: id }, query: { deep } }),
  });
}

export function useAnalyzeLibrary() {
  return useMutation({
    mutationFn: (id: string) => client.post('/api/v1/libraries/{libraryId}/analyze', { params: { libraryId: id } }),
  });
}

export function useRefreshLibraryMetadata() {
  return useMutation({
    mutationFn: (id: string) =>
      client.post('/api/v1/libraries/{libraryId}/metadata/refresh', { params: { libraryId: id } }),
  });
}

/** Queues the purge of the library's books and series flagged as deleted. */
export function useEmptyTrash() {
  return useMutation({
    mutationFn: (id: string) => client.post('/api/v1/libraries/{libraryId}/empty-trash', { params: { libraryId: id } }),
  });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from './client';

/**
 * The fields of Komga's LibraryDto the shell needs. Replace with `import type { LibraryDto } from '@quire/api'`
 * once the libraries schema exists there.
 */
export interface LibraryDto {
  id: string;
  name: string;
  root: string;
  unavailable: boolean;
}

export const libraryKeys = {
  all: ['libraries'] as const,
  list: () => [...libraryKeys.all, 'list'] as const,
  detail: (id: string) => [...libraryKeys.all, 'detail', id] as const,
};

export const libraryQueries = {
  /**
   * Every library the user can see. A failure other than 401 counts as "no libraries", so the shell can still
   * decide where to go (welcome screen) instead of showing an error everywhere.
   */
  list: () =>
    queryOptions({
      queryKey: libraryKeys.list(),
      queryFn: async (): Promise<LibraryDto[]> => {
        try {
          const libraries = await api<LibraryDto[]>('/api/v1/libraries');
          return Array.isArray(libraries) ? libraries : [];
        } catch (e) {
          if (e instanceof ApiError && e.status === 401) throw e;
          return [];
        }
      },
    }),
};

export const useLibraries = () => useQuery(libraryQueries.list());

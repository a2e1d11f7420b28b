import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SettingsRestartRequiredDto, SettingsUpdateDto } from '@quire/api';
import { ApiError, client, sendOutsideTable } from './client';

/** Server settings and management (api.md §9.1, §9.4). ADMIN only. */

export const settingsKeys = {
  all: ['settings'] as const,
  server: () => [...settingsKeys.all, 'server'] as const,
  restartRequired: () => [...settingsKeys.all, 'restart-required'] as const,
};

export const settingsQueries = {
  server: () => queryOptions({ queryKey: settingsKeys.server(), queryFn: () => client.get('/api/v1/settings') }),
  /**
   * Quire extension: which saved settings wait for a restart. `null` when the server does not offer it
   * (404), in which case the screen says in general which settings need a restart.
   */
  restartRequired: () =>
    queryOptions({
      queryKey: settingsKeys.restartRequired(),
      queryFn: async (): Promise<SettingsRestartRequiredDto | null> => {
        try {
          return await client.get('/api/v1/settings/restart-required');
        } catch (e) {
          if (e instanceof ApiError && e.status === 404) return null;
          throw e;
        }
      },
    }),
};

export const useServerSettings = () => useQuery(settingsQueries.server());
export const useRestartRequired = () => useQuery(settingsQueries.restartRequired());

export function useUpdateServerSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsUpdateDto) => client.patch('/api/v1/settings', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: settingsKeys.all }),
  });
}

/** Queues regeneration of book posters after the thumbnail size changed. */
export function useRegenerateThumbnails() {
  return useMutation({
    mutationFn: (biggerOnly: boolean) =>
      client.put('/api/v1/books/thumbnails', { query: { for_bigger_result_only: biggerOnly } }),
  });
}

export function useShutdown() {
  return useMutation({
    mutationFn: () => sendOutsideTable('POST', '/actuator/shutdown'),
  });
}

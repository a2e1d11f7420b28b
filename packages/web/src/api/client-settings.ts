import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClientSettingsDto } from '@quire/api';
import { useCurrentUser } from './auth';
import { client } from './client';

/**
 * Client settings (api.md §9.5): the key/value store the web client keeps on the server, global (an admin writes,
 * everyone reads; anonymous callers only the entries marked allowUnauthorized) and per user. The keys and what
 * reads them are in features/ui-settings/ui-settings.ts.
 */

export const clientSettingsKeys = {
  all: ['client-settings'] as const,
  /** Keyed by who asks: signed out, the global list holds only the public entries. */
  global: (userId: string | undefined) => [...clientSettingsKeys.all, 'global', userId ?? 'anonymous'] as const,
  user: (userId: string | undefined) => [...clientSettingsKeys.all, 'user', userId] as const,
};

/** Every global setting the caller may read. */
export function useGlobalClientSettings() {
  const userId = useCurrentUser().data?.id;
  return useQuery({
    queryKey: clientSettingsKeys.global(userId),
    queryFn: () => client.get('/api/v1/client-settings/global/list'),
    staleTime: 5 * 60_000,
  });
}

/** The signed-in user's own settings; nothing is asked while signed out. */
export function useUserClientSettings() {
  const userId = useCurrentUser().data?.id;
  return useQuery({
    queryKey: clientSettingsKeys.user(userId),
    queryFn: () => client.get('/api/v1/client-settings/user/list'),
    enabled: !!userId,
    staleTime: 5 * 60_000,
  });
}

/** Writes global settings (ADMIN): `{key: {value, allowUnauthorized}}`, upserted. */
export function useSaveGlobalClientSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, { value: string; allowUnauthorized: boolean }>) =>
      client.patch('/api/v1/client-settings/global', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...clientSettingsKeys.all, 'global'] }),
  });
}

/** Writes the signed-in user's settings: `{key: {value}}`, upserted. */
export function useSaveUserClientSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, { value: string }>) => client.patch('/api/v1/client-settings/user', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...clientSettingsKeys.all, 'user'] }),
  });
}

/** A `'true'`/`'false'` setting; anything else (missing included) is false. */
export const flagOf = (settings: ClientSettingsDto | undefined, key: string): boolean =>
  settings?.[key]?.value === 'true';

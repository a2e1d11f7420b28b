import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserCreationDto, UserUpdateDto } from '@quire/api';
import { ApiError, client } from './client';

/** Users, the signed-in user's password, API keys and authentication activity (api.md §2.5, §2.9, §3.7). */

/** The properties the server sorts authentication activity by (Komga's list: no source, no API key). */
export const ACTIVITY_SORTS = ['dateTime', 'email', 'ip', 'userAgent', 'success', 'error'] as const;
export type ActivitySort = (typeof ACTIVITY_SORTS)[number];

export interface ActivityPage {
  page: number;
  size: number;
  sort: { property: ActivitySort; order: 'asc' | 'desc' };
}

/** Whose activity: the signed-in user's own, or everyone's (administrators). */
export type ActivityScope = 'me' | 'all';

/** The signed-in user is `authKeys.me` (api/auth.ts, `['users', 'me']`); everything here sits beside it. */
export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  latestActivity: (userId: string) => [...userKeys.all, 'latest-activity', userId] as const,
  apiKeys: () => [...userKeys.all, 'me', 'api-keys'] as const,
  activity: (scope: ActivityScope, p: ActivityPage) => [...userKeys.all, 'authentication-activity', scope, p] as const,
};

/** Turns a 404 into `fallback`; any other failure stays an error. */
async function orOnNotFound<T, F>(request: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await request;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return fallback;
    throw e;
  }
}

export const userQueries = {
  list: () => queryOptions({ queryKey: userKeys.lists(), queryFn: () => client.get('/api/v2/users') }),
  /** `null` when the user never authenticated (the server answers 404). */
  latestActivity: (userId: string) =>
    queryOptions({
      queryKey: userKeys.latestActivity(userId),
      queryFn: () =>
        orOnNotFound(client.get('/api/v2/users/{id}/authentication-activity/latest', { params: { id: userId } }), null),
    }),
  apiKeys: () => queryOptions({ queryKey: userKeys.apiKeys(), queryFn: () => client.get('/api/v2/users/me/api-keys') }),
  activity: (scope: ActivityScope, p: ActivityPage) =>
    queryOptions({
      queryKey: userKeys.activity(scope, p),
      placeholderData: keepPreviousData,
      queryFn: () => {
        const query = { page: p.page, size: p.size, sort: [`${p.sort.property},${p.sort.order}`] };
        return scope === 'me'
          ? client.get('/api/v2/users/me/authentication-activity', { query })
          : client.get('/api/v2/users/authentication-activity', { query });
      },
    }),
};

export const useUsers = () => useQuery(userQueries.list());
export const useLatestActivity = (userId: string) => useQuery(userQueries.latestActivity(userId));
export const useApiKeys = () => useQuery(userQueries.apiKeys());
export const useAuthenticationActivity = (scope: ActivityScope, p: ActivityPage) =>
  useQuery(userQueries.activity(scope, p));

export function useCreateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UserCreationDto) => client.post('/api/v2/users', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.lists() }),
  });
}

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UserUpdateDto & { id: string }) =>
      client.patch('/api/v2/users/{id}', { params: { id }, body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.lists() }),
  });
}

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.delete('/api/v2/users/{id}', { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.lists() }),
  });
}

/**
 * Without `userId` (or with `'me'`) changes the signed-in user's own password, which needs the current one
 * (`currentPassword`, a Quire addition to Komga's body).
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: ({
      userId,
      password,
      currentPassword,
    }: {
      userId?: string;
      password: string;
      currentPassword?: string;
    }) => {
      const body = currentPassword === undefined ? { password } : { password, currentPassword };
      return !userId || userId === 'me'
        ? client.patch('/api/v2/users/me/password', { body })
        : client.patch('/api/v2/users/{id}/password', { params: { id: userId }, body });
    },
  });
}

/** Answers the new key with its plain value, which the server never shows again. */
export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (comment: string) => client.post('/api/v2/users/me/api-keys', { body: { comment } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.apiKeys() }),
  });
}

/** Forgets what a Kobo synced with this key, so that it syncs the whole library again next time (api.md §8.2). */
export function useForceKoboSync() {
  return useMutation({
    mutationFn: (keyId: string) => client.delete('/api/v1/syncpoints/me', { query: { key_id: [keyId] } }),
  });
}

export function useDeleteApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => client.delete('/api/v2/users/me/api-keys/{keyId}', { params: { keyId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.apiKeys() }),
  });
}

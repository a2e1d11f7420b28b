import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyDto, AuthenticationActivityDto, Page, UserCreationDto, UserDto, UserUpdateDto } from '@quire/api';
import { api, ApiError } from './client';

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
  list: () => queryOptions({ queryKey: userKeys.lists(), queryFn: () => api<UserDto[]>('/api/v2/users') }),
  /** `null` when the user never authenticated (the server answers 404). */
  latestActivity: (userId: string) =>
    queryOptions({
      queryKey: userKeys.latestActivity(userId),
      queryFn: () =>
        orOnNotFound(
          api<AuthenticationActivityDto>(`/api/v2/users/${encodeURIComponent(userId)}/authentication-activity/latest`),
          null,
        ),
    }),
  apiKeys: () =>
    queryOptions({ queryKey: userKeys.apiKeys(), queryFn: () => api<ApiKeyDto[]>('/api/v2/users/me/api-keys') }),
  activity: (scope: ActivityScope, p: ActivityPage) =>
    queryOptions({
      queryKey: userKeys.activity(scope, p),
      placeholderData: keepPreviousData,
      queryFn: () =>
        api<Page<AuthenticationActivityDto>>(
          scope === 'me' ? '/api/v2/users/me/authentication-activity' : '/api/v2/users/authentication-activity',
          { query: { page: p.page, size: p.size, sort: [`${p.sort.property},${p.sort.order}`] } },
        ),
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
    mutationFn: (body: UserCreationDto) => api<UserDto>('/api/v2/users', { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.lists() }),
  });
}

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UserUpdateDto & { id: string }) =>
      api<void>(`/api/v2/users/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.lists() }),
  });
}

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/v2/users/${encodeURIComponent(id)}`, { method: 'DELETE' }),
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
    }) =>
      api<void>(
        !userId || userId === 'me'
          ? '/api/v2/users/me/password'
          : `/api/v2/users/${encodeURIComponent(userId)}/password`,
        { method: 'PATCH', body: currentPassword === undefined ? { password } : { password, currentPassword } },
      ),
  });
}

/** Answers the new key with its plain value, which the server never shows again. */
export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (comment: string) => api<ApiKeyDto>('/api/v2/users/me/api-keys', { method: 'POST', body: { comment } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.apiKeys() }),
  });
}

export function useDeleteApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      api<void>(`/api/v2/users/me/api-keys/${encodeURIComponent(keyId)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.apiKeys() }),
  });
}

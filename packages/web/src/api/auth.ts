import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserDto } from '@quire/api';
import { ApiError, client } from './client';
import { libraryKeys } from './libraries';

export const authKeys = {
  me: ['users', 'me'] as const,
  claim: ['claim'] as const,
};

export interface ClaimStatus {
  isClaimed: boolean;
}

export const authQueries = {
  /** The current user, or null when the session is missing or expired (401). */
  me: () =>
    queryOptions({
      queryKey: authKeys.me,
      queryFn: async (): Promise<UserDto | null> => {
        try {
          return await client.get('/api/v2/users/me');
        } catch (e) {
          if (e instanceof ApiError && e.status === 401) return null;
          throw e;
        }
      },
      staleTime: Infinity,
      retry: false,
    }),
  claim: () =>
    queryOptions({
      queryKey: authKeys.claim,
      queryFn: () => client.get('/api/v1/claim'),
      retry: false,
    }),
};

export const useCurrentUser = () => useQuery(authQueries.me());
export const useClaimStatus = () => useQuery(authQueries.claim());

export const isAdmin = (user: UserDto | null | undefined): boolean => !!user?.roles.includes('ADMIN');

/** The signed-in user's admin flag (false while loading or signed out). */
export function useIsAdmin(): boolean {
  return isAdmin(useCurrentUser().data);
}

export interface Credentials {
  email: string;
  password: string;
}

function basic({ email, password }: Credentials): string {
  const bytes = new TextEncoder().encode(`${email}:${password}`);
  let binary = '';
  bytes.forEach((b) => (binary += String.fromCharCode(b)));
  return `Basic ${btoa(binary)}`;
}

async function logIn(credentials: Credentials & { rememberMe: boolean }): Promise<UserDto> {
  return client.get('/api/v2/users/me', {
    headers: { Authorization: basic(credentials) },
    query: { 'remember-me': credentials.rememberMe },
  });
}

/** Logs in with Basic auth; the server answers the user and sets the session (and remember-me) cookie. */
export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: logIn,
    onSuccess: (user) => {
      qc.setQueryData(authKeys.me, user);
      void qc.invalidateQueries({ queryKey: libraryKeys.all });
    },
  });
}

/** First run: creates the first (administrator) account, then logs in with it. */
export function useClaim() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: Credentials & { rememberMe: boolean }) => {
      await client.post('/api/v1/claim', {
        headers: { 'X-Komga-Email': credentials.email, 'X-Komga-Password': credentials.password },
      });
      qc.setQueryData<ClaimStatus>(authKeys.claim, { isClaimed: true });
      return logIn(credentials);
    },
    onSuccess: (user) => {
      qc.setQueryData(authKeys.me, user);
      void qc.invalidateQueries({ queryKey: libraryKeys.all });
    },
  });
}

/**
 * Ends the session on the server (a failure is ignored: the client forgets the user anyway). Navigate away before
 * awaiting it, so no protected screen refetches in between.
 */
export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => logOut(),
    onSettled: () => forgetSession(qc),
  });
}

/** Ends the session on the server; a failure is ignored (the client forgets the user anyway). */
export const logOut = (): Promise<void> =>
  client.post('/api/logout').then(
    () => undefined,
    () => undefined,
  );

/** Drops every cached answer and marks the user signed out. */
export function forgetSession(qc: ReturnType<typeof useQueryClient>): void {
  qc.cancelQueries().catch(() => undefined);
  qc.getMutationCache().clear();
  // Reset rather than removed: every answer is forgotten and the screen already shown (the login page, mounted
  // before the logout's answer) asks again. A cleared cache left that screen's queries belonging to no cache,
  // pending for ever when their requests were cancelled on the way (the login form waited for them).
  qc.resetQueries().catch(() => undefined);
  qc.setQueryData(authKeys.me, null);
}

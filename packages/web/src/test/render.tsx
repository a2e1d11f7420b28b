import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueryKey } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { UserDto } from '@quire/api';
import { authKeys, type ClaimStatus } from '../api/auth';
import { libraryKeys, type LibraryDto } from '../api/libraries';
import { AppProviders, createQueryClient } from '../app/providers';
import { createRoutes } from '../app/router';
import { ItemToasts } from '../features/items/toast';

export interface RenderScreenOptions {
  /** The URL to start at. */
  route?: string;
  /** The signed-in user; null for signed out. Left out: not seeded. */
  user?: UserDto | null;
  libraries?: LibraryDto[];
  claim?: ClaimStatus;
  /** Any other cache entries. */
  seed?: [QueryKey, unknown][];
}

/**
 * Renders the real app (routes, guards, providers) at `route`, or `ui` alone at that URL, around a fresh
 * QueryClient seeded with the given data. Seeded data never goes stale, so nothing is fetched unless a test
 * leaves something unseeded (then stub `fetch`).
 */
export function renderScreen(ui: ReactElement | null, options: RenderScreenOptions = {}) {
  const queryClient = createQueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity, gcTime: Infinity }, mutations: { retry: false } },
  });
  if (options.user !== undefined) queryClient.setQueryData(authKeys.me, options.user);
  if (options.libraries) queryClient.setQueryData(libraryKeys.list(), options.libraries);
  if (options.claim) queryClient.setQueryData(authKeys.claim, options.claim);
  for (const [key, data] of options.seed ?? []) queryClient.setQueryData(key, data);

  // A screen rendered alone gets the item messages the app shell would draw around it.
  const routes: RouteObject[] = ui
    ? [
        {
          path: '*',
          element: (
            <>
              {ui}
              <ItemToasts />
            </>
          ),
        },
      ]
    : createRoutes();
  const router = createMemoryRouter(routes, { initialEntries: [options.route ?? '/'] });
  const user = userEvent.setup();
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  /** The current URL, path plus query. */
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...result, router, queryClient, user, location };
}

/** A fetch answer with a JSON body. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

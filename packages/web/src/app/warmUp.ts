import type { QueryClient } from '@tanstack/react-query';
import { authQueries } from '../api/auth';
import { libraryQueries } from '../api/libraries';

/**
 * Asks at start-up for what the first screen will need, all at once: the session's user, then (signed in) the
 * libraries, and the dashboard's code when the dashboard is where the app opens. Left to themselves, the auth guard,
 * the libraries guard and the lazy route would ask one after another (issue 18: a cold start waited on each in turn).
 * The queries land in the cache the guards read; the module in the browser's module map the route imports from.
 */
export function warmUp(queryClient: QueryClient): void {
  void queryClient
    .fetchQuery(authQueries.me())
    .then((user) => user && queryClient.prefetchQuery(libraryQueries.list()))
    .catch(() => undefined);
  if (/\/(dashboard)?$/.test(window.location.pathname)) void import('../features/dashboard/DashboardPage');
}

import type { QueryClient } from '@tanstack/react-query';
import { authQueries } from '../api/auth';
import { libraryQueries } from '../api/libraries';
import { prefetchDashboard } from '../features/dashboard/sections';

/**
 * Asks at start-up for what the first screen will need, all at once: the session's user, then (signed in) the
 * libraries, and when the app opens on the dashboard, its code and (signed in) its rows. Left to themselves, the auth
 * guard, the libraries guard, the lazy route and the rows would ask one after another (issue 18: a cold start waited
 * on each in turn). The queries land in the cache the guards and rows read; the module in the browser's module map
 * the route imports from.
 */
export function warmUp(queryClient: QueryClient): void {
  const dashboard = /\/(dashboard)?$/.test(window.location.pathname);
  void queryClient
    .fetchQuery(authQueries.me())
    .then((user) => {
      if (!user) return;
      void queryClient.prefetchQuery(libraryQueries.list());
      if (dashboard) void prefetchDashboard(queryClient);
    })
    .catch(() => undefined);
  if (dashboard) void import('../features/dashboard/DashboardPage');
}

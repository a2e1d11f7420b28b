import { useCallback } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { forgetSession, isAdmin, logOut, useCurrentUser } from '../api/auth';
import { useLiveEvents } from '../api/events';
import { useLibraries } from '../api/libraries';
import { ErrorState } from '../components/ErrorState';
import { FullPageLoader, PageSkeleton } from '../components/PageSkeleton';
import { ALL_LIBRARIES, libraryView, usePreferences, type LibraryView } from './preferences';

/** The URL segment of each library view. */
export const LIBRARY_VIEW_PATHS: Record<LibraryView, string> = {
  RECOMMENDED: 'recommended',
  BROWSE: 'series',
  BOOKS: 'books',
  COLLECTIONS: 'collections',
  READLISTS: 'readlists',
};

/**
 * Every route below needs a signed-in user; otherwise startup, with the full original path (query and hash
 * included) as `redirect`. While signed in, the live-event stream is open.
 */
export function RequireAuth() {
  const me = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();

  const onSessionExpired = useCallback(() => {
    void (async () => {
      await navigate('/login', { replace: true });
      await logOut();
      forgetSession(qc);
    })();
  }, [navigate, qc]);
  useLiveEvents(!!me.data, onSessionExpired);

  if (me.isPending) return <FullPageLoader />;
  if (me.isError) return <ErrorState error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) {
    const redirect = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/startup?${new URLSearchParams({ redirect }).toString()}`} replace />;
  }
  return <Outlet />;
}

/** Admin-only screens: anyone else goes home. */
export function RequireAdmin() {
  const me = useCurrentUser();
  if (!isAdmin(me.data)) return <Navigate to="/" replace />;
  return <Outlet />;
}

/** Dashboard and library browse screens: while no library exists, the welcome screen instead. */
export function RequireLibraries() {
  const libraries = useLibraries();
  if (libraries.isPending) return <PageSkeleton />;
  if (libraries.isError) return <ErrorState error={libraries.error} onRetry={() => void libraries.refetch()} />;
  if (libraries.data.length === 0) return <Navigate to="/welcome" replace />;
  return <Outlet />;
}

/** `/libraries` and `/libraries/:libraryId`: on to the remembered view of that library. */
export function LibraryRedirect() {
  const { libraryId = ALL_LIBRARIES } = useParams();
  const view = usePreferences((p) => libraryView(p, libraryId));
  return <Navigate to={`/libraries/${encodeURIComponent(libraryId)}/${LIBRARY_VIEW_PATHS[view]}`} replace />;
}

import { useEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, useMatches, useParams, type RouteObject } from 'react-router';
import { basePath } from '../api/client';
import { FullPageLoader } from '../components/PageSkeleton';
import { NotFoundPage } from '../features/errors/NotFoundPage';
import { RouteError } from '../features/errors/RouteError';
import { AppLayout } from './AppLayout';
import { LibraryRedirect, RequireAdmin, RequireAuth, RequireLibraries } from './guards';
import { lazyPage } from './lazyPage';
import { updatePreferences, type LibraryView } from './preferences';
import { APP_NAME } from './usePageTitle';

export interface RouteHandle {
  /** The screen sets its own document title (reader, book and series routes); elsewhere it is the product name. */
  ownTitle?: boolean;
  /** A library tab: visiting it makes it the library's remembered view. */
  libraryView?: LibraryView;
}

const ownTitle: RouteHandle = { ownTitle: true };

/** Resets the title on every route that does not set its own (spec §2). */
function TitleReset() {
  const matches = useMatches();
  const own = matches.some((m) => (m.handle as RouteHandle | undefined)?.ownTitle);
  const path = matches.at(-1)?.pathname;
  useEffect(() => {
    if (!own) document.title = APP_NAME;
  }, [own, path]);
  return null;
}

/** Remembers the library tab the user is on, for `/libraries/:libraryId` (spec §3). */
function RememberLibraryView() {
  const matches = useMatches();
  const { libraryId } = useParams();
  const view = matches.map((m) => (m.handle as RouteHandle | undefined)?.libraryView).find(Boolean);
  useEffect(() => {
    if (!view || !libraryId) return;
    updatePreferences((p) =>
      p.library.view[libraryId] === view
        ? p
        : { ...p, library: { ...p.library, view: { ...p.library.view, [libraryId]: view } } },
    );
  }, [view, libraryId]);
  return null;
}

function Root() {
  return (
    <>
      <TitleReset />
      <Outlet />
    </>
  );
}

function LibraryTabs() {
  return (
    <>
      <RememberLibraryView />
      <Outlet />
    </>
  );
}

const libraryTab = (segment: string, view: LibraryView, lazy: RouteObject['lazy']): RouteObject => ({
  path: segment,
  handle: { libraryView: view } satisfies RouteHandle,
  lazy,
});

const sectionPage = lazyPage(
  () => import('../features/dashboard/SectionPage'),
  (m) => m.SectionPage,
);

/**
 * The routes of spec §2. Screens of later issues get their routes with their screens; until then their paths
 * show the not-found page.
 */
export function createRoutes(): RouteObject[] {
  return [
    {
      element: <Root />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <FullPageLoader />,
      children: [
        {
          path: 'startup',
          lazy: lazyPage(
            () => import('../features/auth/StartupPage'),
            (m) => m.StartupPage,
          ),
        },
        {
          path: 'login',
          lazy: lazyPage(
            () => import('../features/auth/LoginPage'),
            (m) => m.LoginPage,
          ),
        },
        {
          element: <RequireAuth />,
          children: [
            // Readers fill the window: no app bar, no drawer.
            {
              path: 'book/:bookId/read',
              handle: ownTitle,
              lazy: lazyPage(
                () => import('../features/reader/DivinaReader'),
                (m) => m.DivinaReader,
              ),
            },
            {
              path: 'book/:bookId/read-epub',
              handle: ownTitle,
              lazy: lazyPage(
                () => import('../features/reader/epub/EpubReader'),
                (m) => m.EpubReader,
              ),
            },
            {
              path: '/',
              element: <AppLayout />,
              children: [
                { index: true, element: <Navigate to="/dashboard" replace /> },
                {
                  path: 'welcome',
                  lazy: lazyPage(
                    () => import('../features/welcome/WelcomePage'),
                    (m) => m.WelcomePage,
                  ),
                },
                {
                  element: <RequireLibraries />,
                  children: [
                    {
                      path: 'dashboard',
                      lazy: lazyPage(
                        () => import('../features/dashboard/DashboardPage'),
                        (m) => m.DashboardPage,
                      ),
                    },
                    { path: 'dashboard/:section', lazy: sectionPage },
                    { path: 'libraries', element: <LibraryRedirect /> },
                    {
                      path: 'libraries/:libraryId',
                      element: <LibraryTabs />,
                      children: [
                        { index: true, element: <LibraryRedirect /> },
                        libraryTab(
                          'recommended',
                          'RECOMMENDED',
                          lazyPage(
                            () => import('../features/library/RecommendedPage'),
                            (m) => m.RecommendedPage,
                          ),
                        ),
                        { path: 'recommended/:section', lazy: sectionPage },
                        libraryTab(
                          'series',
                          'BROWSE',
                          lazyPage(
                            () => import('../features/library/SeriesBrowsePage'),
                            (m) => m.SeriesBrowsePage,
                          ),
                        ),
                        libraryTab(
                          'books',
                          'BOOKS',
                          lazyPage(
                            () => import('../features/library/BooksBrowsePage'),
                            (m) => m.BooksBrowsePage,
                          ),
                        ),
                        libraryTab(
                          'collections',
                          'COLLECTIONS',
                          lazyPage(
                            () => import('../features/library/ListsBrowsePage'),
                            (m) => m.CollectionsBrowsePage,
                          ),
                        ),
                        libraryTab(
                          'readlists',
                          'READLISTS',
                          lazyPage(
                            () => import('../features/library/ListsBrowsePage'),
                            (m) => m.ReadListsBrowsePage,
                          ),
                        ),
                      ],
                    },
                  ],
                },
                {
                  path: 'series/:seriesId',
                  handle: ownTitle,
                  lazy: lazyPage(
                    () => import('../features/items/SeriesPage'),
                    (m) => m.SeriesPage,
                  ),
                },
                {
                  path: 'oneshot/:seriesId',
                  handle: ownTitle,
                  lazy: lazyPage(
                    () => import('../features/items/OneshotPage'),
                    (m) => m.OneshotPage,
                  ),
                },
                {
                  path: 'book/:bookId',
                  handle: ownTitle,
                  lazy: lazyPage(
                    () => import('../features/items/BookPage'),
                    (m) => m.BookPage,
                  ),
                },
                {
                  path: 'collections/:collectionId',
                  lazy: lazyPage(
                    () => import('../features/items/CollectionPage'),
                    (m) => m.CollectionPage,
                  ),
                },
                {
                  path: 'readlists/:readListId',
                  lazy: lazyPage(
                    () => import('../features/items/ReadListPage'),
                    (m) => m.ReadListPage,
                  ),
                },
                {
                  path: 'search',
                  lazy: lazyPage(
                    () => import('../features/search/SearchPage'),
                    (m) => m.SearchPage,
                  ),
                },
                {
                  path: 'account',
                  lazy: lazyPage(
                    () => import('../features/account/AccountPage'),
                    (m) => m.AccountPage,
                  ),
                },
                {
                  path: 'account/settings-ui',
                  lazy: lazyPage(
                    () => import('../features/ui-settings/UserUiSettingsPage'),
                    (m) => m.UserUiSettingsPage,
                  ),
                },
                {
                  // Every user: the server shows each one the events of what he may see.
                  path: 'history',
                  lazy: lazyPage(
                    () => import('../features/history/HistoryPage'),
                    (m) => m.HistoryPage,
                  ),
                },
                {
                  element: <RequireAdmin />,
                  children: [
                    { path: 'settings', element: <Navigate to="/settings/users" replace /> },
                    {
                      // One route for the list and /add (the page opens its add dialog then): no remount between them.
                      path: 'settings/users/add?',
                      lazy: lazyPage(
                        () => import('../features/admin/users/UsersPage'),
                        (m) => m.UsersPage,
                      ),
                    },
                    {
                      path: 'settings/server',
                      lazy: lazyPage(
                        () => import('../features/admin/server/ServerSettingsPage'),
                        (m) => m.ServerSettingsPage,
                      ),
                    },
                    {
                      path: 'settings/metrics',
                      lazy: lazyPage(
                        () => import('../features/admin/metrics/MetricsPage'),
                        (m) => m.MetricsPage,
                      ),
                    },
                    {
                      path: 'settings/ui',
                      lazy: lazyPage(
                        () => import('../features/ui-settings/GlobalUiSettingsPage'),
                        (m) => m.GlobalUiSettingsPage,
                      ),
                    },
                    {
                      path: 'settings/tasks',
                      lazy: lazyPage(
                        () => import('../features/admin/tasks/TasksPage'),
                        (m) => m.TasksPage,
                      ),
                    },
                    { path: 'import', element: <Navigate to="/import/books" replace /> },
                    {
                      path: 'import/books',
                      lazy: lazyPage(
                        () => import('../features/import-books/ImportBooksPage'),
                        (m) => m.ImportBooksPage,
                      ),
                    },
                    {
                      path: 'import/readlist',
                      lazy: lazyPage(
                        () => import('../features/import-readlist/ImportReadListPage'),
                        (m) => m.ImportReadListPage,
                      ),
                    },
                    {
                      path: 'settings/announcements',
                      lazy: lazyPage(
                        () => import('../features/updates/AnnouncementsPage'),
                        (m) => m.AnnouncementsPage,
                      ),
                    },
                    {
                      path: 'settings/updates',
                      lazy: lazyPage(
                        () => import('../features/updates/UpdatesPage'),
                        (m) => m.UpdatesPage,
                      ),
                    },
                    {
                      path: 'media-management',
                      lazy: lazyPage(
                        () => import('../features/media/MediaManagementPage'),
                        (m) => m.MediaManagementPage,
                      ),
                      children: [
                        { index: true, element: <Navigate to="analysis" replace /> },
                        {
                          path: 'analysis',
                          lazy: lazyPage(
                            () => import('../features/media/MediaAnalysisTab'),
                            (m) => m.MediaAnalysisTab,
                          ),
                        },
                        {
                          path: 'missing-posters',
                          lazy: lazyPage(
                            () => import('../features/media/MissingPostersTab'),
                            (m) => m.MissingPostersTab,
                          ),
                        },
                        {
                          path: 'duplicate-files',
                          lazy: lazyPage(
                            () => import('../features/media/DuplicateFilesTab'),
                            (m) => m.DuplicateFilesTab,
                          ),
                        },
                        { path: 'duplicate-pages', element: <Navigate to="unknown" replace /> },
                        {
                          path: 'duplicate-pages/unknown',
                          lazy: lazyPage(
                            () => import('../features/duplicate-pages/UnknownDuplicatesTab'),
                            (m) => m.UnknownDuplicatesTab,
                          ),
                        },
                        {
                          path: 'duplicate-pages/known',
                          lazy: lazyPage(
                            () => import('../features/duplicate-pages/KnownDuplicatesTab'),
                            (m) => m.KnownDuplicatesTab,
                          ),
                        },
                      ],
                    },
                  ],
                },
                { path: '*', Component: NotFoundPage },
              ],
            },
          ],
        },
      ],
    },
  ];
}

/**
 * The app's router: history mode under the context path the server was reached at. A page opened at the root (the
 * server's address, as most users open it) starts at the dashboard, the index route's target: that route's
 * `<Navigate>` would first render the app's frame with nothing in it, and only its effect would navigate, so the
 * dashboard came in a second pass after its code was awaited again (issue 18: ~130 ms of a cold start to the first
 * poster, `bench/client.mjs`). The index route stays for links to the root inside the app.
 */
export function createAppRouter() {
  const base = basePath();
  const { pathname, search, hash } = window.location;
  if (pathname === base || pathname === `${base}/`) {
    window.history.replaceState(window.history.state, '', `${base}/dashboard${search}${hash}`);
  }
  return createBrowserRouter(createRoutes(), { basename: base || '/' });
}

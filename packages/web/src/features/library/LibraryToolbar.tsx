import { type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import GlobalStyles from '@mui/material/GlobalStyles';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import AutoStoriesIcon from '@mui/icons-material/AutoStories';
import BookmarksIcon from '@mui/icons-material/Bookmarks';
import CollectionsBookmarkIcon from '@mui/icons-material/CollectionsBookmark';
import LayersIcon from '@mui/icons-material/Layers';
import StarIcon from '@mui/icons-material/Star';
import { useTranslation } from 'react-i18next';
import { useCollections } from '../../api/collections';
import { useLibraries, type LibraryDto } from '../../api/libraries';
import { useReadLists } from '../../api/readlists';
import { LIBRARY_VIEW_PATHS } from '../../app/guards';
import { ALL_LIBRARIES, type LibraryView } from '../../app/preferences';
import { STICKY_TOP } from '../../components/browse/SelectionBar';
import { LibraryActionsMenu } from '../libraries/LibraryActionsMenu';

/** The library ids a view covers: none (every library) for the `all` pseudo-library. */
export const libraryScope = (libraryId: string): string[] | undefined =>
  libraryId === ALL_LIBRARIES ? undefined : [libraryId];

export function useLibraryOf(libraryId: string): { library: LibraryDto | undefined; pending: boolean } {
  const libraries = useLibraries();
  return { library: libraries.data?.find((l) => l.id === libraryId), pending: libraries.isPending };
}

interface NavItem {
  view: LibraryView;
  label: string;
  icon: ReactNode;
}

/**
 * Which views a library offers: recommended for a single library, series and books always, collections and read lists when
 * the library has some (or the user is on that view).
 */
function useNavItems(libraryId: string, current: LibraryView): NavItem[] {
  const { t } = useTranslation();
  const scope = { libraryIds: libraryScope(libraryId), size: 1 };
  const collections = useCollections(scope).data?.totalElements ?? 0;
  const readLists = useReadLists(scope).data?.totalElements ?? 0;
  const items: NavItem[] = [];
  if (libraryId !== ALL_LIBRARIES)
    items.push({ view: 'RECOMMENDED', label: t('library.views.recommended'), icon: <StarIcon /> });
  items.push({ view: 'BROWSE', label: t('library.views.series'), icon: <CollectionsBookmarkIcon /> });
  items.push({ view: 'BOOKS', label: t('library.views.books'), icon: <AutoStoriesIcon /> });
  if (collections > 0 || current === 'COLLECTIONS')
    items.push({ view: 'COLLECTIONS', label: t('library.views.collections'), icon: <LayersIcon /> });
  if (readLists > 0 || current === 'READLISTS')
    items.push({ view: 'READLISTS', label: t('library.views.readLists'), icon: <BookmarksIcon /> });
  return items;
}

const viewPath = (libraryId: string, view: LibraryView) =>
  `/libraries/${encodeURIComponent(libraryId)}/${LIBRARY_VIEW_PATHS[view]}`;

export interface LibraryToolbarProps {
  libraryId: string;
  view: LibraryView;
  /** Item count of the view, as a chip after the title. */
  total?: number;
  /** Buttons at the end (display menu, filter). */
  actions?: ReactNode;
  /** A selection is under way: the selection bar takes the toolbar's place. */
  hidden?: boolean;
}

/**
 * The toolbar of library screens (ui.md §4): the library's ⋮ menu (admins), its name, the item count and the views
 * as tabs from md up; below md the views move to a bottom navigation bar.
 */
export function LibraryToolbar({ libraryId, view, total, actions, hidden }: LibraryToolbarProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const { library, pending } = useLibraryOf(libraryId);
  const items = useNavItems(libraryId, view);
  const title = libraryId === ALL_LIBRARIES ? t('library.allLibraries') : (library?.name ?? '');

  return (
    <>
      {!hidden && (
        <Paper
          square
          elevation={0}
          sx={{
            position: 'sticky',
            ...STICKY_TOP,
            zIndex: (th) => th.zIndex.appBar - 2,
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            px: { xs: 1, sm: 2 },
            minHeight: 56,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          {library && <LibraryActionsMenu library={library} />}
          <Typography variant="h6" component="h1" noWrap sx={{ minWidth: 0, flexShrink: 1 }}>
            {pending && libraryId !== ALL_LIBRARIES ? <Skeleton width={120} /> : title}
          </Typography>
          {total !== undefined && (
            <Chip size="small" label={total} aria-label={t('library.count', { count: total })} sx={{ flexShrink: 0 }} />
          )}
          {wide && (
            <Tabs
              value={items.some((i) => i.view === view) ? view : false}
              aria-label={t('library.views.label')}
              sx={{ ml: 2, minHeight: 56, '& .MuiTab-root': { minHeight: 56 } }}
            >
              {items.map((item) => (
                <Tab
                  key={item.view}
                  value={item.view}
                  label={item.label}
                  component={RouterLink}
                  to={viewPath(libraryId, item.view)}
                />
              ))}
            </Tabs>
          )}
          <Box sx={{ flex: 1 }} />
          {actions}
        </Paper>
      )}
      {!wide && items.length > 1 && (
        <>
          {/* Keeps the end of the page clear of the bar. */}
          <GlobalStyles styles={{ body: { paddingBottom: 56 } }} />
          <Paper
            elevation={8}
            sx={{ position: 'fixed', bottom: 0, insetInline: 0, zIndex: (th) => th.zIndex.appBar }}
            component="nav"
            aria-label={t('library.views.label')}
          >
            <BottomNavigation value={view} showLabels>
              {items.map((item) => (
                <BottomNavigationAction
                  key={item.view}
                  value={item.view}
                  label={item.label}
                  icon={item.icon}
                  component={RouterLink}
                  to={viewPath(libraryId, item.view)}
                />
              ))}
            </BottomNavigation>
          </Paper>
        </>
      )}
    </>
  );
}

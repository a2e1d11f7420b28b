import { useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink, NavLink, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AddIcon from '@mui/icons-material/Add';
import HomeIcon from '@mui/icons-material/Home';
import LibraryBooksIcon from '@mui/icons-material/LibraryBooks';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import PeopleIcon from '@mui/icons-material/People';
import PersonIcon from '@mui/icons-material/Person';
import SettingsIcon from '@mui/icons-material/Settings';
import DashboardCustomizeIcon from '@mui/icons-material/DashboardCustomize';
import TuneIcon from '@mui/icons-material/Tune';
import HistoryIcon from '@mui/icons-material/History';
import PermMediaIcon from '@mui/icons-material/PermMedia';
import PendingActionsIcon from '@mui/icons-material/PendingActions';
import ImportContactsIcon from '@mui/icons-material/ImportContacts';
import InsightsIcon from '@mui/icons-material/Insights';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import CampaignIcon from '@mui/icons-material/Campaign';
import SystemUpdateAltIcon from '@mui/icons-material/SystemUpdateAlt';
import { useTranslation } from 'react-i18next';
import { isAdmin, useCurrentUser, useLogout } from '../api/auth';
import { useLibraries } from '../api/libraries';
import { useBooks } from '../api/books';
import { isOutdated, unreadAnnouncements, useActuatorInfo, useAnnouncements, useReleases } from '../api/updates';
import Badge from '@mui/material/Badge';
import { analysisCondition, DEFAULT_STATUSES } from '../features/media/conditions';
import { Logo } from '../components/Logo';
import { LanguageSelect, ThemeSelect } from '../components/PreferenceSelects';
import { useLocaleFollowsUser } from '../i18n/userLocale';
import { LibraryActionsMenu } from '../features/libraries/LibraryActionsMenu';
import { LibraryDialogsProvider, useLibraryActions } from '../features/libraries/LibraryDialogs';
import { TaskIndicator } from '../features/libraries/TaskIndicator';
import { ImportToasts } from '../features/import-books/ImportToasts';
import { ItemToasts } from '../features/items/toast';
import { SearchBox } from '../features/search/SearchBox';
import { ALL_LIBRARIES } from './preferences';

export const DRAWER_WIDTH = 260;

/** Logs out: leaves for the login page first, so no protected screen refetches, then ends the session. */
function useLogoutAction() {
  const navigate = useNavigate();
  const logout = useLogout();
  return async () => {
    await navigate('/login?logout=true', { replace: true });
    logout.mutate();
  };
}

function NavItem({
  to,
  icon,
  label,
  end,
  inset,
  dot,
  count,
}: {
  to: string;
  icon?: ReactNode;
  label: string;
  end?: boolean;
  inset?: boolean;
  /** A small accent dot on the icon, with this text for screen readers (ui.md §1.3). */
  dot?: string;
  /** A number on the icon (unread announcements), with this text under the label. */
  count?: { value: number; text: string };
}) {
  const badged = count && count.value > 0;
  // In a list item: a list holds only items (screen readers announce "list, 8 items").
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={NavLink}
        to={to}
        end={end}
        sx={{
          pl: inset ? 4 : undefined,
          '&.active': { bgcolor: 'action.selected', color: 'primary.main' },
          '&.active .MuiListItemIcon-root': { color: 'primary.main' },
        }}
      >
        {icon && (
          <ListItemIcon>
            {dot ? (
              <Badge variant="dot" color="error" title={dot}>
                {icon}
              </Badge>
            ) : badged ? (
              <Badge badgeContent={count.value} max={99} color="info">
                {icon}
              </Badge>
            ) : (
              icon
            )}
          </ListItemIcon>
        )}
        <ListItemText
          primary={label}
          secondary={dot ?? (badged ? count.text : undefined)}
          slotProps={{
            primary: { noWrap: true },
            secondary: { variant: 'caption', color: dot ? 'error' : 'info' },
          }}
        />
      </ListItemButton>
    </ListItem>
  );
}

/** Each library, with its ⋮ actions menu for admins (ui.md §1.3, §1.4). */
function LibraryItems() {
  const { t } = useTranslation();
  const libraries = useLibraries();
  const admin = isAdmin(useCurrentUser().data);
  if (libraries.isPending) {
    return (
      <>
        {[0, 1].map((i) => (
          <ListItem key={i} disablePadding aria-hidden>
            <ListItemButton disabled sx={{ pl: 4 }}>
              <ListItemText primary={<Skeleton width="70%" />} />
            </ListItemButton>
          </ListItem>
        ))}
      </>
    );
  }
  return (
    <>
      {(libraries.data ?? []).map((library) => (
        <ListItem
          key={library.id}
          disablePadding
          secondaryAction={admin ? <LibraryActionsMenu library={library} edge="end" /> : undefined}
        >
          <ListItemButton
            component={NavLink}
            to={`/libraries/${library.id}`}
            sx={{ pl: 4, '&.active': { bgcolor: 'action.selected', color: 'primary.main' } }}
          >
            <ListItemText
              primary={library.name}
              secondary={library.unavailable ? t('nav.unavailable') : undefined}
              slotProps={{ primary: { noWrap: true }, secondary: { color: 'error' } }}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </>
  );
}

/**
 * Media management, with a dot while some books need checking (errors, unsupported files: the media analysis
 * screen's first filter). Counted with a one-book page, refreshed by live book events like any book list.
 */
function MediaManagementItem() {
  const { t } = useTranslation();
  const check = useBooks({ condition: analysisCondition(DEFAULT_STATUSES, []), page: 0, size: 1 });
  const count = check.data?.totalElements ?? 0;
  return (
    <NavItem
      to="/media-management"
      icon={<PermMediaIcon />}
      label={t('nav.mediaManagement')}
      dot={count > 0 ? t('nav.booksToCheck', { count }) : undefined}
    />
  );
}

/** Announcements, with the number of items the admin has not read (ui.md §1.3). */
function AnnouncementsItem() {
  const { t } = useTranslation();
  const unread = unreadAnnouncements(useAnnouncements().data).length;
  return (
    <NavItem
      to="/settings/announcements"
      icon={<CampaignIcon />}
      label={t('nav.announcements')}
      count={{ value: unread, text: t('updates.nav.unreadAnnouncements', { count: unread }) }}
    />
  );
}

/** Updates, with a dot when the installed version is not the latest release (ui.md §1.3). */
function UpdatesItem() {
  const { t } = useTranslation();
  const outdated = isOutdated(useActuatorInfo().data?.build?.version, useReleases().data);
  return (
    <NavItem
      to="/settings/updates"
      icon={<SystemUpdateAltIcon />}
      label={t('nav.updates')}
      dot={outdated ? t('updates.nav.updateAvailable') : undefined}
    />
  );
}

function DrawerContent({ onLogout }: { onLogout: () => void }) {
  const { t } = useTranslation();
  const admin = isAdmin(useCurrentUser().data);
  const libraries = useLibraries();
  const libraryActions = useLibraryActions();
  const hasLibraries = (libraries.data?.length ?? 0) > 0;
  return (
    <Stack sx={{ height: '100%' }}>
      <Toolbar />
      <Box component="nav" aria-label={t('nav.navigation')} sx={{ flex: 1, overflowY: 'auto' }}>
        <List>
          <NavItem to="/dashboard" icon={<HomeIcon />} label={t('nav.home')} />
        </List>
        <Divider />
        <List subheader={<ListSubheader disableSticky>{t('nav.libraries')}</ListSubheader>}>
          {(hasLibraries || libraries.isPending) && (
            <NavItem to={`/libraries/${ALL_LIBRARIES}`} icon={<LibraryBooksIcon />} label={t('nav.allLibraries')} />
          )}
          <LibraryItems />
          {admin && (
            <ListItem disablePadding>
              <ListItemButton onClick={libraryActions.add} sx={{ pl: 4 }}>
                <ListItemIcon>
                  <AddIcon />
                </ListItemIcon>
                <ListItemText primary={t('libraries.addLibrary')} />
              </ListItemButton>
            </ListItem>
          )}
        </List>
        {admin && (
          <>
            <Divider />
            <List subheader={<ListSubheader disableSticky>{t('nav.administration')}</ListSubheader>}>
              <NavItem to="/settings/server" icon={<SettingsIcon />} label={t('nav.serverSettings')} />
              <NavItem to="/settings/users" icon={<PeopleIcon />} label={t('nav.users')} />
              <NavItem to="/settings/metrics" icon={<InsightsIcon />} label={t('nav.metrics')} />
              <NavItem to="/settings/ui" icon={<DashboardCustomizeIcon />} label={t('nav.uiSettings')} />
              <MediaManagementItem />
              <NavItem to="/settings/tasks" icon={<PendingActionsIcon />} label={t('nav.tasks')} />
              <AnnouncementsItem />
              <UpdatesItem />
            </List>
            <Divider />
            <List subheader={<ListSubheader disableSticky>{t('nav.import')}</ListSubheader>}>
              <NavItem to="/import/books" icon={<ImportContactsIcon />} label={t('nav.importBooks')} />
              <NavItem to="/import/readlist" icon={<PlaylistAddIcon />} label={t('nav.importReadList')} />
            </List>
          </>
        )}
        <Divider />
        <List>
          <NavItem to="/history" icon={<HistoryIcon />} label={t('nav.history')} />
          <NavItem to="/account" end icon={<PersonIcon />} label={t('nav.account')} />
          <NavItem to="/account/settings-ui" icon={<TuneIcon />} label={t('nav.myUiSettings')} />
          <ListItem disablePadding>
            <ListItemButton onClick={onLogout}>
              <ListItemIcon>
                <LogoutIcon sx={{ transform: (th) => (th.direction === 'rtl' ? 'scaleX(-1)' : undefined) }} />
              </ListItemIcon>
              <ListItemText primary={t('nav.logout')} />
            </ListItemButton>
          </ListItem>
        </List>
      </Box>
      <Divider />
      <Stack spacing={2} sx={{ p: 2 }}>
        <ThemeSelect />
        <LanguageSelect />
      </Stack>
    </Stack>
  );
}

function AccountMenu({ onLogout }: { onLogout: () => void }) {
  const { t } = useTranslation();
  const me = useCurrentUser().data;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('nav.accountMenu')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'account-menu' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <AccountCircleIcon />
      </IconButton>
      <Menu id="account-menu" anchorEl={anchor} open={!!anchor} onClose={close}>
        {me && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
            {t('nav.signedInAs', { email: me.email })}
          </Typography>
        )}
        <MenuItem component={RouterLink} to="/account" onClick={close}>
          <ListItemIcon>
            <PersonIcon fontSize="small" />
          </ListItemIcon>
          {t('nav.account')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            onLogout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon
              fontSize="small"
              sx={{ transform: (th) => (th.direction === 'rtl' ? 'scaleX(-1)' : undefined) }}
            />
          </ListItemIcon>
          {t('nav.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}

const MAIN_ID = 'main-content';

/**
 * The first stop of the Tab key: "Skip to content", hidden until focused, moves the focus past the app bar and the
 * navigation drawer to the screen's content. The focus is moved by hand: following `#main-content` would put a hash
 * in the URL of a client-side route.
 */
function SkipLink() {
  const { t } = useTranslation();
  return (
    <Box
      component="a"
      href={`#${MAIN_ID}`}
      onClick={(e) => {
        e.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
      sx={{
        position: 'fixed',
        top: 8,
        insetInlineStart: 8,
        zIndex: (th) => th.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'text.primary',
        boxShadow: 4,
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      {t('nav.skipToContent')}
    </Box>
  );
}

/**
 * When the focused element leaves the page (the welcome screen's *Add library* button once the library exists, a
 * deleted item's menu, a dialog whose opener is gone), the focus would fall to the top of the document and a keyboard
 * user would start over from the skip link: it goes to the content instead. A dialog closing normally gives the focus
 * back to its opener itself (MUI), before or after this check: either way the opener ends with it.
 */
function useFocusKeptInContent() {
  useEffect(() => {
    let last: Element | null = null;
    const onFocusIn = (e: FocusEvent) => {
      last = e.target instanceof Element ? e.target : null;
    };
    const observer = new MutationObserver(() => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (last && !last.isConnected && lost) {
        last = null;
        document.getElementById(MAIN_ID)?.focus({ preventScroll: true });
      }
    });
    document.addEventListener('focusin', onFocusIn);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      observer.disconnect();
    };
  }, []);
}

/** The shell around most screens: app bar, navigation drawer (permanent from md up, temporary below), content. */
export function AppLayout() {
  return (
    <LibraryDialogsProvider>
      <Shell />
    </LibraryDialogsProvider>
  );
}

function Shell() {
  useLocaleFollowsUser();
  const { t } = useTranslation();
  const admin = isAdmin(useCurrentUser().data);
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [mobileOpen, setMobileOpen] = useState(false);
  const location = useLocation();
  const navigation = useNavigation();
  const logout = useLogoutAction();
  useFocusKeptInContent();

  // A temporary drawer closes when the user navigates.
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setMobileOpen(false);
  }

  const drawer = <DrawerContent onLogout={() => void logout()} />;
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink />
      <AppBar position="fixed" sx={{ zIndex: (th) => th.zIndex.drawer + 1 }}>
        <Toolbar>
          {!desktop && (
            <IconButton
              color="inherit"
              edge="start"
              aria-label={t('nav.openNavigation')}
              aria-expanded={mobileOpen}
              onClick={() => setMobileOpen(true)}
              sx={{ mr: 1 }}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Box
            component={RouterLink}
            to="/dashboard"
            sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none' }}
          >
            <Logo size={32} />
            <Typography variant="h6" component="span" noWrap>
              {t('common.appName')}
            </Typography>
          </Box>
          <SearchBox />
          <TaskIndicator />
          <AccountMenu onLogout={() => void logout()} />
        </Toolbar>
      </AppBar>
      {desktop ? (
        <Drawer
          variant="permanent"
          sx={{ width: DRAWER_WIDTH, flexShrink: 0, '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
        >
          {drawer}
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
        >
          {drawer}
        </Drawer>
      )}
      <Box component="main" id={MAIN_ID} tabIndex={-1} sx={{ flex: 1, minWidth: 0, position: 'relative', outline: 0 }}>
        <Toolbar />
        {navigation.state === 'loading' && (
          <LinearProgress
            color="secondary"
            aria-label={t('common.loading')}
            sx={{ position: 'absolute', left: 0, right: 0, zIndex: 1 }}
          />
        )}
        <Outlet />
      </Box>
      <ItemToasts />
      {admin && <ImportToasts />}
    </Box>
  );
}

import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The media management tabs (ui.md §13.6), each a route under `/media-management`. */
const TABS = [
  { path: 'analysis', label: 'media.tabs.analysis' },
  { path: 'missing-posters', label: 'media.tabs.missingPosters' },
  { path: 'duplicate-files', label: 'media.tabs.duplicateFiles' },
  { path: 'duplicate-pages/unknown', label: 'media.tabs.duplicatePagesUnknown' },
  { path: 'duplicate-pages/known', label: 'media.tabs.duplicatePagesKnown' },
] as const;

/** Media analysis, missing posters and duplicate files (admins): one heading, tabs as links, the tab below. */
export function MediaManagementPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = TABS.find((tab) => pathname.endsWith(`/media-management/${tab.path}`))?.path ?? false;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {t('media.title')}
      </Typography>
      <Tabs
        value={current}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('media.title')}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((tab) => (
          <Tab
            key={tab.path}
            value={tab.path}
            label={t(tab.label)}
            component={RouterLink}
            to={`/media-management/${tab.path}`}
          />
        ))}
      </Tabs>
      <Outlet />
    </Box>
  );
}

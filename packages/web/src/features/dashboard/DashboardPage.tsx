import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../components/visuallyHidden';
import { DashboardSections } from './DashboardSections';

/**
 * The home screen (spec §2, ui.md §3): every section over all the user's libraries. Its sections are h2s under a
 * heading for screen readers only (every screen has one h1): the drawer's selected *Home* says it to sighted users.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  return (
    <>
      <Typography component="h1" sx={visuallyHidden}>
        {t('nav.home')}
      </Typography>
      <DashboardSections libraryIds={undefined} seeAllBase="/dashboard" />
    </>
  );
}

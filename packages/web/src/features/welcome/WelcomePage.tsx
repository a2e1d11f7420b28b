import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../../api/auth';
import { useLibraries } from '../../api/libraries';
import { MessagePage } from '../../components/MessagePage';
import { useLibraryActions } from '../libraries/LibraryDialogs';

/**
 * Shown while there is no library (spec §2, ui.md §1.1). Admins get an *Add library* button; the screen leaves for
 * the dashboard as soon as a library exists.
 */
export function WelcomePage() {
  const { t } = useTranslation();
  const admin = useIsAdmin();
  const libraries = useLibraries();
  const { add } = useLibraryActions();
  if (libraries.data && libraries.data.length > 0) return <Navigate to="/dashboard" replace />;
  return (
    <MessagePage title={t('welcome.title')}>
      <Typography variant="h6" component="p">
        {t('welcome.noLibraries')}
      </Typography>
      <Typography color="text.secondary">{admin ? t('welcome.adminHint') : t('welcome.userHint')}</Typography>
      {admin && (
        <Button variant="contained" startIcon={<AddIcon />} onClick={add} sx={{ alignSelf: 'center' }}>
          {t('libraries.addLibrary')}
        </Button>
      )}
    </MessagePage>
  );
}

import Typography from '@mui/material/Typography';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../../api/auth';
import { useLibraries } from '../../api/libraries';
import { MessagePage } from '../../components/MessagePage';

/**
 * Shown while there is no library (spec §2). Leaves for the dashboard as soon as one exists. Libraries are added
 * from a dialog that a later screen brings, so this screen explains instead of offering a button that opens nothing.
 */
export function WelcomePage() {
  const { t } = useTranslation();
  const admin = useIsAdmin();
  const libraries = useLibraries();
  if (libraries.data && libraries.data.length > 0) return <Navigate to="/dashboard" replace />;
  return (
    <MessagePage title={t('welcome.title')}>
      <Typography variant="h6" component="p">
        {t('welcome.noLibraries')}
      </Typography>
      <Typography color="text.secondary">{admin ? t('welcome.adminHint') : t('welcome.userHint')}</Typography>
    </MessagePage>
  );
}

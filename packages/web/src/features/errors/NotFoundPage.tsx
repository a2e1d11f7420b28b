import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MessagePage } from '../../components/MessagePage';

/** Any path that matches no route (spec §2): says so, with a link back home. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <MessagePage title={t('notfound.title')}>
      <Typography color="text.secondary">{t('notfound.message')}</Typography>
      <Button component={RouterLink} to="/" variant="contained">
        {t('notfound.home')}
      </Button>
    </MessagePage>
  );
}

import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MessagePage } from '../../components/MessagePage';
import { errorText } from '../../i18n/errorMessage';
import { ChunkLoadError } from '../../app/lazyPage';

/** Route error boundary: a screen failed to load or threw while rendering. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  return (
    <MessagePage title={t('errors.loadFailed')}>
      <Typography color="text.secondary" role="alert">
        {error instanceof ChunkLoadError ? t('errors.chunkLoad') : errorText(t, error)}
      </Typography>
      <Button variant="contained" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </Button>
    </MessagePage>
  );
}

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { ErrorState } from '../../../components/ErrorState';
import { MessagePage } from '../../../components/MessagePage';
import { DETAIL_POSTER_WIDTH } from './Poster';

/** A detail page while it loads: the toolbar, poster and header lines where they will be, so nothing jumps. */
export function DetailSkeleton({ poster = true }: { poster?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box role="progressbar" aria-busy="true" aria-label={t('common.loading')}>
      <Box
        sx={{
          height: 56,
          px: 2,
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Skeleton variant="circular" width={32} height={32} />
        <Skeleton variant="text" width="30%" height={32} />
      </Box>
      <Stack direction="row" spacing={3} sx={{ p: { xs: 2, sm: 3 } }}>
        {poster && (
          <Skeleton
            variant="rounded"
            sx={{ width: DETAIL_POSTER_WIDTH, height: 'auto', aspectRatio: '0.7071', flexShrink: 0 }}
          />
        )}
        <Stack spacing={1} sx={{ flex: 1, minWidth: 0 }}>
          <Skeleton variant="text" width="60%" height={40} />
          <Skeleton variant="text" width="35%" />
          <Stack direction="row" spacing={1}>
            <Skeleton variant="rounded" width={72} height={24} />
            <Skeleton variant="rounded" width={56} height={24} />
          </Stack>
          <Stack direction="row" spacing={1} sx={{ pt: 1 }}>
            <Skeleton variant="rounded" width={110} height={36} />
            <Skeleton variant="rounded" width={110} height={36} />
          </Stack>
          <Skeleton variant="text" width="90%" />
          <Skeleton variant="text" width="85%" />
          <Skeleton variant="text" width="70%" />
        </Stack>
      </Stack>
    </Box>
  );
}

/** A detail page that could not load: "not found" (gone, or not visible to this user), or the error with Retry. */
export function DetailError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (error instanceof ApiError && (error.status === 404 || error.status === 403 || error.status === 400)) {
    return (
      <MessagePage title={t('items.detail.notFoundTitle')}>
        <Typography color="text.secondary">{t('items.detail.notFoundMessage')}</Typography>
        <Button component={RouterLink} to="/" variant="contained">
          {t('notfound.home')}
        </Button>
      </MessagePage>
    );
  }
  return <ErrorState error={error} title={t('errors.loadFailed')} onRetry={onRetry} />;
}

/** The item was there and is not any more (deleted while on screen): the page then leaves for its parent. */
export const isGone = (error: unknown) => error instanceof ApiError && error.status === 404;

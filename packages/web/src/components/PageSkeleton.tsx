import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';

/** The loading skeleton of a screen: a title line and a grid of card-sized blocks. */
export function PageSkeleton({ cards = 12 }: { cards?: number }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} sx={{ p: 2 }} role="progressbar" aria-busy="true" aria-label={t('common.loading')}>
      <Skeleton variant="text" width="40%" height={40} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' }}>
        {Array.from({ length: cards }, (_, i) => (
          <Skeleton key={i} variant="rounded" sx={{ aspectRatio: '0.7', height: 'auto' }} />
        ))}
      </Box>
    </Stack>
  );
}

/** Full-window loading state shown before the shell itself can render (user not loaded yet). */
export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Box
      role="progressbar"
      aria-label={t('common.loading')}
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <Skeleton variant="circular" width={64} height={64} />
    </Box>
  );
}

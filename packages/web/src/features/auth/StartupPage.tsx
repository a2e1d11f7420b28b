import { Navigate, useSearchParams } from 'react-router';
import Stack from '@mui/material/Stack';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useClaimStatus, useCurrentUser } from '../../api/auth';
import { Logo } from '../../components/Logo';
import { redirectQuery, safeRedirect } from './redirect';

/**
 * `/startup?redirect=…`: an unclaimed server goes to login (create-account mode); a live session goes straight to
 * the redirect target; anything else to login, keeping the redirect.
 */
export function StartupPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const claim = useClaimStatus();
  const me = useCurrentUser();

  if (claim.data?.isClaimed === false) return <Navigate to={`/login${redirectQuery(redirect)}`} replace />;
  if (!claim.isPending && !me.isPending) {
    if (me.data) return <Navigate to={safeRedirect(redirect)} replace />;
    return <Navigate to={`/login${redirectQuery(redirect)}`} replace />;
  }
  return (
    <Stack spacing={3} sx={{ minHeight: '100vh', alignItems: 'center', justifyContent: 'center' }}>
      <Logo size={96} />
      <Typography color="text.secondary">{t('auth.connecting')}</Typography>
      <LinearProgress sx={{ width: 200 }} color="secondary" aria-label={t('auth.connecting')} />
    </Stack>
  );
}

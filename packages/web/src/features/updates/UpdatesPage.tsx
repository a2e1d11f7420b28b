import { Fragment } from 'react';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { isOutdated, outboundUrl, useActuatorInfo, useReleases } from '../../api/updates';
import { useErrorText } from '../../components/dialogs';
import { SafeHtml } from './SafeHtml';

/**
 * Quire's releases (ui.md §13.5), from the changelog the server was built with: whether the installed version is
 * the latest, then each release with its version, "currently installed" and "latest" chips, date and notes.
 */
export function UpdatesPage() {
  const { t, i18n } = useTranslation();
  const releases = useReleases();
  const info = useActuatorInfo();
  const errorText = useErrorText();
  const installed = info.data?.build.version;
  // A release date is a calendar day (the changelog's), kept in UTC so that no time zone moves it.
  const day = new Intl.DateTimeFormat(i18n.language || undefined, { dateStyle: 'long', timeZone: 'UTC' });
  const error = releases.error ?? info.error;

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <Typography variant="h5" component="h1">
        {t('updates.releases.title')}
      </Typography>
      {error ? (
        <Alert severity="error">{errorText(error)}</Alert>
      ) : !releases.data || !info.data ? (
        <Stack spacing={1} role="progressbar" aria-busy="true" aria-label={t('updates.releases.loading')}>
          <Skeleton variant="rectangular" height={48} />
          <Skeleton variant="text" width="30%" height={40} />
          <Skeleton variant="rectangular" height={120} />
        </Stack>
      ) : (
        <>
          {isOutdated(installed, releases.data) ? (
            <Alert severity="warning">{t('updates.releases.available')}</Alert>
          ) : (
            <Alert severity="success">{t('updates.releases.upToDate')}</Alert>
          )}
          {releases.data.map((release, i) => (
            <Fragment key={release.version}>
              {i > 0 && <Divider />}
              <Stack component="article" spacing={1} aria-label={release.version}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography variant="h5" component="h2">
                    {outboundUrl(release.url) ? (
                      <Link href={outboundUrl(release.url)} target="_blank" rel="noopener noreferrer" underline="hover">
                        {release.version}
                      </Link>
                    ) : (
                      release.version
                    )}
                  </Typography>
                  {release.version === installed && (
                    <Chip size="small" color="info" label={t('updates.releases.installed')} />
                  )}
                  {release.latest && (
                    <Chip size="small" color="success" variant="outlined" label={t('updates.releases.latest')} />
                  )}
                  {release.preRelease && <Chip size="small" label={t('updates.releases.preRelease')} />}
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  {day.format(new Date(release.releaseDate))}
                </Typography>
                {release.description ? (
                  <SafeHtml markdown={release.description} />
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    {t('updates.releases.noNotes')}
                  </Typography>
                )}
              </Stack>
            </Fragment>
          ))}
        </>
      )}
    </Stack>
  );
}

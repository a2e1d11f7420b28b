import type { ReactNode } from 'react';
import { Box, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../api/auth';
import { CopyField } from './CopyField';
import { readingAppUrls, syncRoles } from './reading-apps';

/**
 * Which credentials and which address each kind of reading app takes. OPDS is open to every user (e-mail and
 * password); KOReader and Kobo sync take an API key and are shown only to users whose roles let them sync.
 */
export function ReadingAppsHelp() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const urls = readingAppUrls();
  const sync = syncRoles(me.data?.roles);

  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }} component="section" aria-labelledby="reading-apps-heading">
      <Typography id="reading-apps-heading" variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {t('account.readingApps')}
      </Typography>
      <Stack spacing={3}>
        <AppBlock title={t('account.opdsApps')} headingId="opds-apps-heading">
          <Typography variant="body2">{t('account.opdsAppsHelp')}</Typography>
          <CopyField label={t('account.opds1Address')} value={urls.opds1} />
          <CopyField label={t('account.opds2Address')} value={urls.opds2} />
        </AppBlock>
        {sync.koreader && (
          <AppBlock title={t('account.koreaderSync')} headingId="koreader-sync-heading">
            <Typography variant="body2">{t('account.koreaderSyncHelp')}</Typography>
            <CopyField label={t('account.koreaderSyncServer')} value={urls.koreader} />
            <Typography variant="body2" color="text.secondary">
              {t('account.koreaderHashNote')}
            </Typography>
          </AppBlock>
        )}
        {sync.kobo && (
          <AppBlock title={t('account.koboSync')} headingId="kobo-sync-heading">
            <Typography variant="body2">{t('account.koboSyncHelp')}</Typography>
            <Typography variant="body2" dir="ltr" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
              api_endpoint={urls.kobo(`<${t('account.apiKeyValue')}>`)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('account.koboEpubNote')}
            </Typography>
          </AppBlock>
        )}
      </Stack>
    </Paper>
  );
}

function AppBlock({ title, headingId, children }: { title: string; headingId: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle2" component="h4" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Stack spacing={1.5}>{children}</Stack>
    </Box>
  );
}

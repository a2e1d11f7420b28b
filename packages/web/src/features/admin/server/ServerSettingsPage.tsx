import { useState, type ReactNode } from 'react';
import { Alert, AlertTitle, Box, Button, Paper, Skeleton, Stack, Typography } from '@mui/material';
import CancelScheduleSendIcon from '@mui/icons-material/CancelScheduleSend';
import DownloadIcon from '@mui/icons-material/Download';
import PowerSettingsNewIcon from '@mui/icons-material/PowerSettingsNew';
import { useTranslation } from 'react-i18next';
import type { RestartSetting } from '@quire/api';
import {
  useRegenerateThumbnails,
  useRestartRequired,
  useServerSettings,
  useShutdown,
  useUpdateServerSettings,
} from '../../../api/settings';
import { basePath } from '../../../api/client';
import { useCancelTasks } from '../../../api/tasks';
import { ConfirmDialog, useErrorText, useToast } from '../../../components/dialogs';
import { RegenerateThumbnailsDialog, type RegenerateAnswer } from './RegenerateThumbnailsDialog';
import { ServerSettingsForm } from './ServerSettingsForm';
import { restartFieldsOf } from './settings-form';

/** Server settings and management (ui.md §13.2). */
export function ServerSettingsPage() {
  const { t } = useTranslation();
  const settings = useServerSettings();
  const restart = useRestartRequired();
  const update = useUpdateServerSettings();
  const regenerate = useRegenerateThumbnails();
  const shutdown = useShutdown();
  const cancelTasks = useCancelTasks();
  const errorText = useErrorText();
  const { toast, show } = useToast();
  const [askRegenerate, setAskRegenerate] = useState(false);
  const [confirmStop, setConfirmStop] = useState(false);
  /** Restart-bound fields saved from this screen, for when the server cannot tell (no extension). */
  const [savedRestartFields, setSavedRestartFields] = useState<RestartSetting[]>([]);

  const settingName = (s: RestartSetting) =>
    ({
      serverPort: t('server.serverPort'),
      serverContextPath: t('server.serverContextPath'),
      rememberMeDurationDays: t('server.rememberMeDurationDays'),
      renewRememberMeKey: t('server.renewRememberMeKey'),
    })[s];
  const pendingRestart: RestartSetting[] = restart.data === null ? savedRestartFields : (restart.data?.settings ?? []);

  const answerRegenerate = (answer: RegenerateAnswer) => {
    setAskRegenerate(false);
    if (answer === 'no') return;
    regenerate.mutate(answer === 'bigger', {
      onSuccess: () => show(t('server.regenerateQueued')),
      onError: (e) => show(t('server.regenerateFailed', { error: errorText(e) }), 'error'),
    });
  };

  const cancelAllTasks = () =>
    cancelTasks.mutate(undefined, {
      onSuccess: (removed) => {
        const count = Number(removed) || 0;
        show(count === 0 ? t('server.noTasksToCancel') : t('server.tasksCancelled', { count }));
      },
      onError: (e) => show(t('server.cancelTasksFailed', { error: errorText(e) }), 'error'),
    });

  return (
    <Stack spacing={3} sx={{ p: { xs: 2, sm: 3 }, maxWidth: 900, mx: 'auto' }}>
      <Typography variant="h5" component="h1">
        {t('server.title')}
      </Typography>

      {pendingRestart.length > 0 && (
        <Alert severity="warning" role="status">
          <AlertTitle>{t('server.restartRequiredTitle')}</AlertTitle>
          {t('server.restartRequiredList', { settings: pendingRestart.map(settingName).join(', ') })}
        </Alert>
      )}
      {restart.data === null && pendingRestart.length === 0 && (
        <Alert severity="info">{t('server.restartFallback')}</Alert>
      )}

      {settings.isPending ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Stack spacing={2}>
            <Skeleton width="30%" height={32} />
            {[0, 1, 2, 3, 4, 5].map((i) => (
              <Skeleton key={i} variant="rounded" height={48} />
            ))}
          </Stack>
        </Paper>
      ) : settings.isError ? (
        <Alert severity="error">{errorText(settings.error)}</Alert>
      ) : (
        <ServerSettingsForm
          key={settings.dataUpdatedAt}
          settings={settings.data}
          saving={update.isPending}
          saveError={update.isError ? errorText(update.error) : null}
          onSave={(patch) =>
            update.mutate(patch, {
              onSuccess: () => {
                show(t('server.saved'));
                const restartFields = restartFieldsOf(patch);
                if (restartFields.length) setSavedRestartFields((prev) => [...new Set([...prev, ...restartFields])]);
                if (patch.thumbnailSize !== undefined) setAskRegenerate(true);
              },
            })
          }
        />
      )}

      <Box component="section" aria-labelledby="server-management-heading">
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Stack spacing={2}>
            <Typography id="server-management-heading" variant="h6" component="h2">
              {t('server.managementHeading')}
            </Typography>
            <ManagementAction hint={t('server.downloadLogHint')}>
              {/* A plain link: the browser downloads with the session cookie and shows its own progress. */}
              <Button
                variant="outlined"
                startIcon={<DownloadIcon />}
                href={`${basePath()}/actuator/logfile`}
                download="komga.log"
              >
                {t('server.downloadLog')}
              </Button>
            </ManagementAction>
            <ManagementAction hint={t('server.cancelTasksHint')}>
              <Button
                color="warning"
                variant="outlined"
                startIcon={<CancelScheduleSendIcon />}
                loading={cancelTasks.isPending}
                onClick={cancelAllTasks}
              >
                {t('server.cancelTasks')}
              </Button>
            </ManagementAction>
            {shutdown.isSuccess ? (
              <Alert severity="info" role="status">
                {t('server.shuttingDown')}
              </Alert>
            ) : (
              <ManagementAction hint={t('server.stopServerHint')}>
                <Button
                  color="error"
                  variant="outlined"
                  startIcon={<PowerSettingsNewIcon />}
                  onClick={() => {
                    shutdown.reset();
                    setConfirmStop(true);
                  }}
                >
                  {t('server.stopServer')}
                </Button>
              </ManagementAction>
            )}
          </Stack>
        </Paper>
      </Box>

      <RegenerateThumbnailsDialog open={askRegenerate} onAnswer={answerRegenerate} />
      <ConfirmDialog
        open={confirmStop}
        title={t('server.stopServerTitle')}
        confirmLabel={t('server.stopServer')}
        pending={shutdown.isPending}
        error={shutdown.isError ? errorText(shutdown.error) : null}
        onConfirm={() => shutdown.mutate(undefined, { onSuccess: () => setConfirmStop(false) })}
        onClose={() => setConfirmStop(false)}
      >
        <Typography>{t('server.stopServerWarning')}</Typography>
      </ConfirmDialog>
      {toast}
    </Stack>
  );
}

/** One management button with a line saying what it does. */
function ManagementAction({ hint, children }: { hint: string; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 2 }} sx={{ alignItems: { sm: 'center' } }}>
      <Box sx={{ flexShrink: 0, minWidth: { sm: 220 } }}>{children}</Box>
      <Typography variant="body2" color="text.secondary">
        {hint}
      </Typography>
    </Stack>
  );
}

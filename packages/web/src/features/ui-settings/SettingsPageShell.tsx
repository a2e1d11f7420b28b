import type { FormEvent, ReactNode } from 'react';
import { Alert, Box, Button, Divider, Paper, Skeleton, Stack, Typography } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ClientSettingsDto } from '@quire/api';
import { useErrorText, useToast } from '../../components/dialogs';

/**
 * A UI settings page (ui.md §13.3): its title, a skeleton while the settings load, then the form, which `form`
 * renders from the stored settings. The form is remounted after each save (the settings are fetched again), so it
 * starts from what is stored; the "saved" toast lives here, outside it.
 */
export function SettingsPageShell({
  title,
  settings,
  rows,
  form,
}: {
  title: string;
  settings: UseQueryResult<ClientSettingsDto>;
  /** Skeleton rows while loading, about as many as the form has. */
  rows: number;
  form: (settings: ClientSettingsDto, onSaved: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { toast, show } = useToast();
  return (
    <Stack spacing={3} sx={{ p: { xs: 2, sm: 3 }, maxWidth: 900, mx: 'auto' }}>
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      {settings.isPending ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Stack spacing={2}>
            {Array.from({ length: rows }, (_, i) => (
              <Skeleton key={i} variant="rounded" height={40} />
            ))}
          </Stack>
        </Paper>
      ) : settings.isError ? (
        <Alert severity="error">{errorText(settings.error)}</Alert>
      ) : (
        <Box key={settings.dataUpdatedAt}>{form(settings.data, () => show(t('uiSettings.saved')))}</Box>
      )}
      {toast}
    </Stack>
  );
}

/** The form's frame: its fields, a failed save, then Discard and Save (both only when something changed). */
export function SettingsForm({
  children,
  dirty,
  saving,
  saveError,
  onDiscard,
  onSubmit,
}: {
  children: ReactNode;
  dirty: boolean;
  saving: boolean;
  saveError: string | null;
  onDiscard: () => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (dirty) onSubmit();
  };
  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={3}>
          {children}
          {saveError && <Alert severity="error">{saveError}</Alert>}
          <Divider />
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button disabled={!dirty || saving} onClick={onDiscard}>
              {t('uiSettings.discard')}
            </Button>
            <Button type="submit" variant="contained" disabled={!dirty} loading={saving}>
              {t('uiSettings.save')}
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Box>
  );
}

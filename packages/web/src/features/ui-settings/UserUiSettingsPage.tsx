import { useState, type FormEvent } from 'react';
import { Alert, Box, Divider, FormControlLabel, Paper, Skeleton, Stack, Switch, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ClientSettingsDto } from '@quire/api';
import { flagOf, useSaveUserClientSettings, useUserClientSettings } from '../../api/client-settings';
import { useErrorText, useToast } from '../../components/dialogs';
import { FormActions } from './GlobalUiSettingsPage';
import { UI_SETTING_KEYS } from './ui-settings';

interface UserForm {
  stretch: boolean;
  blurUnread: boolean;
}

/** The signed-in user's own display settings (ui.md §13.3, `/account/settings-ui`). */
export function UserUiSettingsPage() {
  const { t } = useTranslation();
  const settings = useUserClientSettings();
  const errorText = useErrorText();
  // Here, not in the form: saving refetches the settings, which remounts the form.
  const { toast, show } = useToast();
  return (
    <Stack spacing={3} sx={{ p: { xs: 2, sm: 3 }, maxWidth: 900, mx: 'auto' }}>
      <Typography variant="h5" component="h1">
        {t('uiSettings.userTitle')}
      </Typography>
      {settings.isPending ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Stack spacing={2}>
            <Skeleton variant="rounded" height={40} />
            <Skeleton variant="rounded" height={40} />
          </Stack>
        </Paper>
      ) : settings.isError ? (
        <Alert severity="error">{errorText(settings.error)}</Alert>
      ) : (
        <UserUiSettingsForm
          key={settings.dataUpdatedAt}
          settings={settings.data}
          onSaved={() => show(t('uiSettings.saved'))}
        />
      )}
      {toast}
    </Stack>
  );
}

function UserUiSettingsForm({ settings, onSaved }: { settings: ClientSettingsDto; onSaved: () => void }) {
  const { t } = useTranslation();
  const save = useSaveUserClientSettings();
  const errorText = useErrorText();
  const initial: UserForm = {
    stretch: flagOf(settings, UI_SETTING_KEYS.posterStretch),
    blurUnread: flagOf(settings, UI_SETTING_KEYS.posterBlurUnread),
  };
  const [form, setForm] = useState(initial);
  const dirty = form.stretch !== initial.stretch || form.blurUnread !== initial.blurUnread;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!dirty) return;
    save.mutate(
      {
        [UI_SETTING_KEYS.posterStretch]: { value: String(form.stretch) },
        [UI_SETTING_KEYS.posterBlurUnread]: { value: String(form.blurUnread) },
      },
      { onSuccess: onSaved },
    );
  };

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={2}>
          <FormControlLabel
            control={
              <Switch checked={form.stretch} onChange={(e) => setForm((f) => ({ ...f, stretch: e.target.checked }))} />
            }
            label={t('uiSettings.posterStretch')}
          />
          <FormControlLabel
            control={
              <Switch
                checked={form.blurUnread}
                onChange={(e) => setForm((f) => ({ ...f, blurUnread: e.target.checked }))}
              />
            }
            label={t('uiSettings.posterBlurUnread')}
          />
          {save.isError && <Alert severity="error">{errorText(save.error)}</Alert>}
          <Divider />
          <FormActions dirty={dirty} saving={save.isPending} onDiscard={() => setForm(initial)} />
        </Stack>
      </Paper>
    </Box>
  );
}

import { useState } from 'react';
import { FormControlLabel, Stack, Switch } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ClientSettingsDto } from '@quire/api';
import { flagOf, useSaveUserClientSettings, useUserClientSettings } from '../../api/client-settings';
import { useErrorText } from '../../components/dialogs';
import { SettingsForm, SettingsPageShell } from './SettingsPageShell';
import { UI_SETTING_KEYS } from './ui-settings';

/** The signed-in user's own display settings (ui.md §13.3, `/account/settings-ui`). */
export function UserUiSettingsPage() {
  const { t } = useTranslation();
  return (
    <SettingsPageShell
      title={t('uiSettings.userTitle')}
      settings={useUserClientSettings()}
      rows={2}
      form={(settings, onSaved) => <UserUiSettingsForm settings={settings} onSaved={onSaved} />}
    />
  );
}

function UserUiSettingsForm({ settings, onSaved }: { settings: ClientSettingsDto; onSaved: () => void }) {
  const { t } = useTranslation();
  const save = useSaveUserClientSettings();
  const errorText = useErrorText();
  const initial = {
    stretch: flagOf(settings, UI_SETTING_KEYS.posterStretch),
    blurUnread: flagOf(settings, UI_SETTING_KEYS.posterBlurUnread),
  };
  const [form, setForm] = useState(initial);
  const dirty = form.stretch !== initial.stretch || form.blurUnread !== initial.blurUnread;

  return (
    <SettingsForm
      dirty={dirty}
      saving={save.isPending}
      saveError={save.isError ? errorText(save.error) : null}
      onDiscard={() => setForm(initial)}
      onSubmit={() =>
        save.mutate(
          {
            [UI_SETTING_KEYS.posterStretch]: { value: String(form.stretch) },
            [UI_SETTING_KEYS.posterBlurUnread]: { value: String(form.blurUnread) },
          },
          { onSuccess: onSaved },
        )
      }
    >
      <Stack spacing={1}>
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
      </Stack>
    </SettingsForm>
  );
}

import { useState } from 'react';
import {
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  Switch,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ClientSettingsDto } from '@quire/api';
import { flagOf, useGlobalClientSettings, useSaveGlobalClientSettings } from '../../api/client-settings';
import { useErrorText } from '../../components/dialogs';
import { parseSeriesGroups, seriesGroupsValue, type SeriesGroupingName } from './series-groups';
import { SettingsForm, SettingsPageShell } from './SettingsPageShell';
import { UI_SETTING_KEYS } from './ui-settings';

interface GlobalForm {
  seriesGroups: SeriesGroupingName;
  hideLogin: boolean;
  autoLogin: boolean;
}

const formOf = (settings: ClientSettingsDto): GlobalForm => ({
  seriesGroups: parseSeriesGroups(settings[UI_SETTING_KEYS.seriesGroups]?.value).name,
  hideLogin: flagOf(settings, UI_SETTING_KEYS.hideLogin),
  autoLogin: flagOf(settings, UI_SETTING_KEYS.autoLogin),
});

const legend = { typography: 'subtitle1', fontWeight: 500, mb: 1 } as const;

/** The settings every user's web client follows (ui.md §13.3, `/settings/ui`, admins). */
export function GlobalUiSettingsPage() {
  const { t } = useTranslation();
  return (
    <SettingsPageShell
      title={t('uiSettings.globalTitle')}
      settings={useGlobalClientSettings()}
      rows={5}
      form={(settings, onSaved) => <GlobalUiSettingsForm settings={settings} onSaved={onSaved} />}
    />
  );
}

function GlobalUiSettingsForm({ settings, onSaved }: { settings: ClientSettingsDto; onSaved: () => void }) {
  const { t } = useTranslation();
  const save = useSaveGlobalClientSettings();
  const errorText = useErrorText();
  const initial = formOf(settings);
  const [form, setForm] = useState(initial);
  const dirty = (Object.keys(form) as (keyof GlobalForm)[]).some((k) => form[k] !== initial[k]);

  return (
    <SettingsForm
      dirty={dirty}
      saving={save.isPending}
      saveError={save.isError ? errorText(save.error) : null}
      onDiscard={() => setForm(initial)}
      onSubmit={() =>
        // The login page reads the OAuth2 pair before anyone signs in; the grouping is for signed-in users only.
        save.mutate(
          {
            [UI_SETTING_KEYS.seriesGroups]: { value: seriesGroupsValue(form.seriesGroups), allowUnauthorized: false },
            [UI_SETTING_KEYS.hideLogin]: { value: String(form.hideLogin), allowUnauthorized: true },
            [UI_SETTING_KEYS.autoLogin]: { value: String(form.autoLogin), allowUnauthorized: true },
          },
          { onSuccess: onSaved },
        )
      }
    >
      <FormControl component="fieldset">
        <FormLabel component="legend" sx={legend}>
          {t('uiSettings.general')}
        </FormLabel>
        <Typography id="series-grouping-label" variant="body2" sx={{ mb: 0.5 }}>
          {t('uiSettings.seriesGrouping')}
        </Typography>
        <RadioGroup
          aria-labelledby="series-grouping-label"
          value={form.seriesGroups}
          onChange={(e) => setForm((f) => ({ ...f, seriesGroups: e.target.value as SeriesGroupingName }))}
        >
          <FormControlLabel value="alpha" control={<Radio />} label={t('uiSettings.groupingAlpha')} />
          <FormControlLabel value="japanese" control={<Radio />} label={t('uiSettings.groupingJapanese')} />
        </RadioGroup>
      </FormControl>

      <FormControl component="fieldset">
        <FormLabel component="legend" sx={legend}>
          {t('uiSettings.oauth2')}
        </FormLabel>
        <FormControlLabel
          control={
            <Switch
              checked={form.hideLogin}
              onChange={(e) => setForm((f) => ({ ...f, hideLogin: e.target.checked }))}
            />
          }
          label={t('uiSettings.hideLogin')}
        />
        <FormControlLabel
          control={
            <Switch
              checked={form.autoLogin}
              onChange={(e) => setForm((f) => ({ ...f, autoLogin: e.target.checked }))}
              slotProps={{ input: { 'aria-describedby': 'auto-login-hint' } }}
            />
          }
          label={t('uiSettings.autoLogin')}
        />
        <FormHelperText id="auto-login-hint" sx={{ mt: 0, marginInlineStart: 6 }}>
          {t('uiSettings.autoLoginHint')}
        </FormHelperText>
      </FormControl>
    </SettingsForm>
  );
}

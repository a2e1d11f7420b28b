import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Divider,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Paper,
  Radio,
  RadioGroup,
  Skeleton,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ClientSettingsDto } from '@quire/api';
import { flagOf, useGlobalClientSettings, useSaveGlobalClientSettings } from '../../api/client-settings';
import { useErrorText, useToast } from '../../components/dialogs';
import { parseSeriesGroups, seriesGroupsValue, type SeriesGroupingName } from './series-groups';
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

/** The settings every user's web client follows (ui.md §13.3, `/settings/ui`, admins). */
export function GlobalUiSettingsPage() {
  const { t } = useTranslation();
  const settings = useGlobalClientSettings();
  const errorText = useErrorText();
  // Here, not in the form: saving refetches the settings, which remounts the form.
  const { toast, show } = useToast();
  return (
    <Stack spacing={3} sx={{ p: { xs: 2, sm: 3 }, maxWidth: 900, mx: 'auto' }}>
      <Typography variant="h5" component="h1">
        {t('uiSettings.globalTitle')}
      </Typography>
      {settings.isPending ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Stack spacing={2}>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} variant="rounded" height={40} />
            ))}
          </Stack>
        </Paper>
      ) : settings.isError ? (
        <Alert severity="error">{errorText(settings.error)}</Alert>
      ) : (
        <GlobalUiSettingsForm
          key={settings.dataUpdatedAt}
          settings={settings.data}
          onSaved={() => show(t('uiSettings.saved'))}
        />
      )}
      {toast}
    </Stack>
  );
}

function GlobalUiSettingsForm({ settings, onSaved }: { settings: ClientSettingsDto; onSaved: () => void }) {
  const { t } = useTranslation();
  const save = useSaveGlobalClientSettings();
  const errorText = useErrorText();
  const initial = formOf(settings);
  const [form, setForm] = useState(initial);
  const dirty = (Object.keys(form) as (keyof GlobalForm)[]).some((k) => form[k] !== initial[k]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!dirty) return;
    // The login page reads the OAuth2 pair before anyone signs in; the grouping is for signed-in users only.
    save.mutate(
      {
        [UI_SETTING_KEYS.seriesGroups]: { value: seriesGroupsValue(form.seriesGroups), allowUnauthorized: false },
        [UI_SETTING_KEYS.hideLogin]: { value: String(form.hideLogin), allowUnauthorized: true },
        [UI_SETTING_KEYS.autoLogin]: { value: String(form.autoLogin), allowUnauthorized: true },
      },
      { onSuccess: onSaved },
    );
  };

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={3}>
          <FormControl component="fieldset">
            <FormLabel component="legend" sx={{ typography: 'subtitle1', fontWeight: 500, mb: 1 }}>
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
            <FormLabel component="legend" sx={{ typography: 'subtitle1', fontWeight: 500, mb: 1 }}>
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

          {save.isError && <Alert severity="error">{errorText(save.error)}</Alert>}
          <Divider />
          <FormActions dirty={dirty} saving={save.isPending} onDiscard={() => setForm(initial)} />
        </Stack>
      </Paper>
    </Box>
  );
}

/** Discard and Save, both enabled only when something changed. */
export function FormActions({ dirty, saving, onDiscard }: { dirty: boolean; saving: boolean; onDiscard: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
      <Button disabled={!dirty || saving} onClick={onDiscard}>
        {t('uiSettings.discard')}
      </Button>
      <Button type="submit" variant="contained" disabled={!dirty} loading={saving}>
        {t('uiSettings.save')}
      </Button>
    </Stack>
  );
}

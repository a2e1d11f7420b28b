import { useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Divider,
  FormControlLabel,
  FormHelperText,
  MenuItem,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { SettingsDto, SettingsUpdateDto } from '@quire/api';
import { FolderBrowserDialog } from '../../libraries/FolderBrowserDialog';
import {
  formOf,
  settingsChanges,
  THUMBNAIL_SIZES,
  validateSettings,
  type ServerSettingsForm as Form,
  type SettingsFieldError,
} from './settings-form';

export interface ServerSettingsFormProps {
  settings: SettingsDto;
  saving: boolean;
  /** A failed save, already as a sentence. */
  saveError: string | null;
  onSave: (patch: SettingsUpdateDto) => void;
}

/**
 * The fields of SettingsDto that Quire uses (ui.md §13.2, spec §5; settings-form.ts says what is left out). Remount
 * it with fresh settings to start over.
 */
export function ServerSettingsForm({ settings, saving, saveError, onSave }: ServerSettingsFormProps) {
  const { t } = useTranslation();
  const initial = formOf(settings);
  const [form, setForm] = useState<Form>(initial);
  const [browsingKepubify, setBrowsingKepubify] = useState(false);
  const errors = validateSettings(form);
  const valid = Object.keys(errors).length === 0;
  const changes = settingsChanges(initial, form);
  const dirty = Object.keys(changes).length > 0;

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const errorText = (e: SettingsFieldError | undefined) =>
    e &&
    {
      required: t('server.required'),
      wholeNumber: t('server.wholeNumber'),
      minOne: t('server.minOne'),
      minZero: t('server.minZero'),
      port: t('server.portRange'),
      contextPath: t('server.contextPathInvalid'),
    }[e];
  const restartHint = t('server.requiresRestart');

  const number = (
    key: 'taskPoolSize' | 'rememberMeDurationDays' | 'serverPort' | 'koboPort',
    label: string,
    hint?: string,
    placeholder?: string,
  ) => (
    <TextField
      label={label}
      type="number"
      value={form[key]}
      onChange={(e) => set(key, e.target.value)}
      error={!!errors[key]}
      helperText={errorText(errors[key]) ?? hint}
      placeholder={placeholder}
      required={key === 'taskPoolSize' || key === 'rememberMeDurationDays'}
      slotProps={{
        htmlInput: { inputMode: 'numeric', step: 1 },
        inputLabel: placeholder ? { shrink: true } : undefined,
      }}
      fullWidth
    />
  );
  const toggle = (
    key: 'deleteEmptyCollections' | 'deleteEmptyReadLists' | 'renewRememberMeKey' | 'koboProxy',
    label: string,
    hint?: string,
  ) => (
    <Box>
      <FormControlLabel
        control={<Switch checked={form[key]} onChange={(e) => set(key, e.target.checked)} />}
        label={label}
      />
      {hint && <FormHelperText sx={{ mt: 0, marginInlineStart: 6 }}>{hint}</FormHelperText>}
    </Box>
  );
  const configured = (v: string | number | null) => (v === null || v === '' ? undefined : String(v));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid || !dirty) return;
    onSave(changes);
  };

  return (
    <Box component="form" onSubmit={submit} noValidate aria-labelledby="server-settings-heading">
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={3}>
          <Typography id="server-settings-heading" variant="h6" component="h2">
            {t('server.settingsHeading')}
          </Typography>

          <Group title={t('server.groupLibrary')}>
            <TextField
              select
              label={t('server.thumbnailSize')}
              value={form.thumbnailSize}
              onChange={(e) => set('thumbnailSize', e.target.value as Form['thumbnailSize'])}
              helperText={t('server.thumbnailSizeHint')}
              fullWidth
            >
              {THUMBNAIL_SIZES.map(({ value, px }) => (
                <MenuItem key={value} value={value}>
                  {t(`server.thumbnailSize${value}`, { px })}
                </MenuItem>
              ))}
            </TextField>
            {toggle('deleteEmptyCollections', t('server.deleteEmptyCollections'))}
            {toggle('deleteEmptyReadLists', t('server.deleteEmptyReadLists'))}
            {number('taskPoolSize', t('server.taskPoolSize'), t('server.taskPoolSizeHint'))}
          </Group>

          <Group title={t('server.groupSecurity')}>
            {number(
              'rememberMeDurationDays',
              t('server.rememberMeDurationDays'),
              t('server.rememberMeDurationDaysHint'),
            )}
            {toggle('renewRememberMeKey', t('server.renewRememberMeKey'), t('server.renewRememberMeKeyHint'))}
          </Group>

          <Group title={t('server.groupNetwork')}>
            {number(
              'serverPort',
              t('server.serverPort'),
              `${restartHint} ${t('server.overridesConfiguration')}`,
              configured(settings.serverPort.configurationSource),
            )}
            <TextField
              label={t('server.serverContextPath')}
              value={form.serverContextPath}
              onChange={(e) => set('serverContextPath', e.target.value)}
              error={!!errors.serverContextPath}
              helperText={errorText(errors.serverContextPath) ?? `${restartHint} ${t('server.contextPathHint')}`}
              placeholder={configured(settings.serverContextPath.configurationSource)}
              slotProps={{
                htmlInput: { dir: 'ltr', spellCheck: false, autoCapitalize: 'off' },
                inputLabel: configured(settings.serverContextPath.configurationSource) ? { shrink: true } : undefined,
              }}
              fullWidth
            />
          </Group>

          <Group title={t('server.groupKobo')}>
            {toggle('koboProxy', t('server.koboProxy'))}
            {number('koboPort', t('server.koboPort'), t('server.koboPortHint'))}
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <TextField
                label={t('server.kepubifyPath')}
                value={form.kepubifyPath}
                onChange={(e) => set('kepubifyPath', e.target.value)}
                placeholder={configured(settings.kepubifyPath.configurationSource)}
                slotProps={{
                  htmlInput: { dir: 'ltr', spellCheck: false, autoCapitalize: 'off' },
                  inputLabel: configured(settings.kepubifyPath.configurationSource) ? { shrink: true } : undefined,
                }}
                fullWidth
              />
              <Button variant="outlined" onClick={() => setBrowsingKepubify(true)} sx={{ flexShrink: 0 }}>
                {t('server.browse')}
              </Button>
            </Stack>
          </Group>

          {saveError && <Alert severity="error">{saveError}</Alert>}
          <Divider />
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button disabled={!dirty || saving} onClick={() => setForm(initial)}>
              {t('server.discard')}
            </Button>
            <Button type="submit" variant="contained" disabled={!dirty || !valid} loading={saving}>
              {t('server.saveChanges')}
            </Button>
          </Stack>
        </Stack>
      </Paper>
      {browsingKepubify && (
        <FolderBrowserDialog
          open
          showFiles
          initialPath={form.kepubifyPath}
          title={t('server.kepubifyPath')}
          onClose={() => setBrowsingKepubify(false)}
          onSelect={(file) => {
            set('kepubifyPath', file);
            setBrowsingKepubify(false);
          }}
        />
      )}
    </Box>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack spacing={2} component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 500, mb: 1, p: 0 }}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

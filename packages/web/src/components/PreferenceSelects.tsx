import { useId } from 'react';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { isLocale, LOCALES } from '../i18n';
import { useChooseLocale } from '../i18n/userLocale';
import { setPreference, usePreferences, type ThemePreference } from '../app/preferences';

const THEMES: ThemePreference[] = ['light', 'dark', 'system'];

/** Native selects: labelled "Theme" and "Language", keyboard friendly, and the same on every device. */
export function ThemeSelect() {
  const { t } = useTranslation();
  const id = useId();
  const theme = usePreferences((p) => p.theme);
  return (
    <TextField
      id={id}
      select
      size="small"
      fullWidth
      label={t('common.theme')}
      value={theme}
      onChange={(e) => setPreference('theme', e.target.value as ThemePreference)}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      {THEMES.map((value) => (
        <option key={value} value={value}>
          {t(`common.themes.${value}`)}
        </option>
      ))}
    </TextField>
  );
}

export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const choose = useChooseLocale();
  return (
    <TextField
      id={id}
      select
      size="small"
      fullWidth
      label={t('common.language')}
      value={i18n.language}
      onChange={(e) => isLocale(e.target.value) && choose(e.target.value)}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      {LOCALES.map((l) => (
        <option key={l.code} value={l.code} lang={l.code}>
          {l.name}
        </option>
      ))}
    </TextField>
  );
}

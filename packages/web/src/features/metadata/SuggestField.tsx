import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Lock } from './form-state';
import { LockedRow } from './parts';
import { foldName } from './validation';

export interface SuggestFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly string[];
  lock: Lock;
  onToggleLock: () => void;
  mixed?: boolean;
  error?: string | null;
  helper?: string;
  /** A readable name shown next to each suggestion (a language's name for its code). */
  describe?: (option: string) => string | undefined;
  ltr?: boolean;
}

/** Free text with suggestions (publisher, language): the typed text is the value, a suggestion replaces it. */
export function SuggestField(props: SuggestFieldProps) {
  const { t } = useTranslation();
  const matches = (option: string, input: string) => {
    const q = foldName(input);
    if (!q) return true;
    return foldName(option).includes(q) || foldName(props.describe?.(option) ?? '').includes(q);
  };
  return (
    <LockedRow label={props.label} lock={props.lock} onToggleLock={props.onToggleLock}>
      <Autocomplete
        freeSolo
        options={props.options as string[]}
        value={props.value || null}
        inputValue={props.value}
        filterOptions={(options, state) => options.filter((o) => matches(o, state.inputValue))}
        onChange={(_, next) => props.onChange(next ?? '')}
        onInputChange={(_, text, reason) => {
          if (reason === 'input' || reason === 'clear') props.onChange(text);
        }}
        renderOption={({ key, ...optionProps }, option) => (
          <Box component="li" key={key} {...optionProps} sx={{ gap: 1 }}>
            <Typography component="span" sx={{ direction: props.ltr ? 'ltr' : undefined }}>
              {option}
            </Typography>
            {props.describe?.(option) && (
              <Typography component="span" color="text.secondary">
                {props.describe(option)}
              </Typography>
            )}
          </Box>
        )}
        renderInput={(params) => (
          <TextField
            {...params}
            label={props.label}
            placeholder={props.mixed ? t('metadata.mixed') : undefined}
            error={!!props.error}
            helperText={props.error ?? props.helper}
            InputLabelProps={{ ...params.InputLabelProps, ...(props.mixed ? { shrink: true } : {}) }}
            inputProps={{ ...params.inputProps, dir: props.ltr ? 'ltr' : undefined }}
          />
        )}
      />
    </LockedRow>
  );
}

/** A language tag's name in the interface language (`pl` → "Polish", "polski" in Polish), or undefined. */
export function useLanguageName(): (tag: string) => string | undefined {
  const { i18n } = useTranslation();
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([i18n.language || 'en'], { type: 'language', fallback: 'none' });
  } catch {
    names = null;
  }
  return (tag) => {
    if (!tag || !names) return undefined;
    try {
      return names.of(tag) ?? undefined;
    } catch {
      return undefined;
    }
  };
}

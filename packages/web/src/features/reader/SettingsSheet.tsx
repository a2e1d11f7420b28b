import { useId, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';

/** The readers' settings panel: a bottom sheet at most 500 px wide (ui.md §11.1). */
export function SettingsSheet(props: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Drawer
      anchor="bottom"
      open={props.open}
      onClose={props.onClose}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': titleId,
          sx: { maxWidth: 500, mx: 'auto', maxHeight: '85vh', borderTopLeftRadius: 12, borderTopRightRadius: 12 },
        },
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', px: 2, pt: 1 }}>
        <Typography id={titleId} component="h2" variant="h6" sx={{ flex: 1 }}>
          {props.title}
        </Typography>
        <IconButton onClick={props.onClose} aria-label={t('common.close')}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Stack spacing={2} sx={{ px: 2, pb: 3, pt: 1, overflowY: 'auto' }}>
        {props.children}
      </Stack>
    </Drawer>
  );
}

export function SettingsGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section">
      <Typography component="h3" variant="overline" color="text.secondary">
        {title}
      </Typography>
      <Stack spacing={1.5} sx={{ mt: 0.5 }}>
        {children}
      </Stack>
    </Box>
  );
}

export interface SettingSelectProps<T extends string | number> {
  label: string;
  value: T;
  options: readonly T[];
  optionLabel: (option: T) => string;
  onChange: (value: T) => void;
  helperText?: string;
  disabled?: boolean;
}

export function SettingSelect<T extends string | number>(props: SettingSelectProps<T>) {
  const labelId = useId();
  return (
    <FormControl size="small" fullWidth disabled={props.disabled}>
      <InputLabel id={labelId}>{props.label}</InputLabel>
      <Select
        labelId={labelId}
        label={props.label}
        value={String(props.value)}
        onChange={(e) => {
          const picked = props.options.find((o) => String(o) === e.target.value);
          if (picked !== undefined) props.onChange(picked);
        }}
      >
        {props.options.map((o) => (
          <MenuItem key={String(o)} value={String(o)}>
            {props.optionLabel(o)}
          </MenuItem>
        ))}
      </Select>
      {props.helperText && <FormHelperText>{props.helperText}</FormHelperText>}
    </FormControl>
  );
}

export function SettingSwitch(props: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <FormControlLabel
      control={
        <Switch checked={props.checked} disabled={props.disabled} onChange={(e) => props.onChange(e.target.checked)} />
      }
      label={props.label}
    />
  );
}

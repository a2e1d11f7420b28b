import { useId } from 'react';
import {
  Box,
  Checkbox,
  Chip,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Every role of the API, in display order; `USER` is only a label. */
export const ROLES = ['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC', 'KOREADER_SYNC'] as const;
export type Role = (typeof ROLES)[number];

/** Roles a new user gets unless the administrator changes them. */
export const DEFAULT_ROLES: readonly Role[] = ['FILE_DOWNLOAD', 'PAGE_STREAMING'];

export const isRole = (r: string): r is Role => (ROLES as readonly string[]).includes(r);

/** What each role lets a user do, in one line: an administrator granting it should not need the documentation. */
function useRoleHelp(): (role: Role) => string {
  const { t } = useTranslation();
  const help: Record<Role, string> = {
    ADMIN: t('users.roleAdminHelp'),
    FILE_DOWNLOAD: t('users.roleFileDownloadHelp'),
    PAGE_STREAMING: t('users.rolePageStreamingHelp'),
    KOBO_SYNC: t('users.roleKoboSyncHelp'),
    KOREADER_SYNC: t('users.roleKoreaderSyncHelp'),
  };
  return (role) => help[role];
}

/** Translated role names: one key per role, so that translators see them all. */
export function useRoleLabel(): (role: string) => string {
  const { t } = useTranslation();
  const labels: Record<string, string> = {
    ADMIN: t('users.roleAdmin'),
    FILE_DOWNLOAD: t('users.roleFileDownload'),
    PAGE_STREAMING: t('users.rolePageStreaming'),
    KOBO_SYNC: t('users.roleKoboSync'),
    KOREADER_SYNC: t('users.roleKoreaderSync'),
    USER: t('users.roleUser'),
  };
  return (role) => labels[role] ?? role;
}

/** Role chips; a user without any real role shows the plain "User" chip. */
export function RoleChips({ roles }: { roles: readonly string[] }) {
  const label = useRoleLabel();
  const shown = ROLES.filter((r) => roles.includes(r));
  const list: string[] = shown.length ? shown : ['USER'];
  return (
    <Stack direction="row" useFlexGap spacing={0.5} sx={{ flexWrap: 'wrap' }} component="span">
      {list.map((r) => (
        <Chip
          key={r}
          size="small"
          label={label(r)}
          color={r === 'ADMIN' ? 'error' : 'default'}
          variant={r === 'ADMIN' ? 'filled' : 'outlined'}
          component="span"
        />
      ))}
    </Stack>
  );
}

export interface RoleCheckboxesProps {
  value: readonly Role[];
  onChange: (roles: Role[]) => void;
  /** Roles that cannot be changed here, with the reason shown as help text. */
  locked?: { roles: readonly Role[]; reason: string };
}

/**
 * One checkbox per role, each with a line saying what it allows (the line describes the checkbox, so its name stays
 * the role's name).
 */
export function RoleCheckboxes({ value, onChange, locked }: RoleCheckboxesProps) {
  const { t } = useTranslation();
  const label = useRoleLabel();
  const help = useRoleHelp();
  const idPrefix = useId();
  const toggle = (role: Role, on: boolean) => onChange(ROLES.filter((r) => (r === role ? on : value.includes(r))));
  return (
    <FormControl component="fieldset" variant="standard">
      <FormLabel component="legend">{t('users.roles')}</FormLabel>
      <FormGroup sx={{ gap: 0.5 }}>
        {ROLES.map((role) => (
          <Box key={role}>
            <FormControlLabel
              label={label(role)}
              control={
                <Checkbox
                  checked={value.includes(role)}
                  disabled={locked?.roles.includes(role)}
                  onChange={(e) => toggle(role, e.target.checked)}
                  slotProps={{ input: { 'aria-describedby': `${idPrefix}-${role}` } }}
                />
              }
            />
            {/* Under the label: 32px is the checkbox (42px with its padding) less the label row's -11px margin. */}
            <Typography
              id={`${idPrefix}-${role}`}
              variant="body2"
              color="text.secondary"
              sx={{ ml: 4, mt: -1, mb: 0.5 }}
            >
              {help(role)}
            </Typography>
          </Box>
        ))}
      </FormGroup>
      {locked && <FormHelperText>{locked.reason}</FormHelperText>}
    </FormControl>
  );
}

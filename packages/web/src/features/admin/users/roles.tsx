import {
  Checkbox,
  Chip,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Stack,
} from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Every role of the API, in display order; `USER` is only a label. */
export const ROLES = ['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC', 'KOREADER_SYNC'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The roles this screen offers to grant. Kobo and KOReader sync wait for those protocols: granting them would change
 * nothing yet. A user who already holds one (given through the API) keeps it, and it shows among their chips.
 */
export const GRANTABLE_ROLES: readonly Role[] = ['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING'];

/** Roles a new user gets unless the administrator changes them. */
export const DEFAULT_ROLES: readonly Role[] = ['FILE_DOWNLOAD', 'PAGE_STREAMING'];

export const isRole = (r: string): r is Role => (ROLES as readonly string[]).includes(r);

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

/** One checkbox per grantable role; roles held but not offered are kept as they are. */
export function RoleCheckboxes({ value, onChange, locked }: RoleCheckboxesProps) {
  const { t } = useTranslation();
  const label = useRoleLabel();
  const toggle = (role: Role, on: boolean) => onChange(ROLES.filter((r) => (r === role ? on : value.includes(r))));
  return (
    <FormControl component="fieldset" variant="standard">
      <FormLabel component="legend">{t('users.roles')}</FormLabel>
      <FormGroup>
        {GRANTABLE_ROLES.map((role) => (
          <FormControlLabel
            key={role}
            label={label(role)}
            control={
              <Checkbox
                checked={value.includes(role)}
                disabled={locked?.roles.includes(role)}
                onChange={(e) => toggle(role, e.target.checked)}
              />
            }
          />
        ))}
      </FormGroup>
      {locked && <FormHelperText>{locked.reason}</FormHelperText>}
    </FormControl>
  );
}

import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { useTranslation } from 'react-i18next';
import type { AuthorDto } from '@quire/api';
import { useAuthorNames } from '../../api/referential';
import type { Lock } from './form-state';
import { ChipsField, LockButton } from './parts';
import { duplicateIndexes, foldName, required, urlProblem, type MessageKey } from './validation';

/** Lines fields up with those that have a lock before them (lock button and gap, 48 px). */
const INDENT = 6;

export type Pair<A extends string, B extends string> = Record<A | B, string>;

export interface PairRowsProps<A extends string, B extends string> {
  /** The section's name ("Links"), for its lock. */
  label: string;
  rows: Pair<A, B>[];
  onChange: (rows: Pair<A, B>[]) => void;
  lock: Lock;
  onToggleLock: () => void;
  first: { key: A; label: string };
  second: { key: B; label: string; ltr?: boolean };
  /** Message keys of each row's two fields. */
  problems: (Partial<Record<A | B, MessageKey>> | undefined)[];
  /** Show every problem (after a save attempt), not only those of rows the user typed in. */
  showAll: boolean;
  addLabel: string;
  removeLabel: (index: number) => string;
  emptyText: string;
  /** The server's refusal of the whole list. */
  error?: string | null;
}

/** Rows of two text fields (links, alternate titles), each removable, plus an add button; one lock for all. */
export function PairRows<A extends string, B extends string>(props: PairRowsProps<A, B>) {
  const { t } = useTranslation();
  const [edited, setEdited] = useState<ReadonlySet<number>>(new Set());
  const { first, second } = props;
  const update = (index: number, key: A | B, value: string) => {
    setEdited((s) => new Set(s).add(index));
    props.onChange(props.rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)));
  };
  const remove = (index: number) => {
    setEdited((s) => new Set([...s].filter((i) => i !== index).map((i) => (i > index ? i - 1 : i))));
    props.onChange(props.rows.filter((_, i) => i !== index));
  };
  const add = () => props.onChange([...props.rows, { [first.key]: '', [second.key]: '' } as Pair<A, B>]);
  const message = (index: number, key: A | B) => {
    const problem = props.problems[index]?.[key];
    return problem && (props.showAll || edited.has(index)) ? t(problem) : undefined;
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <LockButton field={props.label} locked={props.lock} onToggle={props.onToggleLock} />
        <Typography variant="subtitle1" component="h3" sx={{ flex: 1, mt: 1 }}>
          {props.label}
        </Typography>
      </Stack>
      {props.error && (
        <FormHelperText error sx={{ paddingInlineStart: INDENT }}>
          {props.error}
        </FormHelperText>
      )}
      {props.rows.length === 0 && (
        <Typography color="text.secondary" sx={{ paddingInlineStart: INDENT }}>
          {props.emptyText}
        </Typography>
      )}
      {props.rows.map((row, i) => (
        <Stack
          key={i}
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          role="group"
          aria-label={`${props.label} ${i + 1}`}
          sx={{ alignItems: { sm: 'flex-start' }, paddingInlineStart: INDENT }}
        >
          <TextField
            label={first.label}
            value={row[first.key]}
            required
            autoComplete="off"
            onChange={(e) => update(i, first.key, e.target.value)}
            error={!!message(i, first.key)}
            helperText={message(i, first.key)}
            sx={{ flex: 1 }}
          />
          <Stack direction="row" spacing={1} sx={{ flex: 2, alignItems: 'flex-start' }}>
            <TextField
              label={second.label}
              value={row[second.key]}
              autoComplete="off"
              fullWidth
              onChange={(e) => update(i, second.key, e.target.value)}
              error={!!message(i, second.key)}
              helperText={message(i, second.key)}
              slotProps={{ htmlInput: { dir: second.ltr ? 'ltr' : undefined } }}
            />
            <IconButton aria-label={props.removeLabel(i)} onClick={() => remove(i)} sx={{ mt: 1 }}>
              <DeleteIcon />
            </IconButton>
          </Stack>
        </Stack>
      ))}
      <Box sx={{ paddingInlineStart: INDENT }}>
        <Button startIcon={<AddIcon />} onClick={add}>
          {props.addLabel}
        </Button>
      </Box>
    </Stack>
  );
}

/** Problems of link rows: label required and unique, URL a valid http(s) address (spec §5). */
export function linkProblems(
  rows: { label: string; url: string }[],
): ({ label?: MessageKey; url?: MessageKey } | undefined)[] {
  const dupes = duplicateIndexes(rows.map((r) => r.label));
  return rows.map((row, i) => {
    const label = required(row.label) ?? (dupes.has(i) ? 'metadata.validation.exists' : null);
    const url = urlProblem(row.url);
    return label || url ? { ...(label ? { label } : {}), ...(url ? { url } : {}) } : undefined;
  });
}

/** Problems of alternate title rows: both fields required. */
export function alternateTitleProblems(
  rows: { label: string; title: string }[],
): ({ label?: MessageKey; title?: MessageKey } | undefined)[] {
  return rows.map((row) => {
    const label = required(row.label);
    const title = required(row.title);
    return label || title ? { ...(label ? { label } : {}), ...(title ? { title } : {}) } : undefined;
  });
}

export const hasProblems = (problems: (object | undefined)[]) => problems.some((p) => p && Object.keys(p).length);

/** The eight roles of ComicInfo, in the order the dialog lists them. */
export const STANDARD_ROLES = ['writer', 'penciller', 'inker', 'colorist', 'letterer', 'cover', 'editor', 'translator'];

/** The value after `delay` ms without change (search-as-you-type without a request per key). */
export function useDebouncedValue<T>(value: T, delay = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

export interface AuthorsEditorProps {
  authors: AuthorDto[];
  onChange: (authors: AuthorDto[]) => void;
  lock: Lock;
  onToggleLock: () => void;
  /** Roles found on the edited books, shown even when the current value has none of them. */
  knownRoles: readonly string[];
  mixed?: boolean;
  /** The server's refusal of the authors. */
  error?: string | null;
}

/**
 * Authors by role (ui.md §12.2): one chip field per role (the eight standard ones, those on the books, and custom ones
 * added here), name suggestions from the server as the user types, and a single lock for all of them.
 */
export function AuthorsEditor(props: AuthorsEditorProps) {
  const { t } = useTranslation();
  const [customRoles, setCustomRoles] = useState<string[]>([]);
  const [newRole, setNewRole] = useState('');
  const [roleError, setRoleError] = useState<MessageKey | null>(null);
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim());
  const names = useAuthorNames(debounced, debounced.length > 0);

  const roles: string[] = [];
  const addRole = (role: string) => {
    if (!roles.some((r) => foldName(r) === foldName(role))) roles.push(role);
  };
  STANDARD_ROLES.forEach(addRole);
  props.knownRoles.forEach(addRole);
  props.authors.forEach((a) => addRole(a.role));
  customRoles.forEach(addRole);

  const roleLabel = (role: string) =>
    STANDARD_ROLES.includes(role) ? t(`metadata.roles.${role}` as 'metadata.roles.writer') : role;
  const namesOf = (role: string) => props.authors.filter((a) => a.role === role).map((a) => a.name);
  const setNames = (role: string, names: string[]) => {
    const others = props.authors.filter((a) => a.role !== role);
    const mine = names.map((name) => ({ name, role }));
    // Keep the roles in the order the dialog shows them.
    const byRole = [...others, ...mine];
    props.onChange(roles.flatMap((r) => byRole.filter((a) => a.role === r)));
  };
  const submitRole = () => {
    const role = newRole.trim().toLocaleLowerCase();
    if (!role) return setRoleError('common.required');
    if (roles.some((r) => foldName(r) === foldName(role))) return setRoleError('metadata.validation.exists');
    setCustomRoles((c) => [...c, role]);
    setNewRole('');
    setRoleError(null);
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <LockButton field={t('metadata.tabs.authors')} locked={props.lock} onToggle={props.onToggleLock} />
        <Typography variant="subtitle1" component="h3" sx={{ mt: 1 }}>
          {t('metadata.tabs.authors')}
        </Typography>
      </Stack>
      {props.error && (
        <FormHelperText error sx={{ paddingInlineStart: INDENT }}>
          {props.error}
        </FormHelperText>
      )}
      {roles.map((role) => (
        <Box key={role} sx={{ paddingInlineStart: INDENT }}>
          <ChipsField
            label={roleLabel(role)}
            value={namesOf(role)}
            onChange={(v) => setNames(role, v)}
            options={names.data ?? []}
            loading={names.isFetching}
            onInputChange={setSearch}
            mixed={props.mixed}
          />
        </Box>
      ))}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', paddingInlineStart: INDENT }}>
        <TextField
          label={t('metadata.authors.customRole')}
          value={newRole}
          autoComplete="off"
          size="small"
          onChange={(e) => {
            setNewRole(e.target.value);
            setRoleError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              submitRole();
            }
          }}
          error={!!roleError}
          helperText={roleError ? t(roleError) : undefined}
        />
        <Button startIcon={<AddIcon />} onClick={submitRole} sx={{ mt: 0.25 }}>
          {t('metadata.authors.addRole')}
        </Button>
      </Stack>
    </Stack>
  );
}

import { useId, useState, type ReactElement, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import CloseIcon from '@mui/icons-material/Close';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { useTranslation } from 'react-i18next';
import { useFullScreenDialog } from '../../components/dialogs';
import type { Lock } from './form-state';
import { foldName } from './validation';

/**
 * A number that changes each time `open` turns true. Dialogs key their form with it, so every opening starts from
 * the item's current values while a closing dialog keeps its content during the exit transition.
 */
export function useDialogSession(open: boolean): number {
  const [session, setSession] = useState({ open, count: 0 });
  if (open !== session.open) setSession({ open, count: open ? session.count + 1 : session.count });
  return session.count;
}

export interface LockButtonProps {
  /** The field's name, for the button's accessible name ("Lock Title"). */
  field: string;
  locked: Lock;
  onToggle: () => void;
}

/**
 * The lock of one metadata field: a locked field keeps its value when metadata is refreshed from the files. A toggle
 * button (aria-pressed), "mixed" when several items are edited and only some are locked.
 */
export function LockButton({ field, locked, onToggle }: LockButtonProps) {
  const { t } = useTranslation();
  const hint =
    locked === null ? t('metadata.lock.mixed') : locked ? t('metadata.lock.locked') : t('metadata.lock.unlocked');
  return (
    <Tooltip title={hint} describeChild>
      <IconButton
        aria-label={t('metadata.lock.label', { field })}
        aria-pressed={locked === null ? 'mixed' : locked}
        onClick={onToggle}
        color={locked ? 'secondary' : 'default'}
        sx={{ mt: 1 }}
      >
        {locked === null ? <LockOutlinedIcon /> : locked ? <LockIcon /> : <LockOpenIcon />}
      </IconButton>
    </Tooltip>
  );
}

/** A field with its lock before it (logical order: right of the field in right-to-left). */
export function LockedRow({
  label,
  lock,
  onToggleLock,
  children,
}: {
  label: string;
  lock: Lock;
  onToggleLock: () => void;
  children: ReactNode;
}) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', flex: 1, minWidth: 0 }}>
      <LockButton field={label} locked={lock} onToggle={onToggleLock} />
      <Box sx={{ flex: 1, minWidth: 0 }}>{children}</Box>
    </Stack>
  );
}

export interface MetaTextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  lock: Lock;
  onToggleLock: () => void;
  /** The message under the field; shows the field in error. */
  error?: string | null;
  helper?: string;
  required?: boolean;
  /** Several items differ here: shown empty with the "Mixed" placeholder. */
  mixed?: boolean;
  multiline?: boolean;
  /** Left-to-right content (codes, numbers, URLs) even in a right-to-left interface. */
  ltr?: boolean;
  inputMode?: 'numeric' | 'decimal' | 'text';
  endAdornment?: ReactNode;
  select?: boolean;
  children?: ReactNode;
  /** Shown when empty (unless mixed). */
  placeholder?: string;
  maxLength?: number;
  type?: TextFieldProps['type'];
  autoFocus?: boolean;
}

export function MetaTextField(props: MetaTextFieldProps) {
  const { t } = useTranslation();
  return (
    <LockedRow label={props.label} lock={props.lock} onToggleLock={props.onToggleLock}>
      <TextField
        fullWidth
        label={props.label}
        value={props.value}
        required={props.required}
        select={props.select}
        multiline={props.multiline}
        minRows={props.multiline ? 4 : undefined}
        maxRows={props.multiline ? 12 : undefined}
        autoComplete="off"
        type={props.type}
        autoFocus={props.autoFocus}
        placeholder={props.mixed ? t('metadata.mixed') : props.placeholder}
        error={!!props.error}
        helperText={props.error ?? props.helper}
        onChange={(e) => props.onChange(e.target.value)}
        slotProps={{
          inputLabel: props.mixed ? { shrink: true } : undefined,
          input: props.endAdornment ? { endAdornment: props.endAdornment } : undefined,
          htmlInput: { dir: props.ltr ? 'ltr' : undefined, inputMode: props.inputMode, maxLength: props.maxLength },
          select: props.select ? { displayEmpty: props.mixed } : undefined,
        }}
      >
        {props.children}
      </TextField>
    </LockedRow>
  );
}

export interface ChipsFieldProps {
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  /** Suggestions; the user can also type new values. */
  options: readonly string[];
  /** Left out when one lock covers several fields (authors): the field then has no lock of its own. */
  lock?: Lock;
  onToggleLock?: () => void;
  mixed?: boolean;
  error?: string | null;
  helper?: string;
  loading?: boolean;
  /** What the user types, for server-side suggestions. */
  onInputChange?: (text: string) => void;
  getOptionLabel?: (option: string) => string;
}

/**
 * Chips with suggestions (genres, tags, sharing labels, authors of one role). Typing a value and leaving the field
 * adds it; a value already there (ignoring case and accents) is refused with "Already exists".
 */
export function ChipsField(props: ChipsFieldProps) {
  const { t } = useTranslation();
  const [duplicate, setDuplicate] = useState(false);
  const [input, setInput] = useState('');
  // MUI leaves a typed value equal to a chip already there in the input and adds nothing, without a word (on Enter
  // and on leaving the field): say "Already exists" instead.
  const refuseRepeat = () => {
    const typed = foldName(input);
    if (typed !== '' && props.value.some((v) => foldName(v) === typed)) setDuplicate(true);
  };
  const change = (next: string[]) => {
    const cleaned = next.map((v) => v.trim()).filter(Boolean);
    const folded = cleaned.map(foldName);
    if (new Set(folded).size !== folded.length) {
      setDuplicate(true);
      return;
    }
    setDuplicate(false);
    props.onChange(cleaned);
  };
  const message = duplicate ? t('metadata.validation.exists') : props.error;
  const field = (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      filterSelectedOptions
      options={props.options as string[]}
      value={props.value}
      loading={props.loading}
      loadingText={t('common.loading')}
      getOptionLabel={props.getOptionLabel}
      onChange={(_, next) => change(next)}
      inputValue={input}
      onInputChange={(_, text, reason) => {
        if (reason === 'input') setDuplicate(false);
        setInput(text);
        props.onInputChange?.(text);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') refuseRepeat();
      }}
      onBlur={refuseRepeat}
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label}
          placeholder={props.mixed && props.value.length === 0 ? t('metadata.mixed') : undefined}
          error={!!message}
          helperText={message ?? props.helper}
          InputLabelProps={{ ...params.InputLabelProps, ...(props.mixed ? { shrink: true } : {}) }}
        />
      )}
    />
  );
  if (props.lock === undefined || !props.onToggleLock) return field;
  return (
    <LockedRow label={props.label} lock={props.lock} onToggleLock={props.onToggleLock}>
      {field}
    </LockedRow>
  );
}

/** The warning of multi-item edits: these values replace each item's own (spec §4). */
export function BulkNotice({ children }: { children: ReactNode }) {
  return (
    <Alert severity="warning" variant="outlined">
      {children}
    </Alert>
  );
}

export interface DialogTab {
  key: string;
  label: string;
  icon: ReactElement;
  content: ReactNode;
  /** The tab holds a field in error: marked, so the user finds it. */
  invalid?: boolean;
}

export interface MetadataDialogLayoutProps {
  open: boolean;
  title: string;
  tabs: DialogTab[];
  tab: number;
  onTabChange: (index: number) => void;
  onClose: () => void;
  onSave: () => void;
  pending?: boolean;
  saveDisabled?: boolean;
  /** A failure that concerns no single field. */
  error?: string | null;
  maxWidth?: 'sm' | 'md' | 'lg';
  /** Height of the tab panels from sm up, in px (capped by the window): every tab the same size, no jumps. */
  panelHeight?: number;
}

/**
 * The frame of every edit dialog (ui.md §12): tabs down the side from sm up; on phones the whole screen, with ✕ and
 * the save button in a toolbar and the tabs across the top. One tab shows no tab bar. Cancel and Save changes.
 */
export function MetadataDialogLayout(props: MetadataDialogLayoutProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useFullScreenDialog();
  const vertical = useMediaQuery(theme.breakpoints.up('sm'));
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const close = () => {
    if (!props.pending) props.onClose();
  };
  const current = props.tabs[Math.min(props.tab, props.tabs.length - 1)];
  const saveLabel = t('metadata.save');
  const saveButton = (variant: 'text' | 'contained') => (
    <Button
      variant={variant}
      color={variant === 'text' ? 'inherit' : 'primary'}
      onClick={props.onSave}
      disabled={props.pending || props.saveDisabled}
      startIcon={props.pending ? <CircularProgress size={16} color="inherit" /> : undefined}
    >
      {saveLabel}
    </Button>
  );
  const tabBar = props.tabs.length > 1 && (
    <Tabs
      orientation={vertical ? 'vertical' : 'horizontal'}
      variant="scrollable"
      scrollButtons="auto"
      allowScrollButtonsMobile
      value={Math.min(props.tab, props.tabs.length - 1)}
      onChange={(_, i: number) => props.onTabChange(i)}
      aria-label={props.title}
      sx={
        vertical
          ? { borderInlineEnd: 1, borderColor: 'divider', flexShrink: 0, minWidth: 160 }
          : { borderBottom: 1, borderColor: 'divider', flexShrink: 0 }
      }
    >
      {props.tabs.map((tab, i) => (
        <Tab
          key={tab.key}
          id={`${baseId}-tab-${i}`}
          aria-controls={`${baseId}-panel`}
          label={tab.label}
          icon={tab.invalid ? <ErrorOutlineIcon color="error" /> : tab.icon}
          iconPosition="start"
          sx={{ justifyContent: vertical ? 'flex-start' : 'center', minHeight: 48 }}
        />
      ))}
    </Tabs>
  );
  const panel = (
    <Box
      role={props.tabs.length > 1 ? 'tabpanel' : undefined}
      id={`${baseId}-panel`}
      aria-labelledby={props.tabs.length > 1 ? `${baseId}-tab-${props.tab}` : undefined}
      sx={{ flex: 1, minWidth: 0, p: fullScreen ? 2 : 3, overflowY: fullScreen ? undefined : 'auto' }}
    >
      {current?.content}
    </Box>
  );
  const errorAlert = props.error && (
    <Alert severity="error" sx={{ mx: 3, mb: 1 }}>
      {props.error}
    </Alert>
  );

  return (
    <Dialog
      open={props.open}
      onClose={close}
      fullScreen={fullScreen}
      fullWidth
      maxWidth={props.maxWidth ?? 'md'}
      aria-labelledby={titleId}
      scroll="paper"
    >
      {fullScreen ? (
        <AppBar position="sticky" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
          <Toolbar variant="dense" sx={{ gap: 1 }}>
            <IconButton edge="start" aria-label={t('common.close')} onClick={close} disabled={props.pending}>
              <CloseIcon />
            </IconButton>
            <Typography id={titleId} component="h2" variant="h6" noWrap sx={{ flex: 1 }}>
              {props.title}
            </Typography>
            {saveButton('text')}
          </Toolbar>
        </AppBar>
      ) : (
        <DialogTitle id={titleId}>{props.title}</DialogTitle>
      )}
      {fullScreen ? (
        <>
          {tabBar}
          <DialogContent sx={{ p: 0 }}>{panel}</DialogContent>
          {errorAlert}
        </>
      ) : (
        <>
          <DialogContent
            dividers
            sx={{
              display: 'flex',
              p: 0,
              overflow: 'hidden',
              height: `min(${props.panelHeight ?? 600}px, calc(100vh - 220px))`,
            }}
          >
            {tabBar}
            {panel}
          </DialogContent>
          {errorAlert && <Box sx={{ pt: 1 }}>{errorAlert}</Box>}
          <DialogActions>
            <Button onClick={close} disabled={props.pending}>
              {t('common.cancel')}
            </Button>
            {saveButton('contained')}
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

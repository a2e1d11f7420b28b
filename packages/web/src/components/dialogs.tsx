import { useCallback, useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Snackbar,
  useMediaQuery,
  type AlertColor,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { errorText } from '../i18n/errorMessage';

/** Dialogs take the whole screen below the `sm` breakpoint (phones). */
export function useFullScreenDialog(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'));
}

/** A failure as a sentence: `ERR_xxxx` codes are translated (errors namespace), other server messages kept. */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 403) return t('account.errorForbidden');
      if (error instanceof ApiError && error.message) return errorText(t, error);
      return t('account.errorGeneric');
    },
    [t],
  );
}

export interface ToastMessage {
  text: string;
  severity: AlertColor;
}

/**
 * The live-region role of a toast's alert: an error interrupts the screen reader (`alert`, assertive), any other
 * message is read when it is done speaking (`status`, polite). MUI's Alert is `alert` whatever its severity.
 */
export const toastRole = (severity: AlertColor | undefined) => (severity === 'error' ? 'alert' : 'status');

/** One message at a time at the bottom of the screen; `show` replaces the current one. */
export function useToast(): { toast: ReactNode; show: (text: string, severity?: AlertColor) => void } {
  const [message, setMessage] = useState<ToastMessage | null>(null);
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const toast = (
    <Snackbar
      open={open}
      autoHideDuration={5000}
      onClose={(_, reason) => reason !== 'clickaway' && close()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        onClose={close}
        severity={message?.severity ?? 'info'}
        role={toastRole(message?.severity)}
        variant="filled"
        sx={{ width: '100%' }}
      >
        {message?.text}
      </Alert>
    </Snackbar>
  );
  return {
    toast,
    show: (text, severity = 'success') => {
      setMessage({ text, severity });
      setOpen(true);
    },
  };
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What will happen, in a sentence or two. */
  children: ReactNode;
  /** Irreversible actions get the error colour (the default); reversible ones the primary colour. */
  danger?: boolean;
  /** When given, a checkbox with this label must be ticked before the action is enabled. */
  acknowledge?: string;
  confirmLabel: string;
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** The one confirmation dialog (ui.md §12.8): red button for destructive actions, optionally behind a required checkbox. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const [ticked, setTicked] = useState(false);
  const close = () => {
    if (props.pending) return;
    props.onClose();
  };
  return (
    <Dialog
      open={props.open}
      onClose={close}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="xs"
      slotProps={{ transition: { onExited: () => setTicked(false) } }}
    >
      <DialogTitle>{props.title}</DialogTitle>
      <DialogContent>
        {props.children}
        {props.acknowledge && (
          <FormControlLabel
            sx={{ mt: 2, alignItems: 'flex-start' }}
            control={<Checkbox checked={ticked} onChange={(e) => setTicked(e.target.checked)} sx={{ pt: 0 }} />}
            label={props.acknowledge}
          />
        )}
        {props.error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {props.error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={props.pending}>
          {t('common.cancel')}
        </Button>
        <Button
          color={props.danger === false ? 'primary' : 'error'}
          variant="contained"
          onClick={props.onConfirm}
          disabled={props.pending || (!!props.acknowledge && !ticked)}
        >
          {props.confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Medium date with short time in the interface language (ui.md §15). */
export function useDateTimeFormat(): (iso: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language || undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? iso : format.format(d);
  };
}

import { useEffect, useSyncExternalStore } from 'react';
import Alert, { type AlertColor } from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { toastRole } from '../../components/dialogs';

/**
 * Toasts of item actions. A card's menu can vanish with its card (a deleted book, a series that leaves "on deck"
 * once read), and a detail page with its item, so the message is kept outside React and drawn by the app shell's
 * one {@link ItemToasts}, which outlives every screen (a book deleted from its page: the series page it goes to is a
 * skeleton until its series arrives).
 */
interface ToastState {
  /** Bumped on every message, so the same text twice still reopens. */
  key: number;
  text: string;
  severity: AlertColor;
  open: boolean;
}

let state: ToastState = { key: 0, text: '', severity: 'success', open: false };
const listeners = new Set<() => void>();

function emit() {
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows a message at the bottom of the screen, replacing the current one. */
export function showItemToast(text: string, severity: AlertColor = 'success') {
  state = { key: state.key + 1, text, severity, open: true };
  emit();
}

function closeToast() {
  state = { ...state, open: false };
  emit();
}

/** The snackbar of item messages: rendered once, by the app shell (and by tests around a screen rendered alone). */
export function ItemToasts() {
  const shown = useSyncExternalStore(subscribe, () => state);
  // Leaving the shell (for a reader) drops the message: it must not pop up stale on the way back.
  useEffect(() => () => closeToast(), []);
  return (
    <Snackbar
      key={shown.key}
      open={shown.open}
      autoHideDuration={5000}
      onClose={(_, reason) => reason !== 'clickaway' && closeToast()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        onClose={closeToast}
        severity={shown.severity}
        role={toastRole(shown.severity)}
        variant="filled"
        sx={{ width: '100%' }}
      >
        {shown.text}
      </Alert>
    </Snackbar>
  );
}

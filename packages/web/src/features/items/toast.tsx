import { useEffect, useId, useSyncExternalStore } from 'react';
import Alert, { type AlertColor } from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { toastRole } from '../../components/dialogs';

/**
 * Toasts of item actions. A card's menu can vanish with its card (a deleted book, a series that leaves "on deck"
 * once read), so the message is kept outside React and shown by whichever mounted slot registered first: every
 * action menu and detail page renders a slot, and exactly one of them draws the snackbar. The app shell renders one
 * too, which keeps the message when a screen hands over to one that has not drawn its own yet (a book deleted from
 * its page: the series page is a skeleton until its series arrives).
 */
interface ToastState {
  /** Bumped on every message, so the same text twice still reopens. */
  key: number;
  text: string;
  severity: AlertColor;
  open: boolean;
}

let state: ToastState = { key: 0, text: '', severity: 'success', open: false };
const slots: string[] = [];
const listeners = new Set<() => void>();
let version = 0;

function emit() {
  version++;
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

/** Renders the shared snackbar when this slot is the first one mounted. */
export function ItemToastSlot() {
  const id = useId();
  useEffect(() => {
    slots.push(id);
    if (slots.length === 1) emit();
    return () => {
      const wasLeading = slots[0] === id;
      slots.splice(slots.indexOf(id), 1);
      if (wasLeading) emit();
      // Navigating unmounts the old screen's slots before the new screen mounts its own: only when none came back
      // has the message nowhere to show, and a later screen must not pop it up stale.
      if (!slots.length)
        setTimeout(() => {
          if (slots.length || !state.open) return;
          state = { ...state, open: false };
          emit();
        }, 0);
    };
  }, [id]);
  // Slots that do not draw keep a constant snapshot, so a grid of cards does not re-render on every message.
  const snapshot = () => (slots[0] === id ? version : -1);
  const leading = useSyncExternalStore(subscribe, snapshot, snapshot) !== -1;
  if (!leading) return null;
  return (
    <Snackbar
      key={state.key}
      open={state.open}
      autoHideDuration={5000}
      onClose={(_, reason) => reason !== 'clickaway' && closeToast()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        onClose={closeToast}
        severity={state.severity}
        role={toastRole(state.severity)}
        variant="filled"
        sx={{ width: '100%' }}
      >
        {state.text}
      </Alert>
    </Snackbar>
  );
}

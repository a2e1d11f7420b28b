import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { QuireEventPayloads } from '@quire/api';
import { useLiveEventListener } from '../../api/events';
import { toastRole } from '../../components/dialogs';
import { translateServerMessage } from '../../i18n/errorMessage';
import { fileName } from './rows';

/** How long an outcome stays on screen. */
const SHOW_MS = 8000;
/** A big batch would fill the screen: only the latest outcomes stay. */
const MAX_SHOWN = 4;

interface Outcome {
  key: number;
  event: QuireEventPayloads['BookImported'];
}

let nextKey = 0;

/** One outcome; `close` is stable, so its timer is not restarted when other outcomes come and go. */
function OutcomeAlert({ outcome, close }: { outcome: Outcome; close: (key: number) => void }) {
  const { t } = useTranslation();
  const { event, key } = outcome;
  const onClose = useCallback(() => close(key), [close, key]);
  useEffect(() => {
    const timer = setTimeout(onClose, SHOW_MS);
    return () => clearTimeout(timer);
  }, [onClose]);
  return (
    <Alert
      variant="filled"
      severity={event.success ? 'success' : 'error'}
      role={toastRole(event.success ? 'success' : 'error')}
      onClose={onClose}
    >
      {event.success
        ? t('importBooks.toast.success')
        : t('importBooks.toast.failed', {
            file: fileName(event.sourceFile),
            reason: translateServerMessage(t, event.message ?? t('errors.generic')),
          })}
    </Alert>
  );
}

/**
 * The outcome of each imported book, from the `BookImported` live events (ui.md §13.8). Mounted in the app shell for
 * administrators, so outcomes of a long import still show after leaving the import screen; several outcomes stack.
 */
export function ImportToasts() {
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const onEvent = useCallback((event: QuireEventPayloads['BookImported']) => {
    setOutcomes((current) => [...current, { key: nextKey++, event }].slice(-MAX_SHOWN));
  }, []);
  useLiveEventListener('BookImported', onEvent);
  const close = useCallback((key: number) => setOutcomes((current) => current.filter((o) => o.key !== key)), []);
  if (!outcomes.length) return null;
  return (
    // Each outcome is its own live region (a failure assertive, a success polite), not this stack.
    <Stack
      spacing={1}
      sx={{
        position: 'fixed',
        bottom: 16,
        left: '50%',
        transform: 'translateX(-50%)',
        width: 'min(560px, calc(100% - 32px))',
        zIndex: (theme) => theme.zIndex.snackbar,
      }}
    >
      {outcomes.map((o) => (
        <OutcomeAlert key={o.key} outcome={o} close={close} />
      ))}
    </Stack>
  );
}

import { useEffect, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { toastRole } from '../../components/dialogs';
import { errorText } from '../../i18n/errorMessage';

/**
 * While a reader is open the page itself must not move: no scrollbar (the continuous reader still scrolls), no
 * pull-to-refresh or overscroll bounce. Restored when the reader closes.
 */
export function useReaderDocument(scrolls: boolean): void {
  useEffect(() => {
    const html = document.documentElement;
    const previous = {
      overflow: html.style.overflow,
      overscroll: html.style.overscrollBehavior,
      bar: html.style.scrollbarWidth,
    };
    html.style.overflow = scrolls ? '' : 'hidden';
    html.style.overscrollBehavior = 'none';
    html.style.scrollbarWidth = 'none';
    return () => {
      html.style.overflow = previous.overflow;
      html.style.overscrollBehavior = previous.overscroll;
      html.style.scrollbarWidth = previous.bar;
    };
  }, [scrolls]);
}

/** The dark screen a reader shows while its book loads. */
export function ReaderLoading() {
  const { t } = useTranslation();
  return (
    <Box
      role="progressbar"
      aria-label={t('common.loading')}
      sx={{
        position: 'fixed',
        inset: 0,
        bgcolor: '#000',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      <CircularProgress sx={{ color: 'grey.500' }} />
    </Box>
  );
}

/** A reader that cannot show its book: why, and the way back. */
export function ReaderProblem(props: { error?: unknown; message?: string; onClose: () => void; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack sx={{ minHeight: '100vh', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Alert
        severity="error"
        role="alert"
        sx={{ maxWidth: 560 }}
        action={
          <Stack direction="row" spacing={1}>
            {props.onRetry && (
              <Button color="inherit" size="small" onClick={props.onRetry}>
                {t('common.retry')}
              </Button>
            )}
            <Button color="inherit" size="small" onClick={props.onClose}>
              {t('reader.closeBook')}
            </Button>
          </Stack>
        }
      >
        {props.message ?? errorText(t, props.error)}
      </Alert>
    </Stack>
  );
}

export interface Notice {
  text: ReactNode;
  /** Different for every notice, so a repeated text shows again. */
  key: number;
  position: 'center' | 'top' | 'bottom';
  severity?: 'success' | 'error' | 'info';
}

const DURATION = { center: 4000, top: 3000, bottom: 3000 } as const;

/** The reader's notifications: centred for setting changes, at the top for the end of the book, below for others. */
export function ReaderNotice({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  const position = notice?.position ?? 'center';
  return (
    <Snackbar
      key={notice?.key}
      open={!!notice}
      autoHideDuration={DURATION[position]}
      onClose={(_, reason) => reason !== 'clickaway' && onClose()}
      anchorOrigin={{ vertical: position === 'top' ? 'top' : 'bottom', horizontal: 'center' }}
      sx={
        position === 'center'
          ? { bottom: { xs: '45vh', sm: '45vh' } }
          : position === 'top'
            ? { top: { xs: 64, sm: 64 } }
            : { bottom: { xs: 72, sm: 72 } }
      }
    >
      {notice?.severity ? (
        <Alert severity={notice.severity} role={toastRole(notice.severity)} variant="filled" onClose={onClose}>
          {notice.text}
        </Alert>
      ) : (
        <Alert
          icon={false}
          variant="filled"
          severity="info"
          role="status"
          sx={{ bgcolor: 'grey.900', color: 'common.white' }}
        >
          {notice?.text}
        </Alert>
      )}
    </Snackbar>
  );
}

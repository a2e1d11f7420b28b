import { useEffect, useId, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../../api/auth';
import { useCancelTasks, useTaskQueueStatus } from '../../api/tasks';
import DialogContentText from '@mui/material/DialogContentText';
import { ConfirmDialog } from '../../components/dialogs';
import { errorText } from '../../i18n/errorMessage';
import { useToast } from '../../components/dialogs';
import { visuallyHidden } from '../../components/visuallyHidden';

/** The least time between two announcements of the pending count: a scan moves it many times a second. */
export const ANNOUNCE_EVERY_MS = 10_000;

/**
 * The pending count a screen reader is told, politely and at most once per `ANNOUNCE_EVERY_MS`: the latest count
 * once the pause is over, so the last word is always the current one ("no pending tasks" when the queue empties).
 * null until the count first changes: the first count known (undefined before the queue status arrives) is where the
 * screen started, so opening a screen announces nothing.
 */
function useAnnouncedCount(count: number | undefined): number | null {
  const [announced, setAnnounced] = useState<number | null>(null);
  const spoken = useRef<{ count: number; at: number } | null>(null);
  useEffect(() => {
    if (count === undefined) return;
    if (spoken.current === null) {
      spoken.current = { count, at: 0 };
      return;
    }
    if (count === spoken.current.count) return;
    const last = spoken.current;
    const timer = setTimeout(
      () => {
        spoken.current = { count, at: Date.now() };
        setAnnounced(count);
      },
      Math.max(0, last.at + ANNOUNCE_EVERY_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [count]);
  return announced;
}

/**
 * Admins see a spinner with the number of pending server tasks while there are any (ui.md §1.3, from the SSE
 * `TaskQueueStatus` event). It opens the count per task type and a *Cancel queued tasks* action.
 */
export function TaskIndicator() {
  const { t } = useTranslation();
  const admin = useIsAdmin();
  const status = useTaskQueueStatus().data;
  const cancel = useCancelTasks();
  const { toast, show } = useToast();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [confirming, setConfirming] = useState(false);
  const popoverId = useId();
  const headingId = useId();
  const count = status?.count ?? 0;
  const announced = useAnnouncedCount(status?.count);
  if (!admin) return null;

  const byType = Object.entries(status?.countByType ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const label = t('common.pendingTasks', { count });

  return (
    <>
      {/* Always in the page, so the change of its text is what gets announced. */}
      <Box role="status" sx={visuallyHidden}>
        {announced === null
          ? ''
          : announced > 0
            ? t('common.pendingTasks', { count: announced })
            : t('common.noPendingTasks')}
      </Box>
      {count > 0 && (
        <Tooltip title={label}>
          <IconButton
            color="inherit"
            aria-label={label}
            aria-haspopup="dialog"
            aria-expanded={anchor ? 'true' : undefined}
            aria-controls={anchor ? popoverId : undefined}
            onClick={(e) => setAnchor(e.currentTarget)}
          >
            <Badge badgeContent={count} max={999} color="secondary">
              <CircularProgress color="inherit" size={22} thickness={5} aria-hidden />
            </Badge>
          </IconButton>
        </Tooltip>
      )}
      <Popover
        id={popoverId}
        open={!!anchor && count > 0}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': headingId, sx: { minWidth: 260, maxWidth: 360 } } }}
      >
        <Stack sx={{ p: 2 }} spacing={1}>
          <Typography id={headingId} variant="subtitle1" component="h2">
            {label}
          </Typography>
          <List dense disablePadding aria-label={t('libraries.tasks.byType')}>
            {byType.map(([type, n]) => (
              <ListItem key={type} disableGutters>
                <ListItemText primary={t(`libraries.taskTypes.${type}`, { defaultValue: type })} />
                <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', ml: 2 }}>
                  {n}
                </Typography>
              </ListItem>
            ))}
          </List>
          <Button
            color="error"
            variant="outlined"
            onClick={() => {
              setAnchor(null);
              setConfirming(true);
            }}
          >
            {t('libraries.tasks.cancel')}
          </Button>
        </Stack>
      </Popover>
      <ConfirmDialog
        open={confirming}
        title={t('libraries.tasks.cancelTitle')}
        confirmLabel={t('libraries.tasks.cancelButton')}
        pending={cancel.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          cancel.mutate(undefined, {
            onSuccess: (removed) => show(t('libraries.tasks.cancelled', { count: Number(removed) || 0 })),
            onError: (e) => show(errorText(t, e), 'error'),
            onSettled: () => setConfirming(false),
          })
        }
      >
        <DialogContentText>{t('libraries.tasks.cancelMessage')}</DialogContentText>
      </ConfirmDialog>
      {toast}
    </>
  );
}

import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useFileSizeFormat } from '../../i18n/format';
import type { PageHashAction } from '@quire/api/constants';
import { MatchesDialog } from './MatchesDialog';

/** The three decisions, in the order the buttons show them (ui.md §13.7). */
export const ACTIONS: readonly PageHashAction[] = ['IGNORE', 'DELETE_MANUAL', 'DELETE_AUTO'];

/** Bytes as the user's language writes them (B, kB, MB, GB). */

/** "Deleting duplicate pages will modify your files…", shown until dismissed. */
export function BackupWarning() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <Alert severity="warning" onClose={() => setOpen(false)}>
      {t('duplicates.backupWarning')}
    </Alert>
  );
}

/**
 * One hash: its page image (click to enlarge), figures, the matches button and the decision buttons. `current` is the
 * known hash's action (its button is disabled); automatic deletion needs a size.
 */
export function PageHashCard(props: {
  hash: string;
  imageUrl: string;
  size: number | undefined;
  matchCount: number;
  current?: PageHashAction;
  details?: ReactNode;
  extraAction?: ReactNode;
  pending: boolean;
  onDecide: (action: PageHashAction) => void;
}) {
  const { t } = useTranslation();
  const formatSize = useFileSizeFormat();
  const [enlarged, setEnlarged] = useState(false);
  const [matchesOpen, setMatchesOpen] = useState(false);
  const label = t('duplicates.pageOf', { hash: props.hash });
  return (
    <Card variant="outlined" sx={{ width: 260, display: 'flex', flexDirection: 'column' }} aria-label={label}>
      <Box
        component="button"
        type="button"
        onClick={() => setEnlarged(true)}
        aria-label={t('duplicates.enlarge')}
        sx={{ p: 0, border: 0, bgcolor: 'action.hover', cursor: 'zoom-in', height: 260 }}
      >
        <Box
          component="img"
          src={props.imageUrl}
          alt={label}
          loading="lazy"
          sx={{ width: '100%', height: '100%', objectFit: 'contain' }}
        />
      </Box>
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack spacing={0.5}>
          {props.current && <Typography variant="subtitle2">{t(`duplicates.actions.${props.current}`)}</Typography>}
          <Typography variant="body2">
            {props.size === undefined ? t('duplicates.unknownSize') : formatSize(props.size)}
          </Typography>
          <Box>
            <Button size="small" onClick={() => setMatchesOpen(true)} disabled={props.matchCount === 0}>
              {t('duplicates.matches', { count: props.matchCount })}
            </Button>
          </Box>
          {props.details}
          {props.size !== undefined && props.matchCount > 0 && (
            <Typography variant="body2">
              {t('duplicates.deleteToSave', { size: formatSize(props.size * props.matchCount) })}
            </Typography>
          )}
        </Stack>
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {props.extraAction}
        <ButtonGroup size="small" variant="outlined" fullWidth aria-label={t('duplicates.decide')}>
          {ACTIONS.map((action) => (
            <Button
              key={action}
              disabled={
                props.pending || props.current === action || (action === 'DELETE_AUTO' && props.size === undefined)
              }
              onClick={() => props.onDecide(action)}
            >
              {t(`duplicates.actionButtons.${action}`)}
            </Button>
          ))}
        </ButtonGroup>
      </CardActions>
      <Dialog open={enlarged} onClose={() => setEnlarged(false)} maxWidth="md">
        <Box
          component="img"
          src={props.imageUrl}
          alt={label}
          onClick={() => setEnlarged(false)}
          sx={{ display: 'block', maxWidth: '100%', maxHeight: '90vh' }}
        />
      </Dialog>
      {matchesOpen && <MatchesDialog hash={props.hash} onClose={() => setMatchesOpen(false)} />}
    </Card>
  );
}

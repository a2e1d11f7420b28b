import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useFullScreenDialog } from '../../../components/dialogs';

export type RegenerateAnswer = 'all' | 'bigger' | 'no';

/** Asked after the thumbnail size changed (ui.md §13.2): all books, only where bigger, or not at all. */
export function RegenerateThumbnailsDialog({
  open,
  onAnswer,
}: {
  open: boolean;
  onAnswer: (a: RegenerateAnswer) => void;
}) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  return (
    <Dialog open={open} onClose={() => onAnswer('no')} fullScreen={fullScreen} maxWidth="sm">
      <DialogTitle>{t('server.regenerateTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('server.regenerateQuestion')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={() => onAnswer('no')}>{t('server.regenerateNo')}</Button>
        <Button variant="outlined" onClick={() => onAnswer('bigger')}>
          {t('server.regenerateBigger')}
        </Button>
        <Button variant="contained" onClick={() => onAnswer('all')}>
          {t('server.regenerateAll')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

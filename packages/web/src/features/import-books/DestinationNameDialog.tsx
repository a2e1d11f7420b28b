import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { BookDto } from '@quire/api';
import { useFullScreenDialog } from '../../components/dialogs';
import { fileName } from './rows';

/**
 * Chooses the name the file gets in the series folder (without extension): the source name, a typed one, or one
 * copied from the series' files, listed in the series' order so the next name is easy to follow (ui.md §13.8).
 */
export function DestinationNameDialog({
  open,
  sourceName,
  initialName,
  seriesBooks,
  onClose,
  onChoose,
}: {
  open: boolean;
  sourceName: string;
  initialName: string;
  seriesBooks: readonly BookDto[];
  onClose: () => void;
  onChoose: (name: string) => void;
}) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const titleId = useId();
  const [name, setName] = useState(initialName);
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t('importBooks.destination.title')}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('importBooks.destination.source')}{' '}
          <Link component="button" type="button" dir="auto" onClick={() => setName(sourceName)}>
            {sourceName}
          </Link>
        </Typography>
        <TextField
          autoFocus
          fullWidth
          label={t('importBooks.destination.name')}
          helperText={t('importBooks.destination.hint')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && name.trim()) onChoose(name.trim());
          }}
          slotProps={{ htmlInput: { dir: 'auto' } }}
        />
        {seriesBooks.length > 0 && (
          <List
            dense
            subheader={<ListSubheader disableSticky>{t('importBooks.destination.seriesFiles')}</ListSubheader>}
          >
            {seriesBooks.map((book) => (
              <ListItem key={book.id} disablePadding>
                <ListItemButton onClick={() => setName(book.name)}>
                  <ListItemText primary={fileName(book.url)} slotProps={{ primary: { dir: 'auto' } }} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" disabled={!name.trim()} onClick={() => onChoose(name.trim())}>
          {t('importBooks.destination.choose')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

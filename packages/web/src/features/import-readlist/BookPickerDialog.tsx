import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSeriesBooks, type BookDto } from '../../api/books';
import { useBrowseFormat } from '../../components/browse/format';
import { useErrorText } from '../../components/dialogs';
import { LoadingRows, PickerFrame } from '../../components/SeriesPickerDialog';
import type { MatchedSeries } from './rows';

export interface BookPickerProps {
  open: boolean;
  series: MatchedSeries;
  onClose: () => void;
  onPick: (book: BookDto) => void;
}

/** The series' books in number order, filtered by number, title or release date. */
export function BookPickerDialog({ open, series, onClose, onPick }: BookPickerProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const format = useBrowseFormat();
  const [filter, setFilter] = useState('');
  const books = useSeriesBooks(series.seriesId, { unpaged: true, sort: ['metadata.numberSort,asc'] });
  const needle = filter.trim().toLowerCase();
  const shown = (books.data?.content ?? []).filter(
    (b) =>
      !needle ||
      b.metadata.number.toLowerCase().includes(needle) ||
      b.metadata.title.toLowerCase().includes(needle) ||
      (b.metadata.releaseDate ?? '').includes(needle),
  );
  return (
    <PickerFrame open={open} title={t('importReadList.pickBook', { series: series.title })} onClose={onClose}>
      <TextField
        autoFocus
        fullWidth
        label={t('importReadList.filterBooks')}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        slotProps={{ htmlInput: { dir: 'auto' } }}
        sx={{ mb: 1 }}
      />
      {books.isError ? (
        <Alert severity="error">{errorText(books.error)}</Alert>
      ) : books.isPending ? (
        <LoadingRows />
      ) : shown.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {t('importReadList.noBookFound')}
        </Typography>
      ) : (
        <List aria-label={t('importReadList.bookResults')}>
          {shown.map((b) => (
            <ListItemButton key={b.id} onClick={() => onPick(b)}>
              <ListItemText
                dir="auto"
                primary={t('importReadList.numberTitle', { number: b.metadata.number, title: b.metadata.title })}
                secondary={b.metadata.releaseDate ? format.releaseDate(b.metadata.releaseDate) : undefined}
              />
            </ListItemButton>
          ))}
        </List>
      )}
    </PickerFrame>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSeriesBooks, type BookDto } from '../../api/books';
import { useLibraries } from '../../api/libraries';
import { useSeriesList } from '../../api/series';
import { useBrowseFormat } from '../../components/browse/format';
import { useErrorText, useFullScreenDialog } from '../../components/dialogs';
import { useDebouncedValue } from '../metadata/editors';
import type { MatchedSeries } from './rows';

/** Search waits this long after the last key (ui.md §13.8–13.9). */
const SEARCH_DEBOUNCE_MS = 500;
/** The series picker shows this many results; more asks for a narrower search. */
const SERIES_RESULTS = 50;

function LoadingRows() {
  return (
    <List aria-hidden>
      {[0, 1, 2].map((i) => (
        <ListItemButton key={i} disabled>
          <ListItemText primary={<Skeleton width="60%" />} secondary={<Skeleton width="30%" />} />
        </ListItemButton>
      ))}
    </List>
  );
}

interface PickerFrameProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: React.ReactNode;
}

function PickerFrame({ open, title, onClose, children }: PickerFrameProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" scroll="paper">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 360 }}>
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export interface SeriesPickerProps {
  open: boolean;
  /** The search the dialog opens with: the series the list asked for. */
  initialSearch: string;
  onClose: () => void;
  onPick: (series: MatchedSeries) => void;
}

/** Any series of any library, found by a full-text search as the user types. */
export function SeriesPickerDialog({ open, initialSearch, onClose, onPick }: SeriesPickerProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const format = useBrowseFormat();
  const libraries = useLibraries().data ?? [];
  const [search, setSearch] = useState(initialSearch);
  const debounced = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const found = useSeriesList(
    { fullTextSearch: debounced, page: 0, size: SERIES_RESULTS },
    { enabled: open && debounced.length > 0 },
  );
  const series = debounced ? (found.data?.content ?? []) : [];
  const pending = search.trim() !== debounced || (debounced.length > 0 && found.isPending);
  return (
    <PickerFrame open={open} title={t('importReadList.pickSeries')} onClose={onClose}>
      <TextField
        autoFocus
        fullWidth
        label={t('importReadList.searchSeries')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        slotProps={{ htmlInput: { dir: 'auto' } }}
        sx={{ mb: 1 }}
      />
      {found.isError ? (
        <Alert severity="error">{errorText(found.error)}</Alert>
      ) : pending ? (
        <LoadingRows />
      ) : debounced && series.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {t('importReadList.noSeriesFound')}
        </Typography>
      ) : (
        <List aria-label={t('importReadList.seriesResults')}>
          {series.map((s) => {
            const library = libraries.find((l) => l.id === s.libraryId)?.name ?? '';
            const year = format.year(s.booksMetadata.releaseDate);
            return (
              <ListItemButton
                key={s.id}
                onClick={() =>
                  onPick({
                    seriesId: s.id,
                    title: s.metadata.title,
                    ...(s.booksMetadata.releaseDate ? { releaseDate: s.booksMetadata.releaseDate } : {}),
                  })
                }
              >
                <ListItemText
                  dir="auto"
                  primary={year ? t('importReadList.titleYear', { title: s.metadata.title, year }) : s.metadata.title}
                  secondary={t('importReadList.inLibrary', { library })}
                />
              </ListItemButton>
            );
          })}
        </List>
      )}
      {(found.data?.totalElements ?? 0) > SERIES_RESULTS && debounced && (
        <Typography variant="caption" color="text.secondary">
          {t('importReadList.narrowSearch', { count: SERIES_RESULTS })}
        </Typography>
      )}
    </PickerFrame>
  );
}

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

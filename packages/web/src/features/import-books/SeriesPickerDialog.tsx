import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { SeriesDto } from '@quire/api';
import { useLibraries } from '../../api/libraries';
import { useSeriesList } from '../../api/series';
import { useFullScreenDialog } from '../../components/dialogs';
import { errorText } from '../../i18n/errorMessage';
import { useDebouncedValue } from '../metadata/editors';

/** The reference waits half a second after the last key before searching (ui.md §13.8). */
const SEARCH_DELAY_MS = 500;

export interface SeriesPickerDialogProps {
  open: boolean;
  /** Shown in the field when the dialog opens (the file name, or the series already chosen). */
  initialSearch: string;
  /** The bulk picker leaves one-shots out: a one-shot only takes an upgrade of its own book. */
  excludeOneshots?: boolean;
  onClose: () => void;
  onSelect: (series: SeriesDto) => void;
}

/** Finds a series by full-text search (`POST /api/v1/series/list`, unpaged) and returns the one clicked. */
export function SeriesPickerDialog({
  open,
  initialSearch,
  excludeOneshots,
  onClose,
  onSelect,
}: SeriesPickerDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const titleId = useId();
  const [search, setSearch] = useState(initialSearch);
  const debounced = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const found = useSeriesList(
    {
      fullTextSearch: debounced,
      unpaged: true,
      ...(excludeOneshots ? { condition: { oneShot: { operator: 'isFalse' } } } : {}),
    },
    { enabled: open && debounced.length > 0 },
  );
  const libraries = useLibraries().data ?? [];
  const libraryName = (id: string) => libraries.find((l) => l.id === id)?.name ?? id;
  const searching = debounced !== search.trim() || (found.isFetching && debounced.length > 0);

  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t('importBooks.seriesPicker.title')}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 320 }}>
        <TextField
          autoFocus
          fullWidth
          label={t('importBooks.seriesPicker.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{ htmlInput: { dir: 'auto' } }}
        />
        {found.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(t, found.error)}
          </Alert>
        ) : (
          <List aria-label={t('importBooks.seriesPicker.results')} aria-busy={searching}>
            {searching && !found.data
              ? [0, 1, 2].map((i) => (
                  <ListItem key={i} aria-hidden>
                    <ListItemText
                      primary={<Skeleton width={`${70 - i * 10}%`} />}
                      secondary={<Skeleton width="40%" />}
                    />
                  </ListItem>
                ))
              : debounced &&
                found.data?.content.map((series) => {
                  const year = series.booksMetadata.releaseDate?.slice(0, 4);
                  return (
                    <ListItem key={series.id} disablePadding>
                      <ListItemButton onClick={() => onSelect(series)}>
                        <ListItemText
                          primary={year ? `${series.metadata.title} (${year})` : series.metadata.title}
                          secondary={t('importBooks.seriesPicker.inLibrary', {
                            library: libraryName(series.libraryId),
                          })}
                          slotProps={{ primary: { dir: 'auto' } }}
                        />
                      </ListItemButton>
                    </ListItem>
                  );
                })}
            {debounced && !searching && found.data?.content.length === 0 && (
              <ListItem>
                <ListItemText secondary={t('importBooks.seriesPicker.none')} />
              </ListItem>
            )}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}

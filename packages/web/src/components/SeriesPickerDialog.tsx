import { useId, useState } from 'react';
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
import type { SeriesDto } from '@quire/api';
import { useLibraries } from '../api/libraries';
import { useSeriesList } from '../api/series';
import { useDebouncedValue } from '../features/metadata/editors';
import { useBrowseFormat } from './browse/format';
import { useErrorText, useFullScreenDialog } from './dialogs';

/** Search waits this long after the last key (ui.md §13.8–13.9). */
const SEARCH_DELAY_MS = 500;
/**
 * The picker shows this many results and asks for a narrower search beyond them (the reference lists every match,
 * unpaged, which a large server answers slowly for a two-letter search).
 */
export const SERIES_PICKER_RESULTS = 50;

/** Rows of grey bars where the results will be, so the dialog keeps its height. */
export function LoadingRows() {
  return (
    <List aria-hidden>
      {[0, 1, 2].map((i) => (
        <ListItemButton key={i} disabled>
          <ListItemText primary={<Skeleton width={`${70 - i * 10}%`} />} secondary={<Skeleton width="30%" />} />
        </ListItemButton>
      ))}
    </List>
  );
}

export interface PickerFrameProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: React.ReactNode;
}

/** A picker's dialog: its title, the search and results, and Cancel (full screen on a phone). */
export function PickerFrame({ open, title, onClose, children }: PickerFrameProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="sm"
      scroll="paper"
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 360 }}>
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export interface SeriesPickerDialogProps {
  open: boolean;
  title: string;
  /** The search the dialog opens with (the series already chosen, the one a list asked for, or nothing). */
  initialSearch: string;
  /** Leaves one-shots out: the bulk picker of the book import, where a one-shot only takes an upgrade of its book. */
  excludeOneshots?: boolean;
  onClose: () => void;
  onSelect: (series: SeriesDto) => void;
}

/** Any series the user may see, found by full-text search (`POST /api/v1/series/list`) as they type. */
export function SeriesPickerDialog({
  open,
  title,
  initialSearch,
  excludeOneshots,
  onClose,
  onSelect,
}: SeriesPickerDialogProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const format = useBrowseFormat();
  const libraries = useLibraries().data ?? [];
  const [search, setSearch] = useState(initialSearch);
  const debounced = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const found = useSeriesList(
    {
      fullTextSearch: debounced,
      page: 0,
      size: SERIES_PICKER_RESULTS,
      ...(excludeOneshots ? { condition: { oneShot: { operator: 'isFalse' as const } } } : {}),
    },
    { enabled: open && debounced.length > 0 },
  );
  const series = debounced ? (found.data?.content ?? []) : [];
  const pending = search.trim() !== debounced || (debounced.length > 0 && found.isPending);
  return (
    <PickerFrame open={open} title={title} onClose={onClose}>
      <TextField
        autoFocus
        fullWidth
        label={t('common.seriesPicker.search')}
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
          {t('common.seriesPicker.none')}
        </Typography>
      ) : (
        <List aria-label={t('common.seriesPicker.results')}>
          {series.map((s) => {
            const library = libraries.find((l) => l.id === s.libraryId)?.name ?? '';
            const year = format.year(s.booksMetadata.releaseDate);
            return (
              <ListItemButton key={s.id} onClick={() => onSelect(s)}>
                <ListItemText
                  dir="auto"
                  primary={
                    year ? t('common.seriesPicker.titleYear', { title: s.metadata.title, year }) : s.metadata.title
                  }
                  secondary={t('common.seriesPicker.inLibrary', { library })}
                />
              </ListItemButton>
            );
          })}
        </List>
      )}
      {(found.data?.totalElements ?? 0) > SERIES_PICKER_RESULTS && debounced && (
        <Typography variant="caption" color="text.secondary">
          {t('common.seriesPicker.narrowSearch', { count: SERIES_PICKER_RESULTS })}
        </Typography>
      )}
    </PickerFrame>
  );
}

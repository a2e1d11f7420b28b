import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
import { useMutation, useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { bookQueries } from '../../api/books';
import { ApiError, client } from '../../api/client';
import { seriesQueries } from '../../api/series';
import { analyzeTransientBook, scanTransientBooks } from '../../api/transient-books';
import { setPreference, usePreferences } from '../../app/preferences';
import { useToast } from '../../components/dialogs';
import { errorText, translateServerMessage } from '../../i18n/errorMessage';
import { FolderBrowserDialog } from '../libraries/FolderBrowserDialog';
import { ImportRowView } from './ImportRowView';
import {
  COPY_MODES,
  importRequest,
  newRow,
  rowProblem,
  upgradeTarget,
  withAnalysis,
  type BookImportRequest,
  type CopyMode,
  type ImportRow,
} from './rows';
import { SeriesPickerDialog } from '../../components/SeriesPickerDialog';
import { visuallyHidden } from '../../components/visuallyHidden';

/** Analyses run a few at a time: each one reads a whole file on the server. */
const PARALLEL_ANALYSES = 2;

const seriesBooksParams = (seriesId: string) => ({
  condition: { seriesId: { operator: 'is' as const, value: seriesId } },
  unpaged: true,
  sort: ['metadata.numberSort,asc'],
});

/** The chosen series of the rows and their books (for upgrades and names), one query per distinct series. */
function useChosenSeries(rows: readonly ImportRow[]) {
  const ids = [...new Set(rows.map((r) => r.seriesId).filter((id): id is string => !!id))];
  const series = useQueries({ queries: ids.map((id) => seriesQueries.detail(id)) });
  const books = useQueries({ queries: ids.map((id) => bookQueries.list(seriesBooksParams(id))) });
  const byId = new Map(ids.map((id, i) => [id, { series: series[i]!.data, books: books[i]!.data?.content }] as const));
  return (id: string | undefined) => (id ? byId.get(id) : undefined);
}

/** Rows after a scan, analysed in the background; a new scan drops the answers of the previous one. */
function useImportRows() {
  const [rows, setRows] = useState<ImportRow[] | null>(null);
  const generation = useRef(0);
  const update = (id: string, change: (row: ImportRow) => ImportRow) =>
    setRows((current) => current && current.map((r) => (r.book.id === id ? change(r) : r)));

  const start = (books: Awaited<ReturnType<typeof scanTransientBooks>>) => {
    const mine = ++generation.current;
    setRows(books.map(newRow));
    const queue = books.map((b) => b.id);
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined && mine === generation.current; id = queue.shift()) {
        const bookId = id;
        try {
          const analysed = await analyzeTransientBook(bookId);
          if (mine === generation.current) update(bookId, (r) => withAnalysis(r, analysed));
        } catch (error) {
          if (mine === generation.current)
            update(bookId, (r) => ({ ...r, analysis: 'failed', error: error instanceof Error ? error.message : '' }));
        }
      }
    };
    for (let i = 0; i < PARALLEL_ANALYSES; i++) void worker();
  };
  useEffect(
    () => () => {
      generation.current++;
    },
    [],
  );
  return { rows, setRows, start, update };
}

/** Import books from a folder outside the libraries into existing series (admins; ui.md §13.8). */
export function ImportBooksPage() {
  const { t } = useTranslation();
  const importPath = usePreferences((p) => p.importPath);
  const [browsing, setBrowsing] = useState(false);
  const [introOpen, setIntroOpen] = useState(true);
  const [bulkPicker, setBulkPicker] = useState(false);
  const [copyMode, setCopyMode] = useState<CopyMode>('HARDLINK');
  const { toast, show } = useToast();
  const { rows, setRows, start, update } = useImportRows();
  const chosen = useChosenSeries(rows ?? []);

  const scan = useMutation({
    mutationFn: (path: string) => scanTransientBooks(path),
    onSuccess: (books) => {
      importBooks.reset();
      start(books);
    },
    // Only the server's reason, else one sentence (spec §8).
    onError: (error) =>
      show(
        error instanceof ApiError && error.message
          ? translateServerMessage(t, error.message)
          : t('importBooks.scanFailed'),
        'error',
      ),
  });

  const importBooks = useMutation({
    mutationFn: (books: BookImportRequest[]) => client.post('/api/v1/books/import', { body: { books, copyMode } }),
    onError: (error) => show(errorText(t, error), 'error'),
  });

  const views = (rows ?? []).map((row) => {
    const context = chosen(row.seriesId);
    const upgrade = upgradeTarget(context?.series, context?.books, row.number);
    // Until its series' books are known, a row cannot say whether it upgrades one: it is not sent yet.
    const known = !row.seriesId || (context?.series && context.books);
    const request = known ? importRequest(row, upgrade) : undefined;
    return { row, context, upgrade, problem: rowProblem(row, upgrade), request };
  });
  const requests = views.map((v) => v.request).filter((r): r is BookImportRequest => !!r);
  const selectedCount = views.filter((v) => v.row.selected).length;

  const change = (id: string, patch: Partial<ImportRow>) => {
    importBooks.reset();
    update(id, (r) => ({ ...r, ...patch }));
  };
  const changeAll = (patch: (row: ImportRow) => Partial<ImportRow>) => {
    importBooks.reset();
    setRows((current) => current && current.map((r) => ({ ...r, ...patch(r) })));
  };

  const path = importPath.trim();
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1600 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('importBooks.title')}
      </Typography>
      {introOpen && (
        <Alert severity="info" onClose={() => setIntroOpen(false)} sx={{ mb: 2 }}>
          {t('importBooks.intro')}
        </Alert>
      )}
      <Stack
        component="form"
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ mb: 2, alignItems: { sm: 'center' } }}
        onSubmit={(e) => {
          e.preventDefault();
          if (path) scan.mutate(path);
        }}
      >
        <TextField
          label={t('importBooks.folder.label')}
          value={importPath}
          onChange={(e) => setPreference('importPath', e.target.value)}
          sx={{ flex: 1 }}
          slotProps={{ htmlInput: { dir: 'ltr' } }}
        />
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" startIcon={<FolderOpenIcon />} onClick={() => setBrowsing(true)}>
            {t('importBooks.folder.browse')}
          </Button>
          <Button type="submit" variant="contained" disabled={!path} loading={scan.isPending}>
            {t('importBooks.folder.scan')}
          </Button>
        </Stack>
      </Stack>

      {scan.isPending ? (
        <Paper variant="outlined" aria-busy aria-label={t('importBooks.table.label')}>
          {[0, 1, 2, 3].map((i) => (
            <Box key={i} sx={{ display: 'flex', gap: 2, p: 1.5 }} aria-hidden>
              <Skeleton variant="rectangular" width={24} height={24} />
              <Skeleton width="30%" />
              <Skeleton width="20%" />
              <Skeleton width="10%" />
            </Box>
          ))}
        </Paper>
      ) : rows && rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ my: 4, textAlign: 'center' }}>
          {t('importBooks.empty')}
        </Typography>
      ) : (
        rows && (
          <>
            <TableContainer component={Paper} variant="outlined">
              <Table size="small" aria-label={t('importBooks.table.label')}>
                <TableHead>
                  <TableRow>
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={selectedCount === rows.length}
                        indeterminate={selectedCount > 0 && selectedCount < rows.length}
                        onChange={(e) => changeAll(() => ({ selected: e.target.checked }))}
                        slotProps={{ input: { 'aria-label': t('importBooks.table.selectAll') } }}
                      />
                    </TableCell>
                    <TableCell>{t('importBooks.table.file')}</TableCell>
                    <TableCell>{t('importBooks.table.status')}</TableCell>
                    <TableCell>{t('importBooks.table.series')}</TableCell>
                    <TableCell>{t('importBooks.table.number')}</TableCell>
                    <TableCell sx={{ position: 'relative' }}>
                      <Box component="span" sx={visuallyHidden}>
                        {t('importBooks.table.actions')}
                      </Box>
                    </TableCell>
                    <TableCell>{t('importBooks.table.destination')}</TableCell>
                    <TableCell sx={{ position: 'relative' }}>
                      <Box component="span" sx={visuallyHidden}>
                        {t('importBooks.table.problem')}
                      </Box>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {views.map(({ row, context, upgrade, problem }) => (
                    <ImportRowView
                      key={row.book.id}
                      row={row}
                      series={context?.series}
                      seriesBooks={context?.books}
                      upgrade={upgrade}
                      problem={problem}
                      onChange={(patch) => change(row.book.id, patch)}
                    />
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1}
              sx={{ mt: 2, alignItems: { sm: 'center' }, justifyContent: 'flex-end' }}
            >
              <TextField
                select
                size="small"
                label={t('importBooks.copyMode.label')}
                value={copyMode}
                onChange={(e) => {
                  importBooks.reset();
                  setCopyMode(e.target.value as CopyMode);
                }}
                sx={{ minWidth: 220 }}
              >
                {COPY_MODES.map((mode) => (
                  <MenuItem key={mode} value={mode}>
                    {t(`importBooks.copyMode.${mode}`)}
                  </MenuItem>
                ))}
              </TextField>
              <Button variant="outlined" disabled={selectedCount === 0} onClick={() => setBulkPicker(true)}>
                {t('importBooks.selectSeries')}
              </Button>
              <Button
                variant="contained"
                color={importBooks.isSuccess ? 'success' : 'primary'}
                startIcon={importBooks.isSuccess ? <CheckIcon /> : undefined}
                disabled={requests.length === 0}
                loading={importBooks.isPending}
                onClick={() => importBooks.mutate(requests)}
              >
                {importBooks.isSuccess ? t('importBooks.imported') : t('importBooks.import')}
              </Button>
            </Stack>
          </>
        )
      )}
      {browsing && (
        <FolderBrowserDialog
          open
          initialPath={importPath}
          title={t('importBooks.folder.browseTitle')}
          onClose={() => setBrowsing(false)}
          onSelect={(chosenPath) => {
            setPreference('importPath', chosenPath);
            setBrowsing(false);
          }}
        />
      )}
      {bulkPicker && (
        <SeriesPickerDialog
          open
          title={t('importBooks.seriesPicker.title')}
          excludeOneshots
          initialSearch=""
          onClose={() => setBulkPicker(false)}
          onSelect={(series) => {
            changeAll((r) => (r.selected ? { seriesId: series.id } : {}));
            setBulkPicker(false);
          }}
        />
      )}
      {toast}
    </Box>
  );
}

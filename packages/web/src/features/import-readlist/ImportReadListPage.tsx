import { useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import WarningIcon from '@mui/icons-material/Warning';
import { MAX_READ_LIST_IMPORT_BYTES } from '@quire/api/constants';
import { bookQueries, type BookDto } from '../../api/books';
import { useAllReadLists, useCreateReadList } from '../../api/metadata';
import { useMatchComicRackList, type ReadListRequestMatchDto } from '../../api/readlists';
import { readListPath } from '../../components/browse/format';
import { ConfirmDialog, useErrorText } from '../../components/dialogs';
import { SeriesPickerDialog } from '../../components/SeriesPickerDialog';
import { BookPickerDialog } from './BookPickerDialog';
import {
  filterOf,
  moveRow,
  ROW_FILTERS,
  rowsFromMatch,
  rowStatuses,
  sameName,
  sameNumber,
  summarize,
  type ChosenBook,
  type ImportRow,
  type MatchedSeries,
  type RowFilter,
  type RowStatus,
} from './rows';

const MAX_MB = MAX_READ_LIST_IMPORT_BYTES / (1024 * 1024);
const chosen = (b: BookDto): ChosenBook => ({ bookId: b.id, number: b.metadata.number, title: b.metadata.title });

/** `/import/readlist` (ui.md §13.9): match a ComicRack list against the libraries, fix the rows, create the list. */
export function ImportReadListPage() {
  const { t } = useTranslation();
  const headingId = useId();
  const errorText = useErrorText();
  const match = useMatchComicRackList();
  const [file, setFile] = useState<File | null>(null);
  const tooBig = !!file && file.size >= MAX_READ_LIST_IMPORT_BYTES;

  /** A new file drops the rows of the previous one. */
  const choose = (picked: File | null) => {
    setFile(picked);
    match.reset();
  };
  const run = () => {
    if (file && !tooBig) match.mutate(file);
  };

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1200 }} aria-labelledby={headingId} component="section">
      <Typography id={headingId} variant="h5" component="h1">
        {t('importReadList.title')}
      </Typography>
      <Alert severity="info">{t('importReadList.intro')}</Alert>
      <FilePicker file={file} tooBig={tooBig} onChange={choose} />
      <Box>
        <Button variant="contained" onClick={run} disabled={!file || tooBig} loading={match.isPending}>
          {t('importReadList.match')}
        </Button>
      </Box>
      {match.isError && (
        <Alert severity="error" role="alert">
          {t('importReadList.matchFailed', { reason: errorText(match.error) })}
        </Alert>
      )}
      {match.isPending && <RowsSkeleton />}
      {/* Keyed by the request, so each answer starts its table and form afresh. */}
      {match.data && <MatchedList key={match.submittedAt} answer={match.data} />}
    </Stack>
  );
}

function FilePicker({
  file,
  tooBig,
  onChange,
}: {
  file: File | null;
  tooBig: boolean;
  onChange: (file: File | null) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const helpId = useId();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
      <input
        ref={input}
        type="file"
        accept=".cbl"
        hidden
        aria-label={t('importReadList.file')}
        onChange={(e) => onChange(e.target.files?.[0] ?? null)}
      />
      <Button
        variant="outlined"
        startIcon={<UploadFileIcon />}
        onClick={() => input.current?.click()}
        aria-describedby={helpId}
      >
        {t('importReadList.chooseFile')}
      </Button>
      <Typography
        id={helpId}
        variant="body2"
        color={tooBig ? 'error' : 'text.secondary'}
        role={tooBig ? 'alert' : undefined}
        sx={{ overflowWrap: 'anywhere' }}
      >
        {file ? <bdi>{file.name}</bdi> : t('importReadList.noFile')}
        {tooBig ? ` — ${t('importReadList.tooBig', { max: MAX_MB })}` : ''}
      </Typography>
    </Stack>
  );
}

function RowsSkeleton() {
  return (
    <Box aria-busy="true" aria-live="polite">
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} height={40} />
      ))}
    </Box>
  );
}

type Picking = { kind: 'series' | 'book'; position: number } | null;

/** The matched rows, their filters and the create form; remounted for every new match. */
function MatchedList({ answer }: { answer: ReadListRequestMatchDto }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const readLists = useAllReadLists();
  const create = useCreateReadList();
  const [rows, setRows] = useState(() => rowsFromMatch(answer));
  const [filters, setFilters] = useState<RowFilter[]>([...ROW_FILTERS]);
  const [name, setName] = useState(answer.readListMatch.name);
  const [summary, setSummary] = useState('');
  const [ordered, setOrdered] = useState(true);
  const [picking, setPicking] = useState<Picking>(null);
  const [confirming, setConfirming] = useState(false);
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null);
  const [toastOpen, setToastOpen] = useState(false);

  const statuses = rowStatuses(rows);
  const totals = summarize(rows);
  // The server's answer says so for the list's own name; the read lists loaded here check every other one.
  const nameTaken =
    (answer.readListMatch.errorCode === 'ERR_1009' && sameName(name, answer.readListMatch.name)) ||
    (!!name.trim() && (readLists.data ?? []).some((r) => sameName(r.name, name)));
  const nameError = !name.trim() ? t('common.required') : nameTaken ? t('errors.ERR_1009') : null;
  const canCreate = !nameError && totals.bookIds.length > 0 && !create.isPending && !created;

  const update = (position: number, change: Partial<ImportRow>) =>
    setRows((current) => current.map((r) => (r.position === position ? { ...r, ...change } : r)));
  const pickingRow = picking ? rows.find((r) => r.position === picking.position) : undefined;

  /** A new series keeps the book with the requested number when the series has one. */
  const pickSeries = async (row: ImportRow, series: MatchedSeries) => {
    setPicking(null);
    const offered = row.candidates.find((c) => c.series.seriesId === series.seriesId)?.books ?? [];
    const book = offered.find((b) => sameNumber(b.number, row.request.number)) ?? null;
    update(row.position, { series, book });
    if (book) return;
    try {
      const books = await queryClient.fetchQuery(
        bookQueries.inSeries(series.seriesId, { unpaged: true, sort: ['metadata.numberSort,asc'] }),
      );
      const found = books.content.find((b) => sameNumber(b.metadata.number, row.request.number));
      if (!found) return;
      // Unless the user has meanwhile picked another series or a book for this row.
      setRows((current) =>
        current.map((r) =>
          r.position === row.position && r.series?.seriesId === series.seriesId && !r.book
            ? { ...r, book: chosen(found) }
            : r,
        ),
      );
    } catch {
      // The row stays without a book: its status asks the user to choose one.
    }
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!canCreate) return;
    if (totals.unmatched > 0 || totals.duplicates > 0) setConfirming(true);
    else send();
  };
  const send = () =>
    create.mutate(
      { name: name.trim(), summary, ordered, bookIds: totals.bookIds },
      {
        onSuccess: (list) => {
          setConfirming(false);
          setCreated({ id: list.id, name: list.name });
          setToastOpen(true);
        },
      },
    );

  const toggleFilter = (f: RowFilter) =>
    setFilters((current) =>
      current.includes(f) ? (current.length > 1 ? current.filter((x) => x !== f) : current) : [...current, f],
    );
  const shown = rows
    .map((row, index) => ({ row, index }))
    .filter(({ index }) => filters.includes(filterOf(statuses[index]!)));

  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap', alignItems: 'center' }}
        role="group"
        aria-label={t('importReadList.filters')}
      >
        {ROW_FILTERS.map((f) => {
          const on = filters.includes(f);
          return (
            <Chip
              key={f}
              label={t(`importReadList.filter.${f}`, { n: statuses.filter((s) => filterOf(s) === f).length })}
              color={on ? 'primary' : 'default'}
              variant={on ? 'filled' : 'outlined'}
              onClick={() => toggleFilter(f)}
              aria-pressed={on}
              component="button"
            />
          );
        })}
      </Stack>
      <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: '60vh' }}>
        <Table size="small" stickyHeader aria-label={t('importReadList.tableLabel')}>
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              <TableCell>{t('importReadList.columns.requestedSeries')}</TableCell>
              <TableCell sx={wideOnly}>{t('importReadList.columns.requestedNumber')}</TableCell>
              <TableCell>{t('importReadList.columns.series')}</TableCell>
              <TableCell>{t('importReadList.columns.book')}</TableCell>
              <TableCell>{t('importReadList.columns.status')}</TableCell>
              <TableCell>{t('importReadList.columns.order')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map(({ row, index }) => (
              <RowView
                key={row.position}
                row={row}
                status={statuses[index]!}
                first={index === 0}
                last={index === rows.length - 1}
                onPickSeries={() => setPicking({ kind: 'series', position: row.position })}
                onPickBook={() => setPicking({ kind: 'book', position: row.position })}
                onMove={(by) => setRows((current) => moveRow(current, index, index + by))}
              />
            ))}
            {shown.length === 0 && (
              <TableRow>
                <TableCell colSpan={7}>
                  <Typography color="text.secondary">{t('importReadList.noRows')}</Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="body2" color="text.secondary" aria-live="polite">
        {t('importReadList.counts', { ok: totals.bookIds.length, total: totals.total })}
      </Typography>

      <Stack component="form" spacing={2} onSubmit={submit} noValidate sx={{ maxWidth: 600 }}>
        <TextField
          label={t('importReadList.name')}
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          slotProps={{ htmlInput: { dir: 'auto' } }}
          error={!!nameError}
          helperText={nameError ?? ' '}
        />
        <FormControlLabel
          control={<Switch checked={ordered} onChange={(e) => setOrdered(e.target.checked)} />}
          label={t('importReadList.ordered')}
        />
        <TextField
          label={t('importReadList.summary')}
          multiline
          minRows={3}
          value={summary}
          onChange={(e) => setSummary(e.target.value)}
          slotProps={{ htmlInput: { dir: 'auto' } }}
        />
        {create.isError && !confirming && <Alert severity="error">{errorText(create.error)}</Alert>}
        <Box>
          <Button
            type="submit"
            variant="contained"
            color={created ? 'success' : 'primary'}
            startIcon={created ? <CheckCircleIcon /> : undefined}
            disabled={!canCreate && !created}
            loading={create.isPending}
          >
            {created ? t('importReadList.created') : t('importReadList.create')}
          </Button>
        </Box>
      </Stack>

      {pickingRow && picking?.kind === 'series' && (
        <SeriesPickerDialog
          open
          title={t('importReadList.pickSeries')}
          initialSearch={pickingRow.request.series.at(-1) ?? ''}
          onClose={() => setPicking(null)}
          onSelect={(s) =>
            void pickSeries(pickingRow, {
              seriesId: s.id,
              title: s.metadata.title,
              ...(s.booksMetadata.releaseDate ? { releaseDate: s.booksMetadata.releaseDate } : {}),
            })
          }
        />
      )}
      {pickingRow?.series && picking?.kind === 'book' && (
        <BookPickerDialog
          open
          series={pickingRow.series}
          onClose={() => setPicking(null)}
          onPick={(book) => {
            setPicking(null);
            update(pickingRow.position, { book: chosen(book) });
          }}
        />
      )}
      <ConfirmDialog
        open={confirming}
        title={t('importReadList.confirmTitle')}
        danger={false}
        confirmLabel={t('importReadList.createAnyway')}
        pending={create.isPending}
        error={create.isError ? errorText(create.error) : null}
        onConfirm={send}
        onClose={() => setConfirming(false)}
      >
        {totals.unmatched > 0 && (
          <Typography gutterBottom>
            {t('importReadList.unmatched', { unmatched: totals.unmatched, total: totals.total })}
          </Typography>
        )}
        {totals.duplicates > 0 && (
          <Typography gutterBottom>
            {t('importReadList.duplicated', { duplicates: totals.duplicates, total: totals.total })}
          </Typography>
        )}
      </ConfirmDialog>
      <Snackbar
        open={toastOpen}
        autoHideDuration={10_000}
        onClose={(_, reason) => reason !== 'clickaway' && setToastOpen(false)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          severity="success"
          variant="filled"
          onClose={() => setToastOpen(false)}
          action={
            created && (
              <Button color="inherit" size="small" onClick={() => void navigate(readListPath(created.id))}>
                {t('importReadList.goToReadList')}
              </Button>
            )
          }
        >
          {t('importReadList.createdToast', { name: created?.name ?? '' })}
        </Alert>
      </Snackbar>
    </Stack>
  );
}

interface PickCellProps {
  /** The key of the button's name, which says the row and what the button shows. */
  label: 'importReadList.changeSeries' | 'importReadList.changeBook';
  position: number;
  /** What is chosen; null shows `missing` in a red box. */
  text: string | null;
  missing: string;
  disabled?: boolean;
  onClick: () => void;
}

/** A series or book cell: what is chosen, which opens its picker. */
function PickCell({ label, position, text, missing, disabled, onClick }: PickCellProps) {
  const { t } = useTranslation();
  return (
    <TableCell sx={{ minWidth: 160 }}>
      <Button
        size="small"
        onClick={onClick}
        disabled={disabled}
        color={text ? 'inherit' : 'error'}
        variant={text ? 'text' : 'outlined'}
        sx={{ textTransform: 'none', textAlign: 'start', justifyContent: 'flex-start' }}
        aria-label={t(label, { position, value: text ?? missing })}
        dir="auto"
      >
        {text ?? missing}
      </Button>
    </TableCell>
  );
}

/** Columns left out on phones. */
const wideOnly = { display: { xs: 'none', sm: 'table-cell' } } as const;

const STATUS_ICONS: Record<RowStatus, React.ReactNode> = {
  ok: <CheckCircleIcon color="success" fontSize="small" />,
  noSeries: <ErrorIcon color="error" fontSize="small" />,
  noBook: <ErrorIcon color="error" fontSize="small" />,
  duplicate: <WarningIcon color="warning" fontSize="small" />,
};

interface RowViewProps {
  row: ImportRow;
  status: RowStatus;
  first: boolean;
  last: boolean;
  onPickSeries: () => void;
  onPickBook: () => void;
  onMove: (by: -1 | 1) => void;
}

function RowView({ row, status, first, last, onPickSeries, onPickBook, onMove }: RowViewProps) {
  const { t } = useTranslation();
  const requested = row.request.series[0] ?? '';
  const year = row.series?.releaseDate?.slice(0, 4);
  const statusText = t(`importReadList.status.${status}`);
  return (
    <TableRow
      aria-label={t('importReadList.rowLabel', {
        position: row.position,
        series: requested,
        number: row.request.number,
      })}
    >
      <TableCell>{row.position}</TableCell>
      <TableCell sx={{ minWidth: 140 }} dir="auto">
        {requested}
        {/* Phones have no room for the number's own column: it follows the series. */}
        <Box component="span" sx={{ display: { sm: 'none' } }}>
          {' '}
          {t('importReadList.numberShort', { number: row.request.number })}
        </Box>
      </TableCell>
      <TableCell sx={wideOnly}>{row.request.number}</TableCell>
      <PickCell
        label="importReadList.changeSeries"
        position={row.position}
        onClick={onPickSeries}
        text={
          row.series
            ? year
              ? t('importReadList.titleYear', { title: row.series.title, year })
              : row.series.title
            : null
        }
        missing={t('importReadList.chooseSeries')}
      />
      <PickCell
        label="importReadList.changeBook"
        position={row.position}
        onClick={onPickBook}
        disabled={!row.series}
        text={row.book ? t('importReadList.numberTitle', { number: row.book.number, title: row.book.title }) : null}
        missing={t('importReadList.chooseBook')}
      />
      <TableCell>
        <Tooltip title={statusText}>
          <Box component="span" role="img" aria-label={statusText} sx={{ display: 'inline-flex' }}>
            {STATUS_ICONS[status]}
          </Box>
        </Tooltip>
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        <IconButton
          size="small"
          disabled={first}
          onClick={() => onMove(-1)}
          aria-label={t('importReadList.moveUp', { position: row.position })}
        >
          <ArrowUpwardIcon fontSize="small" />
        </IconButton>
        <IconButton
          size="small"
          disabled={last}
          onClick={() => onMove(1)}
          aria-label={t('importReadList.moveDown', { position: row.position })}
        >
          <ArrowDownwardIcon fontSize="small" />
        </IconButton>
      </TableCell>
    </TableRow>
  );
}

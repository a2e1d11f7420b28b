import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import RemoveIcon from '@mui/icons-material/Remove';
import { useTranslation } from 'react-i18next';
import type { BookDto } from '@quire/api';
import {
  changesOf,
  commonLock,
  initialState,
  isDirty,
  setValue,
  toggleLock,
  type Changes,
  type FormState,
  type Lock,
} from './form-state';
import { dateProblem, isbnProblem, numberSortProblem, required, type MessageKey } from './validation';

/** The per-book fields of the bulk table (ui.md §12.4). */
export interface BookRowValues {
  title: string;
  number: string;
  numberSort: string;
  releaseDate: string;
  isbn: string;
}

export const ROW_FIELDS = ['title', 'number', 'numberSort', 'releaseDate', 'isbn'] as const;
type RowField = (typeof ROW_FIELDS)[number];

export interface BookRow {
  book: BookDto;
  state: FormState<BookRowValues>;
}

export function bookRowsOf(books: BookDto[]): BookRow[] {
  return books.map((book) => {
    const m = book.metadata;
    return {
      book,
      state: initialState<BookRowValues>({
        values: {
          title: m.title,
          number: m.number,
          numberSort: String(m.numberSort),
          releaseDate: m.releaseDate ?? '',
          isbn: m.isbn,
        },
        locks: {
          title: m.titleLock,
          number: m.numberLock,
          numberSort: m.numberSortLock,
          releaseDate: m.releaseDateLock,
          isbn: m.isbnLock,
        },
      }),
    };
  });
}

export function rowProblems(v: BookRowValues): Partial<Record<RowField, MessageKey | null>> {
  return {
    title: required(v.title),
    number: required(v.number),
    numberSort: numberSortProblem(v.numberSort),
    releaseDate: dateProblem(v.releaseDate),
    isbn: isbnProblem(v.isbn),
  };
}

export const rowsInvalid = (rows: BookRow[]) =>
  rows.some((r) => Object.values(rowProblems(r.state.values)).some(Boolean));

export const rowChanges = (row: BookRow): Changes<BookRowValues> =>
  changesOf(row.state, {
    title: (v) => v.trim(),
    number: (v) => v.trim(),
    numberSort: (v) => Number(v),
    releaseDate: (v) => v || null,
    isbn: (v) => v.trim(),
  });

/** "Folder/File.cbz" of a book: enough to tell the rows apart. */
function rowLabel(book: BookDto): string {
  const parts = book.url.split(/[\\/]/).filter(Boolean);
  return parts.slice(-2).join('/') || book.name;
}

/** A sort number shown as a book number: "3" rather than "3.0". */
const numberText = (sort: string) => {
  const n = Number(sort);
  return Number.isFinite(n) ? String(n) : sort;
};

export interface BooksTableProps {
  rows: BookRow[];
  onChange: (rows: BookRow[]) => void;
  showAll: boolean;
}

/**
 * One row per book with title, number, sort number, release date and ISBN, each with its lock; a lock-all toggle per
 * column, "Copy from sort number" for numbers and ±1 for sort numbers.
 */
export function BooksTable({ rows, onChange, showAll }: BooksTableProps) {
  const { t } = useTranslation();
  const labels: Record<RowField, string> = {
    title: t('metadata.fields.title'),
    number: t('metadata.fields.number'),
    numberSort: t('metadata.fields.numberSort'),
    releaseDate: t('metadata.fields.releaseDate'),
    isbn: t('metadata.fields.isbn'),
  };
  const updateAll = (fn: (row: BookRow) => FormState<BookRowValues>) =>
    onChange(rows.map((row) => ({ ...row, state: fn(row) })));
  const updateOne = (index: number, state: FormState<BookRowValues>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, state } : row)));

  const columnLock = (field: RowField): Lock => commonLock(rows.map((r) => r.state.locks[field] === true));
  const toggleColumn = (field: RowField) => {
    const lock = columnLock(field) !== true;
    updateAll((row) => ({ ...row.state, locks: { ...row.state.locks, [field]: lock } }));
  };
  const shiftSort = (delta: number) =>
    updateAll((row) => {
      const n = Number(row.state.values.numberSort);
      if (!Number.isFinite(n) || !row.state.values.numberSort.trim()) return row.state;
      return setValue(row.state, 'numberSort', String(Math.round((n + delta) * 1000) / 1000));
    });
  const copyNumbers = () =>
    updateAll((row) =>
      numberSortProblem(row.state.values.numberSort)
        ? row.state
        : setValue(row.state, 'number', numberText(row.state.values.numberSort)),
    );

  const header = (field: RowField) => {
    const lock = columnLock(field);
    const lockLabel = lock === true ? t('metadata.table.unlockAll') : t('metadata.table.lockAll');
    return (
      <TableCell key={field} sx={{ minWidth: field === 'title' ? 220 : 150 }}>
        <Stack direction="row" sx={{ alignItems: 'center' }}>
          <Tooltip title={lockLabel}>
            <IconButton
              size="small"
              aria-label={`${lockLabel}: ${labels[field]}`}
              aria-pressed={lock === null ? 'mixed' : lock}
              color={lock === true ? 'secondary' : 'default'}
              onClick={() => toggleColumn(field)}
            >
              {lock === null ? (
                <LockOutlinedIcon fontSize="small" />
              ) : lock ? (
                <LockIcon fontSize="small" />
              ) : (
                <LockOpenIcon fontSize="small" />
              )}
            </IconButton>
          </Tooltip>
          <Typography variant="subtitle2" component="span" sx={{ flex: 1 }}>
            {labels[field]}
          </Typography>
          {field === 'number' && (
            <Tooltip title={t('metadata.table.copyFromSort')}>
              <IconButton size="small" aria-label={t('metadata.table.copyFromSort')} onClick={copyNumbers}>
                <ContentCopyIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {field === 'numberSort' && (
            <>
              <Tooltip title={t('metadata.table.decrement')}>
                <IconButton size="small" aria-label={t('metadata.table.decrement')} onClick={() => shiftSort(-1)}>
                  <RemoveIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t('metadata.table.increment')}>
                <IconButton size="small" aria-label={t('metadata.table.increment')} onClick={() => shiftSort(1)}>
                  <AddIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </>
          )}
        </Stack>
      </TableCell>
    );
  };

  return (
    <TableContainer sx={{ maxWidth: '100%' }}>
      <Table size="small" stickyHeader aria-label={t('metadata.tabs.books')}>
        <TableHead>
          <TableRow>{ROW_FIELDS.map(header)}</TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, index) => {
            const label = rowLabel(row.book);
            const problems = rowProblems(row.state.values);
            return (
              <TableRow key={row.book.id} aria-label={label}>
                {ROW_FIELDS.map((field, c) => {
                  const problem = problems[field];
                  const message = problem && (showAll || isDirty(row.state, field)) ? t(problem) : undefined;
                  const lock = row.state.locks[field];
                  const cellName = `${labels[field]} · ${label}`;
                  return (
                    <TableCell key={field} sx={{ verticalAlign: 'top' }}>
                      {c === 0 && (
                        <Typography variant="caption" color="text.secondary" noWrap component="div" dir="auto">
                          {label}
                        </Typography>
                      )}
                      <Stack direction="row" sx={{ alignItems: 'flex-start' }}>
                        <IconButton
                          size="small"
                          aria-label={t('metadata.lock.label', { field: cellName })}
                          aria-pressed={lock === true}
                          color={lock ? 'secondary' : 'default'}
                          onClick={() => updateOne(index, toggleLock(row.state, field))}
                          sx={{ mt: 0.25 }}
                        >
                          {lock ? <LockIcon fontSize="small" /> : <LockOpenIcon fontSize="small" />}
                        </IconButton>
                        <Box sx={{ flex: 1, minWidth: 0 }}>
                          <TextField
                            variant="standard"
                            fullWidth
                            size="small"
                            autoComplete="off"
                            value={row.state.values[field]}
                            error={!!message}
                            helperText={message}
                            onChange={(e) => updateOne(index, setValue(row.state, field, e.target.value))}
                            slotProps={{
                              htmlInput: {
                                'aria-label': cellName,
                                dir: field === 'title' ? undefined : 'ltr',
                                inputMode: field === 'numberSort' ? 'decimal' : undefined,
                                placeholder: field === 'releaseDate' ? 'YYYY-MM-DD' : undefined,
                                maxLength: field === 'releaseDate' ? 10 : undefined,
                              },
                            }}
                          />
                        </Box>
                      </Stack>
                    </TableCell>
                  );
                })}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

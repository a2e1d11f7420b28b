import { Fragment, useState, type ReactElement, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useTranslation } from 'react-i18next';
import type { Page } from '@quire/api';
import { useErrorText } from './dialogs';

export const PAGE_SIZES = [20, 50, 100];

export interface TableSort {
  property: string;
  order: 'asc' | 'desc';
}

/** Spring's `sort` parameter for one order. */
export const sortParam = (s: TableSort) => `${s.property},${s.order}`;

/**
 * A table's paging, order and selection, as the screen keeps them: any change of what is listed (size, order, and
 * the screen's own filters through `restart`) goes back to the first page, and every page change clears the selection.
 */
export function useTableState(defaultSort: TableSort) {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(PAGE_SIZES[0]!);
  const [sort, setSort] = useState(defaultSort);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const restart = () => {
    setPage(0);
    setSelected(new Set());
  };
  return {
    page,
    size,
    sort,
    selected,
    setSelected,
    restart,
    /** Spread into DataTable. */
    paging: {
      page,
      size,
      sort,
      onPage: (p: number) => {
        setPage(p);
        setSelected(new Set());
      },
      onSize: (s: number) => {
        setSize(s);
        restart();
      },
      onSort: (s: TableSort) => {
        setSort(s);
        restart();
      },
    },
  };
}

/** An icon button in a row, named for screen readers after the row's item, with its action as tooltip. */
export function RowAction(props: {
  title: string;
  label: string;
  icon: ReactElement;
  danger?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip title={props.title}>
      <IconButton
        size="small"
        color={props.danger ? 'error' : 'default'}
        aria-label={props.label}
        onClick={props.onClick}
      >
        {props.icon}
      </IconButton>
    </Tooltip>
  );
}

export interface DataColumn<T> {
  key: string;
  label: string;
  /** The server sorts by this property; unsortable when absent. */
  sort?: string;
  render: (row: T) => ReactNode;
  sx?: object;
}

export interface DataTableProps<T> {
  /** The table's accessible name (the id of its heading). */
  labelledBy: string;
  columns: DataColumn<T>[];
  query: {
    data?: Page<T>;
    isPending: boolean;
    isFetching: boolean;
    isPlaceholderData: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  rowKey: (row: T) => string;
  page: number;
  size: number;
  sort: TableSort;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
  onSort: (sort: TableSort) => void;
  empty: string;
  /** Row selection (checkboxes) when given: the ids selected on this page. */
  selection?: {
    selected: ReadonlySet<string>;
    onChange: (selected: Set<string>) => void;
    rowLabel: (row: T) => string;
  };
  /** Drawn above a row (duplicate files: one header per group); return null for none. */
  groupHeader?: (row: T, previous: T | undefined) => ReactNode;
}

/**
 * A list paged and sorted by the server (ui.md §13.6, §13.10): sortable column headers, skeleton rows while the
 * first page loads, the previous page dimmed while the next one does, 20/50/100 rows and a refresh button in the
 * footer. One sort at a time: the server's lists sort by one property first, and a second adds little to a log.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { query, columns, selection } = props;
  const rows = query.data?.content ?? [];
  const allSelected =
    selection !== undefined && rows.length > 0 && rows.every((r) => selection.selected.has(props.rowKey(r)));
  const someSelected = selection !== undefined && rows.some((r) => selection.selected.has(props.rowKey(r)));
  const width = columns.length + (selection ? 1 : 0);

  const sortBy = (property: string) =>
    props.onSort(
      props.sort.property === property
        ? { property, order: props.sort.order === 'asc' ? 'desc' : 'asc' }
        : { property, order: 'asc' },
    );

  if (query.isError)
    return (
      <Alert
        severity="error"
        action={
          <IconButton aria-label={t('common.retry')} color="inherit" onClick={() => void query.refetch()}>
            <RefreshIcon />
          </IconButton>
        }
      >
        {errorText(query.error)}
      </Alert>
    );

  return (
    <Paper variant="outlined">
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table
          size="small"
          aria-labelledby={props.labelledBy}
          aria-busy={query.isFetching || undefined}
          sx={{ opacity: query.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          <TableHead>
            <TableRow>
              {selection && (
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={allSelected}
                    indeterminate={someSelected && !allSelected}
                    disabled={rows.length === 0}
                    onChange={(e) => selection.onChange(e.target.checked ? new Set(rows.map(props.rowKey)) : new Set())}
                    slotProps={{ input: { 'aria-label': t('media.selectPage') } }}
                  />
                </TableCell>
              )}
              {columns.map((c) => {
                const active = c.sort !== undefined && props.sort.property === c.sort;
                return (
                  <TableCell
                    key={c.key}
                    sx={{ whiteSpace: 'nowrap' }}
                    sortDirection={active ? props.sort.order : false}
                  >
                    {c.sort ? (
                      <TableSortLabel
                        active={active}
                        direction={active ? props.sort.order : 'asc'}
                        onClick={() => sortBy(c.sort!)}
                      >
                        {c.label}
                      </TableSortLabel>
                    ) : (
                      c.label
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          </TableHead>
          <TableBody>
            {query.isPending ? (
              [0, 1, 2, 3].map((i) => (
                <TableRow key={i} aria-hidden>
                  {Array.from({ length: width }, (_, j) => (
                    <TableCell key={j}>
                      <Skeleton />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            ) : rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={width}>
                  <Typography color="text.secondary">{props.empty}</Typography>
                </TableCell>
              </TableRow>
            ) : (
              rows.map((row, i) => {
                const key = props.rowKey(row);
                const header = props.groupHeader?.(row, rows[i - 1]);
                return (
                  <Fragment key={key}>
                    {header && (
                      <TableRow>
                        <TableCell colSpan={width} sx={{ bgcolor: 'action.hover' }}>
                          {header}
                        </TableCell>
                      </TableRow>
                    )}
                    <TableRow hover selected={selection?.selected.has(key)}>
                      {selection && (
                        <TableCell padding="checkbox">
                          <Checkbox
                            checked={selection.selected.has(key)}
                            onChange={(e) => {
                              const next = new Set(selection.selected);
                              if (e.target.checked) next.add(key);
                              else next.delete(key);
                              selection.onChange(next);
                            }}
                            slotProps={{ input: { 'aria-label': selection.rowLabel(row) } }}
                          />
                        </TableCell>
                      )}
                      {columns.map((c) => (
                        <TableCell key={c.key} sx={c.sx}>
                          {c.render(row)}
                        </TableCell>
                      ))}
                    </TableRow>
                  </Fragment>
                );
              })
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Box sx={{ pl: 1 }}>
          <Tooltip title={t('media.refresh')}>
            <span>
              <IconButton
                aria-label={t('media.refresh')}
                onClick={() => void query.refetch()}
                disabled={query.isFetching}
              >
                <RefreshIcon />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
        <TablePagination
          component="div"
          count={query.data?.totalElements ?? 0}
          page={query.data ? props.page : 0}
          rowsPerPage={props.size}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_, p) => props.onPage(p)}
          onRowsPerPageChange={(e) => props.onSize(Number(e.target.value))}
          labelRowsPerPage={t('account.rowsPerPage')}
          labelDisplayedRows={({ from, to, count }) => t('account.displayedRows', { from, to, count })}
          getItemAriaLabel={(type) =>
            t(
              type === 'next'
                ? 'account.nextPage'
                : type === 'previous'
                  ? 'account.previousPage'
                  : type === 'first'
                    ? 'account.firstPage'
                    : 'account.lastPage',
            )
          }
        />
      </Stack>
    </Paper>
  );
}

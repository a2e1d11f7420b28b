import { useId, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Paper,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  Tooltip,
  Typography,
} from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import { useTranslation } from 'react-i18next';
import type { AuthenticationActivityDto } from '@quire/api';
import { useAuthenticationActivity, type ActivityPage, type ActivityScope, type ActivitySort } from '../../api/users';
import { useDateTimeFormat, useErrorText } from '../../components/dialogs';

const PAGE_SIZES = [20, 50, 100];
const DEFAULT_SORT: ActivityPage['sort'] = { property: 'dateTime', order: 'desc' };
/** The sources the server records (api.md §2.9); anything else is shown as it comes. */
const KNOWN_SOURCES = ['Password', 'RememberMe', 'ApiKey'];

/** E-mails, addresses and user agents read left to right in any language; the cell still follows the page. */
const ltr = (value: string | null | undefined) => (value ? <span dir="ltr">{value}</span> : '');

interface Column {
  key: string;
  label: string;
  /** The server sorts by this property. */
  sort?: ActivitySort;
  render: (row: AuthenticationActivityDto) => ReactNode;
  sx?: object;
}

/**
 * Authentication activity, paged and sorted by the server (ui.md §13.1, §14): the signed-in user's own (`me`), or
 * every user's with their e-mail (`all`, administrators). Newest first until a column header says otherwise.
 */
export function AuthenticationActivityTable({ scope }: { scope: ActivityScope }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(PAGE_SIZES[0]!);
  const [sort, setSort] = useState(DEFAULT_SORT);
  const activity = useAuthenticationActivity(scope, { page, size, sort });
  const errorText = useErrorText();
  const formatDate = useDateTimeFormat();

  const source = (value: string | null | undefined) =>
    value && KNOWN_SOURCES.includes(value) ? t(`account.activitySources.${value}`) : (value ?? '');
  const columns: Column[] = [
    {
      key: 'date',
      label: t('account.activityDate'),
      sort: 'dateTime',
      render: (row) => formatDate(row.dateTime),
      sx: { whiteSpace: 'nowrap' },
    },
    ...(scope === 'all'
      ? [
          {
            key: 'email',
            label: t('account.email'),
            sort: 'email' as const,
            render: (row: AuthenticationActivityDto) => ltr(row.email),
            sx: { wordBreak: 'break-all', minWidth: 160 },
          },
        ]
      : []),
    {
      key: 'ip',
      label: t('account.activityIp'),
      sort: 'ip',
      render: (row) => ltr(row.ip),
    },
    {
      key: 'userAgent',
      label: t('account.activityUserAgent'),
      sort: 'userAgent',
      render: (row) => ltr(row.userAgent),
      sx: { minWidth: 200, wordBreak: 'break-word' },
    },
    { key: 'source', label: t('account.activitySource'), render: (row) => source(row.source) },
    {
      key: 'success',
      label: t('account.activitySuccess'),
      sort: 'success',
      render: (row) => {
        const label = row.success ? t('account.activitySucceeded') : t('account.activityFailed');
        return (
          <Tooltip title={label}>
            {row.success ? (
              <CheckCircleIcon color="success" titleAccess={label} />
            ) : (
              <ErrorIcon color="error" titleAccess={label} />
            )}
          </Tooltip>
        );
      },
    },
    { key: 'apiKey', label: t('account.activityApiKey'), render: (row) => row.apiKeyComment ?? '' },
    {
      key: 'error',
      label: t('account.activityError'),
      sort: 'error',
      render: (row) => row.error ?? '',
      sx: { wordBreak: 'break-word' },
    },
  ];

  /** A new column starts ascending (dates: newest first); the active one flips. Back to the first page. */
  const sortBy = (property: ActivitySort) => {
    setSort((s) =>
      s.property === property
        ? { property, order: s.order === 'asc' ? 'desc' : 'asc' }
        : { property, order: property === 'dateTime' ? 'desc' : 'asc' },
    );
    setPage(0);
  };

  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('account.authenticationActivity')}
      </Typography>
      {activity.isError ? (
        <Alert severity="error">{errorText(activity.error)}</Alert>
      ) : (
        <Paper variant="outlined">
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table
              size="small"
              aria-labelledby={headingId}
              aria-busy={activity.isFetching || undefined}
              sx={{ opacity: activity.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
            >
              <TableHead>
                <TableRow>
                  {columns.map((c) => {
                    const active = c.sort !== undefined && sort.property === c.sort;
                    return (
                      <TableCell key={c.key} sx={{ whiteSpace: 'nowrap' }} sortDirection={active ? sort.order : false}>
                        {c.sort ? (
                          <TableSortLabel
                            active={active}
                            direction={active ? sort.order : 'asc'}
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
                {activity.isPending ? (
                  [0, 1, 2].map((i) => (
                    <TableRow key={i}>
                      {columns.map((c) => (
                        <TableCell key={c.key}>
                          <Skeleton />
                        </TableCell>
                      ))}
                    </TableRow>
                  ))
                ) : activity.data.content.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={columns.length}>
                      <Typography color="text.secondary">{t('account.noActivity')}</Typography>
                    </TableCell>
                  </TableRow>
                ) : (
                  activity.data.content.map((row, i) => (
                    <TableRow key={`${row.dateTime}-${i}`}>
                      {columns.map((c) => (
                        <TableCell key={c.key} sx={c.sx}>
                          {c.render(row)}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={activity.data?.totalElements ?? 0}
            page={activity.data ? page : 0}
            rowsPerPage={size}
            rowsPerPageOptions={PAGE_SIZES}
            onPageChange={(_, p) => setPage(p)}
            onRowsPerPageChange={(e) => {
              setSize(Number(e.target.value));
              setPage(0);
            }}
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
        </Paper>
      )}
    </Box>
  );
}

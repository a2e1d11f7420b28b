import { useState } from 'react';
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
  Tooltip,
  Typography,
} from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import { useTranslation } from 'react-i18next';
import { useMyAuthenticationActivity } from '../../api/users';
import { useDateTimeFormat, useErrorText } from '../../components/dialogs';

const PAGE_SIZES = [20, 50, 100];

/** The signed-in user's own authentication activity, newest first, paged by the server (ui.md §13.1, §14). */
export function AuthenticationActivityTable() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(PAGE_SIZES[0]!);
  const activity = useMyAuthenticationActivity({ page, size });
  const errorText = useErrorText();
  const formatDate = useDateTimeFormat();
  const columns = [
    t('account.activityDate'),
    t('account.activitySuccess'),
    t('account.activitySource'),
    t('account.activityIp'),
    t('account.activityUserAgent'),
    t('account.activityApiKey'),
    t('account.activityError'),
  ];

  return (
    <Box component="section" aria-labelledby="activity-heading">
      <Typography id="activity-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('account.authenticationActivity')}
      </Typography>
      {activity.isError ? (
        <Alert severity="error">{errorText(activity.error)}</Alert>
      ) : (
        <Paper variant="outlined">
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-labelledby="activity-heading">
              <TableHead>
                <TableRow>
                  {columns.map((c) => (
                    <TableCell key={c} sx={{ whiteSpace: 'nowrap' }}>
                      {c}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {activity.isPending ? (
                  [0, 1, 2].map((i) => (
                    <TableRow key={i}>
                      {columns.map((c) => (
                        <TableCell key={c}>
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
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(row.dateTime)}</TableCell>
                      <TableCell>
                        {row.success ? (
                          <Tooltip title={t('account.activitySucceeded')}>
                            <CheckCircleIcon color="success" titleAccess={t('account.activitySucceeded')} />
                          </Tooltip>
                        ) : (
                          <Tooltip title={t('account.activityFailed')}>
                            <ErrorIcon color="error" titleAccess={t('account.activityFailed')} />
                          </Tooltip>
                        )}
                      </TableCell>
                      <TableCell>{row.source ?? ''}</TableCell>
                      <TableCell dir="ltr" sx={{ textAlign: 'start' }}>
                        {row.ip ?? ''}
                      </TableCell>
                      <TableCell sx={{ minWidth: 200, wordBreak: 'break-word' }}>{row.userAgent ?? ''}</TableCell>
                      <TableCell>{row.apiKeyComment ?? ''}</TableCell>
                      <TableCell>{row.error ?? ''}</TableCell>
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

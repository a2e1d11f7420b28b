import { useId } from 'react';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useTaskOverview } from '../../../api/tasks';
import { useErrorText } from '../../../components/dialogs';

/**
 * The server's task queue (admins): how many tasks of each type wait and how many run, refreshed every two seconds
 * (Quire's `GET /api/v1/tasks/overview`). Cancelling the queue is the app bar's task indicator.
 */
export function TasksPage() {
  const { t } = useTranslation();
  const headingId = useId();
  const overview = useTaskOverview();
  const errorText = useErrorText();
  const typeLabel = (type: string) => t(`libraries.taskTypes.${type}`, { defaultValue: type });
  const data = overview.data;

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography id={headingId} variant="h5" component="h1">
        {t('tasks.title')}
      </Typography>
      {overview.isError ? (
        <Alert severity="error">{errorText(overview.error)}</Alert>
      ) : (
        <>
          <Typography aria-live="polite">
            {data ? t('tasks.summary', { queued: data.queued, running: data.running }) : <Skeleton width={240} />}
          </Typography>
          <Paper variant="outlined">
            <TableContainer>
              <Table size="small" aria-labelledby={headingId}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('tasks.columns.type')}</TableCell>
                    <TableCell align="right">{t('tasks.columns.queued')}</TableCell>
                    <TableCell align="right">{t('tasks.columns.running')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {!data ? (
                    [0, 1, 2].map((i) => (
                      <TableRow key={i} aria-hidden>
                        {[0, 1, 2].map((j) => (
                          <TableCell key={j}>
                            <Skeleton />
                          </TableCell>
                        ))}
                      </TableRow>
                    ))
                  ) : data.byType.length === 0 ? (
                    <TableRow>
                      <TableCell colSpan={3}>
                        <Typography color="text.secondary">{t('tasks.empty')}</Typography>
                      </TableCell>
                    </TableRow>
                  ) : (
                    data.byType.map((row) => (
                      <TableRow key={row.type}>
                        <TableCell component="th" scope="row">
                          {typeLabel(row.type)}
                        </TableCell>
                        <TableCell align="right">{row.queued}</TableCell>
                        <TableCell align="right">{row.running}</TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </TableContainer>
          </Paper>
        </>
      )}
    </Stack>
  );
}

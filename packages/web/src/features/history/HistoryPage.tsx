import { useId, useState, type ReactElement } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArchiveIcon from '@mui/icons-material/Archive';
import FolderOffIcon from '@mui/icons-material/FolderOff';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import InputIcon from '@mui/icons-material/Input';
import LayersClearIcon from '@mui/icons-material/LayersClear';
import NoteRemoveIcon from '@mui/icons-material/DeleteForever';
import { useTranslation } from 'react-i18next';
import type { HistoricalEventDto } from '@quire/api';
import { HISTORICAL_EVENT_TYPES, type HistoricalEventType } from '@quire/api/constants';
import { bookQueries } from '../../api/books';
import { seriesQueries } from '../../api/series';
import { historyDate, useHistory } from '../../api/history';
import { bookPath } from '../media/bookColumns';
import { DataTable, RowAction, sortParam, useTableState, type DataColumn } from '../../components/DataTable';
import { useDateTimeFormat, useFullScreenDialog } from '../../components/dialogs';

const ICONS: Record<HistoricalEventType, ReactElement> = {
  BookFileDeleted: <NoteRemoveIcon fontSize="small" />,
  SeriesFolderDeleted: <FolderOffIcon fontSize="small" />,
  DuplicatePageDeleted: <LayersClearIcon fontSize="small" />,
  BookConverted: <ArchiveIcon fontSize="small" />,
  BookImported: <InputIcon fontSize="small" />,
};
const isKnownType = (type: string): type is HistoricalEventType =>
  (HISTORICAL_EVENT_TYPES as readonly string[]).includes(type);

/** The property names the server records (engine.md §11.5); another one is shown as it comes. */
const PROPERTY_KEYS: Record<string, string> = {
  name: 'name',
  reason: 'reason',
  'former file': 'formerFile',
  source: 'source',
  upgrade: 'upgrade',
  'page number': 'pageNumber',
  'page file name': 'pageFileName',
  'page file hash': 'pageFileHash',
  'page file size': 'pageFileSize',
  'page media type': 'pageMediaType',
};

/** Where a series or book still exists: its title and page; null once it is gone (or hidden), undefined meanwhile. */
type Resolved = { title: string; to: string } | null | undefined;

function useSeriesName(id: string | undefined): Resolved {
  const q = useQuery({ ...seriesQueries.detail(id ?? ''), enabled: !!id, retry: false });
  if (q.isPending) return undefined;
  return q.data ? { title: q.data.metadata.title, to: `/${q.data.oneshot ? 'oneshot' : 'series'}/${q.data.id}` } : null;
}

function useBookName(id: string | undefined): Resolved {
  const q = useQuery({ ...bookQueries.detail(id ?? ''), enabled: !!id, retry: false });
  if (q.isPending) return undefined;
  return q.data ? { title: q.data.metadata.title, to: bookPath(q.data) } : null;
}

/** A series or book named by its title while it exists (a link), by its id once it is gone (ui.md §13.10). */
function ItemCell({ id, resolved }: { id?: string; resolved: Resolved }) {
  if (!id) return null;
  if (resolved === undefined) return <Skeleton width={120} />;
  if (resolved === null)
    return (
      <Typography variant="body2" component="span" color="text.secondary" dir="ltr">
        {id}
      </Typography>
    );
  return (
    <Link component={RouterLink} to={resolved.to}>
      {resolved.title}
    </Link>
  );
}

const SeriesCell = ({ id }: { id?: string }) => <ItemCell id={id} resolved={useSeriesName(id)} />;
const BookCell = ({ id }: { id?: string }) => <ItemCell id={id} resolved={useBookName(id)} />;

/**
 * History (ui.md §13.10): what happened to files on disk, newest first, for every user (the server shows each user
 * the events of what he may see). Filters by type; series and books link to their pages while they exist.
 */
export function HistoryPage() {
  const { t } = useTranslation();
  const headingId = useId();
  const fullScreen = useFullScreenDialog();
  const formatDate = useDateTimeFormat();
  const [types, setTypes] = useState<HistoricalEventType[]>([]);
  const table = useTableState({ property: 'timestamp', order: 'desc' });
  const [details, setDetails] = useState<HistoricalEventDto | null>(null);
  const history = useHistory({ page: table.page, size: table.size, sort: [sortParam(table.sort)], types });

  const typeLabel = (type: string) => (isKnownType(type) ? t(`history.types.${type}`) : type);
  const propertyLabel = (key: string) => (key in PROPERTY_KEYS ? t(`history.properties.${PROPERTY_KEYS[key]}`) : key);
  const toggle = (type: HistoricalEventType) => {
    setTypes((current) => (current.includes(type) ? current.filter((x) => x !== type) : [...current, type]));
    table.restart();
  };

  const columns: DataColumn<HistoricalEventDto>[] = [
    {
      key: 'type',
      label: t('history.columns.type'),
      sort: 'type',
      render: (e) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {isKnownType(e.type) && (
            <Tooltip title={typeLabel(e.type)}>
              <Box component="span" sx={{ display: 'inline-flex', color: 'text.secondary' }} aria-hidden>
                {ICONS[e.type]}
              </Box>
            </Tooltip>
          )}
          <span>{typeLabel(e.type)}</span>
        </Stack>
      ),
      sx: { whiteSpace: 'nowrap' },
    },
    {
      key: 'series',
      label: t('history.columns.series'),
      sort: 'seriesId',
      render: (e) => <SeriesCell id={e.seriesId} />,
    },
    {
      key: 'book',
      label: t('history.columns.book'),
      sort: 'bookId',
      render: (e) => <BookCell id={e.bookId} />,
    },
    {
      key: 'date',
      label: t('history.columns.date'),
      sort: 'timestamp',
      render: (e) => formatDate(historyDate(e.timestamp)),
      sx: { whiteSpace: 'nowrap' },
    },
    {
      key: 'details',
      label: t('history.columns.details'),
      render: (e) => (
        <RowAction
          title={t('history.showDetails')}
          label={t('history.showDetailsOf', { type: typeLabel(e.type) })}
          icon={<InfoOutlinedIcon fontSize="small" />}
          onClick={() => setDetails(e)}
        />
      ),
    },
  ];

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography id={headingId} variant="h5" component="h1">
        {t('history.title')}
      </Typography>
      <Stack
        direction="row"
        spacing={1}
        sx={{ flexWrap: 'wrap', rowGap: 1 }}
        role="group"
        aria-label={t('history.typeFilter')}
      >
        {HISTORICAL_EVENT_TYPES.map((type) => {
          const on = types.includes(type);
          return (
            <Chip
              key={type}
              icon={ICONS[type]}
              label={typeLabel(type)}
              color={on ? 'primary' : 'default'}
              variant={on ? 'filled' : 'outlined'}
              onClick={() => toggle(type)}
              aria-pressed={on}
            />
          );
        })}
      </Stack>
      <DataTable
        labelledBy={headingId}
        columns={columns}
        query={history}
        rowKey={(e) => e.id}
        {...table.paging}
        empty={t('history.empty')}
      />
      <Dialog open={details !== null} onClose={() => setDetails(null)} fullScreen={fullScreen} fullWidth maxWidth="sm">
        <DialogTitle>{details ? typeLabel(details.type) : ''}</DialogTitle>
        <DialogContent>
          <Table size="small" aria-label={t('history.columns.details')}>
            <TableBody>
              {Object.entries(details?.properties ?? {}).map(([key, value]) => (
                <TableRow key={key}>
                  <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                    {propertyLabel(key)}
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>
                    <span dir="ltr">{value}</span>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDetails(null)}>{t('common.close')}</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}

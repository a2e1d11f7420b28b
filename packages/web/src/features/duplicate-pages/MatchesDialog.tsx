import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import CheckIcon from '@mui/icons-material/Check';
import DeleteIcon from '@mui/icons-material/Delete';
import { useTranslation } from 'react-i18next';
import { FilePath } from '../../components/FilePath';
import { usePageHashMatches, useDeleteMatch, type PageHashMatchDto } from '../../api/page-hashes';
import { pageThumbnailUrl } from '../../api/reader';
import { DataTable, sortParam, type DataColumn, type TableSort } from '../../components/DataTable';
import { useErrorText, useFullScreenDialog } from '../../components/dialogs';

const DEFAULT_SORT: TableSort = { property: 'url', order: 'asc' };
const keyOf = (m: PageHashMatchDto) => `${m.bookId}/${m.pageNumber}`;

/** The pages holding a hash (ui.md §13.7): book file, entry, page number and thumbnail, each deletable. */
export function MatchesDialog({ hash, onClose }: { hash: string; onClose: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const fullScreen = useFullScreenDialog();
  const errorText = useErrorText();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const [sort, setSort] = useState(DEFAULT_SORT);
  const [requested, setRequested] = useState<ReadonlySet<string>>(new Set());
  const matches = usePageHashMatches(hash, { page, size, sort: [sortParam(sort)] });
  const remove = useDeleteMatch();

  const columns: DataColumn<PageHashMatchDto>[] = [
    {
      key: 'url',
      label: t('duplicates.columns.url'),
      sort: 'url',
      render: (m) => <FilePath path={m.url} />,
      sx: { minWidth: 200 },
    },
    {
      key: 'fileName',
      label: t('duplicates.columns.fileName'),
      sort: 'fileName',
      render: (m) => <FilePath path={m.fileName} />,
    },
    { key: 'page', label: t('duplicates.columns.pageNumber'), sort: 'pageNumber', render: (m) => m.pageNumber },
    {
      key: 'thumbnail',
      label: t('duplicates.columns.page'),
      render: (m) => (
        <Box
          component="img"
          src={pageThumbnailUrl(m.bookId, m.pageNumber)}
          alt={t('duplicates.pageNumberOf', { page: m.pageNumber, name: m.fileName })}
          loading="lazy"
          sx={{ display: 'block', maxWidth: 100, maxHeight: 150 }}
        />
      ),
    },
    {
      key: 'delete',
      label: '',
      render: (m) =>
        requested.has(keyOf(m)) ? (
          <CheckIcon color="success" aria-label={t('duplicates.deletionRequested')} />
        ) : (
          <Tooltip title={t('duplicates.deleteMatch')}>
            <IconButton
              color="error"
              size="small"
              aria-label={t('duplicates.deleteMatchOf', { page: m.pageNumber, url: m.url })}
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate({ hash, match: m }, { onSuccess: () => setRequested((r) => new Set(r).add(keyOf(m))) })
              }
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ),
    },
  ];

  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} maxWidth="lg" fullWidth aria-labelledby={headingId}>
      <DialogTitle id={headingId}>{t('duplicates.matchesTitle')}</DialogTitle>
      <DialogContent>
        {remove.isError && (
          <Box role="alert" sx={{ color: 'error.main', mb: 1 }}>
            {errorText(remove.error)}
          </Box>
        )}
        <DataTable
          labelledBy={headingId}
          columns={columns}
          query={matches}
          rowKey={keyOf}
          page={page}
          size={size}
          sort={sort}
          onPage={setPage}
          onSize={(s) => {
            setSize(s);
            setPage(0);
          }}
          onSort={(s) => {
            setSort(s);
            setPage(0);
          }}
          empty={t('duplicates.noMatches')}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

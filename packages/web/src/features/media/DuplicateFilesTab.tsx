import { useId, useState } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { useTranslation } from 'react-i18next';
import type { BookDto } from '@quire/api';
import { useDuplicateBooks } from '../../api/books';
import { DataTable, RowAction, sortParam, useTableState, type DataColumn } from '../../components/DataTable';
import { useDateTimeFormat } from '../../components/dialogs';
import { DeleteBooksDialog } from '../items/DeleteDialogs';
import { BookLink, UnavailableChip, useLibraryNames } from './bookColumns';
import { FilePath } from '../../components/FilePath';

/**
 * Duplicate files (ui.md §13.6): books whose files have the same hash and size, grouped by hash (the list is always
 * ordered by hash first, so a group never splits but across pages). Deleting one removes its file from disk after
 * confirmation; the history records it.
 */
export function DuplicateFilesTab() {
  const { t } = useTranslation();
  const headingId = useId();
  const table = useTableState({ property: 'url', order: 'asc' });
  // The book stays while the dialog closes, so its text does not change under the closing animation.
  const [toDelete, setToDelete] = useState<{ book: BookDto; open: boolean } | null>(null);
  const libraryName = useLibraryNames();
  const formatDate = useDateTimeFormat();
  const books = useDuplicateBooks({
    page: table.page,
    size: table.size,
    sort: ['fileHash,asc', sortParam(table.sort)],
  });

  const columns: DataColumn<BookDto>[] = [
    { key: 'book', label: t('media.columns.book'), sort: 'name', render: (b) => <BookLink book={b} /> },
    {
      key: 'url',
      label: t('media.columns.url'),
      sort: 'url',
      render: (b) => <FilePath path={b.url} />,
      sx: { minWidth: 200 },
    },
    { key: 'library', label: t('media.columns.library'), render: (b) => libraryName(b.libraryId) },
    { key: 'size', label: t('media.columns.size'), render: (b) => b.size, sx: { whiteSpace: 'nowrap' } },
    {
      key: 'added',
      label: t('media.columns.added'),
      render: (b) => formatDate(b.created),
      sx: { whiteSpace: 'nowrap' },
    },
    { key: 'unavailable', label: '', render: (b) => <UnavailableChip book={b} label={t('media.unavailable')} /> },
    {
      key: 'actions',
      label: '',
      render: (b) => (
        <RowAction
          title={t('media.deleteFile')}
          label={t('media.deleteFileOf', { name: b.metadata.title || b.name })}
          icon={<DeleteIcon fontSize="small" />}
          danger
          onClick={() => setToDelete({ book: b, open: true })}
        />
      ),
    },
  ];

  return (
    <Stack spacing={2}>
      <Typography id={headingId} variant="h6" component="h2">
        {t('media.duplicateFilesHeading')}
      </Typography>
      <DataTable
        labelledBy={headingId}
        columns={columns}
        query={books}
        rowKey={(b) => b.id}
        {...table.paging}
        empty={t('media.noDuplicates')}
        groupHeader={(b, previous) =>
          previous?.fileHash === b.fileHash ? null : (
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              {t('media.duplicateGroup', { hash: b.fileHash, size: b.size })}
            </Typography>
          )
        }
      />
      {toDelete && (
        <DeleteBooksDialog
          open={toDelete.open}
          books={[toDelete.book]}
          onClose={() => setToDelete({ ...toDelete, open: false })}
        />
      )}
    </Stack>
  );
}

import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import DialogContentText from '@mui/material/DialogContentText';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import BookmarkAddedIcon from '@mui/icons-material/BookmarkAdded';
import BookmarkRemoveIcon from '@mui/icons-material/BookmarkRemove';
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import LibraryAddIcon from '@mui/icons-material/LibraryAdd';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import SelectAllIcon from '@mui/icons-material/SelectAll';
import { useTranslation } from 'react-i18next';
import type { BookDto, CollectionDto, ReadListDto, SeriesDto } from '@quire/api';
import {
  PartialFailureError,
  useDeleteCollection,
  useDeleteReadList,
  useMarkBooksRead,
  useMarkSeriesRead,
} from '../../api/actions';
import { useIsAdmin } from '../../api/auth';
import { DeleteBooksDialog, DeleteSeriesDialog, showItemToast } from '../../features/items';
import { ConfirmDialog, useErrorText } from '../dialogs';
import { useItemDialogs, type ItemDialogs } from './dialogs';
import { selectedOf, type Selection, type SelectionKind, type SelectableItems } from './selection';

/** Top of sticky bars: right under the fixed app bar (56 px on phones, 48 in landscape, 64 above). */
export const STICKY_TOP = {
  top: 56,
  '@media (orientation: landscape)': { top: 48 },
  '@media (min-width: 600px)': { top: 64 },
} as const;

interface Action {
  key: string;
  label: string;
  icon: ReactNode;
  onClick: () => void;
  danger?: boolean;
}

export interface SelectionBarProps {
  selection: Selection;
  /** The items of the page on screen: enables "Select page". */
  page?: { [K in SelectionKind]: { kind: K; items: readonly SelectableItems[K][] } }[SelectionKind];
  /** The screen's dialogs (edit, add to), when it already hosts them for its cards' pencils. */
  dialogs?: ItemDialogs;
}

/**
 * The bar that replaces a screen's toolbar while items are selected (ui.md §2.3): deselect, select page, count, and
 * the bulk actions of the selected kind. Admin-only actions are left out for everyone else.
 */
export function SelectionBar({ selection, page, dialogs: given }: SelectionBarProps) {
  const { t } = useTranslation();
  const admin = useIsAdmin();
  const errorText = useErrorText();
  const own = useItemDialogs();
  const dialogs = given ?? own;
  const markBooks = useMarkBooksRead();
  const markSeries = useMarkSeriesRead();
  const deleteCollection = useDeleteCollection();
  const deleteReadList = useDeleteReadList();
  const [confirm, setConfirm] = useState<
    | { kind: 'books'; items: BookDto[] }
    | { kind: 'series'; items: SeriesDto[] }
    | { kind: 'collections'; items: CollectionDto[] }
    | { kind: 'readlists'; items: ReadListDto[] }
    | null
  >(null);
  const [deleting, setDeleting] = useState<{ pending: boolean; error: string | null }>({
    pending: false,
    error: null,
  });

  const done = (text: string) => {
    showItemToast(text);
    selection.clear();
  };
  const failed = (e: unknown) =>
    showItemToast(errorText(e instanceof PartialFailureError ? e.failures[0]!.error : e), 'error');

  const books = selectedOf(selection, 'book');
  const series = selectedOf(selection, 'series');
  const collections = selectedOf(selection, 'collection');
  const readLists = selectedOf(selection, 'readlist');
  const count = selection.count;

  const actions: Action[] = [];
  if (selection.kind === 'book' || selection.kind === 'series') {
    const mark = (read: boolean) => () => {
      const onSuccess = () =>
        done(t(read ? 'browse.selection.markedRead' : 'browse.selection.markedUnread', { count }));
      if (selection.kind === 'book')
        markBooks.mutate({ bookIds: books.map((b) => b.id), read }, { onSuccess, onError: failed });
      else markSeries.mutate({ seriesIds: series.map((s) => s.id), read }, { onSuccess, onError: failed });
    };
    actions.push(
      { key: 'read', label: t('browse.selection.markRead'), icon: <BookmarkAddedIcon />, onClick: mark(true) },
      { key: 'unread', label: t('browse.selection.markUnread'), icon: <BookmarkRemoveIcon />, onClick: mark(false) },
    );
  }
  if (admin && selection.kind === 'series') {
    actions.push(
      {
        key: 'collection',
        label: t('browse.selection.addToCollection'),
        icon: <LibraryAddIcon />,
        onClick: () => dialogs.addToCollection(series.map((s) => s.id)),
      },
      {
        key: 'readlist',
        label: t('browse.selection.addToReadList'),
        icon: <PlaylistAddIcon />,
        onClick: () => dialogs.addSeriesToReadList(series.map((s) => s.id)),
      },
      {
        key: 'edit',
        label: t('browse.selection.edit'),
        icon: <EditIcon />,
        onClick: () => dialogs.editSeries(series),
      },
      {
        key: 'delete',
        label: t('browse.selection.delete'),
        icon: <DeleteIcon />,
        danger: true,
        onClick: () => setConfirm({ kind: 'series', items: series }),
      },
    );
  }
  if (admin && selection.kind === 'book') {
    // A one-shot is its own series: only those can go into a collection.
    if (books.every((b) => b.oneshot))
      actions.push({
        key: 'collection',
        label: t('browse.selection.addToCollection'),
        icon: <LibraryAddIcon />,
        onClick: () => dialogs.addToCollection([...new Set(books.map((b) => b.seriesId))]),
      });
    actions.push(
      {
        key: 'readlist',
        label: t('browse.selection.addToReadList'),
        icon: <PlaylistAddIcon />,
        onClick: () => dialogs.addToReadList(books.map((b) => b.id)),
      },
      { key: 'edit', label: t('browse.selection.edit'), icon: <EditIcon />, onClick: () => dialogs.editBooks(books) },
      {
        key: 'delete',
        label: t('browse.selection.delete'),
        icon: <DeleteIcon />,
        danger: true,
        onClick: () => setConfirm({ kind: 'books', items: books }),
      },
    );
  }
  if (admin && selection.kind === 'collection')
    actions.push({
      key: 'delete',
      label: t('browse.selection.delete'),
      icon: <DeleteIcon />,
      danger: true,
      onClick: () => setConfirm({ kind: 'collections', items: collections }),
    });
  if (admin && selection.kind === 'readlist')
    actions.push({
      key: 'delete',
      label: t('browse.selection.delete'),
      icon: <DeleteIcon />,
      danger: true,
      onClick: () => setConfirm({ kind: 'readlists', items: readLists }),
    });

  const deleteLists = async () => {
    if (confirm?.kind !== 'collections' && confirm?.kind !== 'readlists') return;
    setDeleting({ pending: true, error: null });
    const results = await Promise.allSettled(
      confirm.kind === 'collections'
        ? confirm.items.map((c) => deleteCollection.mutateAsync(c.id))
        : confirm.items.map((r) => deleteReadList.mutateAsync(r.id)),
    );
    const failure = results.find((r) => r.status === 'rejected');
    if (failure) {
      setDeleting({ pending: false, error: errorText(failure.reason) });
      return;
    }
    setDeleting({ pending: false, error: null });
    const n = confirm.items.length;
    setConfirm(null);
    done(
      t(confirm.kind === 'collections' ? 'browse.selection.collectionsDeleted' : 'browse.selection.readListsDeleted', {
        count: n,
      }),
    );
  };

  const pageItems = page?.items ?? [];
  const canSelectPage =
    !!page &&
    pageItems.length > 0 &&
    (page.kind === 'book' || page.kind === 'series' || admin) &&
    count < pageItems.length;

  return (
    <>
      {given ? null : own.element}
      {count > 0 && (
        <Paper
          elevation={5}
          square
          role="toolbar"
          aria-label={t('browse.selection.toolbar')}
          sx={{
            position: 'sticky',
            ...STICKY_TOP,
            zIndex: (th) => th.zIndex.appBar - 1,
            display: 'flex',
            alignItems: 'center',
            gap: 0.5,
            px: { xs: 1, sm: 2 },
            minHeight: 56,
            overflowX: 'auto',
          }}
        >
          <Tooltip title={t('browse.selection.clear')}>
            <IconButton aria-label={t('browse.selection.clear')} onClick={selection.clear} edge="start">
              <CloseIcon />
            </IconButton>
          </Tooltip>
          <Typography sx={{ flexShrink: 0, mx: 1 }} aria-live="polite">
            {t('browse.selection.count', { count })}
          </Typography>
          {canSelectPage && (
            <Tooltip title={t('browse.selection.selectPage')}>
              <IconButton
                aria-label={t('browse.selection.selectPage')}
                onClick={() => selection.selectAll(page.kind, page.items as never)}
              >
                <SelectAllIcon />
              </IconButton>
            </Tooltip>
          )}
          <Box sx={{ flex: 1 }} />
          {actions.map((a) => (
            <Tooltip key={a.key} title={a.label}>
              <IconButton aria-label={a.label} onClick={a.onClick} color={a.danger ? 'error' : 'default'}>
                {a.icon}
              </IconButton>
            </Tooltip>
          ))}
        </Paper>
      )}
      {confirm?.kind === 'books' && (
        <DeleteBooksDialog
          open
          books={confirm.items}
          onClose={() => setConfirm(null)}
          onDeleted={() => selection.clear()}
        />
      )}
      {confirm?.kind === 'series' && (
        <DeleteSeriesDialog
          open
          series={confirm.items}
          onClose={() => setConfirm(null)}
          onDeleted={() => selection.clear()}
        />
      )}
      {(confirm?.kind === 'collections' || confirm?.kind === 'readlists') && (
        <ConfirmDialog
          open
          title={t(
            confirm.kind === 'collections'
              ? 'browse.selection.deleteCollectionsTitle'
              : 'browse.selection.deleteReadListsTitle',
            { count: confirm.items.length },
          )}
          confirmLabel={t('browse.selection.delete')}
          pending={deleting.pending}
          error={deleting.error}
          onConfirm={() => void deleteLists()}
          onClose={() => {
            setDeleting({ pending: false, error: null });
            setConfirm(null);
          }}
        >
          <DialogContentText>
            {t(
              confirm.kind === 'collections'
                ? 'browse.selection.deleteCollectionsMessage'
                : 'browse.selection.deleteReadListsMessage',
              {
                count: confirm.items.length,
                names: confirm.items.map((i) => i.name).join(', '),
              },
            )}
          </DialogContentText>
        </ConfirmDialog>
      )}
    </>
  );
}

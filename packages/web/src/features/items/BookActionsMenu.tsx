import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { IconButtonProps } from '@mui/material/IconButton';
import AnalyticsIcon from '@mui/icons-material/Analytics';
import BookmarkAddedIcon from '@mui/icons-material/BookmarkAdded';
import BookmarkRemoveIcon from '@mui/icons-material/BookmarkRemove';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import LibraryAddIcon from '@mui/icons-material/LibraryAdd';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import RefreshIcon from '@mui/icons-material/Refresh';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { useQuery } from '@tanstack/react-query';
import type { BookDto } from '@quire/api';
import {
  bookFileUrl,
  useAnalyzeBooks,
  useMarkBooksRead,
  useRefreshBooksMetadata,
  useRefreshSeriesMetadata,
} from '../../api/actions';
import { seriesQueries } from '../../api/series';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { isRead, isReadable, useLibraryUnavailable } from './availability';
import { DeleteBooksDialog } from './DeleteDialogs';
import { AddToCollectionDialog, AddToReadListDialog, EditBooksDialog, EditOneshotDialog } from './dialogs';
import { useActionErrorText } from './errors';
import { readerPath } from './readerPath';
import { useRoles } from './roles';
import { showItemToast } from './toast';

export interface BookActionsMenuProps {
  book: BookDto;
  /** Reading from a read list: the reader follows the list. */
  context?: { type: 'readlist'; id: string };
  /** After the book was deleted (a detail page leaves). */
  onDeleted?: () => void;
  size?: IconButtonProps['size'];
  color?: IconButtonProps['color'];
}

type BookDialog = 'edit' | 'delete' | 'addToReadList' | 'addToCollection';

/**
 * The ⋮ menu of a book (ui.md §2.4): read, read incognito, mark read/unread, download for everyone allowed;
 * add to a read list (and to a collection for a one-shot), edit, analyze, refresh metadata and delete for admins.
 */
export function BookActionsMenu({ book, context, onDeleted, size, color }: BookActionsMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const roles = useRoles();
  const unavailable = useLibraryUnavailable(book.libraryId);
  const errorText = useActionErrorText();
  const [dialog, setDialog] = useState<{ kind: BookDialog; open: boolean } | null>(null);
  const markRead = useMarkBooksRead();
  const analyze = useAnalyzeBooks();
  const refreshBook = useRefreshBooksMetadata();
  const refreshSeries = useRefreshSeriesMetadata();
  // The one-shot editor edits the series too.
  const series = useQuery({
    ...seriesQueries.detail(book.seriesId),
    enabled: book.oneshot && roles.admin && dialog?.kind === 'edit',
  });

  const title = book.metadata.title;
  const open = (kind: BookDialog) => setDialog({ kind, open: true });
  const close = () => setDialog((d) => d && { ...d, open: false });
  const fail = (e: unknown) => showItemToast(errorText(e), 'error');
  const readable = roles.streaming && isReadable(book, unavailable);

  const actions: MenuAction[] = [];
  if (readable) {
    actions.push(
      {
        key: 'read',
        label: t('items.actions.read'),
        icon: <MenuBookIcon />,
        onSelect: () => void navigate(readerPath(book, { context })),
      },
      {
        key: 'incognito',
        label: t('items.actions.readIncognito'),
        icon: <VisibilityOffIcon />,
        onSelect: () => void navigate(readerPath(book, { context, incognito: true })),
      },
    );
  }
  if (!isRead(book))
    actions.push({
      key: 'markRead',
      label: t('items.actions.markRead'),
      icon: <BookmarkAddedIcon />,
      onSelect: () => markRead.mutate({ bookIds: [book.id], read: true }, { onError: fail }),
    });
  if (book.readProgress)
    actions.push({
      key: 'markUnread',
      label: t('items.actions.markUnread'),
      icon: <BookmarkRemoveIcon />,
      onSelect: () => markRead.mutate({ bookIds: [book.id], read: false }, { onError: fail }),
    });
  if (roles.admin) {
    actions.push({
      key: 'addToReadList',
      label: t('items.actions.addToReadList'),
      icon: <PlaylistAddIcon />,
      onSelect: () => open('addToReadList'),
    });
    if (book.oneshot)
      actions.push({
        key: 'addToCollection',
        label: t('items.actions.addToCollection'),
        icon: <LibraryAddIcon />,
        onSelect: () => open('addToCollection'),
      });
    actions.push(
      { key: 'edit', label: t('items.actions.edit'), icon: <EditIcon />, onSelect: () => open('edit') },
      {
        key: 'analyze',
        label: t('items.actions.analyze'),
        icon: <AnalyticsIcon />,
        dividerBefore: true,
        onSelect: () =>
          analyze.mutate(
            { ids: [book.id] },
            { onSuccess: () => showItemToast(t('items.toast.analyzeQueued', { name: title })), onError: fail },
          ),
      },
      {
        key: 'refresh',
        label: t('items.actions.refreshMetadata'),
        icon: <RefreshIcon />,
        onSelect: () => {
          const done = () => showItemToast(t('items.toast.refreshQueued', { name: title }));
          refreshBook.mutate(
            { ids: [book.id] },
            {
              // A one-shot's series metadata comes from its book too.
              onSuccess: () =>
                book.oneshot
                  ? refreshSeries.mutate({ ids: [book.seriesId] }, { onSuccess: done, onError: fail })
                  : done(),
              onError: fail,
            },
          );
        },
      },
    );
  }
  if (roles.download && !book.deleted && !unavailable)
    actions.push({
      key: 'download',
      label: t('items.actions.download'),
      icon: <DownloadIcon />,
      href: bookFileUrl(book.id),
      dividerBefore: !roles.admin,
    });
  if (roles.admin)
    actions.push({
      key: 'delete',
      label: t('items.actions.delete'),
      icon: <DeleteIcon />,
      danger: true,
      dividerBefore: true,
      onSelect: () => open('delete'),
    });

  return (
    <>
      <ActionsMenu label={t('items.actions.menu', { title })} actions={actions} size={size} color={color} />
      {dialog?.kind === 'delete' && (
        <DeleteBooksDialog open={dialog.open} books={[book]} onClose={close} onDeleted={onDeleted} />
      )}
      {dialog?.kind === 'addToReadList' && (
        <AddToReadListDialog open={dialog.open} bookIds={[book.id]} onClose={close} />
      )}
      {dialog?.kind === 'addToCollection' && (
        <AddToCollectionDialog open={dialog.open} seriesIds={[book.seriesId]} onClose={close} />
      )}
      {dialog?.kind === 'edit' &&
        (book.oneshot ? (
          series.data && <EditOneshotDialog open={dialog.open} series={series.data} book={book} onClose={close} />
        ) : (
          <EditBooksDialog open={dialog.open} books={[book]} onClose={close} />
        ))}
    </>
  );
}

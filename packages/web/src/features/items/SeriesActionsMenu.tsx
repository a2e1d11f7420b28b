import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
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
import type { SeriesDto } from '@quire/api';
import {
  bookFileUrl,
  fetchSeriesBooks,
  oneshotBookQuery,
  seriesFileUrl,
  useAnalyzeSeries,
  useMarkSeriesRead,
  useRefreshBooksMetadata,
  useRefreshSeriesMetadata,
} from '../../api/actions';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { isReadable, useLibraryUnavailable } from './availability';
import { DeleteSeriesDialog } from './DeleteDialogs';
import { AddToCollectionDialog, AddToReadListDialog, EditOneshotDialog, EditSeriesDialog } from './dialogs';
import { useActionErrorText } from './errors';
import { readerPath } from './readerPath';
import { useRoles } from './roles';
import { showItemToast } from './toast';

export interface SeriesActionsMenuProps {
  series: SeriesDto;
  /** After the series was deleted (a detail page leaves). */
  onDeleted?: () => void;
  size?: IconButtonProps['size'];
  color?: IconButtonProps['color'];
}

type SeriesDialog = 'edit' | 'delete' | 'addToReadList' | 'addToCollection';

/** "Read" = every book read; "unread" = no book read or started (ui.md §2.4). */
export const seriesIsRead = (s: SeriesDto) => s.booksCount > 0 && s.booksReadCount === s.booksCount;
export const seriesIsUnread = (s: SeriesDto) => s.booksUnreadCount === s.booksCount;

/**
 * The ⋮ menu of a series (ui.md §2.4): mark read/unread and download for everyone allowed; add to a collection or
 * read list, edit, analyze, refresh metadata and delete for admins. A one-shot's menu also reads its book, and each
 * item acts on the book or the series as fitting.
 */
export function SeriesActionsMenu({ series, onDeleted, size, color }: SeriesActionsMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const roles = useRoles();
  const unavailable = useLibraryUnavailable(series.libraryId);
  const errorText = useActionErrorText();
  const [dialog, setDialog] = useState<{ kind: SeriesDialog; open: boolean; bookIds?: string[] } | null>(null);
  const [opened, setOpened] = useState(false);
  const markRead = useMarkSeriesRead();
  const analyze = useAnalyzeSeries();
  const refreshSeries = useRefreshSeriesMetadata();
  const refreshBooks = useRefreshBooksMetadata();
  // A one-shot's book is looked up once its menu is first opened, for reading, downloading and editing it.
  const oneshotBook = useQuery({ ...oneshotBookQuery(series.id), enabled: series.oneshot && opened }).data ?? null;

  const title = series.metadata.title;
  const open = (kind: SeriesDialog, bookIds?: string[]) => setDialog({ kind, open: true, bookIds });
  const close = () => setDialog((d) => d && { ...d, open: false });
  const fail = (e: unknown) => showItemToast(errorText(e), 'error');

  const actions: MenuAction[] = [];
  if (oneshotBook && roles.streaming && isReadable(oneshotBook, unavailable)) {
    actions.push(
      {
        key: 'read',
        label: t('items.actions.read'),
        icon: <MenuBookIcon />,
        onSelect: () => void navigate(readerPath(oneshotBook)),
      },
      {
        key: 'incognito',
        label: t('items.actions.readIncognito'),
        icon: <VisibilityOffIcon />,
        onSelect: () => void navigate(readerPath(oneshotBook, { incognito: true })),
      },
    );
  }
  if (!seriesIsRead(series))
    actions.push({
      key: 'markRead',
      label: t('items.actions.markRead'),
      icon: <BookmarkAddedIcon />,
      onSelect: () => markRead.mutate({ seriesIds: [series.id], read: true }, { onError: fail }),
    });
  if (!seriesIsUnread(series))
    actions.push({
      key: 'markUnread',
      label: t('items.actions.markUnread'),
      icon: <BookmarkRemoveIcon />,
      onSelect: () => markRead.mutate({ seriesIds: [series.id], read: false }, { onError: fail }),
    });
  if (roles.admin) {
    actions.push(
      {
        key: 'addToCollection',
        label: t('items.actions.addToCollection'),
        icon: <LibraryAddIcon />,
        onSelect: () => open('addToCollection'),
      },
      {
        key: 'addToReadList',
        label: t('items.actions.addToReadList'),
        icon: <PlaylistAddIcon />,
        onSelect: () =>
          void fetchSeriesBooks([series.id]).then(
            (books) =>
              open(
                'addToReadList',
                books.map((b) => b.id),
              ),
            fail,
          ),
      },
      {
        key: 'edit',
        label: t('items.actions.edit'),
        icon: <EditIcon />,
        disabled: series.oneshot && !oneshotBook,
        onSelect: () => open('edit'),
      },
      {
        key: 'analyze',
        label: t('items.actions.analyze'),
        icon: <AnalyticsIcon />,
        dividerBefore: true,
        onSelect: () =>
          analyze.mutate(
            { ids: [series.id] },
            { onSuccess: () => showItemToast(t('items.toast.analyzeQueued', { name: title })), onError: fail },
          ),
      },
      {
        key: 'refresh',
        label: t('items.actions.refreshMetadata'),
        icon: <RefreshIcon />,
        onSelect: () => {
          const done = () => showItemToast(t('items.toast.refreshQueued', { name: title }));
          refreshSeries.mutate(
            { ids: [series.id] },
            {
              // A one-shot's metadata lives on its book as much as on the series.
              onSuccess: () =>
                series.oneshot && oneshotBook
                  ? refreshBooks.mutate({ ids: [oneshotBook.id] }, { onSuccess: done, onError: fail })
                  : done(),
              onError: fail,
            },
          );
        },
      },
    );
  }
  if (roles.download && !series.deleted && !unavailable && series.booksCount > 0)
    actions.push({
      key: 'download',
      label: t('items.actions.download'),
      icon: <DownloadIcon />,
      href: series.oneshot && oneshotBook ? bookFileUrl(oneshotBook.id) : seriesFileUrl(series.id),
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
      <ActionsMenu
        label={t('items.actions.menu', { title })}
        actions={actions}
        size={size}
        color={color}
        onOpen={() => setOpened(true)}
      />
      {dialog?.kind === 'delete' && (
        <DeleteSeriesDialog open={dialog.open} series={[series]} onClose={close} onDeleted={onDeleted} />
      )}
      {dialog?.kind === 'addToCollection' && (
        <AddToCollectionDialog open={dialog.open} seriesIds={[series.id]} onClose={close} />
      )}
      {dialog?.kind === 'addToReadList' && (
        <AddToReadListDialog open={dialog.open} bookIds={dialog.bookIds ?? []} onClose={close} />
      )}
      {dialog?.kind === 'edit' &&
        (series.oneshot ? (
          oneshotBook && <EditOneshotDialog open={dialog.open} series={series} book={oneshotBook} onClose={close} />
        ) : (
          <EditSeriesDialog open={dialog.open} series={[series]} onClose={close} />
        ))}
    </>
  );
}

import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import BookmarkAddedIcon from '@mui/icons-material/BookmarkAdded';
import BookmarkRemoveIcon from '@mui/icons-material/BookmarkRemove';
import DownloadIcon from '@mui/icons-material/Download';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BookDto } from '@quire/api';
import { bookFileUrl, useMarkBooksRead } from '../../../api/actions';
import { isInProgress, isRead, isReadable } from '../availability';
import { useActionErrorText } from '../errors';
import { readerPath } from '../readerPath';
import type { Roles } from '../roles';
import { showItemToast } from '../toast';

declare module '@mui/material/Button' {
  interface ButtonPropsColorOverrides {
    /** The theme's accent (app/theme.ts): the one call to action of a detail page, Read. */
    accent: true;
  }
}

export interface BookReadActionsProps {
  book: BookDto;
  roles: Roles;
  libraryUnavailable: boolean;
  readListId?: string;
}

/**
 * The buttons under a book's header (ui.md §6): Read (or Continue at the saved page), Read incognito, Mark as
 * read/unread, Download. Reading needs PAGE_STREAMING and an analysed, reachable file; downloading FILE_DOWNLOAD.
 */
export function BookReadActions({ book, roles, libraryUnavailable, readListId }: BookReadActionsProps) {
  const { t } = useTranslation();
  const errorText = useActionErrorText();
  const markRead = useMarkBooksRead();
  const context = readListId ? ({ type: 'readlist', id: readListId } as const) : undefined;
  const readable = roles.streaming && isReadable(book, libraryUnavailable);
  const canDownload = roles.download && !book.deleted && !libraryUnavailable;
  const inProgress = isInProgress(book);
  const read = isRead(book);
  const toggleRead = () =>
    markRead.mutate({ bookIds: [book.id], read: !read }, { onError: (e) => showItemToast(errorText(e), 'error') });

  return (
    <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
      {readable && (
        <>
          <Button
            variant="contained"
            color="accent"
            startIcon={<MenuBookIcon />}
            component={RouterLink}
            to={readerPath(book, { context })}
          >
            {inProgress ? t('items.actions.continue') : t('items.actions.read')}
          </Button>
          <Tooltip title={t('items.detail.incognitoHint')} describeChild>
            <Button
              variant="outlined"
              startIcon={<VisibilityOffIcon />}
              component={RouterLink}
              to={readerPath(book, { context, incognito: true })}
            >
              {t('items.actions.readIncognito')}
            </Button>
          </Tooltip>
        </>
      )}
      <Button
        variant="outlined"
        startIcon={read ? <BookmarkRemoveIcon /> : <BookmarkAddedIcon />}
        onClick={toggleRead}
        disabled={markRead.isPending}
      >
        {read ? t('items.actions.markUnread') : t('items.actions.markRead')}
      </Button>
      {canDownload && (
        <Button variant="outlined" startIcon={<DownloadIcon />} component="a" href={bookFileUrl(book.id)} download>
          {t('items.actions.download')}
        </Button>
      )}
    </Stack>
  );
}

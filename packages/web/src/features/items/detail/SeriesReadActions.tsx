import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import BookmarkAddedIcon from '@mui/icons-material/BookmarkAdded';
import BookmarkRemoveIcon from '@mui/icons-material/BookmarkRemove';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import LibraryAddIcon from '@mui/icons-material/LibraryAdd';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BookDto, SeriesDto } from '@quire/api';
import { seriesFileUrl, useMarkSeriesRead } from '../../../api/actions';
import { useBooks } from '../../../api/books';
import { isReadable } from '../availability';
import { useActionErrorText } from '../errors';
import { readerPath } from '../readerPath';
import type { Roles } from '../roles';
import { seriesIsRead } from '../SeriesActionsMenu';
import { showItemToast } from '../toast';

const byNumber = ['metadata.numberSort,asc'];

/**
 * The book "Read" opens: the first one, by number, that is not finished (the one being read, or the next unread);
 * the first book when everything has been read.
 */
export function useBookToRead(series: SeriesDto): { book: BookDto | null; loading: boolean } {
  const seriesId = { seriesId: { operator: 'is', value: series.id } } as const;
  const unfinished = useBooks({
    condition: {
      allOf: [
        seriesId,
        {
          anyOf: [
            { readStatus: { operator: 'is', value: 'IN_PROGRESS' } },
            { readStatus: { operator: 'is', value: 'UNREAD' } },
          ],
        },
      ],
    },
    sort: byNumber,
    size: 1,
  });
  const first = useBooks(
    { condition: seriesId, sort: byNumber, size: 1 },
    { enabled: unfinished.data?.content.length === 0 },
  );
  const book = unfinished.data?.content[0] ?? first.data?.content[0] ?? null;
  return { book, loading: unfinished.isPending || (unfinished.data?.content.length === 0 && first.isPending) };
}

export interface SeriesReadActionsProps {
  series: SeriesDto;
  roles: Roles;
  libraryUnavailable: boolean;
  onEdit: () => void;
  onAddToCollection: () => void;
}

/**
 * The series' action bar: Read (or Continue), Read incognito, Mark as read/unread, Add to collection and Edit for
 * admins, Download for FILE_DOWNLOAD.
 */
export function SeriesReadActions({
  series,
  roles,
  libraryUnavailable,
  onEdit,
  onAddToCollection,
}: SeriesReadActionsProps) {
  const { t } = useTranslation();
  const errorText = useActionErrorText();
  const markRead = useMarkSeriesRead();
  const { book } = useBookToRead(series);
  const started = series.booksReadCount + series.booksInProgressCount > 0 && !seriesIsRead(series);
  const readable = roles.streaming && !!book && isReadable(book, libraryUnavailable);
  const read = seriesIsRead(series);
  const canDownload = roles.download && !series.deleted && !libraryUnavailable && series.booksCount > 0;

  return (
    <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
      {readable && book && (
        <>
          <Tooltip
            describeChild
            title={t('items.series.readBook', { number: book.metadata.number, title: book.metadata.title })}
          >
            <Button
              variant="contained"
              color="accent"
              startIcon={<MenuBookIcon />}
              component={RouterLink}
              to={readerPath(book)}
            >
              {started ? t('items.actions.continue') : t('items.actions.read')}
            </Button>
          </Tooltip>
          <Button
            variant="outlined"
            startIcon={<VisibilityOffIcon />}
            component={RouterLink}
            to={readerPath(book, { incognito: true })}
          >
            {t('items.actions.readIncognito')}
          </Button>
        </>
      )}
      {series.booksCount > 0 && (
        <Button
          variant="outlined"
          startIcon={read ? <BookmarkRemoveIcon /> : <BookmarkAddedIcon />}
          disabled={markRead.isPending}
          onClick={() =>
            markRead.mutate(
              { seriesIds: [series.id], read: !read },
              { onError: (e) => showItemToast(errorText(e), 'error') },
            )
          }
        >
          {read ? t('items.actions.markUnread') : t('items.actions.markRead')}
        </Button>
      )}
      {roles.admin && (
        <>
          <Button variant="outlined" startIcon={<LibraryAddIcon />} onClick={onAddToCollection}>
            {t('items.actions.addToCollection')}
          </Button>
          <Button variant="outlined" startIcon={<EditIcon />} onClick={onEdit}>
            {t('items.actions.edit')}
          </Button>
        </>
      )}
      {canDownload && (
        <Button variant="outlined" startIcon={<DownloadIcon />} component="a" href={seriesFileUrl(series.id)} download>
          {t('items.actions.download')}
        </Button>
      )}
    </Stack>
  );
}

import type { BookDto } from '@quire/api';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '../../i18n/format';
import { useCurrentUser } from '../../api/auth';
import { useLibraries } from '../../api/libraries';
import { BookActionsMenu, readerPath } from '../../features/items';
import { bookPath, seriesPath, useBrowseFormat } from './format';
import { ItemCard, UnreadTriangle, type SelectableCardProps } from './ItemCard';

/** What the line under a book's title shows (the sort in use decides, ui.md §2.1). */
export type BookCardLine = 'pages' | 'releaseDate' | 'created' | 'lastModified' | 'readDate' | 'fileSize';

export interface BookCardProps extends SelectableCardProps {
  book: BookDto;
  /** Puts the series title above the book's (lists mixing series: dashboard, search, read lists). */
  showSeries?: boolean;
  line?: BookCardLine;
  /** The read list the card is shown in: the book page and the reader keep it as context. */
  readListId?: string;
  /** Shows the edit pencil (admins). */
  onEdit?: () => void;
}

/** Whether the book has been read to the end. */
export const isRead = (book: BookDto) => !!book.readProgress?.completed;
export const isInProgress = (book: BookDto) => !!book.readProgress && !book.readProgress.completed;

export function BookCard({ book, showSeries, line = 'pages', readListId, onEdit, ...selection }: BookCardProps) {
  const { t, i18n } = useTranslation();
  const format = useBrowseFormat();
  const me = useCurrentUser().data;
  const library = useLibraries().data?.find((l) => l.id === book.libraryId);
  const canRead = !!me?.roles.includes('PAGE_STREAMING');

  const title = book.oneshot ? book.metadata.title : t('browse.book.numberTitle', book.metadata);
  let subtitle: string;
  let subtitleColor: 'error' | 'warning' | undefined;
  let subtitleTooltip: string | undefined;
  const status = book.media.status;
  if (book.deleted || library?.unavailable) [subtitle, subtitleColor] = [t('browse.status.unavailable'), 'error'];
  else if (status === 'ERROR') [subtitle, subtitleColor] = [t('browse.status.error'), 'error'];
  else if (status === 'UNSUPPORTED') [subtitle, subtitleColor] = [t('browse.status.unsupported'), 'warning'];
  else if (status === 'UNKNOWN') subtitle = t('browse.status.toBeAnalyzed');
  else if (status === 'OUTDATED') subtitle = t('browse.status.outdated');
  else {
    switch (line) {
      case 'releaseDate':
        subtitle = book.metadata.releaseDate
          ? format.releaseDate(book.metadata.releaseDate)
          : t('browse.book.noReleaseDate');
        break;
      case 'created':
        subtitle = t('browse.card.added', { date: format.date(book.created) });
        subtitleTooltip = format.dateTime(book.created);
        break;
      case 'lastModified':
        subtitle = t('browse.card.updated', { date: format.date(book.lastModified) });
        subtitleTooltip = format.dateTime(book.lastModified);
        break;
      case 'readDate':
        subtitle = book.readProgress
          ? t('browse.card.readOn', { date: format.date(book.readProgress.readDate) })
          : t('browse.book.unread');
        subtitleTooltip = book.readProgress ? format.dateTime(book.readProgress.readDate) : undefined;
        break;
      case 'fileSize':
        subtitle = formatFileSize(book.sizeBytes, i18n.language || undefined);
        break;
      default:
        subtitle = t('browse.book.pages', { count: book.media.pagesCount });
    }
  }

  const pages = book.media.pagesCount;
  const progress =
    isInProgress(book) && pages > 0 ? Math.min(1, Math.max(0, book.readProgress!.page / pages)) : undefined;
  const readTo =
    canRead && status === 'READY' && !book.deleted
      ? readerPath(book, readListId ? { context: { type: 'readlist', id: readListId } } : undefined)
      : undefined;

  return (
    <ItemCard
      kind="books"
      id={book.id}
      to={bookPath(book, readListId)}
      title={title}
      overline={
        showSeries && !book.oneshot
          ? { text: book.seriesTitle, to: seriesPath({ id: book.seriesId, oneshot: false }) }
          : undefined
      }
      subtitle={subtitle}
      subtitleColor={subtitleColor}
      subtitleTooltip={subtitleTooltip}
      badge={!book.readProgress ? <UnreadTriangle label={t('browse.book.unread')} /> : undefined}
      unread={!book.readProgress}
      progress={progress}
      readTo={readTo}
      onEdit={onEdit}
      menu={<BookActionsMenu book={book} />}
      {...selection}
    />
  );
}

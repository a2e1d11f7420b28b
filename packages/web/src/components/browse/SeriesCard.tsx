import type { SeriesDto } from '@quire/api';
import { useTranslation } from 'react-i18next';
import { useLibraries } from '../../api/libraries';
import { SeriesActionsMenu } from '../../features/items';
import { seriesPath, useBrowseFormat } from './format';
import { ItemCard, UnreadCount, UnreadTriangle, type SelectableCardProps } from './ItemCard';

/** What the line under a series' title shows (the sort in use decides, ui.md §2.1). */
export type SeriesCardLine = 'books' | 'releaseDate' | 'created' | 'lastModified';

export interface SeriesCardProps extends SelectableCardProps {
  series: SeriesDto;
  line?: SeriesCardLine;
  onEdit?: () => void;
}

/** Books not finished yet: unread plus in progress. */
export const unfinishedCount = (s: SeriesDto) => s.booksUnreadCount + s.booksInProgressCount;

export function SeriesCard({ series, line = 'books', onEdit, ...selection }: SeriesCardProps) {
  const { t } = useTranslation();
  const format = useBrowseFormat();
  const library = useLibraries().data?.find((l) => l.id === series.libraryId);

  let subtitle: string;
  let subtitleTooltip: string | undefined;
  const unavailable = series.deleted || !!library?.unavailable;
  if (unavailable) subtitle = t('browse.status.unavailable');
  else if (line === 'releaseDate')
    subtitle = series.booksMetadata.releaseDate
      ? format.releaseDate(series.booksMetadata.releaseDate)
      : t('browse.book.noReleaseDate');
  else if (line === 'created') {
    subtitle = t('browse.card.added', { date: format.date(series.created) });
    subtitleTooltip = format.dateTime(series.created);
  } else if (line === 'lastModified') {
    subtitle = t('browse.card.updated', { date: format.date(series.lastModified) });
    subtitleTooltip = format.dateTime(series.lastModified);
  } else
    subtitle = series.oneshot ? t('browse.series.oneshot') : t('browse.series.books', { count: series.booksCount });

  const unfinished = unfinishedCount(series);
  const badge =
    unfinished === 0 ? undefined : series.oneshot ? (
      <UnreadTriangle label={t('browse.book.unread')} />
    ) : (
      <UnreadCount count={unfinished} label={t('browse.series.unread', { count: unfinished })} />
    );

  return (
    <ItemCard
      kind="series"
      id={series.id}
      to={seriesPath(series)}
      title={series.metadata.title}
      subtitle={subtitle}
      subtitleColor={unavailable ? 'error' : undefined}
      subtitleTooltip={subtitleTooltip}
      badge={badge}
      unread={series.booksCount > 0 && series.booksUnreadCount === series.booksCount}
      onEdit={onEdit}
      menu={<SeriesActionsMenu series={series} />}
      {...selection}
    />
  );
}

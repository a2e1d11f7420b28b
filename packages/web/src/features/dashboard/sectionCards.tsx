import { useCallback } from 'react';
import type { BookDto, SeriesDto } from '@quire/api';
import { useIsAdmin } from '../../api/auth';
import { BookCard } from '../../components/browse/BookCard';
import type { ItemDialogs } from '../../components/browse/dialogs';
import type { SelectableCardProps } from '../../components/browse/ItemCard';
import { SeriesCard } from '../../components/browse/SeriesCard';
import type { SectionDef } from './sections';

/**
 * The cards of a dashboard section, in its row and on its "See all" page: the same functions from render to render
 * (`renderItem` of `ItemGrid` and `SelectableCell`), so that a pick renders the card picked alone.
 */
export function useSectionCards(def: SectionDef, dialogs: ItemDialogs) {
  const admin = useIsAdmin();
  const renderBook = useCallback(
    (book: BookDto, select: SelectableCardProps) => (
      <BookCard
        book={book}
        showSeries
        line={def.kind === 'book' ? def.line : undefined}
        onEdit={admin ? () => dialogs.editBooks([book]) : undefined}
        {...select}
      />
    ),
    [admin, def, dialogs],
  );
  const renderSeries = useCallback(
    (series: SeriesDto, select: SelectableCardProps) => (
      <SeriesCard
        series={series}
        line={def.kind === 'series' ? def.line : undefined}
        onEdit={admin ? () => dialogs.editSeries([series]) : undefined}
        {...select}
      />
    ),
    [admin, def, dialogs],
  );
  return { renderBook, renderSeries };
}

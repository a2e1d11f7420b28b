import { useCallback, useDeferredValue, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { hashKey, useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useTheme, type Breakpoints } from '@mui/material/styles';
import AutoStoriesOutlinedIcon from '@mui/icons-material/AutoStoriesOutlined';
import { useTranslation } from 'react-i18next';
import type { BookDto, Page, SeriesDto } from '@quire/api';
import { flattenPages } from '../../api/books';
import { DRAWER_WIDTH } from '../../app/AppLayout';
import { useItemDialogs, type ItemDialogs } from '../../components/browse/dialogs';
import { EmptyState } from '../../components/browse/EmptyState';
import { HorizontalScroller, ScrollerSkeleton } from '../../components/browse/HorizontalScroller';
import { SelectionBar } from '../../components/browse/SelectionBar';
import { rowCells, SelectionArea } from '../../components/browse/ItemGrid';
import { useSelection, type Selection } from '../../components/browse/selection';
import { useSectionCards } from './sectionCards';
import { ErrorState } from '../../components/ErrorState';
import { SECTION_IDS, sectionDef, sectionInfinite, type SectionDef } from './sections';

interface SectionProps {
  def: SectionDef;
  libraryIds: readonly string[] | undefined;
  /** "See all" goes to `${seeAllBase}/${section}`. */
  seeAllBase: string;
  selection: Selection;
  dialogs: ItemDialogs;
  /** Fetches but shows nothing yet (the other rows are still loading). */
  hidden: boolean;
}

/**
 * Cards a row shows in its first render: what the window shows of it, and one more. A card and its gap take 136 px on
 * a phone and 166 px above (HorizontalScroller's widths); from `md` up the permanent drawer takes its share of the
 * window (the rows' cards beyond the window were a third of the first render's at 1280 px, issue 18).
 */
export function cardsInView(breakpoints: Breakpoints): number {
  const width = window.innerWidth;
  const row = width - (width >= breakpoints.values.md ? DRAWER_WIDTH : 0);
  return Math.ceil(row / (width < breakpoints.values.sm ? 136 : 166)) + 1;
}

/** One section as a row; nothing once it has loaded empty. */
function Section({ def, libraryIds, seeAllBase, selection, dialogs, hidden }: SectionProps) {
  const { t } = useTranslation();
  const query = useInfiniteQuery(sectionInfinite<BookDto | SeriesDto>(def, libraryIds));
  // When the rows appear, each first renders the cards the window can show; a background render right after adds
  // the rest, out of sight to the side (and each card its overlay, ItemCard). Issue 18: rendering all seven rows'
  // cards in full held the first poster's paint ~0.5 s.
  const complete = useDeferredValue(!hidden, false);
  const { breakpoints } = useTheme();
  const items = useMemo(() => (query.data ? flattenPages(query.data) : undefined), [query.data]);
  const { renderBook, renderSeries } = useSectionCards(def, dialogs);
  const title = t(`dashboard.sections.${def.id}`);
  if (hidden) return null;
  if (query.isError) return <ErrorState title={title} error={query.error} onRetry={() => void query.refetch()} />;
  if (items && items.length === 0) return null;
  const shown = complete ? items?.length : cardsInView(breakpoints);
  const total = query.data?.pages[0]?.totalElements;
  const cards =
    items && def.kind === 'book'
      ? rowCells('book', items as BookDto[], renderBook, selection, { shown })
      : items && def.kind === 'series'
        ? rowCells('series', items as SeriesDto[], renderSeries, selection, { shown })
        : undefined;
  return (
    <HorizontalScroller
      title={title}
      seeAllTo={total !== undefined && total > (items?.length ?? 0) ? `${seeAllBase}/${def.id}` : undefined}
      // Not before every loaded card is there: a wide screen would see the row's end and ask for the next page.
      hasMore={complete && query.hasNextPage}
      loadingMore={query.isFetchingNextPage}
      onLoadMore={() => void query.fetchNextPage()}
    >
      {cards}
    </HorizontalScroller>
  );
}

/**
 * Where the sections stand, read from their own cache entries: `loading` until each has answered (or failed), then
 * whether all came back empty. Rows appear together, so none shows up and then vanishes.
 */
function useSectionsState(libraryIds: readonly string[] | undefined): 'loading' | 'empty' | 'ready' {
  const qc = useQueryClient();
  const keys = useMemo(
    () => SECTION_IDS.map((id) => sectionInfinite(sectionDef(id), libraryIds).queryKey),
    // the libraries by value: a caller's new array of the same ids is the same sections
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [JSON.stringify(libraryIds ?? null)],
  );
  // Told of the sections' own results only. Every query a card starts tells the cache's listeners while the card
  // renders; heard here, the rows' first render (its 'ready' not committed yet) made React warn of an update of
  // DashboardSections during another component's render, and render the dashboard once more.
  const subscribe = useCallback(
    (onChange: () => void) => {
      const sections = new Set(keys.map((key) => hashKey(key)));
      return qc.getQueryCache().subscribe((event) => {
        if (sections.has(event.query.queryHash) && !event.type.startsWith('observer')) onChange();
      });
    },
    [qc, keys],
  );
  const snapshot = () => {
    let empty = true;
    for (const queryKey of keys) {
      const state = qc.getQueryState<InfiniteData<Page<unknown>>>(queryKey);
      if (!state || (state.data === undefined && state.status !== 'error')) return 'loading';
      if (state.status === 'error' || state.data?.pages.some((p) => p.content.length > 0)) empty = false;
    }
    return empty ? 'empty' : 'ready';
  };
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

export interface DashboardSectionsProps {
  /** Libraries covered; undefined for all. */
  libraryIds: readonly string[] | undefined;
  seeAllBase: string;
  /** Shown above the rows unless a selection is under way (the selection bar takes its place). */
  toolbar?: (selecting: boolean) => ReactNode;
}

/**
 * The dashboard's rows (ui.md §3): keep reading, on deck, recently released, added and read books, recently added
 * and updated series. Empty rows are left out; with nothing at all, a message says so. Items of one kind at a time
 * can be selected across rows.
 */
export function DashboardSections({ libraryIds, seeAllBase, toolbar }: DashboardSectionsProps) {
  const { t } = useTranslation();
  const selection = useSelection(JSON.stringify(libraryIds ?? null));
  const dialogs = useItemDialogs();
  const state = useSectionsState(libraryIds);
  return (
    <>
      {toolbar?.(selection.count > 0)}
      <SelectionBar selection={selection} dialogs={dialogs} />
      <SelectionArea selecting={selection.count > 0} sx={{ px: { xs: 1.5, sm: 2 }, py: 2 }}>
        {state === 'loading' && [0, 1].map((i) => <ScrollerSkeleton key={i} />)}
        {state === 'empty' && (
          <EmptyState
            icon={<AutoStoriesOutlinedIcon />}
            title={t('dashboard.empty')}
            subtitle={t('dashboard.emptyHint')}
          />
        )}
        {/* Mounted even while hidden: their queries stay live, so new books appear as a scan adds them. */}
        {SECTION_IDS.map((id) => (
          <Section
            key={id}
            def={sectionDef(id)}
            libraryIds={libraryIds}
            seeAllBase={seeAllBase}
            selection={selection}
            dialogs={dialogs}
            hidden={state !== 'ready'}
          />
        ))}
      </SelectionArea>
      {dialogs.element}
    </>
  );
}

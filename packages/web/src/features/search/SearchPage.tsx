import { useCallback, useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import type { BookDto, CollectionDto, ReadListDto, SeriesDto } from '@quire/api';
import { flattenPages, useBooksInfinite } from '../../api/books';
import { useIsAdmin } from '../../api/auth';
import { useCollectionsInfinite } from '../../api/collections';
import { useLibraries } from '../../api/libraries';
import { useReadListsInfinite } from '../../api/readlists';
import { useSeriesListInfinite } from '../../api/series';
import { BookCard } from '../../components/browse/BookCard';
import { CollectionCard, ReadListCard } from '../../components/browse/CollectionCard';
import { useItemDialogs } from '../../components/browse/dialogs';
import { EmptyState } from '../../components/browse/EmptyState';
import { HorizontalScroller } from '../../components/browse/HorizontalScroller';
import { SelectionBar, STICKY_TOP } from '../../components/browse/SelectionBar';
import { SeriesCard } from '../../components/browse/SeriesCard';
import type { SelectableCardProps } from '../../components/browse/ItemCard';
import { rowCells, SelectionArea, type SelectableCellProps } from '../../components/browse/ItemGrid';
import {
  useSelection,
  type Selection,
  type SelectableItems,
  type SelectionKind,
} from '../../components/browse/selection';
import { ErrorState } from '../../components/ErrorState';
import { searchRequests } from './search-params';

interface RowQuery {
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** Props of a results row from its infinite query. */
const rowProps = (q: RowQuery) => ({
  hasMore: q.hasNextPage,
  loadingMore: q.isFetchingNextPage,
  onLoadMore: () => void q.fetchNextPage(),
});

interface ResultsRowProps<K extends SelectionKind> {
  title: string;
  query: RowQuery;
  kind: K;
  items: readonly SelectableItems[K][] | undefined;
  renderItem: SelectableCellProps<K>['renderItem'];
  selection: Selection;
  /** Whether this user may select these items (collections and read lists: admins only). */
  selectable: boolean;
}

/**
 * One row of results, its error with a retry, or nothing once it has loaded empty; a pick renders the card picked
 * alone (`SelectableCell`).
 */
function ResultsRow<K extends SelectionKind>(props: ResultsRowProps<K>): ReactNode {
  const { query, kind, items, selection, selectable } = props;
  if (query.isError) return <ErrorState title={props.title} error={query.error} onRetry={() => void query.refetch()} />;
  if (items?.length === 0) return null;
  return (
    <HorizontalScroller title={props.title} {...rowProps(query)}>
      {items && rowCells(kind, items, props.renderItem, selection, { selectable })}
    </HorizontalScroller>
  );
}

/**
 * Search results (ui.md §10): series, books, collections and read lists matching `q`, each a row that loads more as
 * it scrolls. `library` limits the search to one library.
 */
export function SearchPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const admin = useIsAdmin();
  const q = (params.get('q') ?? '').trim();
  const libraryId = params.get('library') ?? undefined;
  const library = useLibraries().data?.find((l) => l.id === libraryId);
  const requests = searchRequests(q, { libraryId });
  const enabled = q.length > 0;
  const series = useSeriesListInfinite(requests.series, { enabled });
  const books = useBooksInfinite(requests.books, { enabled });
  const collections = useCollectionsInfinite(requests.lists, { enabled });
  const readLists = useReadListsInfinite(requests.lists, { enabled });
  const selection = useSelection(`${q}/${libraryId ?? ''}`);
  const dialogs = useItemDialogs();

  const seriesItems = useMemo(() => series.data && flattenPages(series.data), [series.data]);
  const bookItems = useMemo(() => books.data && flattenPages(books.data), [books.data]);
  const collectionItems = useMemo(() => collections.data && flattenPages(collections.data), [collections.data]);
  const readListItems = useMemo(() => readLists.data && flattenPages(readLists.data), [readLists.data]);
  // the same functions from render to render, so that a pick renders the card picked alone
  const renderSeries = useCallback(
    (s: SeriesDto, select: SelectableCardProps) => (
      <SeriesCard series={s} onEdit={admin ? () => dialogs.editSeries([s]) : undefined} {...select} />
    ),
    [admin, dialogs],
  );
  const renderBook = useCallback(
    (b: BookDto, select: SelectableCardProps) => (
      <BookCard book={b} showSeries onEdit={admin ? () => dialogs.editBooks([b]) : undefined} {...select} />
    ),
    [admin, dialogs],
  );
  const renderCollection = useCallback(
    (c: CollectionDto, select: SelectableCardProps) => (
      <CollectionCard collection={c} onEdit={admin ? () => dialogs.editCollection(c) : undefined} {...select} />
    ),
    [admin, dialogs],
  );
  const renderReadList = useCallback(
    (r: ReadListDto, select: SelectableCardProps) => (
      <ReadListCard readList={r} onEdit={admin ? () => dialogs.editReadList(r) : undefined} {...select} />
    ),
    [admin, dialogs],
  );
  const lists = [seriesItems, bookItems, collectionItems, readListItems];
  const nothing = lists.every((l) => l !== undefined && l.length === 0);

  return (
    <>
      {selection.count === 0 && (
        <Paper
          square
          elevation={0}
          sx={{
            position: 'sticky',
            ...STICKY_TOP,
            zIndex: (th) => th.zIndex.appBar - 2,
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            px: 2,
            minHeight: 56,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Typography variant="h6" component="h1" noWrap sx={{ minWidth: 0 }}>
            {q ? t('search.resultsFor', { q }) : t('search.title')}
          </Typography>
          {library && (
            <Chip
              size="small"
              label={t('search.inLibrary', { library: library.name })}
              onDelete={() => {
                const next = new URLSearchParams(params);
                next.delete('library');
                setParams(next, { replace: true });
              }}
              deleteIcon={<CloseIcon titleAccess={t('search.scopeAll')} />}
            />
          )}
        </Paper>
      )}
      <SelectionBar selection={selection} dialogs={dialogs} />
      <SelectionArea selecting={selection.count > 0} sx={{ px: { xs: 1.5, sm: 2 }, py: 2 }}>
        {!enabled ? (
          <EmptyState icon={<SearchIcon />} title={t('search.prompt')} />
        ) : nothing ? (
          <EmptyState icon={<SearchOffIcon />} title={t('search.emptyTitle')} subtitle={t('search.emptyHint')} />
        ) : (
          <>
            <ResultsRow<'series'>
              title={t('search.groups.series')}
              query={series}
              kind="series"
              items={seriesItems}
              renderItem={renderSeries}
              selection={selection}
              selectable
            />
            <ResultsRow<'book'>
              title={t('search.groups.books')}
              query={books}
              kind="book"
              items={bookItems}
              renderItem={renderBook}
              selection={selection}
              selectable
            />
            <ResultsRow<'collection'>
              title={t('search.groups.collections')}
              query={collections}
              kind="collection"
              items={collectionItems}
              renderItem={renderCollection}
              selection={selection}
              selectable={admin}
            />
            <ResultsRow<'readlist'>
              title={t('search.groups.readLists')}
              query={readLists}
              kind="readlist"
              items={readListItems}
              renderItem={renderReadList}
              selection={selection}
              selectable={admin}
            />
          </>
        )}
      </SelectionArea>
      {dialogs.element}
    </>
  );
}

import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
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
import { cardSelection, useSelection } from '../../components/browse/selection';
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

  const seriesItems = series.data ? flattenPages(series.data) : undefined;
  const bookItems = books.data ? flattenPages(books.data) : undefined;
  const collectionItems = collections.data ? flattenPages(collections.data) : undefined;
  const readListItems = readLists.data ? flattenPages(readLists.data) : undefined;
  const lists = [seriesItems, bookItems, collectionItems, readListItems];
  const nothing = lists.every((l) => l !== undefined && l.length === 0);
  const show = (items: unknown[] | undefined) => items === undefined || items.length > 0;

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
      <Box sx={{ px: { xs: 1.5, sm: 2 }, py: 2 }}>
        {!enabled ? (
          <EmptyState icon={<SearchIcon />} title={t('search.prompt')} />
        ) : nothing ? (
          <EmptyState icon={<SearchOffIcon />} title={t('search.emptyTitle')} subtitle={t('search.emptyHint')} />
        ) : (
          <>
            {series.isError && (
              <ErrorState
                title={t('search.groups.series')}
                error={series.error}
                onRetry={() => void series.refetch()}
              />
            )}
            {!series.isError && show(seriesItems) && (
              <HorizontalScroller title={t('search.groups.series')} {...rowProps(series)}>
                {seriesItems?.map((s) => (
                  <SeriesCard
                    key={s.id}
                    series={s}
                    onEdit={admin ? () => dialogs.editSeries([s]) : undefined}
                    {...cardSelection(selection, 'series', s, seriesItems)}
                  />
                ))}
              </HorizontalScroller>
            )}
            {books.isError && (
              <ErrorState title={t('search.groups.books')} error={books.error} onRetry={() => void books.refetch()} />
            )}
            {!books.isError && show(bookItems) && (
              <HorizontalScroller title={t('search.groups.books')} {...rowProps(books)}>
                {bookItems?.map((b) => (
                  <BookCard
                    key={b.id}
                    book={b}
                    showSeries
                    onEdit={admin ? () => dialogs.editBooks([b]) : undefined}
                    {...cardSelection(selection, 'book', b, bookItems)}
                  />
                ))}
              </HorizontalScroller>
            )}
            {collections.isError && (
              <ErrorState
                title={t('search.groups.collections')}
                error={collections.error}
                onRetry={() => void collections.refetch()}
              />
            )}
            {!collections.isError && show(collectionItems) && (
              <HorizontalScroller title={t('search.groups.collections')} {...rowProps(collections)}>
                {collectionItems?.map((c) => (
                  <CollectionCard
                    key={c.id}
                    collection={c}
                    onEdit={admin ? () => dialogs.editCollection(c) : undefined}
                    {...(admin ? cardSelection(selection, 'collection', c, collectionItems) : {})}
                  />
                ))}
              </HorizontalScroller>
            )}
            {readLists.isError && (
              <ErrorState
                title={t('search.groups.readLists')}
                error={readLists.error}
                onRetry={() => void readLists.refetch()}
              />
            )}
            {!readLists.isError && show(readListItems) && (
              <HorizontalScroller title={t('search.groups.readLists')} {...rowProps(readLists)}>
                {readListItems?.map((r) => (
                  <ReadListCard
                    key={r.id}
                    readList={r}
                    onEdit={admin ? () => dialogs.editReadList(r) : undefined}
                    {...(admin ? cardSelection(selection, 'readlist', r, readListItems) : {})}
                  />
                ))}
              </HorizontalScroller>
            )}
          </>
        )}
      </Box>
      {dialogs.element}
    </>
  );
}

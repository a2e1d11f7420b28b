import { useCallback, useState } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import type { BookDto, SeriesDto } from '@quire/api';
import { useBookTags } from '../../api/referential';
import { useBooks } from '../../api/books';
import { useLibraries } from '../../api/libraries';
import { useSeries } from '../../api/series';
import { usePageTitle } from '../../app/usePageTitle';
import { BookCard } from '../../components/browse/BookCard';
import { useItemDialogs } from '../../components/browse/dialogs';
import { EmptyState } from '../../components/browse/EmptyState';
import { FilterButton } from '../../components/browse/FilterDrawer';
import {
  activeCount,
  parseSort,
  readFilters,
  sortParam,
  writeFilters,
  type FilterState,
  type SortValue,
} from '../../components/browse/filters';
import type { SelectableCardProps } from '../../components/browse/ItemCard';
import { ItemGrid } from '../../components/browse/ItemGrid';
import { DisplayMenu, Pager, usePageSize } from '../../components/browse/Pager';
import { SelectionBar } from '../../components/browse/SelectionBar';
import { useSelection } from '../../components/browse/selection';
import { LibraryLine } from './BookPage';
import { useLibraryUnavailable } from './availability';
import { parseContext } from './context';
import { BooksFilterDrawer, bookSortOptions } from './detail/BooksFilterDrawer';
import { ChipRow, type ChipItem } from './detail/ChipRow';
import { DetailHeader } from './detail/DetailHeader';
import { DetailError, DetailSkeleton, isGone } from './detail/DetailStates';
import { DetailToolbar } from './detail/DetailToolbar';
import { authorsByRole } from './detail/format';
import { isFilterableRole, libraryBrowsePath, seriesBooksPath } from './detail/links';
import { CollectionPanels } from './detail/MembershipPanels';
import { Poster } from './detail/Poster';
import { ReadMore } from './detail/ReadMore';
import { SeriesChips } from './detail/SeriesChips';
import { SeriesReadActions } from './detail/SeriesReadActions';
import { SeriesActionsMenu } from './SeriesActionsMenu';
import { BOOK_FILTER_KEYS, bookCardLine, DEFAULT_BOOK_SORT, parsePage, seriesBooksCondition } from './bookFilters';
import { useRoles } from './roles';

/** `/series/:seriesId` (ui.md §5). A one-shot goes to its one-shot page. */
export function SeriesPage() {
  const { seriesId = '' } = useParams();
  const [search] = useSearchParams();
  const series = useSeries(seriesId);
  if (series.isPending) return <DetailSkeleton />;
  if (!series.data) return <DetailError error={series.error} onRetry={() => void series.refetch()} />;
  // Deleted while shown: back to its library. Other refresh failures keep what is on screen.
  if (series.isError && isGone(series.error)) return <Navigate to={libraryBrowsePath(series.data.libraryId)} replace />;
  if (series.data.oneshot) {
    const qs = search.toString();
    return <Navigate to={`/oneshot/${encodeURIComponent(seriesId)}${qs ? `?${qs}` : ''}`} replace />;
  }
  return <SeriesDetail series={series.data} />;
}

function SeriesDetail({ series }: { series: SeriesDto }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const roles = useRoles();
  const [search, setSearch] = useSearchParams();
  const context = parseContext(search);
  const library = useLibraries().data?.find((l) => l.id === series.libraryId);
  const unavailable = useLibraryUnavailable(series.libraryId);
  const dialogs = useItemDialogs();
  const [moreTitles, setMoreTitles] = useState(false);
  const [filterOpen, setFilterOpen] = useState(false);
  const locale = i18n.language;
  const m = series.metadata;
  const agg = series.booksMetadata;

  usePageTitle(m.title);

  // Books grid: filter, sort and page from the URL.
  const filters = readFilters(search, BOOK_FILTER_KEYS);
  const sortOptions = bookSortOptions(t);
  const sort: SortValue = parseSort(search.get('sort'), sortOptions) ?? DEFAULT_BOOK_SORT;
  const page = parsePage(search);
  const pageSize = usePageSize();
  const books = useBooks({
    condition: seriesBooksCondition(series.id, filters),
    page: page - 1,
    size: pageSize,
    sort: [sortParam(sort)],
  });
  const filterCount = activeCount(filters);
  const filtered = filterCount > 0;
  const sortChanged = sort.key !== DEFAULT_BOOK_SORT.key || sort.order !== DEFAULT_BOOK_SORT.order;
  /** New filters or sort start again at page 1; they replace the history entry, as a drawer's toggles would. */
  const apply = (state: FilterState, nextSort: SortValue) => {
    const next = writeFilters(search, BOOK_FILTER_KEYS, state);
    next.delete('page');
    if (nextSort.key === DEFAULT_BOOK_SORT.key && nextSort.order === DEFAULT_BOOK_SORT.order) next.delete('sort');
    else next.set('sort', sortParam(nextSort));
    setSearch(next, { replace: true });
  };
  const changeSort = (key: string) =>
    apply(filters, {
      key,
      // The active key flips; a new one starts descending (ui.md §2.5), except the number, read in order.
      order:
        key === sort.key ? (sort.order === 'asc' ? 'desc' : 'asc') : key === DEFAULT_BOOK_SORT.key ? 'asc' : 'desc',
    });
  const selection = useSelection(`${search.toString()}|${pageSize}`);
  const line = bookCardLine(sort.key);
  const renderBook = useCallback(
    (book: BookDto, sel: SelectableCardProps) => (
      <BookCard book={book} line={line} onEdit={roles.admin ? () => dialogs.editBooks([book]) : undefined} {...sel} />
    ),
    [line, roles.admin, dialogs],
  );
  const bookTags = useBookTags({ seriesId: series.id }, filterOpen).data ?? [];

  const back =
    context?.type === 'collection'
      ? { to: `/collections/${encodeURIComponent(context.id)}`, label: t('items.nav.toCollection') }
      : { to: libraryBrowsePath(series.libraryId), label: t('items.nav.toLibrary') };

  const genres = [...m.genres].sort((a, b) => a.localeCompare(b, locale));
  const tagItems: ChipItem[] = [
    ...m.tags.map((tag) => ({ key: `s-${tag}`, label: tag, to: libraryBrowsePath(series.libraryId, { tag: [tag] }) })),
    // Tags only the books carry, fainter, filtering this series' books.
    ...agg.tags
      .filter((tag) => !m.tags.includes(tag))
      .map((tag) => ({ key: `b-${tag}`, label: tag, faint: true, to: seriesBooksPath(series.id, { tag: [tag] }) })),
  ];
  const summary = m.summary || agg.summary;
  const releaseYear = agg.releaseDate?.slice(0, 4);
  const bookCount =
    m.totalBookCount !== null
      ? t('items.series.booksOfTotal', { count: series.booksCount, total: m.totalBookCount })
      : t('items.series.books', { count: series.booksCount });

  return (
    <Box>
      {selection.count === 0 && (
        <DetailToolbar
          back={back}
          title={m.title}
          after={<Chip size="small" label={series.booksCount} aria-label={bookCount} />}
          actions={
            <>
              {roles.admin && (
                <Tooltip title={t('items.actions.edit')}>
                  <IconButton aria-label={t('items.actions.edit')} onClick={() => dialogs.editSeries([series])}>
                    <EditIcon />
                  </IconButton>
                </Tooltip>
              )}
              <SeriesActionsMenu
                series={series}
                size="medium"
                onDeleted={() => void navigate(libraryBrowsePath(series.libraryId), { replace: true })}
              />
            </>
          }
        />
      )}
      <SelectionBar selection={selection} page={{ kind: 'book', items: books.data?.content ?? [] }} dialogs={dialogs} />
      {dialogs.element}

      <DetailHeader
        poster={<Poster kind="series" id={series.id} alt={t('items.detail.posterOf', { title: m.title })} />}
        info={
          <>
            <Box>
              <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
                {m.title}
              </Typography>
              <LibraryLine libraryId={series.libraryId} name={library?.name} />
            </Box>
            {releaseYear && (
              <Tooltip describeChild title={t('items.series.releaseYearHint')} placement="bottom-start">
                <Typography variant="body2" color="text.secondary" sx={{ alignSelf: 'flex-start' }}>
                  {releaseYear}
                </Typography>
              </Tooltip>
            )}
            <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
              <SeriesChips series={series} locale={locale} />
              {(series.deleted || unavailable) && (
                <Chip size="small" color="error" label={t('items.detail.unavailable')} />
              )}
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {bookCount}
            </Typography>
            {m.alternateTitles.length > 0 && (
              <Box>
                <Button size="small" onClick={() => setMoreTitles((v) => !v)} aria-expanded={moreTitles} sx={{ px: 0 }}>
                  {moreTitles ? t('items.series.lessTitles') : t('items.series.moreTitles')}
                </Button>
                <Collapse in={moreTitles}>
                  <Box
                    component="dl"
                    sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, m: 0, typography: 'body2' }}
                  >
                    {m.alternateTitles.map((a, i) => (
                      <Box key={i} sx={{ display: 'contents' }}>
                        <Box component="dt" sx={{ color: 'text.secondary' }}>
                          {a.label}
                        </Box>
                        <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                          {a.title}
                        </Box>
                      </Box>
                    ))}
                  </Box>
                </Collapse>
              </Box>
            )}
          </>
        }
      >
        <SeriesReadActions
          series={series}
          roles={roles}
          libraryUnavailable={unavailable}
          onEdit={() => dialogs.editSeries([series])}
          onAddToCollection={() => dialogs.addToCollection([series.id])}
        />
        {summary && (
          <ReadMore
            text={summary}
            prefix={
              !m.summary && agg.summaryNumber ? (
                <Tooltip describeChild title={t('items.series.summaryFromBookHint')}>
                  <Box component="span" sx={{ fontStyle: 'italic' }}>
                    {t('items.series.summaryFromBook', { number: agg.summaryNumber })}{' '}
                  </Box>
                </Tooltip>
              ) : undefined
            }
          />
        )}
      </DetailHeader>

      <Box sx={{ px: { xs: 2, sm: 3 } }}>
        <ChipRow
          label={t('items.fields.publisher')}
          items={
            m.publisher
              ? [
                  {
                    key: 'publisher',
                    label: m.publisher,
                    to: libraryBrowsePath(series.libraryId, { publisher: [m.publisher] }),
                  },
                ]
              : []
          }
        />
        <ChipRow
          label={t('items.fields.genres')}
          items={genres.map((g) => ({ key: g, label: g, to: libraryBrowsePath(series.libraryId, { genre: [g] }) }))}
        />
        <ChipRow label={t('items.fields.tags')} items={tagItems} />
        <ChipRow
          label={t('items.fields.links')}
          items={m.links.map((l, i) => ({ key: `${i}-${l.url}`, label: l.label || l.url, href: l.url }))}
        />
        {authorsByRole(agg.authors).map(([role, names]) => (
          <ChipRow
            key={role}
            label={t(`items.roles.${role}`, { defaultValue: role })}
            items={names.map((name) => ({
              key: name,
              label: name,
              to: isFilterableRole(role)
                ? libraryBrowsePath(series.libraryId, { author: [{ name, role }] })
                : undefined,
            }))}
          />
        ))}
        <Stack spacing={1} sx={{ my: 2 }}>
          <CollectionPanels seriesId={series.id} />
        </Stack>
        <Divider />
      </Box>

      <Box component="section" aria-labelledby="series-books" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, mb: 2 }}>
          <Typography id="series-books" variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('items.series.booksHeading')}
          </Typography>
          <DisplayMenu />
          <FilterButton count={filterCount} modified={filtered || sortChanged} onClick={() => setFilterOpen(true)} />
        </Stack>
        {books.data && books.data.content.length === 0 ? (
          <EmptyState
            icon={<SearchOffIcon />}
            title={filtered ? t('items.filter.noMatch') : t('items.series.noBooks')}
            subtitle={filtered ? t('items.filter.noMatchHint') : undefined}
          >
            {filtered && (
              <Button variant="contained" onClick={() => apply({}, sort)}>
                {t('items.filter.reset')}
              </Button>
            )}
          </EmptyState>
        ) : (
          <>
            <ItemGrid
              kind="book"
              label={t('items.series.booksHeading')}
              items={books.data?.content}
              selection={selection}
              skeletons={Math.min(pageSize, series.booksCount || 1)}
              renderItem={renderBook}
            />
            <Pager
              page={page}
              totalPages={books.data?.totalPages ?? 0}
              onChange={(p) => {
                const next = new URLSearchParams(search);
                if (p > 1) next.set('page', String(p));
                else next.delete('page');
                setSearch(next);
                window.scrollTo({ top: 0 });
              }}
            />
          </>
        )}
      </Box>

      <BooksFilterDrawer
        open={filterOpen}
        onClose={() => setFilterOpen(false)}
        filters={filters}
        onFiltersChange={(state) => apply(state, sort)}
        sort={sort}
        onSortChange={changeSort}
        modified={filtered || sortChanged}
        onReset={() => apply({}, DEFAULT_BOOK_SORT)}
        tags={bookTags}
        authors={agg.authors}
      />
    </Box>
  );
}

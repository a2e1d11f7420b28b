import { useEffect, useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FilterListOffIcon from '@mui/icons-material/FilterListOff';
import CollectionsBookmarkOutlinedIcon from '@mui/icons-material/CollectionsBookmarkOutlined';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../../api/auth';
import { allOf } from '../../api/books';
import { useAlphabeticalGroups, useSeriesList, type SeriesCondition } from '../../api/series';
import { ALL_LIBRARIES, updatePreferences, usePreferences } from '../../app/preferences';
import { ALL, AlphabeticalNav } from '../../components/browse/AlphabeticalNav';
import { useItemDialogs } from '../../components/browse/dialogs';
import { EmptyState } from '../../components/browse/EmptyState';
import { FilterButton } from '../../components/browse/FilterDrawer';
import {
  activeCount,
  hasFilters,
  nextSort,
  parseSort,
  readFilters,
  sanitize,
  sortParam,
  writeFilters,
  type FilterState,
  type SortValue,
} from '../../components/browse/filters';
import { ItemGrid } from '../../components/browse/ItemGrid';
import { DisplayMenu, Pager, usePageSize, useScrollTopOnChange } from '../../components/browse/Pager';
import { SelectionBar } from '../../components/browse/SelectionBar';
import { SeriesCard } from '../../components/browse/SeriesCard';
import { useSelection } from '../../components/browse/selection';
import { ErrorState } from '../../components/ErrorState';
import { LibraryToolbar, libraryScope } from './LibraryToolbar';
import { SeriesFilterDrawer } from './SeriesFilterDrawer';
import {
  DEFAULT_SERIES_SORT,
  letterCondition,
  SERIES_FILTER_KEYS,
  seriesCardLine,
  seriesFilterCondition,
  seriesSortOptions,
} from './series-filters';

const KEYS = SERIES_FILTER_KEYS;

/**
 * The series of a library, or of all libraries (ui.md §4.1): filters, sort, letter and page live in the URL; filters
 * and sort are also remembered per library and restored when the URL carries none.
 */
export function SeriesBrowsePage() {
  const { t } = useTranslation();
  const { libraryId = ALL_LIBRARIES } = useParams();
  const [params, setParams] = useSearchParams();
  const admin = useIsAdmin();
  const pageSize = usePageSize();
  const storedFilters = usePreferences((p) => p.library.filters[libraryId]);
  const storedSort = usePreferences((p) => p.library.sort[libraryId]);
  const [drawer, setDrawer] = useState(false);
  const dialogs = useItemDialogs();
  const sortOptions = useMemo(() => seriesSortOptions(t), [t]);

  const urlHasState = hasFilters(params, KEYS) || params.has('sort');
  const remembered = useMemo(
    () => ({
      filters: sanitize(storedFilters, KEYS),
      sort: storedSort ? parseSort(`${storedSort.key},${storedSort.order}`, sortOptions) : null,
    }),
    [storedFilters, storedSort, sortOptions],
  );
  const filters: FilterState = urlHasState ? readFilters(params, KEYS) : remembered.filters;
  const sort: SortValue =
    (urlHasState ? parseSort(params.get('sort'), sortOptions) : remembered.sort) ?? DEFAULT_SERIES_SORT;
  const letter = params.get('nav') ?? ALL;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  // Arriving without filters in the URL: the remembered ones go into it, so it can be shared and reloaded as is.
  useEffect(() => {
    if (urlHasState || (activeCount(remembered.filters) === 0 && !remembered.sort)) return;
    const next = writeFilters(params, KEYS, remembered.filters);
    next.set('sort', sortParam(remembered.sort ?? DEFAULT_SERIES_SORT));
    setParams(next, { replace: true });
  }, [urlHasState, remembered, params, setParams]);

  const apply = (nextFilters: FilterState, nextSortValue: SortValue, opts: { clearLetter?: boolean } = {}) => {
    const next = writeFilters(params, KEYS, nextFilters);
    next.set('sort', sortParam(nextSortValue));
    next.delete('page');
    if (opts.clearLetter) next.delete('nav');
    setParams(next, { replace: true });
    updatePreferences((p) => ({
      ...p,
      library: {
        ...p.library,
        filters: { ...p.library.filters, [libraryId]: nextFilters },
        sort: { ...p.library.sort, [libraryId]: nextSortValue },
      },
    }));
  };
  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === null) next.delete(key);
    else next.set(key, value);
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: key !== 'page' });
  };

  const scope: SeriesCondition | undefined =
    libraryId === ALL_LIBRARIES ? undefined : { libraryId: { operator: 'is', value: libraryId } };
  const filterCondition = seriesFilterCondition(filters);
  const list = useSeriesList({
    condition: allOf<SeriesCondition>([scope, filterCondition, letterCondition(letter)]),
    page: page - 1,
    size: pageSize,
    sort: [sortParam(sort)],
  });
  const groups = useAlphabeticalGroups({ condition: allOf<SeriesCondition>([scope, filterCondition]) });
  const selection = useSelection(`${libraryId}?${params.toString()}&${pageSize}`);
  useScrollTopOnChange(page);

  const data = list.data;
  const totalPages = data?.totalPages ?? 0;
  // A page past the end (fewer results since): go to the last one.
  useEffect(() => {
    if (data && !list.isPlaceholderData && totalPages > 0 && page > totalPages) {
      const next = new URLSearchParams(params);
      next.set('page', String(totalPages));
      setParams(next, { replace: true });
    }
  }, [data, list.isPlaceholderData, totalPages, page, params, setParams]);

  const filtered = activeCount(filters) > 0;
  const modified = filtered || sort.key !== DEFAULT_SERIES_SORT.key || sort.order !== DEFAULT_SERIES_SORT.order;
  const line = seriesCardLine(sort.key);
  const reset = () => apply({}, DEFAULT_SERIES_SORT);

  return (
    <>
      <LibraryToolbar
        libraryId={libraryId}
        view="BROWSE"
        total={data?.totalElements}
        hidden={selection.count > 0}
        actions={
          <>
            <DisplayMenu />
            <FilterButton count={activeCount(filters)} modified={modified} onClick={() => setDrawer(true)} />
          </>
        }
      />
      <SelectionBar selection={selection} page={{ kind: 'series', items: data?.content ?? [] }} dialogs={dialogs} />
      <Box sx={{ px: { xs: 1.5, sm: 2 }, pb: 2 }}>
        <AlphabeticalNav
          selected={letter}
          counts={groups.data}
          onSelect={(symbol) => setParam('nav', symbol === ALL ? null : symbol)}
        />
        <Pager page={page} totalPages={totalPages} onChange={(p) => setParam('page', String(p))} />
        {list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : data && data.totalElements === 0 ? (
          filtered || letter !== ALL ? (
            <EmptyState
              icon={<FilterListOffIcon />}
              title={t('library.empty.filteredTitle')}
              subtitle={t('library.empty.filteredHint')}
            >
              <Button variant="contained" onClick={() => apply({}, DEFAULT_SERIES_SORT, { clearLetter: true })}>
                {t('library.empty.resetFilters')}
              </Button>
            </EmptyState>
          ) : (
            <EmptyState icon={<CollectionsBookmarkOutlinedIcon />} title={t('library.empty.nothing')} />
          )
        ) : (
          <Box sx={{ opacity: list.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
            <ItemGrid
              kind="series"
              items={data?.content}
              selection={selection}
              skeletons={pageSize > 50 ? 50 : pageSize}
              label={t('library.views.series')}
              renderItem={(series, select) => (
                <SeriesCard
                  series={series}
                  line={line}
                  onEdit={admin ? () => dialogs.editSeries([series]) : undefined}
                  {...select}
                />
              )}
            />
          </Box>
        )}
        <Pager page={page} totalPages={totalPages} onChange={(p) => setParam('page', String(p))} />
      </Box>
      <SeriesFilterDrawer
        open={drawer}
        onClose={() => setDrawer(false)}
        scope={{ libraryIds: libraryScope(libraryId) }}
        filters={filters}
        onFiltersChange={(next) => apply(next, sort)}
        sort={sort}
        sortOptions={sortOptions}
        onSortChange={(key) => apply(filters, nextSort(sort, key))}
        modified={modified}
        onReset={reset}
      />
      {dialogs.element}
    </>
  );
}

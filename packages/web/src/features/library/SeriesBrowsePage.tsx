import { useCallback, useMemo, useState } from 'react';
import type { SeriesDto } from '@quire/api';
import { useParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FilterListOffIcon from '@mui/icons-material/FilterListOff';
import CollectionsBookmarkOutlinedIcon from '@mui/icons-material/CollectionsBookmarkOutlined';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../../api/auth';
import { allOf } from '../../api/books';
import { useAlphabeticalGroups, useSeriesList, type SeriesCondition } from '../../api/series';
import { ALL_LIBRARIES } from '../../app/preferences';
import { ALL, AlphabeticalNav } from '../../components/browse/AlphabeticalNav';
import { useSeriesGroups } from '../ui-settings/ui-settings';
import { useItemDialogs } from '../../components/browse/dialogs';
import { EmptyState } from '../../components/browse/EmptyState';
import { FilterButton } from '../../components/browse/FilterDrawer';
import { activeCount, nextSort, sortParam } from '../../components/browse/filters';
import type { SelectableCardProps } from '../../components/browse/ItemCard';
import { ItemGrid } from '../../components/browse/ItemGrid';
import { DisplayMenu, Pager, usePageSize, useScrollTopOnChange } from '../../components/browse/Pager';
import { SelectionBar } from '../../components/browse/SelectionBar';
import { SeriesCard } from '../../components/browse/SeriesCard';
import { useSelection } from '../../components/browse/selection';
import { ErrorState } from '../../components/ErrorState';
import { LibraryToolbar, libraryScope } from './LibraryToolbar';
import { SeriesFilterDrawer } from './SeriesFilterDrawer';
import { SERIES_MEMORY, useBrowseState, useClampPage } from './useBrowseState';
import {
  DEFAULT_SERIES_SORT,
  letterCondition,
  SERIES_FILTER_KEYS,
  seriesCardLine,
  seriesFilterCondition,
  seriesSortOptions,
} from './series-filters';

/**
 * The series of a library, or of all libraries (ui.md §4.1): filters, sort, letter and page live in the URL; filters
 * and sort are also remembered per library and restored when the URL carries none.
 */
export function SeriesBrowsePage() {
  const { t } = useTranslation();
  const { libraryId = ALL_LIBRARIES } = useParams();
  const admin = useIsAdmin();
  const pageSize = usePageSize();
  const [drawer, setDrawer] = useState(false);
  const dialogs = useItemDialogs();
  const sortOptions = useMemo(() => seriesSortOptions(t), [t]);
  const state = useBrowseState({
    libraryId,
    keys: SERIES_FILTER_KEYS,
    sortOptions,
    defaultSort: DEFAULT_SERIES_SORT,
    memory: SERIES_MEMORY,
  });
  const { filters, sort, page, params, apply, setParam } = state;
  const letter = params.get('nav') ?? ALL;
  const letterGroups = useSeriesGroups();

  const scope: SeriesCondition | undefined =
    libraryId === ALL_LIBRARIES ? undefined : { libraryId: { operator: 'is', value: libraryId } };
  const filterCondition = seriesFilterCondition(filters);
  const list = useSeriesList({
    condition: allOf<SeriesCondition>([scope, filterCondition, letterCondition(letter, letterGroups)]),
    page: page - 1,
    size: pageSize,
    sort: [sortParam(sort)],
  });
  const groups = useAlphabeticalGroups({ condition: allOf<SeriesCondition>([scope, filterCondition]) });
  const selection = useSelection(`${libraryId}?${params.toString()}&${pageSize}`);
  useScrollTopOnChange(page);
  useClampPage(state, list);

  const data = list.data;
  const totalPages = data?.totalPages ?? 0;
  const line = seriesCardLine(sort.key);
  const renderSeries = useCallback(
    (series: SeriesDto, select: SelectableCardProps) => (
      <SeriesCard
        series={series}
        line={line}
        onEdit={admin ? () => dialogs.editSeries([series]) : undefined}
        {...select}
      />
    ),
    [admin, line, dialogs],
  );
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
            <FilterButton count={activeCount(filters)} modified={state.modified} onClick={() => setDrawer(true)} />
          </>
        }
      />
      <SelectionBar selection={selection} page={{ kind: 'series', items: data?.content ?? [] }} dialogs={dialogs} />
      <Box sx={{ px: { xs: 1.5, sm: 2 }, pb: 2 }}>
        <AlphabeticalNav
          selected={letter}
          counts={groups.data}
          groups={letterGroups}
          onSelect={(symbol) => setParam('nav', symbol === ALL ? null : symbol)}
        />
        <Pager page={page} totalPages={totalPages} onChange={(p) => setParam('page', String(p))} />
        {list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : data && data.totalElements === 0 ? (
          state.filtered || letter !== ALL ? (
            <EmptyState
              icon={<FilterListOffIcon />}
              title={t('library.empty.filteredTitle')}
              subtitle={t('library.empty.filteredHint')}
            >
              <Button variant="contained" onClick={() => apply({}, DEFAULT_SERIES_SORT, { clearParams: ['nav'] })}>
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
              renderItem={renderSeries}
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
        modified={state.modified}
        onReset={reset}
      />
      {dialogs.element}
    </>
  );
}

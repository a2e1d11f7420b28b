import { useCallback, useMemo, useState } from 'react';
import type { BookDto } from '@quire/api';
import { useParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AutoStoriesOutlinedIcon from '@mui/icons-material/AutoStoriesOutlined';
import FilterListOffIcon from '@mui/icons-material/FilterListOff';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../../api/auth';
import { allOf, useBooks, type BookCondition } from '../../api/books';
import { ALL_LIBRARIES } from '../../app/preferences';
import { BookCard } from '../../components/browse/BookCard';
import { useItemDialogs } from '../../components/browse/dialogs';
import { EmptyState } from '../../components/browse/EmptyState';
import { FilterButton } from '../../components/browse/FilterDrawer';
import { activeCount, nextSort, sortParam } from '../../components/browse/filters';
import type { SelectableCardProps } from '../../components/browse/ItemCard';
import { ItemGrid } from '../../components/browse/ItemGrid';
import { DisplayMenu, Pager, usePageSize, useScrollTopOnChange } from '../../components/browse/Pager';
import { SelectionBar } from '../../components/browse/SelectionBar';
import { useSelection } from '../../components/browse/selection';
import { ErrorState } from '../../components/ErrorState';
import { bookCardLine, bookFilterGroups } from '../items';
import { DEFAULT_LIBRARY_BOOK_SORT, LIBRARY_BOOK_FILTER_KEYS, libraryBookSortOptions } from './book-filters';
import { LibraryBooksFilterDrawer } from './LibraryBooksFilterDrawer';
import { LibraryToolbar, libraryScope } from './LibraryToolbar';
import { BOOKS_MEMORY, useBrowseState, useClampPage } from './useBrowseState';

/**
 * Every book of a library, or of all libraries (ui.md §4.2): `POST /api/v1/books/list` with the library and the
 * filters as conditions. Filters, sort and page live in the URL and are remembered per library, as on the series tab.
 * Cards name their series; their sub-line follows the sort.
 */
export function BooksBrowsePage() {
  const { t } = useTranslation();
  const { libraryId = ALL_LIBRARIES } = useParams();
  const admin = useIsAdmin();
  const pageSize = usePageSize();
  const [drawer, setDrawer] = useState(false);
  const dialogs = useItemDialogs();
  const sortOptions = useMemo(() => libraryBookSortOptions(t), [t]);
  const state = useBrowseState({
    libraryId,
    keys: LIBRARY_BOOK_FILTER_KEYS,
    sortOptions,
    defaultSort: DEFAULT_LIBRARY_BOOK_SORT,
    memory: BOOKS_MEMORY,
  });
  const { filters, sort, page, params, apply, setParam } = state;

  const scope: BookCondition | undefined =
    libraryId === ALL_LIBRARIES ? undefined : { libraryId: { operator: 'is', value: libraryId } };
  const list = useBooks({
    condition: allOf<BookCondition>([scope, ...bookFilterGroups(LIBRARY_BOOK_FILTER_KEYS, filters)]),
    page: page - 1,
    size: pageSize,
    sort: [sortParam(sort)],
  });
  const selection = useSelection(`${libraryId}?${params.toString()}&${pageSize}`);
  useScrollTopOnChange(page);
  useClampPage(state, list);

  const data = list.data;
  const totalPages = data?.totalPages ?? 0;
  const line = bookCardLine(sort.key);
  const renderBook = useCallback(
    (book: BookDto, select: SelectableCardProps) => (
      <BookCard
        book={book}
        showSeries
        line={line}
        onEdit={admin ? () => dialogs.editBooks([book]) : undefined}
        {...select}
      />
    ),
    [admin, line, dialogs],
  );
  const reset = () => apply({}, DEFAULT_LIBRARY_BOOK_SORT);

  return (
    <>
      <LibraryToolbar
        libraryId={libraryId}
        view="BOOKS"
        total={data?.totalElements}
        hidden={selection.count > 0}
        actions={
          <>
            <DisplayMenu />
            <FilterButton count={activeCount(filters)} modified={state.modified} onClick={() => setDrawer(true)} />
          </>
        }
      />
      <SelectionBar selection={selection} page={{ kind: 'book', items: data?.content ?? [] }} dialogs={dialogs} />
      <Box sx={{ px: { xs: 1.5, sm: 2 }, pb: 2 }}>
        <Pager page={page} totalPages={totalPages} onChange={(p) => setParam('page', String(p))} reserveSpace />
        {list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : data && data.totalElements === 0 ? (
          state.filtered ? (
            <EmptyState
              icon={<FilterListOffIcon />}
              title={t('library.empty.filteredTitle')}
              subtitle={t('library.empty.filteredHint')}
            >
              <Button variant="contained" onClick={reset}>
                {t('library.empty.resetFilters')}
              </Button>
            </EmptyState>
          ) : (
            <EmptyState icon={<AutoStoriesOutlinedIcon />} title={t('library.empty.nothing')} />
          )
        ) : (
          <Box sx={{ opacity: list.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
            <ItemGrid
              kind="book"
              items={data?.content}
              selection={selection}
              skeletons={pageSize > 50 ? 50 : pageSize}
              label={t('library.views.books')}
              renderItem={renderBook}
            />
          </Box>
        )}
        <Pager page={page} totalPages={totalPages} onChange={(p) => setParam('page', String(p))} />
      </Box>
      <LibraryBooksFilterDrawer
        open={drawer}
        onClose={() => setDrawer(false)}
        libraryIds={libraryScope(libraryId)}
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

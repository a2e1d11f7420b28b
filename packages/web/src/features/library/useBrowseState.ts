import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { updatePreferences, usePreferences, type Preferences } from '../../app/preferences';
import {
  activeCount,
  hasFilters,
  parseSort,
  readFilters,
  sanitize,
  sortParam,
  writeFilters,
  type FilterState,
  type SortOption,
  type SortValue,
} from '../../components/browse/filters';

/** Where a tab remembers its filters and sort, per library (ui.md §1.8). */
export const SERIES_MEMORY = { filters: 'filters', sort: 'sort' } as const;
export const BOOKS_MEMORY = { filters: 'bookFilters', sort: 'bookSort' } as const;
type Memory = typeof SERIES_MEMORY | typeof BOOKS_MEMORY;

export interface BrowseStateOptions {
  libraryId: string;
  /** The filter keys of the tab, as they appear in the URL. */
  keys: readonly string[];
  sortOptions: readonly SortOption[];
  defaultSort: SortValue;
  memory: Memory;
}

/**
 * Filters, sort and page of a library's browse tab (ui.md §4.1, §4.2): they live in the URL, so a view can be shared
 * and reloaded; filters and sort are also remembered per library and come back when the URL carries none (they are
 * then written into it). A URL that carries some wins.
 */
export function useBrowseState({ libraryId, keys, sortOptions, defaultSort, memory }: BrowseStateOptions) {
  const [params, setParams] = useSearchParams();
  const storedFilters = usePreferences((p) => p.library[memory.filters][libraryId]);
  const storedSort = usePreferences((p) => p.library[memory.sort][libraryId]);

  const urlHasState = hasFilters(params, keys) || params.has('sort');
  const remembered = useMemo(
    () => ({
      filters: sanitize(storedFilters, keys),
      sort: storedSort ? parseSort(`${storedSort.key},${storedSort.order}`, sortOptions) : null,
    }),
    [storedFilters, storedSort, keys, sortOptions],
  );
  const filters: FilterState = urlHasState ? readFilters(params, keys) : remembered.filters;
  const sort: SortValue = (urlHasState ? parseSort(params.get('sort'), sortOptions) : remembered.sort) ?? defaultSort;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  useEffect(() => {
    if (urlHasState || (activeCount(remembered.filters) === 0 && !remembered.sort)) return;
    const next = writeFilters(params, keys, remembered.filters);
    next.set('sort', sortParam(remembered.sort ?? defaultSort));
    setParams(next, { replace: true });
  }, [urlHasState, remembered, params, keys, defaultSort, setParams]);

  /** New filters or sort: into the URL (back to page 1, replacing the entry) and into memory. */
  const apply = (nextFilters: FilterState, nextSort: SortValue, opts: { clearParams?: string[] } = {}) => {
    const next = writeFilters(params, keys, nextFilters);
    next.set('sort', sortParam(nextSort));
    next.delete('page');
    for (const key of opts.clearParams ?? []) next.delete(key);
    // Committed at once: the router renders a navigation as a transition, which a loaded device may not have rendered
    // by the next click, and that click's change would then be made on the filters before this one and drop it.
    setParams(next, { replace: true, flushSync: true });
    updatePreferences((p): Preferences => ({
      ...p,
      library: {
        ...p.library,
        [memory.filters]: { ...p.library[memory.filters], [libraryId]: nextFilters },
        [memory.sort]: { ...p.library[memory.sort], [libraryId]: nextSort },
      },
    }));
  };

  /** Another query parameter (page, letter); anything but the page goes back to page 1. */
  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === null) next.delete(key);
    else next.set(key, value);
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: key !== 'page', flushSync: true });
  };

  const filtered = activeCount(filters) > 0;
  const modified = filtered || sort.key !== defaultSort.key || sort.order !== defaultSort.order;
  return { params, setParams, filters, sort, page, filtered, modified, apply, setParam };
}

/** A page past the end (fewer results since, or a stale link): go to the last one. */
export function useClampPage(
  { page, params, setParams }: Pick<ReturnType<typeof useBrowseState>, 'page' | 'params' | 'setParams'>,
  list: { data?: { totalPages: number }; isPlaceholderData: boolean },
) {
  const totalPages = list.data?.totalPages ?? 0;
  const settled = !!list.data && !list.isPlaceholderData;
  useEffect(() => {
    if (!settled || totalPages === 0 || page <= totalPages) return;
    const next = new URLSearchParams(params);
    next.set('page', String(totalPages));
    setParams(next, { replace: true });
  }, [settled, totalPages, page, params, setParams]);
}

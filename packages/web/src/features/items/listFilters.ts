import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { ReadStatus } from '../../api/books';
import type { CollectionSeriesParams, SeriesStatus } from '../../api/series';
import { updatePreferences, usePreferences } from '../../app/preferences';
import {
  activeCount,
  hasFilters,
  parseToken,
  readFilters,
  sanitize,
  writeFilters,
  type FilterState,
} from '../../components/browse/filters';
import { AUTHOR_ROLES } from './detail/format';
import { parsePage } from './bookFilters';

/**
 * Filters of a collection's series and a read list's books. The server filters these lists with its older query
 * parameters (ui.md §8-§9), which only include: every value is an `is:` token, values of a group are ORed.
 */
export const COLLECTION_FILTER_KEYS = [
  'readStatus',
  'complete',
  'library',
  'status',
  'genre',
  'tag',
  'publisher',
  'language',
  'ageRating',
  'releaseYear',
  ...AUTHOR_ROLES,
] as const;

export const READ_LIST_FILTER_KEYS = ['readStatus', 'library', 'tag', ...AUTHOR_ROLES] as const;

const included = (state: FilterState, key: string): string[] =>
  (state[key] ?? [])
    .map(parseToken)
    .filter((t) => t.operator === 'is' && t.value !== undefined)
    .map((t) => t.value!);

const authors = (state: FilterState) =>
  AUTHOR_ROLES.flatMap((role) => included(state, role).map((n) => `${n},${role}`));
const orUndefined = <T>(list: T[]) => (list.length ? list : undefined);

/** The query parameters of `GET /api/v1/collections/{id}/series` for these filters. */
export function collectionSeriesParams(state: FilterState): CollectionSeriesParams {
  const complete = state.complete?.[0];
  return {
    read_status: orUndefined(included(state, 'readStatus') as ReadStatus[]),
    complete: complete === 'isTrue' ? true : complete === 'isFalse' ? false : undefined,
    library_id: orUndefined(included(state, 'library')),
    status: orUndefined(included(state, 'status') as SeriesStatus[]),
    genre: orUndefined(included(state, 'genre')),
    tag: orUndefined(included(state, 'tag')),
    publisher: orUndefined(included(state, 'publisher')),
    language: orUndefined(included(state, 'language')),
    age_rating: orUndefined(included(state, 'ageRating')),
    release_year: orUndefined(included(state, 'releaseYear')),
    author: orUndefined(authors(state)),
  };
}

/** The query parameters of `GET /api/v1/readlists/{id}/books` for these filters. */
export function readListBooksParams(state: FilterState) {
  return {
    read_status: orUndefined(included(state, 'readStatus') as ReadStatus[]),
    library_id: orUndefined(included(state, 'library')),
    tag: orUndefined(included(state, 'tag')),
    author: orUndefined(authors(state)),
  };
}

/**
 * Filters and page of a collection or read list page: in the URL, and remembered per list so they come back on the
 * next visit (ui.md §8). A URL carrying filters wins over the remembered ones.
 */
export function useListFilters(scope: 'collection' | 'readList', id: string, keys: readonly string[]) {
  const [params, setParams] = useSearchParams();
  const stored = usePreferences((p) => p[scope].filters[id]);
  const urlHasState = hasFilters(params, keys);
  const remembered = useMemo(() => sanitize(stored, keys), [stored, keys]);
  const filters: FilterState = urlHasState ? readFilters(params, keys) : remembered;

  useEffect(() => {
    if (urlHasState || activeCount(remembered) === 0) return;
    setParams(writeFilters(params, keys, remembered), { replace: true });
  }, [urlHasState, remembered, params, keys, setParams]);

  const apply = (state: FilterState) => {
    const next = writeFilters(params, keys, state);
    next.delete('page');
    // At once, as the library tabs do (useBrowseState): a second quick change must see this one.
    setParams(next, { replace: true, flushSync: true });
    updatePreferences((p) => ({ ...p, [scope]: { ...p[scope], filters: { ...p[scope].filters, [id]: state } } }));
  };
  const setPage = (page: number) => {
    const next = new URLSearchParams(params);
    if (page > 1) next.set('page', String(page));
    else next.delete('page');
    setParams(next);
  };
  return { filters, apply, page: parsePage(params), setPage, params };
}

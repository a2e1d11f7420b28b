import { allOf, inLibraries, type BookCondition } from '../../api/books';
import type { SeriesCondition } from '../../api/series';

/** What a search covers: every library the user sees, or one. */
export interface SearchScope {
  libraryId?: string;
}

const libraryIds = (scope: SearchScope) => (scope.libraryId ? [scope.libraryId] : undefined);

/**
 * The four searches of the search box and the results page (ui.md §1.2, §10). One-shots are left out of the series
 * since they show among the books.
 */
export function searchRequests(q: string, scope: SearchScope) {
  const ids = libraryIds(scope);
  return {
    series: {
      fullTextSearch: q,
      condition: allOf<SeriesCondition>([{ oneShot: { operator: 'isFalse' } }, inLibraries(ids)]),
    },
    books: { fullTextSearch: q, condition: allOf<BookCondition>([inLibraries(ids)]) },
    lists: { search: q, libraryIds: ids },
  };
}

/** The results page for a query, keeping the scope. */
export function searchPath(q: string, scope: SearchScope): string {
  const params = new URLSearchParams({ q });
  if (scope.libraryId) params.set('library', scope.libraryId);
  return `/search?${params}`;
}

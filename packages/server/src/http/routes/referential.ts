import type { SeriesScopeQuery, SeriesValuesQuery } from '@quire/api';
import type { referentialOperations } from '@quire/api/operations';
import type { CurrentUser } from '../../domain/user.js';
import type { EntityFilter, ReferentialQueries, SeriesValueKind } from '../../db/queries/referential.js';
import type { Handlers, OperationIdsOf } from '../operations.js';
import { pageOf, pageRequest } from '../listing.js';

type FilterKey = 'library_id' | 'collection_id' | 'series_id' | 'readlist_id';
const KIND: Record<FilterKey, EntityFilter['kind']> = {
  library_id: 'library',
  collection_id: 'collection',
  series_id: 'series',
  readlist_id: 'readlist',
};

/** The first filter given, in `keys` order (Komga's precedence); null when none. */
function filterOf(query: Partial<Record<FilterKey, string[]>>, keys: readonly FilterKey[]): EntityFilter | null {
  for (const key of keys) {
    const ids = query[key] ?? [];
    if (ids.length > 0) return { kind: KIND[key], ids };
  }
  return null;
}

const ENTITY_FILTERS: FilterKey[] = ['library_id', 'collection_id', 'series_id', 'readlist_id'];
const SERIES_FILTERS: FilterKey[] = ['library_id', 'collection_id'];

export interface ReferentialRouteDeps {
  referential: ReferentialQueries;
}

/**
 * Referential values (api.md §3.6). Every list shows only what the caller may see: his libraries, and his age
 * and sharing-label restrictions (also on `/api/v1`, where Komga applies library sharing only). `/api/v2` answers
 * pages of the whole ordered list, `/api/v1` plain arrays.
 */
export function referentialHandlers({
  referential,
}: ReferentialRouteDeps): Handlers<OperationIdsOf<typeof referentialOperations>> {
  // One handler for each kind of series value; the operations differ only by path.
  const seriesValues = (kind: SeriesValueKind) => async (req: { user: CurrentUser; query: SeriesValuesQuery }) =>
    pageOf(
      await referential.seriesValues(req.user, kind, {
        search: req.query.search,
        filter: filterOf(req.query, SERIES_FILTERS),
      }),
      pageRequest(req.query),
    );
  const seriesValuesV1 = (kind: SeriesValueKind) => (req: { user: CurrentUser; query: SeriesScopeQuery }) =>
    referential.seriesValues(req.user, kind, { filter: filterOf(req.query, SERIES_FILTERS) });

  return {
    getAuthors: async (req) => {
      const { search, role } = req.query;
      const filter = filterOf(req.query, ENTITY_FILTERS);
      return pageOf(await referential.authors(req.user, { search, role, filter }), pageRequest(req.query));
    },
    getAuthorsNames: async (req) => {
      const { search, role } = req.query;
      const filter = filterOf(req.query, ENTITY_FILTERS);
      return pageOf(await referential.authorNames(req.user, { search, role, filter }), pageRequest(req.query));
    },
    getAuthorsRoles: async (req) =>
      pageOf(
        await referential.authorRoles(req.user, { filter: filterOf(req.query, ENTITY_FILTERS) }),
        pageRequest(req.query),
      ),
    getGenres: seriesValues('genre'),
    getPublishers: seriesValues('publisher'),
    getLanguages: seriesValues('language'),
    getSharingLabels: seriesValues('sharingLabel'),
    getTags: async (req) => {
      const q = { search: req.query.search, filter: filterOf(req.query, ENTITY_FILTERS) };
      const include = req.query.include ?? 'BOTH';
      const values =
        include === 'SERIES'
          ? await referential.seriesValues(req.user, 'seriesTag', q)
          : include === 'BOOK'
            ? await referential.bookTags(req.user, q)
            : await referential.allTags(req.user, q);
      return pageOf(values, pageRequest(req.query));
    },
    getSeriesReleaseYears: async (req) =>
      pageOf(
        await referential.releaseYears(req.user, { filter: filterOf(req.query, SERIES_FILTERS) }),
        pageRequest(req.query),
      ),
    getAgeRatings: async (req) => {
      const ratings = await referential.ageRatings(req.user, { filter: filterOf(req.query, SERIES_FILTERS) });
      return pageOf(
        ratings.filter((r): r is number => r !== null),
        pageRequest(req.query),
      );
    },

    getAuthorsDeprecated: (req) =>
      referential.authors(req.user, {
        search: req.query.search,
        filter: filterOf(req.query, ['library_id', 'collection_id', 'series_id']),
      }),
    getAuthorsNames_1: (req) => referential.authorNames(req.user, { search: req.query.search }),
    getAuthorsRoles_1: (req) => referential.authorRoles(req.user, {}),
    getGenres_1: seriesValuesV1('genre'),
    getPublishers_1: seriesValuesV1('publisher'),
    getLanguages_1: seriesValuesV1('language'),
    getSharingLabels_1: seriesValuesV1('sharingLabel'),
    getSeriesTags: seriesValuesV1('seriesTag'),
    getTags_1: (req) => referential.allTags(req.user, { filter: filterOf(req.query, SERIES_FILTERS) }),
    getBookTags: (req) =>
      referential.bookTags(req.user, { filter: filterOf(req.query, ['series_id', 'readlist_id', 'library_id']) }),
    // Komga answers strings here, "None" standing for series without a rating.
    getAgeRatings_1: async (req) =>
      (await referential.ageRatings(req.user, { filter: filterOf(req.query, SERIES_FILTERS) })).map((r) =>
        r === null ? 'None' : String(r),
      ),
    getSeriesReleaseDates: (req) => referential.releaseYears(req.user, { filter: filterOf(req.query, SERIES_FILTERS) }),
  };
}

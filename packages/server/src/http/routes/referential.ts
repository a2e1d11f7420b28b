import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AuthorDto, PageAuthorDto, PageIntegerDto, PageStringDto, ReferentialQuery } from '@quire/api';
import type { EntityFilter, SeriesValueKind } from '../../db/queries/referential.js';
import type { AppDeps } from '../deps.js';
import { toPage } from '../mappers/users.js';

const DEFAULT_SIZE = 20;
const MAX_SIZE = 2000;
const Strings = { 200: Type.Array(Type.String()) };

type FilterKey = 'library_id' | 'collection_id' | 'series_id' | 'readlist_id';
const KIND: Record<FilterKey, EntityFilter['kind']> = {
  library_id: 'library',
  collection_id: 'collection',
  series_id: 'series',
  readlist_id: 'readlist',
};

/** The first filter given, in `keys` order (Komga's precedence); null when none. */
function filterOf(query: ReferentialQuery, keys: readonly FilterKey[]): EntityFilter | null {
  for (const key of keys) {
    const ids = query[key] ?? [];
    if (ids.length > 0) return { kind: KIND[key], ids };
  }
  return null;
}

/** One page of already ordered values (api.md §1.4: page ≥ 0, size 1..2000 else 20, or everything). */
function paged<T>(values: T[], q: ReferentialQuery) {
  const page = Math.max(0, q.page ?? 0);
  const size = q.size === undefined || q.size < 1 ? DEFAULT_SIZE : Math.min(q.size, MAX_SIZE);
  const unpaged = q.unpaged === true;
  const content = unpaged ? values : values.slice(page * size, page * size + size);
  return toPage(content, values.length, { page, size, unpaged });
}

const ENTITY_FILTERS: FilterKey[] = ['library_id', 'collection_id', 'series_id', 'readlist_id'];
const SERIES_FILTERS: FilterKey[] = ['library_id', 'collection_id'];

/**
 * Referential values (api.md §3.6). Every list shows only what the caller may see: his libraries, and his age
 * and sharing-label restrictions (also on `/api/v1`, where Komga applies library sharing only).
 */
export const referentialRoutes: FastifyPluginAsync<AppDeps> = async (instance, { referential }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const auth = app.authenticate;
  const schema = (response: object) => ({ querystring: ReferentialQuery, response });

  // --- /api/v2: pages.

  app.get('/api/v2/authors', { schema: schema({ 200: PageAuthorDto }), onRequest: auth }, async (req) => {
    const { search, role } = req.query;
    const filter = filterOf(req.query, ENTITY_FILTERS);
    return paged(await referential.authors(req.user!, { search, role, filter }), req.query);
  });

  app.get('/api/v2/authors/names', { schema: schema({ 200: PageStringDto }), onRequest: auth }, async (req) => {
    const { search, role } = req.query;
    const filter = filterOf(req.query, ENTITY_FILTERS);
    return paged(await referential.authorNames(req.user!, { search, role, filter }), req.query);
  });

  app.get('/api/v2/authors/roles', { schema: schema({ 200: PageStringDto }), onRequest: auth }, async (req) =>
    paged(await referential.authorRoles(req.user!, { filter: filterOf(req.query, ENTITY_FILTERS) }), req.query),
  );

  const seriesValuesV2 = (path: string, kind: SeriesValueKind) =>
    app.get(path, { schema: schema({ 200: PageStringDto }), onRequest: auth }, async (req) =>
      paged(
        await referential.seriesValues(req.user!, kind, {
          search: req.query.search,
          filter: filterOf(req.query, SERIES_FILTERS),
        }),
        req.query,
      ),
    );
  seriesValuesV2('/api/v2/genres', 'genre');
  seriesValuesV2('/api/v2/publishers', 'publisher');
  seriesValuesV2('/api/v2/languages', 'language');
  seriesValuesV2('/api/v2/sharing-labels', 'sharingLabel');

  app.get('/api/v2/tags', { schema: schema({ 200: PageStringDto }), onRequest: auth }, async (req) => {
    const q = { search: req.query.search, filter: filterOf(req.query, ENTITY_FILTERS) };
    const include = req.query.include ?? 'BOTH';
    const values =
      include === 'SERIES'
        ? await referential.seriesValues(req.user!, 'seriesTag', q)
        : include === 'BOOK'
          ? await referential.bookTags(req.user!, q)
          : await referential.allTags(req.user!, q);
    return paged(values, req.query);
  });

  app.get('/api/v2/series/release-years', { schema: schema({ 200: PageStringDto }), onRequest: auth }, async (req) =>
    paged(await referential.releaseYears(req.user!, { filter: filterOf(req.query, SERIES_FILTERS) }), req.query),
  );

  app.get('/api/v2/age-ratings', { schema: schema({ 200: PageIntegerDto }), onRequest: auth }, async (req) => {
    const ratings = await referential.ageRatings(req.user!, { filter: filterOf(req.query, SERIES_FILTERS) });
    return paged(
      ratings.filter((r): r is number => r !== null),
      req.query,
    );
  });

  // --- /api/v1 (deprecated): plain arrays, not paged.

  app.get('/api/v1/authors', { schema: schema({ 200: Type.Array(AuthorDto) }), onRequest: auth }, async (req) =>
    referential.authors(req.user!, {
      search: req.query.search,
      filter: filterOf(req.query, ['library_id', 'collection_id', 'series_id']),
    }),
  );

  app.get('/api/v1/authors/names', { schema: schema(Strings), onRequest: auth }, (req) =>
    referential.authorNames(req.user!, { search: req.query.search }),
  );

  app.get('/api/v1/authors/roles', { schema: schema(Strings), onRequest: auth }, (req) =>
    referential.authorRoles(req.user!, {}),
  );

  const seriesValuesV1 = (path: string, kind: SeriesValueKind) =>
    app.get(path, { schema: schema(Strings), onRequest: auth }, (req) =>
      referential.seriesValues(req.user!, kind, { filter: filterOf(req.query, SERIES_FILTERS) }),
    );
  seriesValuesV1('/api/v1/genres', 'genre');
  seriesValuesV1('/api/v1/publishers', 'publisher');
  seriesValuesV1('/api/v1/languages', 'language');
  seriesValuesV1('/api/v1/sharing-labels', 'sharingLabel');
  seriesValuesV1('/api/v1/tags/series', 'seriesTag');

  app.get('/api/v1/tags', { schema: schema(Strings), onRequest: auth }, (req) =>
    referential.allTags(req.user!, { filter: filterOf(req.query, SERIES_FILTERS) }),
  );

  app.get('/api/v1/tags/book', { schema: schema(Strings), onRequest: auth }, (req) =>
    referential.bookTags(req.user!, { filter: filterOf(req.query, ['series_id', 'readlist_id', 'library_id']) }),
  );

  // Komga answers strings here, "None" standing for series without a rating.
  app.get('/api/v1/age-ratings', { schema: schema(Strings), onRequest: auth }, async (req) =>
    (await referential.ageRatings(req.user!, { filter: filterOf(req.query, SERIES_FILTERS) })).map((r) =>
      r === null ? 'None' : String(r),
    ),
  );

  app.get('/api/v1/series/release-dates', { schema: schema(Strings), onRequest: auth }, (req) =>
    referential.releaseYears(req.user!, { filter: filterOf(req.query, SERIES_FILTERS) }),
  );
};

import { Type, type TObject, type TSchema } from 'typebox';
import { AuthorDto } from '../books.js';
import {
  AuthorRolesQuery,
  AuthorsQuery,
  AuthorsV1Query,
  BookTagsQuery,
  PageAuthorDto,
  PageIntegerDto,
  PageStringDto,
  SearchQuery,
  SeriesScopePageQuery,
  SeriesScopeQuery,
  SeriesValuesQuery,
  TagsQuery,
} from '../referential.js';
import { defineOperation } from './operation.js';

/**
 * Referential values (api.md §3.6): authors, genres, tags, publishers… for every user, each list limited to what
 * the caller may see. `/api/v2` answers pages, the deprecated `/api/v1` plain arrays.
 */
const tags = ['Referential metadata'] as const;
const deprecated = { tags: ['Deprecated', ...tags], deprecated: true } as const;
const Strings = Type.Array(Type.String());

const list = <const Id extends string, const P extends string, const Q extends TObject, const R extends TSchema>(
  operationId: Id,
  path: P,
  summary: string,
  query: Q,
  response: R,
) =>
  defineOperation({
    operationId,
    method: 'GET',
    path,
    tags,
    summary,
    access: 'user',
    query,
    responses: { 200: response },
  });

const listV1 = <const Id extends string, const P extends string, const Q extends TObject, const R extends TSchema>(
  operationId: Id,
  path: P,
  summary: string,
  query: Q,
  response: R,
) => ({ ...list(operationId, path, summary, query, response), ...deprecated });

export const referentialOperations = {
  getAuthors: list('getAuthors', '/api/v2/authors', 'List authors', AuthorsQuery, PageAuthorDto),
  getAuthorsNames: list('getAuthorsNames', '/api/v2/authors/names', 'List authors names', AuthorsQuery, PageStringDto),
  getAuthorsRoles: list(
    'getAuthorsRoles',
    '/api/v2/authors/roles',
    'List authors roles',
    AuthorRolesQuery,
    PageStringDto,
  ),
  getGenres: list('getGenres', '/api/v2/genres', 'List genres', SeriesValuesQuery, PageStringDto),
  getPublishers: list('getPublishers', '/api/v2/publishers', 'List publishers', SeriesValuesQuery, PageStringDto),
  getLanguages: list('getLanguages', '/api/v2/languages', 'List languages', SeriesValuesQuery, PageStringDto),
  getSharingLabels: list(
    'getSharingLabels',
    '/api/v2/sharing-labels',
    'List sharing labels',
    SeriesValuesQuery,
    PageStringDto,
  ),
  getTags: list('getTags', '/api/v2/tags', 'List tags', TagsQuery, PageStringDto),
  getSeriesReleaseYears: list(
    'getSeriesReleaseYears',
    '/api/v2/series/release-years',
    'List series release years',
    SeriesScopePageQuery,
    PageStringDto,
  ),
  getAgeRatings: list('getAgeRatings', '/api/v2/age-ratings', 'List age ratings', SeriesScopePageQuery, PageIntegerDto),

  getAuthorsDeprecated: listV1(
    'getAuthorsDeprecated',
    '/api/v1/authors',
    'List authors',
    AuthorsV1Query,
    Type.Array(AuthorDto),
  ),
  getAuthorsNames_1: listV1('getAuthorsNames_1', '/api/v1/authors/names', "List authors' names", SearchQuery, Strings),
  getAuthorsRoles_1: listV1(
    'getAuthorsRoles_1',
    '/api/v1/authors/roles',
    "List authors' roles",
    Type.Object({}),
    Strings,
  ),
  getGenres_1: listV1('getGenres_1', '/api/v1/genres', 'List genres', SeriesScopeQuery, Strings),
  getPublishers_1: listV1('getPublishers_1', '/api/v1/publishers', 'List publishers', SeriesScopeQuery, Strings),
  getLanguages_1: listV1('getLanguages_1', '/api/v1/languages', 'List languages', SeriesScopeQuery, Strings),
  getSharingLabels_1: listV1(
    'getSharingLabels_1',
    '/api/v1/sharing-labels',
    'List sharing labels',
    SeriesScopeQuery,
    Strings,
  ),
  getTags_1: listV1('getTags_1', '/api/v1/tags', 'List tags', SeriesScopeQuery, Strings),
  getSeriesTags: listV1('getSeriesTags', '/api/v1/tags/series', 'List series tags', SeriesScopeQuery, Strings),
  getBookTags: listV1('getBookTags', '/api/v1/tags/book', 'List book tags', BookTagsQuery, Strings),
  /** Strings, "None" standing for series without a rating, as Komga answers. */
  getAgeRatings_1: listV1('getAgeRatings_1', '/api/v1/age-ratings', 'List age ratings', SeriesScopeQuery, Strings),
  getSeriesReleaseDates: listV1(
    'getSeriesReleaseDates',
    '/api/v1/series/release-dates',
    'List series release dates',
    SeriesScopeQuery,
    Strings,
  ),
};

import { Type, type Static } from 'typebox';
import { AuthorDto } from './books.js';
import { PageDto, type Page } from './common.js';

/**
 * Referential values (api.md §3.6): authors, genres, tags, publishers… limited to what the caller may see.
 * `/api/v2` answers pages, `/api/v1` plain arrays.
 */

export const PageAuthorDto = PageDto(AuthorDto);
export type PageAuthorDto = Page<AuthorDto>;
export const PageStringDto = PageDto(Type.String());
export type PageStringDto = Page<string>;
export const PageIntegerDto = PageDto(Type.Integer());
export type PageIntegerDto = Page<number>;

/** What `GET /api/v2/tags` lists: series tags, book tags, or both (default). */
export const TAG_SCOPES = ['SERIES', 'BOOK', 'BOTH'] as const;
export type TagScope = (typeof TAG_SCOPES)[number];

const Ids = Type.Optional(Type.Array(Type.String()));
const search = { search: Type.Optional(Type.String()) };
const seriesScope = { library_id: Ids, collection_id: Ids };
const entityScope = { ...seriesScope, series_id: Ids, readlist_id: Ids };
const paging = {
  unpaged: Type.Optional(Type.Boolean()),
  page: Type.Optional(Type.Integer()),
  size: Type.Optional(Type.Integer()),
};

/*
 * The queries of the referential endpoints, each with Komga's parameters (api.md §1.5 for the id lists). Every id
 * filter is a list, on `/api/v1` too, where Komga takes one id for some: one id behaves the same.
 */

/** `/api/v2/authors`, `/api/v2/authors/names`. */
export const AuthorsQuery = Type.Object({ ...search, role: Type.Optional(Type.String()), ...entityScope, ...paging });
export type AuthorsQuery = Static<typeof AuthorsQuery>;
/** `/api/v2/authors/roles`. */
export const AuthorRolesQuery = Type.Object({ ...entityScope, ...paging });
export type AuthorRolesQuery = Static<typeof AuthorRolesQuery>;
/** `/api/v2/genres`, `publishers`, `languages`, `sharing-labels`. */
export const SeriesValuesQuery = Type.Object({ ...search, ...seriesScope, ...paging });
export type SeriesValuesQuery = Static<typeof SeriesValuesQuery>;
/** `/api/v2/tags`. */
export const TagsQuery = Type.Object({
  ...search,
  ...entityScope,
  include: Type.Optional(Type.Enum(['SERIES', 'BOOK', 'BOTH'])),
  ...paging,
});
export type TagsQuery = Static<typeof TagsQuery>;
/** `/api/v2/series/release-years`, `/api/v2/age-ratings`. */
export const SeriesScopePageQuery = Type.Object({ ...seriesScope, ...paging });
export type SeriesScopePageQuery = Static<typeof SeriesScopePageQuery>;

/** `/api/v1/authors`. */
export const AuthorsV1Query = Type.Object({ ...search, library_id: Ids, collection_id: Ids, series_id: Ids });
export type AuthorsV1Query = Static<typeof AuthorsV1Query>;
/** `/api/v1/authors/names`. */
export const SearchQuery = Type.Object(search);
export type SearchQuery = Static<typeof SearchQuery>;
/** `/api/v1/genres`, `publishers`, `languages`, `sharing-labels`, `tags`, `tags/series`, `age-ratings`, `series/release-dates`. */
export const SeriesScopeQuery = Type.Object(seriesScope);
export type SeriesScopeQuery = Static<typeof SeriesScopeQuery>;
/** `/api/v1/tags/book`. */
export const BookTagsQuery = Type.Object({ series_id: Ids, readlist_id: Ids, library_id: Ids });
export type BookTagsQuery = Static<typeof BookTagsQuery>;

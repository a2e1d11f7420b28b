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

/**
 * Query of the referential endpoints (array filters as api.md §1.5 reads them); `page`, `size` and `unpaged` only
 * matter to `/api/v2`.
 */
export const ReferentialQuery = Type.Object({
  search: Type.Optional(Type.String()),
  role: Type.Optional(Type.String()),
  include: Type.Optional(Type.Enum(['SERIES', 'BOOK', 'BOTH'])),
  library_id: Ids,
  collection_id: Ids,
  series_id: Ids,
  readlist_id: Ids,
  page: Type.Optional(Type.Integer()),
  size: Type.Optional(Type.Integer()),
  unpaged: Type.Optional(Type.Boolean()),
});
export type ReferentialQuery = Static<typeof ReferentialQuery>;

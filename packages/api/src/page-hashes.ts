import { Type, type Static } from 'typebox';
import { PageDto } from './common.js';
import { PAGE_HASH_ACTIONS } from './constants.js';

/** Duplicate pages (api.md §3.10, §4.8): page hashes an administrator decided on, and those nobody did yet. */

const PageHashAction = Type.Enum([...PAGE_HASH_ACTIONS]);

/** A known hash: `size` is the page's size in bytes when known; dates are local date-times (no zone). */
export const PageHashKnownDto = Type.Object({
  hash: Type.String(),
  size: Type.Optional(Type.Integer()),
  action: PageHashAction,
  deleteCount: Type.Integer(),
  matchCount: Type.Integer(),
  created: Type.String({ format: 'date-time' }),
  lastModified: Type.String({ format: 'date-time' }),
});
export type PageHashKnownDto = Static<typeof PageHashKnownDto>;
export const PagePageHashKnownDto = PageDto(PageHashKnownDto);

/** A hash found on several pages that no known hash covers yet. */
export const PageHashUnknownDto = Type.Object({
  hash: Type.String(),
  size: Type.Optional(Type.Integer()),
  matchCount: Type.Integer(),
});
export type PageHashUnknownDto = Static<typeof PageHashUnknownDto>;
export const PagePageHashUnknownDto = PageDto(PageHashUnknownDto);

/** One page holding a hash: `pageNumber` is 1-based, `url` the book file's path. */
export const PageHashMatchDto = Type.Object({
  bookId: Type.String(),
  url: Type.String(),
  pageNumber: Type.Integer(),
  fileName: Type.String(),
  fileSize: Type.Integer(),
  mediaType: Type.String(),
});
export type PageHashMatchDto = Static<typeof PageHashMatchDto>;
export const PagePageHashMatchDto = PageDto(PageHashMatchDto);

export const PageHashCreationDto = Type.Object({
  hash: Type.String({ minLength: 1 }),
  size: Type.Optional(Type.Integer()),
  action: PageHashAction,
});
export type PageHashCreationDto = Static<typeof PageHashCreationDto>;

export const PageHashParams = Type.Object({ pageHash: Type.String() });
export type PageHashParams = Static<typeof PageHashParams>;

/** Paging of the page-hash lists (api.md §1.4), without `unpaged`: Komga's document does not offer it here. */
const paging = {
  page: Type.Optional(Type.Integer()),
  size: Type.Optional(Type.Integer()),
  sort: Type.Optional(Type.Array(Type.String())),
};
export const PageHashPagingQuery = Type.Object(paging);
export type PageHashPagingQuery = Static<typeof PageHashPagingQuery>;

export const KnownPageHashesQuery = Type.Object({ action: Type.Optional(Type.Array(PageHashAction)), ...paging });
export type KnownPageHashesQuery = Static<typeof KnownPageHashesQuery>;

export const UnknownPageHashThumbnailQuery = Type.Object({ resize: Type.Optional(Type.Integer()) });

import { Type, type Static } from 'typebox';
import { PageDto, type Page } from './common.js';

/** Collections of series and read lists of books (api.md §3.4-3.5, §4.4). */

export const CollectionDto = Type.Object({
  id: Type.String(),
  name: Type.String(),
  ordered: Type.Boolean(),
  seriesIds: Type.Array(Type.String()),
  createdDate: Type.String({ format: 'date-time' }),
  lastModifiedDate: Type.String({ format: 'date-time' }),
  /** Some members are hidden from the caller by library sharing or content restrictions. */
  filtered: Type.Boolean(),
});
export type CollectionDto = Static<typeof CollectionDto>;
export const PageCollectionDto = PageDto(CollectionDto);
export type PageCollectionDto = Page<CollectionDto>;

export const CollectionCreationDto = Type.Object({
  name: Type.String({ minLength: 1 }),
  ordered: Type.Boolean(),
  seriesIds: Type.Array(Type.String(), { minItems: 1 }),
});
export type CollectionCreationDto = Static<typeof CollectionCreationDto>;

export const CollectionUpdateDto = Type.Object({
  name: Type.Optional(Type.String()),
  ordered: Type.Optional(Type.Boolean()),
  seriesIds: Type.Optional(Type.Array(Type.String())),
});
export type CollectionUpdateDto = Static<typeof CollectionUpdateDto>;

export const ReadListDto = Type.Object({
  id: Type.String(),
  name: Type.String(),
  summary: Type.String(),
  ordered: Type.Boolean(),
  bookIds: Type.Array(Type.String()),
  createdDate: Type.String({ format: 'date-time' }),
  lastModifiedDate: Type.String({ format: 'date-time' }),
  filtered: Type.Boolean(),
});
export type ReadListDto = Static<typeof ReadListDto>;
export const PageReadListDto = PageDto(ReadListDto);
export type PageReadListDto = Page<ReadListDto>;

/** The answer of `POST /api/v1/readlists/match/comicrack` (engine.md §10): nothing is created. */
export const ReadListRequestMatchDto = Type.Object({
  /** The list's name; `errorCode` ERR_1009 when a read list has it already, else empty. */
  readListMatch: Type.Object({ name: Type.String(), errorCode: Type.String() }),
  requests: Type.Array(
    Type.Object({
      /** The series names tried (`Series (Volume)` first) and the number asked for. */
      request: Type.Object({ series: Type.Array(Type.String(), { uniqueItems: true }), number: Type.String() }),
      matches: Type.Array(
        Type.Object({
          series: Type.Object({
            seriesId: Type.String(),
            title: Type.String(),
            releaseDate: Type.Optional(Type.String({ format: 'date' })),
          }),
          books: Type.Array(Type.Object({ bookId: Type.String(), number: Type.String(), title: Type.String() })),
        }),
      ),
    }),
  ),
  errorCode: Type.String(),
});
export type ReadListRequestMatchDto = Static<typeof ReadListRequestMatchDto>;

export const ReadListCreationDto = Type.Object({
  name: Type.String({ minLength: 1 }),
  summary: Type.String(),
  ordered: Type.Boolean(),
  bookIds: Type.Array(Type.String(), { minItems: 1 }),
});
export type ReadListCreationDto = Static<typeof ReadListCreationDto>;

export const ReadListUpdateDto = Type.Object({
  name: Type.Optional(Type.String()),
  summary: Type.Optional(Type.String()),
  ordered: Type.Optional(Type.Boolean()),
  bookIds: Type.Optional(Type.Array(Type.String())),
});
export type ReadListUpdateDto = Static<typeof ReadListUpdateDto>;

/** Uploaded posters of collections and read lists (api.md §4.5): always USER_UPLOADED. */
const uploadedPosterFields = {
  id: Type.String(),
  type: Type.String(),
  selected: Type.Boolean(),
  mediaType: Type.String(),
  fileSize: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
};
export const ThumbnailSeriesCollectionDto = Type.Object({ ...uploadedPosterFields, collectionId: Type.String() });
export type ThumbnailSeriesCollectionDto = Static<typeof ThumbnailSeriesCollectionDto>;
export const ThumbnailReadListDto = Type.Object({ ...uploadedPosterFields, readListId: Type.String() });
export type ThumbnailReadListDto = Static<typeof ThumbnailReadListDto>;

export const CollectionIdParams = Type.Object({ id: Type.String() });
export const CollectionThumbnailParams = Type.Object({ id: Type.String(), thumbnailId: Type.String() });

/** `GET /api/v1/collections` (api.md §3.4): `library_id` repeated, comma-separated or as `library_id[]`. */
export const CollectionListQuery = Type.Object({
  search: Type.Optional(Type.String()),
  library_id: Type.Optional(Type.Array(Type.String())),
  unpaged: Type.Optional(Type.Boolean()),
  page: Type.Optional(Type.Integer()),
  size: Type.Optional(Type.Integer()),
});
export type CollectionListQuery = Static<typeof CollectionListQuery>;

/**
 * `GET /api/v1/readlists` (api.md §3.5): the collection list's parameters, and `sort`: `name`, `createdDate` or
 * `lastModifiedDate` with `,asc|desc`.
 */
export const ReadListListQuery = Type.Object({
  ...CollectionListQuery.properties,
  sort: Type.Optional(Type.Array(Type.String())),
});
export type ReadListListQuery = Static<typeof ReadListListQuery>;

/** `POST /api/v1/readlists` as Komga reads it: `summary` defaults to "" and `ordered` to true. */
export const ReadListCreationBody = Type.Object({
  name: Type.String(),
  summary: Type.Optional(Type.String()),
  ordered: Type.Optional(Type.Boolean()),
  bookIds: Type.Array(Type.String()),
});
export type ReadListCreationBody = Static<typeof ReadListCreationBody>;

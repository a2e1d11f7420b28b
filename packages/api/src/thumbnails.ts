import { Type, type Static } from 'typebox';

/**
 * Book and series posters ("thumbnails", api.md §1.9, §3.2-3.3, §4.5). Names and shapes are Komga's;
 * each schema is checked against komga-openapi.json in the server's tests.
 */

/** Where a poster came from. Series posters are never GENERATED. */
export const THUMBNAIL_TYPES = ['GENERATED', 'SIDECAR', 'USER_UPLOADED'] as const;
export type ThumbnailType = (typeof THUMBNAIL_TYPES)[number];

const thumbnailFields = {
  id: Type.String(),
  type: Type.Enum(THUMBNAIL_TYPES),
  /** The one poster shown for its book or series. */
  selected: Type.Boolean(),
  mediaType: Type.String(),
  fileSize: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
};

export const ThumbnailBookDto = Type.Object({ ...thumbnailFields, bookId: Type.String() });
export type ThumbnailBookDto = Static<typeof ThumbnailBookDto>;

export const ThumbnailSeriesDto = Type.Object({ ...thumbnailFields, seriesId: Type.String() });
export type ThumbnailSeriesDto = Static<typeof ThumbnailSeriesDto>;

export const BookThumbnailParams = Type.Object({ bookId: Type.String() });
export const BookThumbnailByIdParams = Type.Object({ bookId: Type.String(), thumbnailId: Type.String() });
export const SeriesThumbnailParams = Type.Object({ seriesId: Type.String() });
export const SeriesThumbnailByIdParams = Type.Object({ seriesId: Type.String(), thumbnailId: Type.String() });

/** `POST …/thumbnails`: `selected` (default true) may come in the query or as a multipart field. */
export const ThumbnailUploadQuery = Type.Object({ selected: Type.Optional(Type.Boolean()) });
export type ThumbnailUploadQuery = Static<typeof ThumbnailUploadQuery>;

/** `PUT /api/v1/books/thumbnails`: regenerate all generated posters, or only those smaller than the size setting. */
export const RegenerateThumbnailsQuery = Type.Object({ for_bigger_result_only: Type.Optional(Type.Boolean()) });
export type RegenerateThumbnailsQuery = Static<typeof RegenerateThumbnailsQuery>;

import { Type, type Static } from 'typebox';
import { AuthorDto, WebLinkDto } from './books.js';

/** Series (api.md §3.2, §4.2), shaped as komga-openapi.json. */

export const AlternateTitleDto = Type.Object({ label: Type.String(), title: Type.String() });
export type AlternateTitleDto = Static<typeof AlternateTitleDto>;

export const SeriesMetadataDto = Type.Object({
  status: Type.String(),
  statusLock: Type.Boolean(),
  title: Type.String(),
  titleLock: Type.Boolean(),
  titleSort: Type.String(),
  titleSortLock: Type.Boolean(),
  summary: Type.String(),
  summaryLock: Type.Boolean(),
  /** `LEFT_TO_RIGHT|RIGHT_TO_LEFT|VERTICAL|WEBTOON` or "". */
  readingDirection: Type.String(),
  readingDirectionLock: Type.Boolean(),
  publisher: Type.String(),
  publisherLock: Type.Boolean(),
  ageRating: Type.Union([Type.Integer(), Type.Null()]),
  ageRatingLock: Type.Boolean(),
  language: Type.String(),
  languageLock: Type.Boolean(),
  genres: Type.Array(Type.String()),
  genresLock: Type.Boolean(),
  tags: Type.Array(Type.String()),
  tagsLock: Type.Boolean(),
  totalBookCount: Type.Union([Type.Integer(), Type.Null()]),
  totalBookCountLock: Type.Boolean(),
  sharingLabels: Type.Array(Type.String()),
  sharingLabelsLock: Type.Boolean(),
  links: Type.Array(WebLinkDto),
  linksLock: Type.Boolean(),
  alternateTitles: Type.Array(AlternateTitleDto),
  alternateTitlesLock: Type.Boolean(),
  created: Type.String(),
  lastModified: Type.String(),
});
export type SeriesMetadataDto = Static<typeof SeriesMetadataDto>;

export const BookMetadataAggregationDto = Type.Object({
  authors: Type.Array(AuthorDto),
  tags: Type.Array(Type.String()),
  releaseDate: Type.Union([Type.String(), Type.Null()]),
  summary: Type.String(),
  summaryNumber: Type.String(),
  created: Type.String(),
  lastModified: Type.String(),
});
export type BookMetadataAggregationDto = Static<typeof BookMetadataAggregationDto>;

export const SeriesDto = Type.Object({
  id: Type.String(),
  libraryId: Type.String(),
  name: Type.String(),
  /** Folder path for admins, "" otherwise. */
  url: Type.String(),
  created: Type.String(),
  lastModified: Type.String(),
  fileLastModified: Type.String(),
  booksCount: Type.Integer(),
  booksReadCount: Type.Integer(),
  booksUnreadCount: Type.Integer(),
  booksInProgressCount: Type.Integer(),
  metadata: SeriesMetadataDto,
  booksMetadata: BookMetadataAggregationDto,
  deleted: Type.Boolean(),
  oneshot: Type.Boolean(),
});
export type SeriesDto = Static<typeof SeriesDto>;

export const SeriesIdParams = Type.Object({ seriesId: Type.String() });
export type SeriesIdParams = Static<typeof SeriesIdParams>;

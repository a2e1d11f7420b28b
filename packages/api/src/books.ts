import { Type, type Static } from 'typebox';
import { PageDto, type Page } from './common.js';

/**
 * Books (api.md §3.3, §4.1). Names and shapes are Komga's (komga-openapi.json); dates are
 * `yyyy-MM-dd'T'HH:mm:ss'Z'` strings, `releaseDate` a plain `yyyy-MM-dd`.
 */

export const MEDIA_STATUSES = ['UNKNOWN', 'ERROR', 'READY', 'UNSUPPORTED', 'OUTDATED'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];
export const MEDIA_PROFILES = ['DIVINA', 'PDF', 'EPUB'] as const;
export type MediaProfile = (typeof MEDIA_PROFILES)[number];

export const AuthorDto = Type.Object({ name: Type.String(), role: Type.String() });
export type AuthorDto = Static<typeof AuthorDto>;

export const WebLinkDto = Type.Object({ label: Type.String(), url: Type.String() });
export type WebLinkDto = Static<typeof WebLinkDto>;

export const MediaDto = Type.Object({
  status: Type.String(),
  mediaType: Type.String(),
  pagesCount: Type.Integer(),
  /** Error code(s) like `ERR_1001`, or "". */
  comment: Type.String(),
  epubDivinaCompatible: Type.Boolean(),
  epubIsKepub: Type.Boolean(),
  /** `DIVINA`, `PDF`, `EPUB` or "". */
  mediaProfile: Type.String(),
});
export type MediaDto = Static<typeof MediaDto>;

export const BookMetadataDto = Type.Object({
  title: Type.String(),
  titleLock: Type.Boolean(),
  summary: Type.String(),
  summaryLock: Type.Boolean(),
  number: Type.String(),
  numberLock: Type.Boolean(),
  numberSort: Type.Number(),
  numberSortLock: Type.Boolean(),
  releaseDate: Type.Union([Type.String(), Type.Null()]),
  releaseDateLock: Type.Boolean(),
  authors: Type.Array(AuthorDto),
  authorsLock: Type.Boolean(),
  tags: Type.Array(Type.String()),
  tagsLock: Type.Boolean(),
  isbn: Type.String(),
  isbnLock: Type.Boolean(),
  links: Type.Array(WebLinkDto),
  linksLock: Type.Boolean(),
  created: Type.String(),
  lastModified: Type.String(),
});
export type BookMetadataDto = Static<typeof BookMetadataDto>;

export const ReadProgressDto = Type.Object({
  page: Type.Integer(),
  completed: Type.Boolean(),
  readDate: Type.String(),
  created: Type.String(),
  lastModified: Type.String(),
  deviceId: Type.String(),
  deviceName: Type.String(),
});
export type ReadProgressDto = Static<typeof ReadProgressDto>;

export const BookDto = Type.Object({
  id: Type.String(),
  seriesId: Type.String(),
  seriesTitle: Type.String(),
  libraryId: Type.String(),
  name: Type.String(),
  /** Absolute path for admins, the file name otherwise. */
  url: Type.String(),
  number: Type.Integer(),
  created: Type.String(),
  lastModified: Type.String(),
  fileLastModified: Type.String(),
  sizeBytes: Type.Integer(),
  size: Type.String(),
  media: MediaDto,
  metadata: BookMetadataDto,
  /** The caller's progress; null when none. */
  readProgress: Type.Union([ReadProgressDto, Type.Null()]),
  deleted: Type.Boolean(),
  fileHash: Type.String(),
  oneshot: Type.Boolean(),
});
export type BookDto = Static<typeof BookDto>;

export const PageBookDto = PageDto(BookDto);
export type PageBookDto = Page<BookDto>;

/** One page of a book (`GET /books/{id}/pages`); `PageDto` in Komga, renamed here (PageDto is the paging envelope). */
export const BookPageDto = Type.Object({
  /** 1-based. */
  number: Type.Integer(),
  fileName: Type.String(),
  mediaType: Type.String(),
  width: Type.Union([Type.Integer(), Type.Null()]),
  height: Type.Union([Type.Integer(), Type.Null()]),
  sizeBytes: Type.Union([Type.Integer(), Type.Null()]),
  /** Human size, "" when unknown. */
  size: Type.String(),
});
export type BookPageDto = Static<typeof BookPageDto>;

export const BookIdParams = Type.Object({ bookId: Type.String() });
export type BookIdParams = Static<typeof BookIdParams>;

export const BookPageParams = Type.Object({ bookId: Type.String(), pageNumber: Type.Integer() });
export type BookPageParams = Static<typeof BookPageParams>;

export const BookPageQuery = Type.Object({
  /** `jpeg` or `png`, any case; "" is ignored; anything else → 400 `Invalid conversion format: x`. */
  convert: Type.Optional(Type.String()),
  zero_based: Type.Optional(Type.Boolean()),
  contentNegotiation: Type.Optional(Type.Boolean()),
  /**
   * Quire's own: the width in pixels the client draws the page at. A PDF page is rendered that wide (rounded up to a
   * multiple of 256, never wider than without it) instead of 3200 px on its shorter side; other pages are served as
   * they are.
   */
  width: Type.Optional(Type.Integer({ minimum: 1, maximum: 16384 })),
});
export type BookPageQuery = Static<typeof BookPageQuery>;

/** Paging query of plain paged lists (api.md §1.4). */
export const PagingQuery = Type.Object({
  page: Type.Optional(Type.Integer()),
  size: Type.Optional(Type.Integer()),
  sort: Type.Optional(Type.Array(Type.String())),
  unpaged: Type.Optional(Type.Boolean()),
});
export type PagingQuery = Static<typeof PagingQuery>;

import { Type, type Static } from 'typebox';

/**
 * Read progress (api.md §3.2-3.3, engine.md §13): page progress, Readium progression, and the Mihon/Tachiyomi
 * helpers. Shapes are komga-openapi.json's.
 */

/** `PATCH /books/{id}/read-progress`: `page` may be left out when `completed` is true. */
export const ReadProgressUpdateDto = Type.Object({
  page: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  completed: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});
export type ReadProgressUpdateDto = Static<typeof ReadProgressUpdateDto>;

export const R2DeviceDto = Type.Object({ id: Type.String(), name: Type.String() });
export type R2DeviceDto = Static<typeof R2DeviceDto>;

/** Readium locations; `fragments` is always sent back (empty when unknown), as Komga does. */
export const R2LocationDto = Type.Object({
  fragments: Type.Optional(Type.Array(Type.String())),
  progression: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  position: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  totalProgression: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});
export type R2LocationDto = Static<typeof R2LocationDto>;

export const R2TextDto = Type.Object({
  after: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  before: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  highlight: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type R2TextDto = Static<typeof R2TextDto>;

/** The locator of a progression (`R2Locator` in the OpenAPI document, with `text`). */
export const R2ProgressionLocatorDto = Type.Object({
  href: Type.String(),
  type: Type.String(),
  title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  locations: Type.Optional(Type.Union([R2LocationDto, Type.Null()])),
  text: Type.Optional(Type.Union([R2TextDto, Type.Null()])),
  koboSpan: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type R2ProgressionLocatorDto = Static<typeof R2ProgressionLocatorDto>;

/** `GET/PUT /books/{id}/progression` (`application/vnd.readium.progression+json`). */
export const R2ProgressionDto = Type.Object({
  /** ISO-8601 date-time with offset; on PUT it must be after the stored one (409 otherwise). */
  modified: Type.String(),
  device: R2DeviceDto,
  locator: R2ProgressionLocatorDto,
});
export type R2ProgressionDto = Static<typeof R2ProgressionDto>;

export const MEDIATYPE_PROGRESSION_JSON = 'application/vnd.readium.progression+json';

/** `GET /readlists/{id}/read-progress/tachiyomi`; `lastReadContinuousIndex` is 1-based (0: none read). */
export const TachiyomiReadProgressDto = Type.Object({
  booksCount: Type.Integer(),
  booksReadCount: Type.Integer(),
  booksUnreadCount: Type.Integer(),
  booksInProgressCount: Type.Integer(),
  lastReadContinuousIndex: Type.Integer(),
});
export type TachiyomiReadProgressDto = Static<typeof TachiyomiReadProgressDto>;

/** `GET /api/v2/series/{id}/read-progress/tachiyomi`. */
export const TachiyomiReadProgressV2Dto = Type.Object({
  booksCount: Type.Integer(),
  booksReadCount: Type.Integer(),
  booksUnreadCount: Type.Integer(),
  booksInProgressCount: Type.Integer(),
  lastReadContinuousNumberSort: Type.Number(),
  maxNumberSort: Type.Number(),
});
export type TachiyomiReadProgressV2Dto = Static<typeof TachiyomiReadProgressV2Dto>;

/** `PUT /readlists/{id}/read-progress/tachiyomi`: the first `lastBookRead` books of the list become read. */
export const TachiyomiReadProgressUpdateDto = Type.Object({ lastBookRead: Type.Integer({ minimum: 0 }) });
export type TachiyomiReadProgressUpdateDto = Static<typeof TachiyomiReadProgressUpdateDto>;

/** `PUT /api/v2/series/{id}/read-progress/tachiyomi`: books up to this `numberSort` become read. */
export const TachiyomiReadProgressUpdateV2Dto = Type.Object({ lastBookNumberSortRead: Type.Number() });
export type TachiyomiReadProgressUpdateV2Dto = Static<typeof TachiyomiReadProgressUpdateV2Dto>;

import { Type, type Static } from 'typebox';
import { PageDto, type Page } from './common.js';
import { HISTORICAL_EVENT_TYPES } from './constants.js';

/**
 * One historical event (api.md §9.7). `timestamp` is a local date-time without zone, as Komga sends it (the
 * server's clock is UTC). `properties` keys are the reference's: `name`, `reason`, `former file`, `page number`…
 */
export const HistoricalEventDto = Type.Object({
  id: Type.String(),
  type: Type.String(),
  bookId: Type.Optional(Type.String()),
  seriesId: Type.Optional(Type.String()),
  timestamp: Type.String({ format: 'date-time' }),
  properties: Type.Record(Type.String(), Type.String()),
});
export type HistoricalEventDto = Static<typeof HistoricalEventDto>;

export const PageHistoricalEventDto = PageDto(HistoricalEventDto);
export type PageHistoricalEventDto = Page<HistoricalEventDto>;

/** Sort properties of the history (api.md §1.4); the default is `timestamp,desc`. */
export const HISTORY_SORTS = ['type', 'bookId', 'seriesId', 'timestamp'] as const;

/** Spring Data paging (no `unpaged`, as in Komga), plus Quire's `type` filter. */
export const HistoryQuery = Type.Object({
  page: Type.Optional(Type.Integer({ description: 'Zero-based page index; negative means 0' })),
  size: Type.Optional(Type.Integer({ description: 'Page size, default 20, at most 2000' })),
  sort: Type.Optional(
    Type.Array(Type.String(), { description: 'property[,asc|desc], repeatable; the first is the primary order' }),
  ),
  type: Type.Optional(
    Type.Array(Type.Enum(HISTORICAL_EVENT_TYPES), {
      description: 'Quire addition: only events of these types (repeatable)',
    }),
  ),
});
export type HistoryQuery = Static<typeof HistoryQuery>;

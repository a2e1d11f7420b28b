import type { HistoricalEventDto } from '@quire/api';
import type { historyOperations } from '@quire/api/operations';
import { parseSort } from '../../db/queries/sort.js';
import {
  HISTORY_SORT_PROPERTIES,
  type HistoricalEvent,
  type HistoryPageRequest,
  type HistorySortProperty,
} from '../../domain/history.js';
import type { History } from '../../library/history.js';
import { pageRequest, toPage } from '../listing.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

export interface HistoryRouteDeps {
  history: Pick<History, 'list'>;
}

const isSortProperty = (p: string): p is HistorySortProperty =>
  (HISTORY_SORT_PROPERTIES as readonly string[]).includes(p);

/** Komga's LocalDateTime: the UTC time without its zone (api.md §1.3). */
const localDateTime = (iso: string) => iso.replace(/Z$/, '');

function toHistoricalEventDto(e: HistoricalEvent): HistoricalEventDto {
  return {
    id: e.id,
    type: e.type,
    ...(e.bookId !== null && { bookId: e.bookId }),
    ...(e.seriesId !== null && { seriesId: e.seriesId }),
    timestamp: localDateTime(e.timestamp),
    properties: e.properties,
  };
}

/** `GET /api/v1/history` (api.md §9.7): paged, `timestamp,desc` by default, narrowed to what the caller may see. */
export function historyHandlers({ history }: HistoryRouteDeps): Handlers<OperationIdsOf<typeof historyOperations>> {
  return {
    getHistoricalEvents: async (req) => {
      // No `unpaged` on this list in Komga's contract.
      const page = pageRequest({ page: req.query.page, size: req.query.size });
      const sort: HistoryPageRequest['sort'] = parseSort(req.query.sort).filter(
        (s): s is { property: HistorySortProperty; descending: boolean } => isSortProperty(s.property),
      );
      if (!sort.length) sort.push({ property: 'timestamp', descending: true });
      const { events, total } = await history.list({
        viewer: req.user,
        types: req.query.type,
        sort,
        offset: page.page * page.size,
        limit: page.size,
      });
      return toPage(events.map(toHistoricalEventDto), total, page);
    },
  };
}

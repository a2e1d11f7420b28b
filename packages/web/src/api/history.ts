import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { HistoricalEventType } from '@quire/api/constants';
import { client } from './client';

/** The history of what happened to files (api.md §9.7): every user sees the events of what he may see. */

/** One page of the history: `sort` entries read `property,asc|desc` (type, bookId, seriesId, timestamp). */
export interface HistoryParams {
  page: number;
  size: number;
  sort: string[];
  /** Only these types; all when empty. */
  types: readonly HistoricalEventType[];
}

export const historyKeys = {
  all: ['history'] as const,
  page: (p: HistoryParams) => [...historyKeys.all, p] as const,
};

export const historyQuery = (p: HistoryParams) =>
  queryOptions({
    queryKey: historyKeys.page(p),
    queryFn: () =>
      client.get('/api/v1/history', {
        query: { page: p.page, size: p.size, sort: p.sort, type: p.types.length ? [...p.types] : undefined },
      }),
    placeholderData: keepPreviousData,
  });

export const useHistory = (p: HistoryParams) => useQuery(historyQuery(p));

/**
 * Komga's history times are local date-times without a zone; Quire's server keeps UTC, so they are read as UTC
 * (the browser would otherwise take them for its own local time).
 */
export const historyDate = (timestamp: string) => (/[zZ]|[+-]\d\d:\d\d$/.test(timestamp) ? timestamp : `${timestamp}Z`);

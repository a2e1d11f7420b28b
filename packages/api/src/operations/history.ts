import { HistoryQuery, PageHistoricalEventDto } from '../history.js';
import { defineOperation } from './operation.js';

/**
 * `GET /api/v1/history` (api.md §9.7). Komga requires ADMIN; Quire shows it to every user, narrowed to the
 * libraries and content he may see (spec.md §2: `/history` is for any authenticated user).
 */
export const historyOperations = {
  getHistoricalEvents: defineOperation({
    operationId: 'getHistoricalEvents',
    method: 'GET',
    path: '/api/v1/history',
    tags: ['History'],
    summary: 'List historical events',
    access: 'user',
    query: HistoryQuery,
    responses: { 200: PageHistoricalEventDto },
  }),
};

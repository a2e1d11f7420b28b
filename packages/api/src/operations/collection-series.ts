import { PageSeriesDto, CollectionSeriesQuery, MemberListParams } from '../search.js';
import { defineOperation } from './operation.js';

/**
 * The series of a collection (api.md §3.4), with the deprecated series filters: in collection order when the
 * collection is ordered, else by sort title. A collection the caller cannot see is a 404.
 */
export const collectionSeriesOperations = {
  getSeriesByCollectionId: defineOperation({
    operationId: 'getSeriesByCollectionId',
    method: 'GET',
    path: '/api/v1/collections/{id}/series',
    tags: ['Collection Series'],
    summary: "List collection's series",
    access: 'user',
    params: MemberListParams,
    query: CollectionSeriesQuery,
    responses: { 200: PageSeriesDto },
  }),
};

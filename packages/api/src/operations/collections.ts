import { Type } from 'typebox';
import {
  CollectionCreationDto,
  CollectionDto,
  CollectionIdParams,
  CollectionListQuery,
  CollectionUpdateDto,
  PageCollectionDto,
} from '../collections.js';
import { SeriesIdParams } from '../series.js';
import { defineOperation, noContent } from './operation.js';

/**
 * Collections of series (api.md §3.4): reads for every user (members filtered by their restrictions, a collection
 * they cannot see is a 404), writes for admins. `getCollectionsBySeriesId` is under Komga's Series tag, and is
 * declared here because the collection service answers it.
 */
const tags = ['Collections'] as const;
const byId = '/api/v1/collections/{id}';

export const collectionOperations = {
  getCollections: defineOperation({
    operationId: 'getCollections',
    method: 'GET',
    path: '/api/v1/collections',
    tags,
    summary: 'List collections',
    access: 'user',
    query: CollectionListQuery,
    responses: { 200: PageCollectionDto },
  }),
  createCollection: defineOperation({
    operationId: 'createCollection',
    method: 'POST',
    path: '/api/v1/collections',
    tags,
    summary: 'Create collection',
    access: 'ADMIN',
    body: CollectionCreationDto,
    responses: { 200: CollectionDto },
  }),
  getCollectionById: defineOperation({
    operationId: 'getCollectionById',
    method: 'GET',
    path: byId,
    tags,
    summary: 'Get collection details',
    access: 'user',
    params: CollectionIdParams,
    responses: { 200: CollectionDto },
  }),
  updateCollectionById: defineOperation({
    operationId: 'updateCollectionById',
    method: 'PATCH',
    path: byId,
    tags,
    summary: 'Update collection',
    access: 'ADMIN',
    params: CollectionIdParams,
    body: CollectionUpdateDto,
    responses: noContent,
  }),
  deleteCollectionById: defineOperation({
    operationId: 'deleteCollectionById',
    method: 'DELETE',
    path: byId,
    tags,
    summary: 'Delete collection',
    access: 'ADMIN',
    params: CollectionIdParams,
    responses: noContent,
  }),
  getCollectionsBySeriesId: defineOperation({
    operationId: 'getCollectionsBySeriesId',
    method: 'GET',
    path: '/api/v1/series/{seriesId}/collections',
    tags: ['Series'],
    summary: "List series' collections",
    access: 'user',
    params: SeriesIdParams,
    responses: { 200: Type.Array(CollectionDto) },
  }),
};

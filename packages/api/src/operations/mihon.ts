import { Type } from 'typebox';
import {
  TachiyomiReadProgressDto,
  TachiyomiReadProgressUpdateDto,
  TachiyomiReadProgressUpdateV2Dto,
  TachiyomiReadProgressV2Dto,
} from '../progress.js';
import { SeriesIdParams } from '../series.js';
import { defineOperation, noContent } from './operation.js';

/** Mihon (Tachiyomi) read-progress helpers (api.md §3.2, §3.5): any user, on what he may see. */
const tags = ['Mihon'] as const;
const ReadListIdParams = Type.Object({ id: Type.String() });

export const mihonOperations = {
  getMihonReadProgressBySeriesId: defineOperation({
    operationId: 'getMihonReadProgressBySeriesId',
    method: 'GET',
    path: '/api/v2/series/{seriesId}/read-progress/tachiyomi',
    tags,
    access: 'user',
    params: SeriesIdParams,
    responses: { 200: TachiyomiReadProgressV2Dto },
  }),
  updateMihonReadProgressBySeriesId: defineOperation({
    operationId: 'updateMihonReadProgressBySeriesId',
    method: 'PUT',
    path: '/api/v2/series/{seriesId}/read-progress/tachiyomi',
    tags,
    access: 'user',
    params: SeriesIdParams,
    body: TachiyomiReadProgressUpdateV2Dto,
    responses: noContent,
  }),
  getMihonReadProgressByReadListId: defineOperation({
    operationId: 'getMihonReadProgressByReadListId',
    method: 'GET',
    path: '/api/v1/readlists/{id}/read-progress/tachiyomi',
    tags,
    access: 'user',
    params: ReadListIdParams,
    responses: { 200: TachiyomiReadProgressDto },
  }),
  updateMihonReadProgressByReadListId: defineOperation({
    operationId: 'updateMihonReadProgressByReadListId',
    method: 'PUT',
    path: '/api/v1/readlists/{id}/read-progress/tachiyomi',
    tags,
    access: 'user',
    params: ReadListIdParams,
    body: TachiyomiReadProgressUpdateDto,
    responses: noContent,
  }),
};

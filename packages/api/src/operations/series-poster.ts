import {
  SeriesThumbnailByIdParams,
  SeriesThumbnailParams,
  ThumbnailSeriesDto,
  ThumbnailUploadQuery,
} from '../thumbnails.js';
import { Type } from 'typebox';
import { accepted, binary, defineOperation, multipartFile } from './operation.js';

/**
 * Series posters (api.md §1.9, §3.2): reading needs a caller who may see the series, the rest ADMIN. Every poster is
 * answered as `image/jpeg`.
 */
const tags = ['Series Poster'] as const;
const base = '/api/v1/series/{seriesId}';

export const seriesPosterOperations = {
  getSeriesThumbnail: defineOperation({
    operationId: 'getSeriesThumbnail',
    method: 'GET',
    path: `${base}/thumbnail`,
    tags,
    access: 'user',
    params: SeriesThumbnailParams,
    responses: { 200: binary('The selected poster') },
    produces: ['image/jpeg'],
  }),
  getSeriesThumbnails: defineOperation({
    operationId: 'getSeriesThumbnails',
    method: 'GET',
    path: `${base}/thumbnails`,
    tags,
    access: 'user',
    params: SeriesThumbnailParams,
    responses: { 200: Type.Array(ThumbnailSeriesDto) },
  }),
  getSeriesThumbnailById: defineOperation({
    operationId: 'getSeriesThumbnailById',
    method: 'GET',
    path: `${base}/thumbnails/{thumbnailId}`,
    tags,
    access: 'user',
    params: SeriesThumbnailByIdParams,
    responses: { 200: binary('The poster') },
    produces: ['image/jpeg'],
  }),
  addUserUploadedSeriesThumbnail: defineOperation({
    operationId: 'addUserUploadedSeriesThumbnail',
    method: 'POST',
    path: `${base}/thumbnails`,
    tags,
    access: 'ADMIN',
    params: SeriesThumbnailParams,
    query: ThumbnailUploadQuery,
    body: multipartFile,
    consumes: ['multipart/form-data'],
    responses: { 200: ThumbnailSeriesDto },
  }),
  markSeriesThumbnailSelected: defineOperation({
    operationId: 'markSeriesThumbnailSelected',
    method: 'PUT',
    path: `${base}/thumbnails/{thumbnailId}/selected`,
    tags,
    access: 'ADMIN',
    params: SeriesThumbnailByIdParams,
    responses: accepted,
  }),
  deleteUserUploadedSeriesThumbnail: defineOperation({
    operationId: 'deleteUserUploadedSeriesThumbnail',
    method: 'DELETE',
    path: `${base}/thumbnails/{thumbnailId}`,
    tags,
    access: 'ADMIN',
    params: SeriesThumbnailByIdParams,
    responses: accepted,
  }),
};

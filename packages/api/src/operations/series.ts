import { SeriesMetadataUpdateDto } from '../metadata.js';
import { SeriesIdParams } from '../series.js';
import { accepted, defineOperation, noContent } from './operation.js';

/** /api/v1/series (api.md §3.2): details, lists, the ZIP download, edits, read progress, analysis and deletion. */
const tags = ['Series'] as const;
const byId = '/api/v1/series/{seriesId}';

export const seriesOperations = {
  updateSeriesMetadata: defineOperation({
    operationId: 'updateSeriesMetadata',
    method: 'PATCH',
    path: `${byId}/metadata`,
    tags,
    access: 'ADMIN',
    params: SeriesIdParams,
    body: SeriesMetadataUpdateDto,
    responses: noContent,
  }),
  seriesRefreshMetadata: defineOperation({
    operationId: 'seriesRefreshMetadata',
    method: 'POST',
    path: `${byId}/metadata/refresh`,
    tags,
    access: 'ADMIN',
    params: SeriesIdParams,
    responses: accepted,
  }),
  markSeriesAsRead: defineOperation({
    operationId: 'markSeriesAsRead',
    method: 'POST',
    path: `${byId}/read-progress`,
    tags,
    access: 'user',
    params: SeriesIdParams,
    responses: noContent,
  }),
  markSeriesAsUnread: defineOperation({
    operationId: 'markSeriesAsUnread',
    method: 'DELETE',
    path: `${byId}/read-progress`,
    tags,
    access: 'user',
    params: SeriesIdParams,
    responses: noContent,
  }),
  deleteSeriesFile: defineOperation({
    operationId: 'deleteSeriesFile',
    method: 'DELETE',
    path: `${byId}/file`,
    tags,
    access: 'ADMIN',
    params: SeriesIdParams,
    responses: accepted,
  }),
};

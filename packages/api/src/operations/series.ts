import { SeriesMetadataUpdateDto } from '../metadata.js';
import { Type } from 'typebox';
import { PageBookDto } from '../books.js';
import {
  GroupCountDto,
  ListPagingQuery,
  PageSeriesDto,
  SeriesBooksQuery,
  SeriesGroupsQuery,
  SeriesListQuery,
  SeriesRecentQuery,
  SeriesSearch,
} from '../search.js';
import { SeriesDto, SeriesIdParams } from '../series.js';
import { accepted, binary, defineOperation, noContent } from './operation.js';

/** /api/v1/series (api.md §3.2): details, lists, the ZIP download, edits, read progress, analysis and deletion. */
const tags = ['Series'] as const;
const byId = '/api/v1/series/{seriesId}';

const recent = {
  method: 'GET',
  tags,
  access: 'user',
  query: SeriesRecentQuery,
  responses: { 200: PageSeriesDto },
} as const;
const deprecated = ['Series', 'Deprecated'] as const;

export const seriesOperations = {
  getSeries: defineOperation({
    operationId: 'getSeries',
    method: 'POST',
    path: '/api/v1/series/list',
    tags,
    summary: 'List series',
    access: 'user',
    query: ListPagingQuery,
    body: SeriesSearch,
    responses: { 200: PageSeriesDto },
  }),
  getSeriesAlphabeticalGroups: defineOperation({
    operationId: 'getSeriesAlphabeticalGroups',
    method: 'POST',
    path: '/api/v1/series/list/alphabetical-groups',
    tags,
    summary: 'List series groups',
    access: 'user',
    body: SeriesSearch,
    responses: { 200: Type.Array(GroupCountDto) },
  }),
  getSeriesDeprecated: defineOperation({
    operationId: 'getSeriesDeprecated',
    method: 'GET',
    path: '/api/v1/series',
    tags: deprecated,
    deprecated: true,
    access: 'user',
    query: SeriesListQuery,
    responses: { 200: PageSeriesDto },
  }),
  getSeriesAlphabeticalGroupsDeprecated: defineOperation({
    operationId: 'getSeriesAlphabeticalGroupsDeprecated',
    method: 'GET',
    path: '/api/v1/series/alphabetical-groups',
    tags: deprecated,
    deprecated: true,
    access: 'user',
    query: SeriesGroupsQuery,
    responses: { 200: Type.Array(GroupCountDto) },
  }),
  /** Added or changed; added; changed since added (engine.md §16). */
  getSeriesLatest: defineOperation({ ...recent, operationId: 'getSeriesLatest', path: '/api/v1/series/latest' }),
  getSeriesNew: defineOperation({ ...recent, operationId: 'getSeriesNew', path: '/api/v1/series/new' }),
  getSeriesUpdated: defineOperation({ ...recent, operationId: 'getSeriesUpdated', path: '/api/v1/series/updated' }),
  getSeriesById: defineOperation({
    operationId: 'getSeriesById',
    method: 'GET',
    path: byId,
    tags,
    access: 'user',
    params: SeriesIdParams,
    responses: { 200: SeriesDto },
  }),
  getBooksBySeriesId: defineOperation({
    operationId: 'getBooksBySeriesId',
    method: 'GET',
    path: `${byId}/books`,
    tags: deprecated,
    deprecated: true,
    access: 'user',
    params: SeriesIdParams,
    query: SeriesBooksQuery,
    responses: { 200: PageBookDto },
  }),
  /** A stored ZIP (Zip64) of the series' book files, streamed: no Content-Length, no ETag (api.md §1.8). */
  downloadSeriesAsZip: defineOperation({
    operationId: 'downloadSeriesAsZip',
    method: 'GET',
    path: `${byId}/file`,
    tags,
    access: 'FILE_DOWNLOAD',
    params: SeriesIdParams,
    responses: { 200: binary('A ZIP of the books') },
    produces: ['application/zip'],
  }),
  seriesAnalyze: defineOperation({
    operationId: 'seriesAnalyze',
    method: 'POST',
    path: `${byId}/analyze`,
    tags,
    access: 'ADMIN',
    params: SeriesIdParams,
    responses: accepted,
  }),
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

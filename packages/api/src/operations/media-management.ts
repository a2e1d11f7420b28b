import { Type } from 'typebox';
import { PageSeriesDto } from '../search.js';
import { defineOperation } from './operation.js';

/** What the media management screens need that Komga's API does not offer (Quire additions, admins). */
export const mediaManagementOperations = {
  getSeriesWithoutPoster: defineOperation({
    operationId: 'getSeriesWithoutPoster',
    method: 'GET',
    path: '/api/v1/media-management/series-without-poster',
    tags: ['Quire', 'Media management'],
    summary: 'Series with no poster of their own nor on any of their books, by title',
    access: 'ADMIN',
    query: Type.Object({
      page: Type.Optional(Type.Integer({ description: 'Zero-based page index; negative means 0' })),
      size: Type.Optional(Type.Integer({ description: 'Page size, default 20, at most 2000' })),
    }),
    responses: { 200: PageSeriesDto },
  }),
};

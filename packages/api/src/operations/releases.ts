import { Type } from 'typebox';
import { ReleaseDto } from '../updates.js';
import { defineOperation } from './operation.js';

/** Releases (api.md §9.3), ADMIN only: Quire's own release, never fetched from the internet. */
export const releaseOperations = {
  getReleases: defineOperation({
    operationId: 'getReleases',
    method: 'GET',
    path: '/api/v1/releases',
    tags: ['Releases'],
    summary: 'List releases',
    access: 'ADMIN',
    responses: { 200: Type.Array(ReleaseDto) },
  }),
};

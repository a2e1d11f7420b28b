import { Type } from 'typebox';
import { defineOperation, noContent } from './operation.js';

/** `DELETE /api/v1/syncpoints/me` (api.md §2.5, §8.2): the caller's Kobo sync points, so that a Kobo syncs afresh. */
export const syncPointOperations = {
  deleteSyncPointsForCurrentUser: defineOperation({
    operationId: 'deleteSyncPointsForCurrentUser',
    method: 'DELETE',
    path: '/api/v1/syncpoints/me',
    tags: ['Sync points'],
    summary: 'Delete all sync points',
    description:
      'If an API Key ID is passed, deletes only the sync points associated with that API Key. Deleting sync points will allow a Kobo to sync from scratch upon the next sync.',
    access: 'user',
    query: Type.Object({ key_id: Type.Optional(Type.Array(Type.String())) }),
    responses: noContent,
  }),
};

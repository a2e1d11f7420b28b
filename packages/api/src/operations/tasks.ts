import { Type } from 'typebox';
import { defineOperation } from './operation.js';

/** `DELETE /api/v1/tasks` (api.md §9.8): cancels every queued task; answers the count as a bare integer. */
export const taskOperations = {
  emptyTaskQueue: defineOperation({
    operationId: 'emptyTaskQueue',
    method: 'DELETE',
    path: '/api/v1/tasks',
    tags: ['Tasks'],
    summary: 'Clear task queue',
    access: 'ADMIN',
    responses: { 200: Type.Integer() },
  }),
};

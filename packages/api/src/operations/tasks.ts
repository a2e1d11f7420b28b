import { Type } from 'typebox';
import { TaskOverviewDto } from '../tasks.js';
import { defineOperation } from './operation.js';

/**
 * `DELETE /api/v1/tasks` (api.md §9.8): cancels every queued task; answers the count as a bare integer. Komga shows
 * the queue only through the TaskQueueStatus event (a total per type); Quire adds `GET /api/v1/tasks/overview`,
 * which tells queued from running tasks.
 */
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
  getTaskOverview: defineOperation({
    operationId: 'getTaskOverview',
    method: 'GET',
    path: '/api/v1/tasks/overview',
    tags: ['Quire', 'Tasks'],
    summary: 'Queued and running tasks per type',
    access: 'ADMIN',
    responses: { 200: TaskOverviewDto },
  }),
};

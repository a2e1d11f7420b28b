import type { taskOperations } from '@quire/api/operations';
import type { TaskCancellation, TaskInspection } from '../../tasks/emitter.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

export interface TaskRouteDeps {
  tasks: TaskCancellation & TaskInspection;
}

/**
 * `DELETE /api/v1/tasks` (api.md §9.8): cancels every queued task; answers the count as a bare integer.
 * `GET /api/v1/tasks/overview` (Quire): queued and running tasks per type, for the administrators' task view.
 */
export function taskHandlers({ tasks }: TaskRouteDeps): Handlers<OperationIdsOf<typeof taskOperations>> {
  return {
    emptyTaskQueue: async () => tasks.cancelQueued(),
    getTaskOverview: async () => tasks.overview(),
  };
}

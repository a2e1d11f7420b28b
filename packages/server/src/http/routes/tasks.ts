import type { taskOperations } from '@quire/api/operations';
import type { TaskCancellation } from '../../tasks/emitter.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

export interface TaskRouteDeps {
  tasks: TaskCancellation;
}

/** `DELETE /api/v1/tasks` (api.md §9.8): cancels every queued task; answers the count as a bare integer. */
export function taskHandlers({ tasks }: TaskRouteDeps): Handlers<OperationIdsOf<typeof taskOperations>> {
  return { emptyTaskQueue: async () => tasks.cancelQueued() };
}

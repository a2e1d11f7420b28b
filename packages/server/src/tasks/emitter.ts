import type { Priority, Task } from './definitions.js';

/**
 * How services queue follow-up work (engine.md §8): the one port between a use case and the task queue. A
 * service that needs work done later receives a `TaskEmitter` at construction and decides there which tasks,
 * at which priority; HTTP routes call services and never the queue. The queue implements it (`TaskQueue`), and
 * so does the context a task handler runs with.
 */
export interface TaskEmitter {
  /** Queues `tasks` at `priority`; a task already queued (same unique id) is updated instead of repeated. */
  submit(tasks: readonly Task[], priority: Priority): Promise<void>;
}

/** What an administrator does to the queue as a whole (`DELETE /api/v1/tasks`), the one other port routes see. */
export interface TaskCancellation {
  /** Removes every task not yet taken (and pending re-runs); returns how many. */
  cancelQueued(): Promise<number>;
}

/** Queued and running tasks per kind, for the administrators' task view (`GET /api/v1/tasks/overview`). */
export interface TaskOverview {
  queued: number;
  running: number;
  byType: { type: string; queued: number; running: number }[];
}

/** Looking at the queue without changing it, the third port routes see. */
export interface TaskInspection {
  overview(): Promise<TaskOverview>;
}

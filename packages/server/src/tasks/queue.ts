import { EventEmitter } from 'node:events';
import type { Db } from '../db/database.js';
import { TaskRepository } from '../db/repositories/tasks.js';
import {
  PRIORITY,
  groupIdOf,
  isTaskKind,
  uniqueIdOf,
  waitsForAnalyses,
  type Priority,
  type Task,
} from './definitions.js';
import type { TaskCancellation, TaskEmitter, TaskInspection } from './emitter.js';
import type { TaskLogger } from './handlers.js';

/** A task taken by a runner. */
export interface QueuedTask {
  uniqueId: string;
  task: Task;
  priority: Priority;
  groupId: string | null;
  owner: string;
}

export interface TaskCounts {
  count: number;
  countByType: Record<string, number>;
}

/** Why the queue changed; the pool wakes on 'submitted', the status broadcaster on any. */
export type QueueChange = 'submitted' | 'done' | 'cancelled' | 'reclaimed';

/**
 * What every task queue gives, whichever database holds it (engine.md §8.1): the ports routes and services see,
 * the counts of the SSE TaskQueueStatus payload, and change notifications. The SQLite queue below adds how its
 * worker pool takes tasks; in PostgreSQL mode graphile-worker's runners take them (pg-queue.ts).
 */
export interface SharedTaskQueue extends TaskEmitter, TaskCancellation, TaskInspection {
  /**
   * Queues tasks; a task whose unique id is already queued is updated in place (priority, group, payload)
   * and moves to the back of its priority. A task submitted while it is running is run once more after
   * the current run ends, with the newest payload and priority (Komga drops such a re-submission).
   */
  submit(tasks: readonly Task[], priority?: Priority): Promise<void>;
  /** Queued and running tasks, in total and per kind (the SSE TaskQueueStatus payload). */
  counts(): Promise<TaskCounts>;
  /** Called after every change made through this queue object (or, in PostgreSQL mode, by this instance's runners). */
  onChange(listener: (change: QueueChange) => void): () => void;
}

/**
 * The persistent task queue of SQLite mode, the worker pool's side included; the semantics below are the contract
 * the PostgreSQL queue keeps too.
 */
export interface TaskQueue extends SharedTaskQueue {
  /**
   * Takes the next available task for `owner`: unowned, no task of its group running and, for a task that waits
   * for analyses (`waitsForAnalyses`), no AnalyzeBook queued or running; highest priority first, then the oldest
   * submission. Undefined when nothing is available.
   */
  take(owner: string): Promise<QueuedTask | undefined>;
  /** Ends a run: the task is removed, or queued again if it was re-submitted while running. */
  done(uniqueId: string): Promise<void>;
  /**
   * At start-up, before any runner: tasks that a previous process had taken (it crashed or was killed)
   * become available again. Assumes one instance per database; returns how many.
   */
  reclaimOrphans(): Promise<number>;
}

export interface TaskQueueOptions {
  /** Where dropped tasks are reported. */
  logger: Pick<TaskLogger, 'warn'>;
  now?: () => Date;
}

/** Tasks written per transaction by one submit. */
const SUBMIT_SLICE = 1000;

export function createTaskQueue(db: Db, opts: TaskQueueOptions): TaskQueue {
  const repository = new TaskRepository(db);
  const now = opts.now ?? (() => new Date());
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const changed = (change: QueueChange) => emitter.emit('change', change);

  return {
    async submit(tasks, priority = PRIORITY.DEFAULT) {
      if (tasks.length === 0) return;
      // A big submission (a scan queues an analysis and a hash per book: 200,000 tasks for 100,000 books) goes
      // in slices, one transaction each, with the event loop's turn between them: better-sqlite3 is synchronous
      // and one transaction for all of it held every request for seconds. A task repeated in a later slice
      // updates the row the earlier one wrote, so the last one still wins.
      for (let i = 0; i < tasks.length; i += SUBMIT_SLICE) {
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        await repository.upsert(
          tasks.slice(i, i + SUBMIT_SLICE).map((task) => ({
            uniqueId: uniqueIdOf(task),
            kind: task.kind,
            priority,
            groupId: groupIdOf(task),
            payload: JSON.stringify(task),
            afterAnalyses: waitsForAnalyses(task),
          })),
          now().toISOString(),
        );
      }
      changed('submitted');
    },

    async take(owner) {
      // A row no handler can run is dropped and the next one taken: a kind this version does not know (one that
      // was removed, or written by a newer version) or a corrupt payload. Each turn deletes a row, so this ends.
      for (;;) {
        const row = await repository.takeNext(owner);
        if (!row) return undefined;
        const task = parseTask(row.payload);
        if (task) return { uniqueId: row.uniqueId, task, priority: row.priority, groupId: row.groupId, owner };
        await repository.finish(row.uniqueId);
        opts.logger.warn({ task: row.uniqueId, kind: row.kind }, 'Dropped a queued task this version cannot run');
      }
    },

    async done(uniqueId) {
      await repository.finish(uniqueId);
      changed('done');
    },

    async cancelQueued() {
      const removed = await repository.deleteQueued();
      changed('cancelled');
      return removed;
    },

    async reclaimOrphans() {
      const reclaimed = await repository.disownAll();
      changed('reclaimed');
      return reclaimed;
    },

    async counts() {
      const byKind = await repository.countByKind();
      let count = 0;
      const countByType: Record<string, number> = {};
      for (const [kind, n] of byKind) {
        countByType[kind] = n;
        count += n;
      }
      return { count, countByType };
    },

    async overview() {
      const byType = (await repository.countByKindAndState()).map(({ kind, queued, running }) => ({
        type: kind,
        queued,
        running,
      }));
      return {
        queued: byType.reduce((n, t) => n + t.queued, 0),
        running: byType.reduce((n, t) => n + t.running, 0),
        byType,
      };
    },

    onChange(listener) {
      emitter.on('change', listener);
      return () => emitter.off('change', listener);
    },
  };
}

function parseTask(payload: string): Task | undefined {
  try {
    const value = JSON.parse(payload) as unknown;
    if (typeof value === 'object' && value !== null && 'kind' in value && typeof value.kind === 'string') {
      return isTaskKind(value.kind) ? (value as Task) : undefined;
    }
  } catch {
    // fall through
  }
  return undefined;
}

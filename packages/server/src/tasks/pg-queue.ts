import { EventEmitter } from 'node:events';
import { Logger, makeWorkerUtils, runMigrations } from 'graphile-worker';
import type { ClusterStore, PgPool } from '../db/cluster.js';
import { PRIORITY, groupIdOf, uniqueIdOf, waitsForAnalyses, type Task } from './definitions.js';
import type { QueueChange, SharedTaskQueue, TaskCounts } from './queue.js';

/**
 * graphile-worker's attempt limit for a Quire job. A failing handler is logged and counted, never retried (the
 * SQLite queue's contract), so attempts only grow when a crashed instance's job is taken again; the limit stops a
 * task that kills its instance every time from doing so for ever.
 */
export const MAX_ATTEMPTS = 5;

/** graphile-worker's migration messages stay out of Quire's log. */
const quietLogger = new Logger(() => () => undefined);

/**
 * The graphile-worker flag of a task that waits for analyses (`waitsForAnalyses`): each runner forbids it while an
 * AnalyzeBook job waits or runs (pg-worker-pool.ts).
 */
export const AFTER_ANALYSES_FLAG = 'after-analyses';

/** Jobs per `add_jobs` statement. */
const SUBMIT_SLICE = 1000;

export interface PgTaskQueue extends SharedTaskQueue {
  /** This instance's runners finished a task: tells the status broadcaster (the SQLite queue sees its own `done`). */
  notifyDone(): void;
  /**
   * The daily clean-up: jobs that will never run again (superseded by a re-submission while their instance died,
   * or past their attempts) and the named queues no job uses any more.
   */
  housekeeping(): Promise<void>;
}

/**
 * The task queue in PostgreSQL mode (issue 20): graphile-worker's job table, shared by every instance. The task's
 * kind is the job's task identifier, its unique id the job key (a queued job is replaced, newest payload winning;
 * one submitted while it runs is queued behind it), and its group, or else its unique id, the job's named queue:
 * graphile-worker runs the jobs of one named queue one at a time, so two tasks of one series never run at once
 * and a re-submitted task waits for its running self. Quire's priorities are negated (graphile-worker runs the
 * lowest number first). The instances' runners are `pg-worker-pool.ts`.
 */
export async function openPgTaskQueue(pool: PgPool, store: ClusterStore): Promise<PgTaskQueue> {
  // graphile-worker's schema. Its migrations take no lock of their own, and instances starting together would race
  // to install it: one instance migrates at a time, its own schema or graphile-worker's.
  await store.migrating(() => runMigrations({ pgPool: pool, logger: quietLogger }));
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const changed = (change: QueueChange) => emitter.emit('change', change);

  return {
    async submit(tasks: readonly Task[], priority = PRIORITY.DEFAULT) {
      if (tasks.length === 0) return;
      // Within one submission the last task with a given id wins (one statement may not update a row twice).
      const byId = new Map<string, Task>();
      for (const task of tasks) {
        const id = uniqueIdOf(task);
        byId.delete(id);
        byId.set(id, task);
      }
      // graphile-worker runs by priority, then run_at: one statement gives every job the same now(), and the tie is
      // broken by no order at all (three imports of one series ran last first). Each job runs a microsecond after the
      // one before it, all of them in the past so none waits for the next poll: the oldest submission first, as in
      // SQLite mode.
      const firstMicros = Date.now() * 1000 - byId.size;
      const specs = [...byId].map(([jobKey, task], i) => ({
        identifier: task.kind,
        payload: task,
        queueName: groupIdOf(task) ?? jobKey,
        jobKey,
        priority: -priority,
        maxAttempts: MAX_ATTEMPTS,
        runAt: isoMicros(firstMicros + i),
        ...(waitsForAnalyses(task) ? { flags: [AFTER_ANALYSES_FLAG] } : {}),
      }));
      for (let i = 0; i < specs.length; i += SUBMIT_SLICE) await store.addJobs(specs.slice(i, i + SUBMIT_SLICE));
      changed('submitted');
    },

    async cancelQueued() {
      const removed = await store.deleteQueuedJobs();
      changed('cancelled');
      return removed;
    },

    async counts(): Promise<TaskCounts> {
      let count = 0;
      const countByType: Record<string, number> = {};
      for (const { kind, queued, running } of await store.jobCounts()) {
        countByType[kind] = queued + running;
        count += queued + running;
      }
      return { count, countByType };
    },

    async overview() {
      const byType = (await store.jobCounts()).map(({ kind, queued, running }) => ({ type: kind, queued, running }));
      return {
        queued: byType.reduce((n, t) => n + t.queued, 0),
        running: byType.reduce((n, t) => n + t.running, 0),
        byType,
      };
    },

    notifyDone() {
      changed('done');
    },

    async housekeeping() {
      const utils = await makeWorkerUtils({ pgPool: pool, logger: quietLogger });
      try {
        await utils.cleanup({ tasks: ['DELETE_PERMAFAILED_JOBS', 'GC_JOB_QUEUES'] });
      } finally {
        await utils.release();
      }
    },

    onChange(listener) {
      emitter.on('change', listener);
      return () => emitter.off('change', listener);
    },
  };
}

/** An instant in microseconds since the epoch as ISO-8601 with six decimals (PostgreSQL keeps microseconds). */
function isoMicros(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString();
  return iso.replace('Z', `${String(micros % 1000).padStart(3, '0')}Z`);
}

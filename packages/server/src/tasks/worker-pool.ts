import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { TaskMetricsRepository } from '../domain/metrics.js';
import type { Task } from './definitions.js';
import { runTask, type Handlers, type TaskLogger } from './handlers.js';
import type { QueuedTask, TaskQueue } from './queue.js';

export interface WorkerPoolOptions {
  queue: TaskQueue;
  handlers: Handlers;
  /** Concurrent runners: the `taskPoolSize` setting (at least 1). */
  size: number;
  logger: TaskLogger;
  /**
   * Where each finished run is counted (api.md §9.1 `komga.tasks.execution` and `komga.tasks.failure`): the
   * database, so the figures survive a restart and add up every instance's runs.
   */
  taskMetrics: Pick<TaskMetricsRepository, 'record'>;
  /** Prefix of the owner written on taken tasks; random by default. */
  instanceId?: string;
  /** Also look for work this often, for tasks queued by another process sharing the database. */
  pollMs?: number;
  /** Called after every task run here (the app gives freed native memory back once tasks stop). */
  afterTask?: () => void;
  /** Awaited before every task run here (the app gives the analyses' memory back before a task that waits for them). */
  beforeTask?: (task: Task) => Promise<unknown> | undefined;
}

export interface WorkerPool {
  /** Starts taking tasks; call after `queue.reclaimOrphans()`. */
  start(): void;
  readonly size: number;
  /** Changes the number of runners live: extra runners start at once, surplus ones stop after their task. */
  resize(size: number): void;
  /** Tasks being handled right now. */
  running(): QueuedTask[];
  /**
   * Takes no more tasks and waits for the running ones, at most `timeoutMs`. Returns false if some were
   * still running: they stay owned in the queue, even if they end later (in error, as shutting down closes what
   * they use), and run again after `reclaimOrphans()` at next start.
   */
  stop(timeoutMs?: number): Promise<boolean>;
}

/**
 * The runners that drain the queue (engine.md §8.1). Woken on every submit and every finished task,
 * and by a slow poll. A handler's failure is logged and counted, and the task is deleted: no retry.
 * Handlers are async and keep CPU-heavy work in the adapters' worker threads, so runners never hold the
 * event loop; between two tasks a runner yields to pending I/O.
 */
export function createWorkerPool(opts: WorkerPoolOptions): WorkerPool {
  const { queue, handlers, logger, taskMetrics } = opts;
  const instanceId = opts.instanceId ?? randomBytes(4).toString('hex');
  const pollMs = opts.pollMs ?? 10_000;
  let size = validSize(opts.size);
  let started = false;
  let stopping = false;
  /** `stop` gave up waiting: tasks still running are left to the next start, whatever becomes of them here. */
  let abandoned = false;
  let active = 0;
  let runnerCount = 0;
  /** Bumped on every wake-up, so that a runner that found nothing knows whether to look again. */
  let wakeups = 0;
  const loops = new Set<Promise<void>>();
  const current = new Map<string, QueuedTask>();
  let poll: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  function wake() {
    wakeups++;
    if (!started || stopping) return;
    while (active < size) spawn();
  }

  function spawn() {
    const owner = `${instanceId}-${++runnerCount}`;
    active++;
    const loop = runLoop(owner);
    loops.add(loop);
    void loop.finally(() => loops.delete(loop));
  }

  async function runLoop(owner: string): Promise<void> {
    try {
      for (;;) {
        // Check and exit in one synchronous step, so that shrinking by k stops exactly k runners.
        if (stopping || active > size) return;
        const seen = wakeups;
        let queued: QueuedTask | undefined;
        try {
          queued = await queue.take(owner);
        } catch (err) {
          logger.error({ err }, 'Could not take a task from the queue');
          return;
        }
        if (!queued) {
          if (seen !== wakeups && !stopping) continue;
          return;
        }
        await run(queued);
        await yieldToEventLoop();
      }
    } finally {
      active--;
    }
  }

  async function run(queued: QueuedTask) {
    const { task, uniqueId, owner } = queued;
    current.set(owner, queued);
    const startedAt = performance.now();
    let failed = false;
    try {
      logger.debug({ task: uniqueId, priority: queued.priority }, `Task ${task.kind} started`);
      await opts.beforeTask?.(task);
      await runTask(handlers, task, { priority: queued.priority, submit: (tasks, p) => queue.submit(tasks, p) });
    } catch (err) {
      failed = true;
      logger.error({ err, task: uniqueId }, `Task ${task.kind} failed`);
    }
    // Shutting down closed what it was using (worker threads, the database) under it: its outcome says nothing,
    // so it is neither counted nor marked done, and runs again after the next start's reclaimOrphans.
    if (abandoned) return;
    const durationMs = performance.now() - startedAt;
    current.delete(owner);
    try {
      await taskMetrics.record({ type: task.kind, durationMs, failed, finishedAt: new Date() });
    } catch (err) {
      // A figure lost is better than a task run again: the run itself is done.
      logger.error({ err, task: uniqueId }, 'Could not record the metrics of a task');
    }
    try {
      await queue.done(uniqueId);
    } catch (err) {
      logger.error({ err, task: uniqueId }, 'Could not mark a task done; it will run again after a restart');
    }
    opts.afterTask?.();
  }

  return {
    start() {
      if (started) return;
      started = true;
      unsubscribe = queue.onChange((change) => {
        if (change !== 'cancelled') wake();
      });
      poll = setInterval(wake, pollMs);
      poll.unref();
      wake();
    },
    get size() {
      return size;
    },
    resize(n) {
      size = validSize(n);
      wake();
    },
    running: () => [...current.values()],
    async stop(timeoutMs = 30_000) {
      stopping = true;
      if (poll) clearInterval(poll);
      unsubscribe?.();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        timer.unref();
      });
      const finished = await Promise.race([Promise.all([...loops]).then(() => true as const), timeout]);
      clearTimeout(timer);
      if (!finished) {
        abandoned = true;
        logger.warn({ running: [...current.keys()] }, 'Stopped with tasks still running');
      }
      return finished;
    },
  };
}

function validSize(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`Task pool size must be a positive integer, got ${n}`);
  return n;
}

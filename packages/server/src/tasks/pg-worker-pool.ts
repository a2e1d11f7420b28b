import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Logger, run, type Runner, type Task as GraphileTask, type TaskList } from 'graphile-worker';
import type { ClusterStore, PgPool } from '../db/cluster.js';
import type { TaskMetricsRepository } from '../domain/metrics.js';
import { TASK_KINDS, groupIdOf, isTaskKind, uniqueIdOf, type Task } from './definitions.js';
import { runTask, type Handlers, type TaskLogger } from './handlers.js';
import { AFTER_ANALYSES_FLAG, type PgTaskQueue } from './pg-queue.js';
import type { QueuedTask } from './queue.js';
import type { WorkerPool } from './worker-pool.js';

export interface PgWorkerPoolOptions {
  pool: PgPool;
  store: ClusterStore;
  queue: PgTaskQueue;
  handlers: Handlers;
  /** Concurrent runners: the `taskPoolSize` setting (at least 1). */
  size: number;
  logger: TaskLogger;
  taskMetrics: Pick<TaskMetricsRepository, 'record'>;
  /** This instance's id: the prefix of its workers' ids, and its row in `quire_instance`. Random by default. */
  instanceId?: string;
  /** How often this instance says it is alive and looks for dead instances' tasks. */
  heartbeatMs?: number;
  /** An instance silent this long is dead: the tasks its workers hold are taken again. */
  staleMs?: number;
  /** How often graphile-worker looks for jobs besides its notifications (its default: 2 s). */
  pollMs?: number;
  /** Called after each run, as the SQLite pool does (native memory given back: native-memory.ts). */
  afterTask?: () => void;
  /** Awaited before each run, as in the SQLite pool. */
  beforeTask?: (task: Task) => Promise<unknown> | undefined;
}

/**
 * The runners of PostgreSQL mode (issue 20): graphile-worker's, taking jobs from the queue every instance shares
 * (pg-queue.ts, opened first: it creates the schema). One graphile-worker runner per runner slot, each with one worker whose id is
 * `<instanceId>/<n>`: graphile-worker's `force_unlock_workers` releases a dead instance's jobs by those ids, and
 * which instances are alive is a heartbeat row each (`ClusterStore.heartbeat`). Every instance, every `heartbeatMs`,
 * renews its row and releases the jobs held by workers of instances silent for `staleMs`, so a crashed
 * instance's running tasks run again elsewhere within seconds (graphile-worker itself would wait 4 hours).
 * A failing handler is logged and counted, and its job deleted: no retry, as in SQLite mode, except when PostgreSQL
 * chose its transaction as a deadlock's victim (`isTransient`), which SQLite's single writer never meets.
 */
export function createPgWorkerPool(opts: PgWorkerPoolOptions): WorkerPool {
  const { pool, store, queue, handlers, logger, taskMetrics } = opts;
  const instanceId = opts.instanceId ?? randomBytes(6).toString('hex');
  const heartbeatMs = opts.heartbeatMs ?? 5_000;
  const staleMs = opts.staleMs ?? 3 * heartbeatMs;
  let size = validSize(opts.size);
  let starting: Promise<void> | undefined;
  let stopping = false;
  let abandoned = false;
  let next = 0;
  const runners: { workerId: string; runner: Promise<Runner | undefined> }[] = [];
  const current = new Map<string, QueuedTask>();
  let heartbeat: NodeJS.Timeout | undefined;

  const graphileLogger = new Logger(() => (level, message) => {
    if (level === 'error') logger.error({}, `graphile-worker: ${message}`);
    else if (level === 'warning') logger.warn({}, `graphile-worker: ${message}`);
  });

  /**
   * The flags a runner skips (graphile-worker asks before each job it takes): the tasks that wait for analyses, while
   * an AnalyzeBook job of any instance waits or runs. Read from the database at most once per
   * {@link ANALYSES_RECHECK_MS} for all of this instance's runners, and again after each analysis run here (the
   * runner that ran the last one takes the held tasks at once): the read may scan the job table (no index by task),
   * and a stale answer only lets such a task start or wait that much early or late.
   */
  let analysesCheck: { at: number; pending: Promise<boolean> } | undefined;
  const forbiddenFlags = async (): Promise<string[] | null> => {
    const now = performance.now();
    if (!analysesCheck || now - analysesCheck.at >= ANALYSES_RECHECK_MS)
      analysesCheck = { at: now, pending: store.hasJobs('AnalyzeBook').catch(() => false) };
    return (await analysesCheck.pending) ? [AFTER_ANALYSES_FLAG] : null;
  };

  const handle = (workerId: string) => async (payload: unknown, helpers: Parameters<GraphileTask>[1]) => {
    const task = payload as Task;
    if (typeof task !== 'object' || task === null || !isTaskKind(task.kind)) {
      logger.warn({ job: helpers.job.id }, 'Dropped a queued task this version cannot run');
      return;
    }
    const uniqueId = uniqueIdOf(task);
    const priority = -helpers.job.priority || 0; // Quire's, un-negated (and never -0)
    current.set(workerId, { uniqueId, task, priority, groupId: groupIdOf(task), owner: workerId });
    const startedAt = performance.now();
    let failed = false;
    logger.debug({ task: uniqueId, priority }, `Task ${task.kind} started`);
    for (let attempt = 1; ; attempt++) {
      try {
        if (attempt === 1) await opts.beforeTask?.(task);
        await runTask(handlers, task, { priority, submit: (tasks, p) => queue.submit(tasks, p) });
        break;
      } catch (err) {
        if (attempt < TRANSIENT_ATTEMPTS && isTransient(err) && !stopping) {
          logger.warn(
            { err, task: uniqueId, attempt },
            `Task ${task.kind} lost a race with another writer; running it again`,
          );
          await new Promise((r) => setTimeout(r, 50 + Math.random() * 200 * attempt));
          continue;
        }
        failed = true;
        logger.error({ err, task: uniqueId }, `Task ${task.kind} failed`);
        break;
      }
    }
    if (task.kind === 'AnalyzeBook') analysesCheck = undefined;
    // Shutting down closed what it used under it: its outcome says nothing, so the job stays held and is taken
    // again by another instance (or this one's next start) once this instance's row is gone.
    if (abandoned) throw new Error('Abandoned when the instance stopped');
    current.delete(workerId);
    try {
      await taskMetrics.record({
        type: task.kind,
        durationMs: performance.now() - startedAt,
        failed,
        finishedAt: new Date(),
      });
    } catch (err) {
      logger.error({ err, task: uniqueId }, 'Could not record the metrics of a task');
    }
    queue.notifyDone();
    opts.afterTask?.();
  };

  function addRunner() {
    const workerId = `${instanceId}/${++next}`;
    const taskList: TaskList = Object.fromEntries(TASK_KINDS.map((kind) => [kind, handle(workerId)]));
    const runner = run({
      pgPool: pool,
      concurrency: 1,
      workerId,
      noHandleSignals: true,
      pollInterval: opts.pollMs ?? 2_000,
      forbiddenFlags,
      taskList,
      logger: graphileLogger,
    } as Parameters<typeof run>[0]).catch((err: unknown) => {
      logger.error({ err }, 'Could not start a task runner');
      return undefined;
    });
    runners.push({ workerId, runner });
  }

  async function stopRunner(entry: (typeof runners)[number]) {
    const runner = await entry.runner;
    await runner?.stop();
  }

  async function beat() {
    try {
      await store.heartbeat(instanceId);
      const dead = await store.workersOfDeadInstances(staleMs);
      if (dead.length > 0) {
        await store.unlockWorkers(dead);
        logger.warn({ workers: dead }, 'Released the tasks of instances that stopped answering');
      }
    } catch (err) {
      logger.error({ err }, 'Could not check which instances are alive');
    }
  }

  async function startUp() {
    // The row first: a worker of this instance may hold a job only while the instance is known to be alive.
    await beat();
    if (stopping) return;
    heartbeat = setInterval(() => void beat(), heartbeatMs);
    heartbeat.unref();
    while (runners.length < size) addRunner();
  }

  return {
    start() {
      starting ??= startUp().catch((err: unknown) => logger.error({ err }, 'Could not start the task runners'));
    },
    get size() {
      return size;
    },
    resize(n) {
      size = validSize(n);
      if (!starting || stopping) return;
      while (runners.length < size) addRunner();
      // Surplus runners finish their task, then stop.
      for (const entry of runners.splice(size)) void stopRunner(entry);
    },
    running: () => [...current.values()],
    async stop(timeoutMs = 30_000) {
      stopping = true;
      await starting;
      if (heartbeat) clearInterval(heartbeat);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        timer.unref();
      });
      const all = runners.splice(0);
      const finished = await Promise.race([Promise.all(all.map(stopRunner)).then(() => true as const), timeout]);
      clearTimeout(timer);
      if (!finished) {
        abandoned = true;
        logger.warn({ running: [...current.keys()] }, 'Stopped with tasks still running');
      }
      // Without its row, whatever this instance still holds is released by the next instance that looks.
      await store.leave(instanceId).catch(() => undefined);
      return finished;
    },
  };
}

/**
 * PostgreSQL aborts one transaction of a deadlock (40P01) or of a serialization conflict (40001): the victim did
 * nothing wrong and rolled back whole, and every handler may run again (a dead instance's tasks do), so the task is
 * run again rather than failed. Between writers in different tasks such cycles cannot all be ruled out.
 */
const TRANSIENT_ATTEMPTS = 3;

/** How old the answer to "does an analysis wait or run?" may be when a runner takes a job. */
const ANALYSES_RECHECK_MS = 500;
const TRANSIENT_CODES = new Set(['40P01', '40001']);

function isTransient(err: unknown): boolean {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
    e = cause;
  }
  return false;
}

function validSize(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`Task pool size must be a positive integer, got ${n}`);
  return n;
}

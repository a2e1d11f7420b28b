import type { QuireEvent } from '@quire/api';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ClusterStore, openPgPool } from '../../src/db/cluster.js';
import { createPgEventBus, NOTIFY_LIMIT, type PgEventBus } from '../../src/events/pg-bus.js';
import { PRIORITY, TASK_KINDS, type Task } from '../../src/tasks/definitions.js';
import type { Handlers, TaskLogger } from '../../src/tasks/handlers.js';
import { openPgTaskQueue, type PgTaskQueue } from '../../src/tasks/pg-queue.js';
import { createPgWorkerPool } from '../../src/tasks/pg-worker-pool.js';
import { createScheduler, type Clock } from '../../src/tasks/scheduler.js';
import type { WorkerPool } from '../../src/tasks/worker-pool.js';
import { freshDatabase as freshTestDatabase } from '../support/postgres.js';

/**
 * The PostgreSQL task queue (graphile-worker), its runners, the scheduler's claims and the LISTEN/NOTIFY event bus,
 * against a real PostgreSQL 15 cluster. Each "instance" is a pool of connections, a queue and a worker pool of its
 * own over one database, as two Quire processes would have.
 */

const silent: TaskLogger = { debug() {}, info() {}, warn() {}, error() {} };
const noMetrics = { record: async () => undefined };

const opened: { end(): Promise<void> }[] = [];

afterAll(async () => {
  // A pool whose clients a failed test left checked out never ends: give them a moment, no more.
  const ended = Promise.all(opened.map((pool) => pool.end().catch(() => undefined)));
  await Promise.race([ended, new Promise((r) => setTimeout(r, 2_000))]);
});

/** A fresh database, and a function that opens one instance's connections to it. */
async function freshDatabase() {
  return (await freshDatabaseWithUrl()).connect;
}

async function freshDatabaseWithUrl() {
  const url = await freshTestDatabase({ empty: true });
  const connect = async () => {
    const pool = openPgPool(url, 8);
    opened.push(pool);
    return { pool, store: await ClusterStore.open(pool) };
  };
  return { connect, url };
}

/** Every kind handled by `run`, which sees the task and the priority it runs at. */
function handlersFor(run: (task: Task, priority: number) => Promise<void>): Handlers {
  return Object.fromEntries(
    TASK_KINDS.map((kind) => [kind, (task: Task, ctx: { priority: number }) => run(task, ctx.priority)]),
  ) as unknown as Handlers;
}

interface Instance {
  queue: PgTaskQueue;
  pool: WorkerPool;
  store: ClusterStore;
}

async function instance(
  connect: () => Promise<{ pool: pg.Pool; store: ClusterStore }>,
  run: (task: Task, priority: number) => Promise<void>,
  opts: { size?: number; instanceId?: string; heartbeatMs?: number; staleMs?: number; metrics?: typeof noMetrics } = {},
): Promise<Instance> {
  const { pool, store } = await connect();
  const queue = await openPgTaskQueue(pool, store);
  const workers = createPgWorkerPool({
    pool,
    store,
    queue,
    handlers: handlersFor(run),
    size: opts.size ?? 1,
    logger: silent,
    taskMetrics: opts.metrics ?? noMetrics,
    instanceId: opts.instanceId,
    heartbeatMs: opts.heartbeatMs ?? 200,
    staleMs: opts.staleMs,
    pollMs: 100,
  });
  return { queue, pool: workers, store };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const analyze = (bookId: string, seriesId: string): Task => ({ kind: 'AnalyzeBook', bookId, seriesId });
const hash = (bookId: string): Task => ({ kind: 'HashBook', bookId });
const refresh = (bookId: string, capabilities: ('TITLE' | 'TAGS')[]): Task => ({
  kind: 'RefreshBookMetadata',
  bookId,
  seriesId: `s-${bookId}`,
  capabilities,
});

describe('the PostgreSQL task queue', () => {
  it('runs the highest priority first, once per unique id with the newest payload, and counts per kind', async () => {
    const connect = await freshDatabase();
    const ran: { task: Task; priority: number }[] = [];
    const a = await instance(connect, async (task, priority) => void ran.push({ task, priority }));
    // Queued while no instance runs tasks.
    await a.queue.submit([hash('low')], PRIORITY.LOW);
    await a.queue.submit([refresh('r', ['TITLE']), hash('default')], PRIORITY.DEFAULT);
    await a.queue.submit([hash('high')], PRIORITY.HIGHEST);
    // The same unique id again: one task, the newest payload and priority, moved to the back of its priority.
    await a.queue.submit([refresh('r', ['TAGS'])], PRIORITY.DEFAULT);
    expect(await a.queue.counts()).toEqual({ count: 4, countByType: { HashBook: 3, RefreshBookMetadata: 1 } });
    expect(await a.queue.overview()).toMatchObject({ queued: 4, running: 0 });

    const b = await instance(connect, async (task, priority) => void ran.push({ task, priority }));
    b.pool.start();
    await until(() => ran.length === 4);
    await b.pool.stop(5_000);
    expect(ran).toEqual([
      { task: hash('high'), priority: PRIORITY.HIGHEST },
      { task: hash('default'), priority: PRIORITY.DEFAULT },
      { task: refresh('r', ['TAGS']), priority: PRIORITY.DEFAULT },
      { task: hash('low'), priority: PRIORITY.LOW },
    ]);
    expect((await b.queue.counts()).count).toBe(0);
    await b.queue.housekeeping();
  }, 60_000);

  it('never runs two tasks of one series at once, across instances, while other series run beside them', async () => {
    const connect = await freshDatabase();
    const running = new Map<string, number>();
    let most = 0;
    let mostInOneSeries = 0;
    let done = 0;
    const run = async (task: Task) => {
      const series = (task as { seriesId: string }).seriesId;
      running.set(series, (running.get(series) ?? 0) + 1);
      mostInOneSeries = Math.max(mostInOneSeries, running.get(series)!);
      most = Math.max(
        most,
        [...running.values()].reduce((n, v) => n + v, 0),
      );
      await new Promise((r) => setTimeout(r, 60));
      running.set(series, running.get(series)! - 1);
      done++;
    };
    // Opened at once, as two instances starting together: neither may fail creating the schemas.
    const [a, b] = await Promise.all([instance(connect, run, { size: 2 }), instance(connect, run, { size: 2 })]);
    a.pool.start();
    b.pool.start();
    await until(async () => (await a.queue.counts()).count === 0);
    const tasks = ['s1', 's2'].flatMap((s) => [1, 2, 3, 4].map((n) => analyze(`${s}-${n}`, s)));
    await a.queue.submit(tasks, PRIORITY.DEFAULT);
    await until(() => done === tasks.length);
    await Promise.all([a.pool.stop(5_000), b.pool.stop(5_000)]);
    expect(mostInOneSeries).toBe(1);
    expect(most).toBe(2);
  }, 60_000);

  it("holds an import's barcode refresh while any instance's analysis waits or runs, not the other work", async () => {
    // What an import queues (issue 18): a series' analyses, and the metadata refresh that an analysis in a library
    // searching barcodes queued below them. The instance whose runner cannot take the series' next analysis (its
    // group runs elsewhere) must not start the refresh's barcode search beside them, but takes other work.
    const connect = await freshDatabase();
    const events: string[] = [];
    const run = async (task: Task) => {
      const id = 'bookId' in task ? task.bookId : task.kind;
      events.push(`start ${task.kind} ${id}`);
      if (task.kind === 'AnalyzeBook') await new Promise((r) => setTimeout(r, 300));
      events.push(`end ${task.kind} ${id}`);
    };
    const [a, b] = await Promise.all([instance(connect, run), instance(connect, run)]);
    await a.queue.submit([analyze('a1', 'A'), analyze('a2', 'A'), analyze('a3', 'A')], PRIORITY.DEFAULT);
    await a.queue.submit(
      [{ kind: 'RefreshBookMetadata', bookId: 'b1', seriesId: 'B', capabilities: ['ISBN'], afterAnalyses: true }],
      PRIORITY.DEFAULT - 2,
    );
    await a.queue.submit([hash('b1')], PRIORITY.LOWEST);
    a.pool.start();
    b.pool.start();
    const last = ['end AnalyzeBook a3', 'end RefreshBookMetadata b1', 'end HashBook b1'];
    await until(() => last.every((e) => events.includes(e)));
    await Promise.all([a.pool.stop(5_000), b.pool.stop(5_000)]);
    expect(events.indexOf('start RefreshBookMetadata b1')).toBeGreaterThan(events.indexOf('end AnalyzeBook a3'));
    expect(events.indexOf('end HashBook b1')).toBeLessThan(events.indexOf('end AnalyzeBook a3'));
  }, 60_000);

  it('runs a task submitted while it runs once more afterwards, not beside itself', async () => {
    const connect = await freshDatabase();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const runs: string[][] = [];
    let concurrent = 0;
    let most = 0;
    const run = async (task: Task) => {
      concurrent++;
      most = Math.max(most, concurrent);
      runs.push((task as { capabilities: string[] }).capabilities);
      if (runs.length === 1) await gate;
      concurrent--;
    };
    const a = await instance(connect, run, { size: 2 });
    a.pool.start();
    await a.queue.submit([refresh('r', ['TITLE'])], PRIORITY.DEFAULT);
    await until(() => runs.length === 1);
    await a.queue.submit([refresh('r', ['TAGS'])], PRIORITY.DEFAULT);
    expect(await a.queue.overview()).toMatchObject({ queued: 1, running: 1 });
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).toHaveLength(1);
    release();
    await until(() => runs.length === 2);
    await a.pool.stop(5_000);
    expect(runs).toEqual([['TITLE'], ['TAGS']]);
    expect(most).toBe(1);
  }, 60_000);

  it('cancels what waits, leaves what runs, and does not retry a task that failed', async () => {
    const connect = await freshDatabase();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    const failures: boolean[] = [];
    const a = await instance(
      connect,
      async (task) => {
        const id = (task as { bookId: string }).bookId;
        ran.push(id);
        if (id === 'first') await gate;
        if (id === 'broken') throw new Error('unreadable');
      },
      { metrics: { record: async (m: { failed: boolean }) => void failures.push(m.failed) } as typeof noMetrics },
    );
    a.pool.start();
    await a.queue.submit([hash('first')], PRIORITY.HIGHEST);
    await until(() => ran.length === 1);
    await a.queue.submit([hash('second'), hash('third')], PRIORITY.DEFAULT);
    expect(await a.queue.cancelQueued()).toBe(2);
    expect(await a.queue.counts()).toEqual({ count: 1, countByType: { HashBook: 1 } });
    release();
    await until(async () => (await a.queue.counts()).count === 0);

    await a.queue.submit([hash('broken')], PRIORITY.DEFAULT);
    await until(() => failures.length === 2);
    await new Promise((r) => setTimeout(r, 500));
    await a.pool.stop(5_000);
    expect(ran).toEqual(['first', 'broken']);
    expect(failures).toEqual([false, true]);
    expect((await a.queue.counts()).count).toBe(0);
  }, 60_000);

  it("runs a task again when PostgreSQL made it a deadlock's victim", async () => {
    const { connect, url } = await freshDatabaseWithUrl();
    const rows = new pg.Pool({ connectionString: url, max: 4 });
    opened.push(rows);
    await rows.query('CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)');
    await rows.query('INSERT INTO counter VALUES (1, 0), (2, 0)');
    // Two tasks each lock one row, wait until the other holds its row, then want the other's: a real deadlock,
    // which PostgreSQL breaks after deadlock_timeout by aborting one of the two transactions.
    let holding = 0;
    const attempts: string[] = [];
    const failures: boolean[] = [];
    const a = await instance(
      connect,
      async (task) => {
        const id = (task as { bookId: string }).bookId;
        attempts.push(id);
        const [first, second] = id === 'left' ? [1, 2] : [2, 1];
        const client = await rows.connect();
        try {
          await client.query('BEGIN');
          await client.query('UPDATE counter SET n = n + 1 WHERE id = $1', [first]);
          if (attempts.filter((x) => x === id).length === 1) {
            holding++;
            await until(() => holding === 2, 10_000);
          }
          await client.query('UPDATE counter SET n = n + 1 WHERE id = $1', [second]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        } finally {
          client.release();
        }
      },
      {
        size: 2,
        metrics: { record: async (m: { failed: boolean }) => void failures.push(m.failed) } as typeof noMetrics,
      },
    );
    a.pool.start();
    await a.queue.submit([hash('left'), hash('right')], PRIORITY.DEFAULT);
    await until(() => failures.length === 2);
    expect(failures).toEqual([false, false]);
    expect(attempts).toHaveLength(3); // the victim ran twice
    // Both tasks' updates happened, each once: the victim's first attempt left nothing behind.
    expect((await rows.query('SELECT n FROM counter ORDER BY id')).rows).toEqual([{ n: 2 }, { n: 2 }]);
    await a.pool.stop(5_000);
  }, 60_000);

  it('gives a task that a silent instance held to another instance, which finishes it', async () => {
    const connect = await freshDatabase();
    const finished: string[] = [];
    let started = false;
    // A: takes the task and never finishes it; its heartbeat stops after the first (it "died").
    const a = await instance(
      connect,
      async () => {
        started = true;
        await new Promise(() => undefined);
      },
      { instanceId: 'dying', heartbeatMs: 3_600_000 },
    );
    a.pool.start();
    await a.queue.submit([hash('book')], PRIORITY.DEFAULT);
    await until(() => started);
    expect(await a.queue.overview()).toMatchObject({ queued: 0, running: 1 });

    // B: alive, and counts an instance silent for a second as dead.
    const b = await instance(connect, async (task) => void finished.push((task as { bookId: string }).bookId), {
      instanceId: 'survivor',
      staleMs: 1_000,
    });
    b.pool.start();
    await until(() => finished.length === 1);
    expect(finished).toEqual(['book']);
    await until(async () => (await b.queue.counts()).count === 0);
    await b.pool.stop(5_000);
    await a.pool.stop(0);
  }, 60_000);
});

describe('the scheduler over PostgreSQL', () => {
  /** A clock whose timers fire when the test says so. */
  function manualClock(): Clock & { advance(ms: number): void } {
    let now = 1_000_000;
    const timers = new Set<{ at: number; fn: () => void }>();
    return {
      now: () => now,
      setTimeout(fn, ms) {
        const t = { at: now + ms, fn };
        timers.add(t);
        return t;
      },
      clearTimeout: (handle) => void timers.delete(handle as { at: number; fn: () => void }),
      advance(ms) {
        now += ms;
        for (const t of [...timers]) {
          if (t.at <= now) {
            timers.delete(t);
            t.fn();
          }
        }
      },
    };
  }

  it('queues a start-up scan and each periodic scan once, whichever instances fire', async () => {
    const connect = await freshDatabase();
    const submitted: Task[] = [];
    const schedulers = await Promise.all(
      [0, 1].map(async () => {
        const { store } = await connect();
        const clock = manualClock();
        const scheduler = createScheduler({
          queue: { submit: async (tasks) => void submitted.push(...tasks) },
          libraries: async () => [{ id: 'lib', scanInterval: 'HOURLY', scanOnStartup: true }],
          logger: silent,
          clock,
          claim: (name, gap) => store.claim(name, gap),
        });
        return { scheduler, clock, store };
      }),
    );
    await Promise.all(schedulers.map(({ scheduler }) => scheduler.start()));
    expect(submitted).toHaveLength(1);
    // Both instances' hourly timers fire (their clocks are a few seconds apart): one scan.
    for (const { clock } of schedulers) clock.advance(60 * 60_000 + 1);
    await until(() => submitted.length === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(submitted).toHaveLength(2);
    for (const { scheduler } of schedulers) scheduler.stop();
  }, 30_000);
});

describe('the PostgreSQL event bus', () => {
  it("delivers A's events to B's subscribers in order, large ones included, and each local one once", async () => {
    const { connect, url } = await freshDatabaseWithUrl();
    const stores = [(await connect()).store, (await connect()).store];
    const buses: PgEventBus[] = await Promise.all(
      stores.map((store, i) => createPgEventBus(store, { logger: silent, instanceId: `i${i}` })),
    );
    const [a, b] = buses as [PgEventBus, PgEventBus];
    const seenByA: QuireEvent[] = [];
    const seenByB: QuireEvent[] = [];
    a.subscribe((e) => seenByA.push(e));
    b.subscribe((e) => seenByB.push(e));

    const big: QuireEvent = {
      type: 'CollectionAdded',
      data: {
        collectionId: 'c',
        seriesIds: Array.from({ length: 600 }, (_, i) => `series-${i.toString().padStart(8, '0')}`),
      },
    };
    expect(JSON.stringify(big).length).toBeGreaterThan(NOTIFY_LIMIT);
    const sent: QuireEvent[] = [];
    for (let i = 0; i < 20; i++) {
      sent.push(i === 7 ? big : { type: 'BookChanged', data: { bookId: `b${i}`, seriesId: 's', libraryId: 'l' } });
    }
    for (const event of sent) a.emit(event);
    expect(seenByA).toEqual(sent);
    await until(() => seenByB.length === sent.length);
    expect(seenByB).toEqual(sent);

    // B's own events reach B once and A once; the queue status stays with the instance that counted it.
    b.emit({ type: 'ReadProgressChanged', data: { bookId: 'b1', userId: 'u' } });
    b.emit({ type: 'TaskQueueStatus', data: { count: 0, countByType: {} } });
    await until(() => seenByA.length === sent.length + 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(seenByA.at(-1)).toEqual({ type: 'ReadProgressChanged', data: { bookId: 'b1', userId: 'u' } });
    expect(seenByA).toHaveLength(sent.length + 1);
    expect(seenByB.slice(sent.length).map((e) => e.type)).toEqual(['ReadProgressChanged', 'TaskQueueStatus']);

    // The listening connections break (as when the database restarts): the buses listen again.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const killed = await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where query like 'listen %' and pid <> pg_backend_pid()" +
        // This database's only: the run's cluster also serves the other test files' servers.
        ' and datname = current_database()',
    );
    await admin.end();
    expect(killed.rowCount).toBe(2);
    const after: QuireEvent = { type: 'LibraryChanged', data: { libraryId: 'after-the-break' } };
    await until(async () => {
      a.emit(after);
      await new Promise((r) => setTimeout(r, 200));
      return seenByB.some((e) => e.type === 'LibraryChanged');
    });
    await Promise.all(buses.map((bus) => bus.close()));
  }, 30_000);
});

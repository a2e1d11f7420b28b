import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskRepository } from '../../src/db/repositories/tasks.js';
import { KyselyTaskMetricsRepository } from '../../src/db/repositories/task-metrics.js';
import { PRIORITY, type Task, type TaskOf } from '../../src/tasks/definitions.js';
import type { Handlers } from '../../src/tasks/handlers.js';
import { createTaskQueue, type TaskQueue } from '../../src/tasks/queue.js';
import { createWorkerPool, type WorkerPool } from '../../src/tasks/worker-pool.js';
import { gate, handlersFor, recordingLogger, tempDatabase, waitFor } from './helpers.js';

const analyze = (bookId: string, seriesId: string): Task => ({ kind: 'AnalyzeBook', bookId, seriesId });
const thumb = (bookId: string): Task => ({ kind: 'GenerateBookThumbnail', bookId });
const bookOf = (t: Task) => ('bookId' in t ? t.bookId : t.kind);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('WorkerPool', () => {
  let data: Awaited<ReturnType<typeof tempDatabase>>;
  let queue: TaskQueue;
  const pools: WorkerPool[] = [];
  const log = recordingLogger();
  beforeEach(async () => {
    data = await tempDatabase();
    queue = createTaskQueue(data.db, { logger: log.logger });
    log.lines.length = 0;
  });
  afterEach(async () => {
    for (const p of pools.splice(0)) await p.stop(100);
    await data.cleanup();
  });
  const pool = (handlers: Handlers, size: number, q = queue) => {
    const taskMetrics = new KyselyTaskMetricsRepository(data.db);
    const p = createWorkerPool({ queue: q, handlers, size, logger: log.logger, taskMetrics, pollMs: 60_000 });
    pools.push(p);
    return p;
  };
  const empty = async (q = queue) => (await q.counts()).count === 0;
  const figuresOf = async (type: string) =>
    (await new KyselyTaskMetricsRepository(data.db).figuresSince(new Date(Date.now() - 3_600_000))).find(
      (f) => f.type === type,
    );

  it('wakes on submit and runs tasks by priority with one runner', async () => {
    const order: string[] = [];
    const started = gate();
    const hold = gate();
    const p = pool(
      handlersFor(async (t) => {
        order.push(bookOf(t));
        if (bookOf(t) === 'first') {
          started.open();
          await hold.opened;
        }
      }),
      1,
    );
    p.start();
    // `first` is taken at once; the others queue behind it while the single runner is busy.
    await queue.submit([thumb('first')], PRIORITY.LOWEST);
    await started.opened;
    await queue.submit([thumb('low')], PRIORITY.LOW);
    await queue.submit([thumb('high')], PRIORITY.HIGH);
    await queue.submit([thumb('default')], PRIORITY.DEFAULT);
    hold.open();
    await waitFor(() => empty(), 'an empty queue');
    expect(order).toEqual(['first', 'high', 'default', 'low']);
    expect(await figuresOf('GenerateBookThumbnail')).toMatchObject({ count: 4, failures: 0 });
  });

  it('never runs two tasks of one series at once, while other series run beside them (size 2)', async () => {
    const running = new Map<string, number>();
    let maxPerSeries = 0;
    let maxOverall = 0;
    let overall = 0;
    const p = pool(
      handlersFor(async (t) => {
        const series = (t as TaskOf<'AnalyzeBook'>).seriesId;
        running.set(series, (running.get(series) ?? 0) + 1);
        overall++;
        maxPerSeries = Math.max(maxPerSeries, running.get(series)!);
        maxOverall = Math.max(maxOverall, overall);
        await sleep(5);
        running.set(series, running.get(series)! - 1);
        overall--;
      }),
      2,
    );
    // Series A first: without group exclusivity both runners would take A's books together.
    const books = [1, 2, 3, 4, 5];
    await queue.submit([...books.map((i) => analyze(`a${i}`, 'A')), ...books.map((i) => analyze(`b${i}`, 'B'))]);
    p.start();
    await waitFor(() => empty(), 'an empty queue');
    expect(maxPerSeries).toBe(1);
    expect(maxOverall).toBe(2);
  });

  it("holds an import's barcode refresh while an analysis waits or runs, and runs other work (size 2)", async () => {
    // What an import queues (issue 18): the analyses of one series, and the metadata refresh that an analysis in a
    // library searching barcodes queued below them. The second runner cannot take the series' next analysis (its
    // group is busy); it must not start the refresh's barcode search beside the analyses either.
    const events: string[] = [];
    const p = pool(
      handlersFor(async (t) => {
        events.push(`start ${t.kind} ${bookOf(t)}`);
        if (t.kind === 'AnalyzeBook') await sleep(30);
        events.push(`end ${t.kind} ${bookOf(t)}`);
      }),
      2,
    );
    await queue.submit([analyze('a1', 'A'), analyze('a2', 'A'), analyze('a3', 'A')], PRIORITY.DEFAULT);
    await queue.submit(
      [{ kind: 'RefreshBookMetadata', bookId: 'b1', seriesId: 'B', capabilities: ['ISBN'], afterAnalyses: true }],
      PRIORITY.DEFAULT - 2,
    );
    await queue.submit([{ kind: 'HashBook', bookId: 'b1' }], PRIORITY.LOWEST);
    p.start();
    await waitFor(() => empty(), 'an empty queue');
    const refreshed = events.indexOf('start RefreshBookMetadata b1');
    expect(refreshed).toBeGreaterThan(events.indexOf('end AnalyzeBook a3'));
    // the runner left without an analysis took the lower task instead of waiting
    expect(events.indexOf('end HashBook b1')).toBeLessThan(events.indexOf('end AnalyzeBook a3'));
  });

  it('runs a task submitted again while it runs once more afterwards, not concurrently', async () => {
    const runs: string[][] = [];
    const first = gate();
    const release = gate();
    let concurrent = 0;
    let maxConcurrent = 0;
    const p = pool(
      handlersFor(async () => undefined, {
        RefreshBookMetadata: async (t) => {
          concurrent++;
          maxConcurrent = Math.max(maxConcurrent, concurrent);
          runs.push(t.capabilities);
          if (runs.length === 1) {
            first.open();
            await release.opened;
          }
          concurrent--;
        },
      }),
      2,
    );
    p.start();
    await queue.submit([{ kind: 'RefreshBookMetadata', bookId: 'b', seriesId: 's', capabilities: ['TITLE'] }]);
    await first.opened;
    await queue.submit([{ kind: 'RefreshBookMetadata', bookId: 'b', seriesId: 's', capabilities: ['NUMBER'] }]);
    await sleep(30);
    expect(runs).toHaveLength(1);
    release.open();
    await waitFor(() => empty(), 'an empty queue');
    expect(runs).toEqual([['TITLE'], ['NUMBER']]);
    expect(maxConcurrent).toBe(1);
  });

  it('logs a failing task, deletes it and does not retry; follow-ups go through the context', async () => {
    const calls: string[] = [];
    const p = pool(
      handlersFor(async (t) => void calls.push(bookOf(t)), {
        AnalyzeBook: async (t, ctx) => {
          calls.push(`analyze ${t.bookId} at ${ctx.priority}`);
          if (t.bookId === 'bad') throw new Error('corrupt archive');
          await ctx.submit([thumb(t.bookId)], ctx.priority + 1);
        },
      }),
      1,
    );
    p.start();
    await queue.submit([analyze('bad', 'S'), analyze('good', 'S')], PRIORITY.DEFAULT);
    await waitFor(() => calls.includes('good'), 'the follow-up thumbnail');
    await waitFor(() => empty(), 'an empty queue');
    expect(calls).toEqual(['analyze bad at 4', 'analyze good at 4', 'good']);
    expect(await figuresOf('AnalyzeBook')).toMatchObject({ count: 2, failures: 1 });
    expect(log.lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual(['Task AnalyzeBook failed']);
  });

  it('drops queued rows of kinds this version no longer has, logs each, and runs the task behind them', async () => {
    // Komga's kinds that Quire defined but never queued were removed; a database may still hold such rows.
    const removed = [
      { kind: 'RebuildIndex', entities: null },
      { kind: 'UpgradeIndex' },
      { kind: 'ConvertToKepub', bookId: 'B' },
    ];
    await new TaskRepository(data.db).upsert(
      removed.map((task) => ({
        uniqueId: task.kind.toUpperCase(),
        kind: task.kind,
        priority: PRIORITY.HIGHEST,
        groupId: null,
        payload: JSON.stringify(task),
      })),
      new Date().toISOString(),
    );
    await queue.submit([thumb('behind')], PRIORITY.LOWEST);
    const ran: string[] = [];
    pool(
      handlersFor(async (t) => void ran.push(bookOf(t))),
      1,
    ).start();
    await waitFor(() => ran.includes('behind'), 'the task queued behind them');
    // the task's row goes once its handler has returned, a moment after it ran
    await waitFor(() => empty(), 'an empty queue');
    expect(ran).toEqual(['behind']);
    const warnings = log.lines.filter((l) => l.level === 'warn');
    expect(warnings.map((l) => (l.obj as { kind: string }).kind).sort()).toEqual(removed.map((t) => t.kind).sort());
  });

  it('resizes live: growing starts runners at once, shrinking stops them after their task', async () => {
    let concurrent = 0;
    let peak = 0;
    const hold = { current: gate() };
    const p = pool(
      handlersFor(async () => {
        concurrent++;
        peak = Math.max(peak, concurrent);
        await hold.current.opened;
        concurrent--;
      }),
      1,
    );
    p.start();
    await queue.submit(Array.from({ length: 12 }, (_, i) => thumb(`${i}`)));
    await waitFor(() => concurrent === 1, 'one runner busy');
    p.resize(3);
    await waitFor(() => concurrent === 3, 'three runners busy');
    expect(p.running()).toHaveLength(3);
    p.resize(1);
    hold.current.open();
    hold.current = gate();
    await waitFor(() => concurrent === 1, 'back to one runner');
    peak = 0;
    hold.current.open();
    await waitFor(() => empty(), 'an empty queue');
    expect(peak).toBe(1);
    expect(() => p.resize(0)).toThrow(RangeError);
  });

  it('stops gracefully: waits for the running task, takes no more', async () => {
    const done: string[] = [];
    const started = gate();
    const p = pool(
      handlersFor(async (t) => {
        started.open();
        await sleep(30);
        done.push(bookOf(t));
      }),
      1,
    );
    p.start();
    await queue.submit([thumb('1'), thumb('2'), thumb('3')]);
    await started.opened;
    expect(await p.stop(2_000)).toBe(true);
    expect(done).toEqual(['1']);
    expect((await queue.counts()).count).toBe(2);
  });

  it('leaves a task still running when stop gave up in the queue, even when it fails afterwards', async () => {
    const started = gate();
    const interrupted = gate();
    const p = pool(
      handlersFor(async () => {
        started.open();
        // What a shutdown does to a long task: the worker threads it waits on are closed under it.
        await interrupted.opened;
        throw new Error('worker terminated');
      }),
      1,
    );
    p.start();
    await queue.submit([thumb('long')]);
    await started.opened;
    expect(await p.stop(20)).toBe(false);
    interrupted.open();
    await sleep(50);
    // Not marked done: it is still queued (owned), and the next start's reclaimOrphans runs it again.
    expect((await queue.counts()).count).toBe(1);
    expect(await queue.reclaimOrphans()).toBe(1);
    expect(await figuresOf('GenerateBookThumbnail')).toBeUndefined();
  });

  it('resumes a queue after a crash in the middle: every task completes exactly once', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `book-${i}`);
    const completed = new Map<string, number>();
    const attempts = new Map<string, number>();
    const complete = (id: string) => completed.set(id, (completed.get(id) ?? 0) + 1);
    let hung = 0;

    // First life: after three tasks, handlers hang forever, like a process killed mid-task.
    const p1 = pool(
      handlersFor(async (t) => {
        const id = bookOf(t);
        attempts.set(id, (attempts.get(id) ?? 0) + 1);
        if ([...completed.values()].length >= 3) {
          hung++;
          return new Promise<void>(() => undefined);
        }
        await sleep(2);
        complete(id);
      }),
      2,
    );
    await queue.submit(ids.map(thumb));
    p1.start();
    await waitFor(() => hung === 2, 'both runners stuck');
    expect(await p1.stop(20)).toBe(false);
    pools.splice(pools.indexOf(p1), 1);
    await data.first.close(); // the crash: nothing marks the stuck tasks done

    // Second life on the same file.
    const reopened = await data.reopen();
    const queue2 = createTaskQueue(reopened.db, { logger: log.logger });
    const before = completed.size;
    expect(before).toBeGreaterThanOrEqual(3);
    expect((await queue2.counts()).count).toBe(10 - before);
    expect(await queue2.reclaimOrphans()).toBe(2);
    const p2 = pool(
      handlersFor(async (t) => {
        attempts.set(bookOf(t), (attempts.get(bookOf(t)) ?? 0) + 1);
        complete(bookOf(t));
      }),
      2,
      queue2,
    );
    p2.start();
    await waitFor(() => empty(queue2), 'the second life to drain the queue');
    expect([...completed.keys()].sort()).toEqual([...ids].sort());
    expect([...completed.values()].every((n) => n === 1)).toBe(true);
    // The two interrupted tasks were attempted twice; the others once.
    expect([...attempts.values()].filter((n) => n === 2)).toHaveLength(2);
    await p2.stop(100);
  });
});

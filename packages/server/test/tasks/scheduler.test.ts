import { describe, expect, it } from 'vitest';
import type { ScanInterval } from '../../src/domain/library.js';
import { PRIORITY, type Priority, type Task } from '../../src/tasks/definitions.js';
import {
  createScheduler,
  nextMidnight,
  nextScanAt,
  type Clock,
  type ScheduledLibrary,
} from '../../src/tasks/scheduler.js';
import { recordingLogger } from './helpers.js';

const H = 3_600_000;

/** A clock whose time only moves when the test says so; due timers fire in time order. */
function fakeClock(start: number) {
  let now = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: Clock = {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++nextId;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id) => void timers.delete(id as number),
  };
  return {
    clock,
    pending: () => timers.size,
    async advanceTo(target: number) {
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
        await Promise.resolve();
      }
      now = target;
      await new Promise((r) => setImmediate(r));
    },
  };
}

function recordingQueue() {
  const submitted: { at?: number; task: Task; priority?: Priority }[] = [];
  return {
    submitted,
    queue: {
      submit: async (tasks: readonly Task[], priority?: Priority) =>
        void submitted.push(...tasks.map((task) => ({ task, priority }))),
    },
  };
}

describe('nextScanAt', () => {
  const anchor = Date.UTC(2026, 0, 1, 10, 0, 0);
  it.each<[ScanInterval, number | null]>([
    ['DISABLED', null],
    ['HOURLY', 1 * H],
    ['EVERY_6H', 6 * H],
    ['EVERY_12H', 12 * H],
    ['DAILY', 24 * H],
    ['WEEKLY', 7 * 24 * H],
  ])('%s: first run one period after start, then fixed rate, missed runs collapse', (interval, period) => {
    if (period === null) {
      expect(nextScanAt(interval, anchor, anchor)).toBeNull();
      return;
    }
    expect(nextScanAt(interval, anchor, anchor)).toBe(anchor + period);
    expect(nextScanAt(interval, anchor, anchor + period - 1)).toBe(anchor + period);
    expect(nextScanAt(interval, anchor, anchor + period)).toBe(anchor + 2 * period);
    expect(nextScanAt(interval, anchor, anchor + 5 * period + 17)).toBe(anchor + 6 * period);
  });

  it('nextMidnight is the next local midnight', () => {
    const noon = new Date(2026, 2, 10, 12, 30).getTime();
    expect(nextMidnight(noon)).toBe(new Date(2026, 2, 11, 0, 0).getTime());
    expect(nextMidnight(new Date(2026, 2, 11, 0, 0).getTime())).toBe(new Date(2026, 2, 12, 0, 0).getTime());
  });
});

describe('Scheduler', () => {
  const start = new Date(2026, 0, 5, 9, 0, 0).getTime();
  const libs: ScheduledLibrary[] = [
    { id: 'hourly', scanInterval: 'HOURLY', scanOnStartup: true },
    { id: 'six', scanInterval: 'EVERY_6H', scanOnStartup: false },
    { id: 'twelve', scanInterval: 'EVERY_12H', scanOnStartup: false },
    { id: 'daily', scanInterval: 'DAILY', scanOnStartup: true },
    { id: 'weekly', scanInterval: 'WEEKLY', scanOnStartup: false },
    { id: 'off', scanInterval: 'DISABLED', scanOnStartup: false },
  ];

  it('queues start-up scans and arms one timer per library, each one period after start', async () => {
    const { clock } = fakeClock(start);
    const q = recordingQueue();
    const s = createScheduler({ queue: q.queue, libraries: async () => libs, clock, logger: recordingLogger().logger });
    await s.start();
    expect(q.submitted).toEqual([
      { task: { kind: 'ScanLibrary', libraryId: 'hourly', deep: false }, priority: PRIORITY.DEFAULT },
      { task: { kind: 'ScanLibrary', libraryId: 'daily', deep: false }, priority: PRIORITY.DEFAULT },
    ]);
    expect(Object.fromEntries(s.nextRuns().map((r) => [r.libraryId, r.at - start]))).toEqual({
      hourly: H,
      six: 6 * H,
      twelve: 12 * H,
      daily: 24 * H,
      weekly: 7 * 24 * H,
    });
    expect(s.nextHousekeeping()).toBe(new Date(2026, 0, 6, 0, 0).getTime());
    s.stop();
  });

  it('submits periodic scans as time passes, and housekeeping at midnight', async () => {
    const fake = fakeClock(start);
    const q = recordingQueue();
    const housekept: number[] = [];
    const s = createScheduler({
      queue: q.queue,
      libraries: async () => libs.map((l) => ({ ...l, scanOnStartup: false })),
      clock: fake.clock,
      logger: recordingLogger().logger,
      housekeeping: [{ name: 'purge', run: async () => void housekept.push(fake.clock.now()) }],
    });
    await s.start();
    await fake.advanceTo(start + 24 * H);
    const scans = (id: string) =>
      q.submitted.filter((x) => x.task.kind === 'ScanLibrary' && x.task.libraryId === id).length;
    expect([scans('hourly'), scans('six'), scans('twelve'), scans('daily'), scans('weekly'), scans('off')]).toEqual([
      24, 4, 2, 1, 0, 0,
    ]);
    expect(housekept).toEqual([new Date(2026, 0, 6, 0, 0).getTime()]);
    await fake.advanceTo(start + 7 * 24 * H);
    expect(scans('weekly')).toBe(1);
    expect(housekept).toHaveLength(7);
    s.stop();
    expect(fake.pending()).toBe(0);
  });

  it('re-arms a library whose interval changed, arms a new one, and forgets a deleted one', async () => {
    const fake = fakeClock(start);
    const q = recordingQueue();
    const s = createScheduler({
      queue: q.queue,
      libraries: async () => [libs[1]!],
      clock: fake.clock,
      logger: recordingLogger().logger,
    });
    await s.start();
    await fake.advanceTo(start + 2 * H);
    s.schedule({ id: 'six', scanInterval: 'EVERY_6H', scanOnStartup: false }); // unchanged: keeps its rhythm
    s.schedule({ id: 'six-now-hourly', scanInterval: 'HOURLY', scanOnStartup: false });
    s.schedule({ id: 'six', scanInterval: 'DAILY', scanOnStartup: false });
    expect(Object.fromEntries(s.nextRuns().map((r) => [r.libraryId, r.at - start]))).toEqual({
      six: 26 * H,
      'six-now-hourly': 3 * H,
    });
    s.unschedule('six-now-hourly');
    s.schedule({ id: 'six', scanInterval: 'DISABLED', scanOnStartup: false });
    expect(s.nextRuns()).toEqual([]);
    await fake.advanceTo(start + 48 * H);
    expect(q.submitted).toEqual([]);
    s.stop();
  });

  it('keeps going when a submit or a housekeeping job fails', async () => {
    const fake = fakeClock(start);
    const log = recordingLogger();
    let calls = 0;
    const s = createScheduler({
      queue: {
        submit: async () => {
          calls++;
          throw new Error('database is locked');
        },
      },
      libraries: async () => [libs[0]!],
      clock: fake.clock,
      logger: log.logger,
      housekeeping: [{ name: 'broken', run: async () => Promise.reject(new Error('boom')) }],
    });
    await s.start();
    await fake.advanceTo(start + 24 * H);
    expect(calls).toBe(1 + 24);
    expect(log.lines.filter((l) => l.level === 'error').map((l) => l.msg)).toContain('Housekeeping job failed');
    s.stop();
  });

  it('runs a recurring job at start-up and then every period, through failures, until stopped', async () => {
    const fake = fakeClock(start);
    const log = recordingLogger();
    const runs: number[] = [];
    const s = createScheduler({
      queue: recordingQueue().queue,
      libraries: async () => [],
      clock: fake.clock,
      logger: log.logger,
    });
    s.addRecurring({
      name: 'feed',
      everyMs: 5 * 60_000,
      run: async () => {
        runs.push(fake.clock.now() - start);
        if (runs.length === 2) throw new Error('offline');
      },
    });
    expect(runs).toEqual([]);
    await s.start();
    await fake.advanceTo(start + 15 * 60_000);
    expect(runs).toEqual([0, 5, 10, 15].map((m) => m * 60_000));
    expect(log.lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual(['Recurring job failed']);
    // Added after start: runs at once too.
    let late = 0;
    s.addRecurring({ name: 'late', everyMs: H, run: async () => void late++ });
    expect(late).toBe(1);
    s.stop();
    await fake.advanceTo(start + 48 * H);
    expect(runs).toHaveLength(4);
    expect(late).toBe(1);
  });
});

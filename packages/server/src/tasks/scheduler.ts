import { SCAN_INTERVAL_MS, type ScanInterval } from '../domain/library.js';
import { PRIORITY } from './definitions.js';
import type { TaskLogger } from './handlers.js';
import type { TaskEmitter } from './emitter.js';

/** Time and timers, injectable so that tests drive the scheduler without waiting. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** setTimeout fires at once above 2^31-1 ms; a longer wait re-arms (see `arm`). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Node's timers, unref'd: a pending scan never keeps the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, Math.min(ms, MAX_TIMEOUT_MS));
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface Ticket {
  handle: unknown;
  cancelled: boolean;
}

/** What the scheduler needs to know of a library. */
export interface ScheduledLibrary {
  id: string;
  scanInterval: ScanInterval;
  scanOnStartup: boolean;
}

export interface HousekeepingJob {
  name: string;
  run(): Promise<void>;
}

/** A job run at start-up and then every `everyMs` (e.g. fetching the announcements feed). */
export interface RecurringJob extends HousekeepingJob {
  everyMs: number;
}

export interface SchedulerOptions {
  queue: TaskEmitter;
  /** The libraries at start-up. */
  libraries(): Promise<ScheduledLibrary[]>;
  logger: TaskLogger;
  clock?: Clock;
  /** Run once a day, at local midnight (e.g. purging old authentication activity). */
  housekeeping?: HousekeepingJob[];
  /**
   * When several instances share the database (PostgreSQL mode), each one's timers fire for the same run: the run
   * goes ahead only where this answers true, which it does for one caller of `name` per `minGapMs`
   * (db/cluster.ts `claim`). Alone on a database, every run is ours.
   */
  claim?: (name: string, minGapMs: number) => Promise<boolean>;
}

export interface Scheduler {
  /** Queues the start-up scans and arms one timer per library plus the daily housekeeping. */
  start(): Promise<void>;
  /**
   * Arms (or re-arms, when its interval changed) the periodic scan of a library: call it when a library is
   * created or its `scanInterval` changes. Komga forgets new libraries until a restart; Quire does not.
   */
  schedule(library: ScheduledLibrary): void;
  /** When a library is deleted. */
  unschedule(libraryId: string): void;
  addHousekeeping(job: HousekeepingJob): void;
  /**
   * Runs `job` in the background when the scheduler starts (or at once, when it has started) and then every
   * `everyMs`. Every instance runs it: a job that must happen once per period across instances takes a claim in
   * the database first (updates/announcements.ts).
   */
  addRecurring(job: RecurringJob): void;
  /** The next periodic scan of each scheduled library (epoch ms). */
  nextRuns(): { libraryId: string; at: number }[];
  nextHousekeeping(): number | null;
  stop(): void;
}

/**
 * The next run of a fixed-rate timer started at `anchor` (engine.md §2.9: the first run is one interval
 * after start-up): the first `anchor + k·period` (k ≥ 1) after `now`. Runs missed while the process was
 * asleep collapse into one. Null for DISABLED.
 */
export function nextScanAt(interval: ScanInterval, anchor: number, now: number): number | null {
  const period = SCAN_INTERVAL_MS[interval];
  if (period === null) return null;
  const k = Math.max(1, Math.floor((now - anchor) / period) + 1);
  return anchor + k * period;
}

/** The next local midnight strictly after `now` (Spring's `@daily`). */
export function nextMidnight(now: number): number {
  const d = new Date(now);
  d.setHours(24, 0, 0, 0);
  return d.getTime();
}

/** A start-up scan is one per library for instances started within this of each other. */
const STARTUP_CLAIM_MS = 60_000;

/**
 * Periodic scans and daily housekeeping (engine.md §2.9). Each periodic scan submits
 * `ScanLibrary {deep: false}` at DEFAULT priority.
 *
 * Several instances sharing one database each run a scheduler; each run (a library's periodic or start-up scan,
 * the daily housekeeping) first takes its `claim`, so one instance does it: two instances queueing the
 * same scan would scan the library twice (one submitted while the first runs runs again after it).
 */
export function createScheduler(opts: SchedulerOptions): Scheduler {
  const clock = opts.clock ?? systemClock;
  const { queue, logger } = opts;
  /**
   * Runs `run` if this instance claims `name` (at once, in the same turn, without a `claim`); a failed claim
   * skips this run, and the next one tries again.
   */
  const whenClaimed = async (name: string, minGapMs: number, run: () => Promise<unknown>): Promise<void> => {
    if (!opts.claim) return void (await run());
    let mine = false;
    try {
      mine = await opts.claim(name, minGapMs);
    } catch (err) {
      logger.error({ err, run: name }, 'Could not claim a scheduled run');
    }
    if (mine) await run();
  };
  const housekeeping = [...(opts.housekeeping ?? [])];
  const timers = new Map<string, { interval: ScanInterval; at: number; ticket: Ticket }>();
  let daily: { at: number; ticket: Ticket } | undefined;
  const recurring: RecurringJob[] = [];
  const recurringTickets = new Set<Ticket>();
  let started = false;
  let stopped = false;

  /** Calls `fn` at `at`; a wait longer than the clock allows is done in steps. */
  function arm(at: number, fn: () => void): Ticket {
    const ticket: Ticket = { handle: undefined, cancelled: false };
    const step = () => {
      ticket.handle = clock.setTimeout(
        () => {
          if (ticket.cancelled) return;
          if (clock.now() >= at) fn();
          else step();
        },
        Math.max(0, at - clock.now()),
      );
    };
    step();
    return ticket;
  }
  const cancel = (ticket: Ticket) => {
    ticket.cancelled = true;
    clock.clearTimeout(ticket.handle);
  };

  function armScan(libraryId: string, interval: ScanInterval, anchor: number) {
    const at = nextScanAt(interval, anchor, clock.now());
    if (at === null || stopped) return;
    const period = SCAN_INTERVAL_MS[interval] ?? 0;
    const ticket = arm(at, () => {
      armScan(libraryId, interval, anchor);
      void whenClaimed(`scan:${libraryId}`, period / 2, () => submitScan(libraryId, 'periodic'));
    });
    timers.set(libraryId, { interval, at, ticket });
  }

  async function submitScan(libraryId: string, reason: string) {
    try {
      await queue.submit([{ kind: 'ScanLibrary', libraryId, deep: false }], PRIORITY.DEFAULT);
      logger.info({ libraryId }, `Queued ${reason} scan`);
    } catch (err) {
      logger.error({ err, libraryId }, `Could not queue ${reason} scan`);
    }
  }

  function armHousekeeping() {
    if (stopped) return;
    const at = nextMidnight(clock.now());
    const ticket = arm(at, () => {
      armHousekeeping();
      void whenClaimed('housekeeping', 12 * 60 * 60_000, runHousekeeping);
    });
    daily = { at, ticket };
  }

  async function runHousekeeping() {
    for (const job of housekeeping) {
      try {
        await job.run();
      } catch (err) {
        logger.error({ err, job: job.name }, 'Housekeeping job failed');
      }
    }
  }

  function runRecurring(job: RecurringJob) {
    if (stopped) return;
    const ticket = arm(clock.now() + job.everyMs, () => {
      recurringTickets.delete(ticket);
      runRecurring(job);
    });
    recurringTickets.add(ticket);
    void job.run().catch((err: unknown) => logger.error({ err, job: job.name }, 'Recurring job failed'));
  }

  function unschedule(libraryId: string) {
    const entry = timers.get(libraryId);
    if (entry) cancel(entry.ticket);
    timers.delete(libraryId);
  }

  function schedule(library: ScheduledLibrary) {
    const entry = timers.get(library.id);
    if (entry && entry.interval === library.scanInterval) return;
    unschedule(library.id);
    armScan(library.id, library.scanInterval, clock.now());
  }

  return {
    async start() {
      const libraries = await opts.libraries();
      for (const library of libraries) {
        if (library.scanOnStartup) {
          await whenClaimed(`startup-scan:${library.id}`, STARTUP_CLAIM_MS, () => submitScan(library.id, 'start-up'));
        }
        schedule(library);
      }
      armHousekeeping();
      started = true;
      for (const job of recurring) runRecurring(job);
    },
    schedule,
    unschedule,
    addHousekeeping(job) {
      housekeeping.push(job);
    },
    addRecurring(job) {
      recurring.push(job);
      if (started) runRecurring(job);
    },
    nextRuns: () => [...timers].map(([libraryId, { at }]) => ({ libraryId, at })),
    nextHousekeeping: () => daily?.at ?? null,
    stop() {
      stopped = true;
      for (const id of [...timers.keys()]) unschedule(id);
      if (daily) cancel(daily.ticket);
      daily = undefined;
      for (const ticket of recurringTickets) cancel(ticket);
      recurringTickets.clear();
    },
  };
}

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ResourceLimits, Transferable } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { limitYoungGeneration } from '../heap.js';

/**
 * Every worker thread of the server runs in a pool of this module (piscina underneath): 7-Zip, PDFium, zxing and
 * EPUB analysis, each with its own limits. A pool starts no thread until it has work, a thread without work ends
 * after `idleTimeoutMs` (WebAssembly memory never shrinks: ending the thread is the only way to give it back), a
 * call whose signal aborts ends the thread running it (a synchronous WebAssembly decode cannot be interrupted any
 * other way), and a worker may ask to be retired once its current call is answered (`retireAfterThisCall` in
 * `worker-thread.ts`). `closeWorkerPools()`, which the app calls when it closes, ends every thread of every pool.
 */
export interface WorkerPoolOptions {
  /** The worker module, the compiled `.js` beside the caller: its default export answers one call. */
  module: URL;
  /** Threads at most. */
  threads: number;
  /** A thread with no call for this long ends. */
  idleTimeoutMs: number;
  /** V8 heap limits of each thread (WebAssembly memory is outside them). */
  resourceLimits?: ResourceLimits;
  /** Passed to every thread, as `workerData.options`. */
  workerOptions?: unknown;
}

/** What every thread gets: the shared list of retiring threads, the module to run from sources, the pool's options. */
export interface PoolWorkerData {
  retiring: Int32Array;
  source: string | null;
  options: unknown;
}

/** What piscina tells of one of its threads. */
interface PoolThread {
  readonly id: number;
  readonly currentUsage: number;
  readonly terminating: boolean;
  readonly destroyed: boolean;
}

/** Slots of the shared list of retiring thread ids; a pool never has nearly this many threads. */
const RETIRING_SLOTS = 64;

/** Loads a `.ts` worker module through tsx inside the thread (Node 20 does not carry the parent's loaders there). */
const TS_BOOTSTRAP = fileURLToPath(new URL('../../scripts/ts-worker.mjs', import.meta.url));

const open = new Set<WorkerPool<never, unknown>>();

export class WorkerPool<Call, Answer> {
  private pool: Piscina | null = null;
  private readonly retiring = new Int32Array(new SharedArrayBuffer(4 * RETIRING_SLOTS));
  /** The pool's threads by thread id, as piscina reports them. */
  private readonly live = new Map<number, PoolThread>();
  /** Threads started so far (tests check that retired ones were replaced). */
  started = 0;

  constructor(private readonly opts: WorkerPoolOptions) {}

  /** Runs one call; `signal` aborting ends the thread running it (and the call rejects with an AbortError). */
  async run(call: Call, opts: { signal?: AbortSignal; transfer?: Transferable[] } = {}): Promise<Answer> {
    const pool = this.open();
    try {
      return (await pool.run(call, {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.transfer ? { transferList: opts.transfer as never } : {}),
      })) as Answer;
    } finally {
      this.endRetired(pool);
    }
  }

  /** Ends every thread; calls in progress or waiting fail. The next call starts a new pool. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    this.live.clear();
    open.delete(this as WorkerPool<never, unknown>);
    if (pool) await pool.destroy();
  }

  /** Ends the pool's threads when none has a call in progress or waiting; true when it ended some. */
  async endIfIdle(): Promise<boolean> {
    const pool = this.pool;
    if (!pool || this.live.size === 0 || pool.queueSize > 0) return false;
    for (const thread of this.live.values()) if (thread.currentUsage > 0) return false;
    await this.close();
    return true;
  }

  private open(): Piscina {
    if (this.pool) return this.pool;
    const js = fileURLToPath(this.opts.module);
    const fromSources = !existsSync(js);
    const workerData: PoolWorkerData = {
      retiring: this.retiring,
      source: fromSources ? this.opts.module.href.replace(/\.js$/, '.ts') : null,
      options: this.opts.workerOptions ?? null,
    };
    const pool = new Piscina({
      filename: fromSources ? TS_BOOTSTRAP : js,
      name: 'default',
      minThreads: 0,
      maxThreads: this.opts.threads,
      idleTimeout: this.opts.idleTimeoutMs,
      // One call per thread: every call may be aborted, and aborting ends the thread with whatever else it ran.
      concurrentTasksPerWorker: 1,
      // calls start in the order they were made
      stricterFIFO: true,
      // an idle thread runs its event loop (timers, cleanups) instead of blocking in Atomics.wait
      atomics: 'disabled',
      ...(this.opts.resourceLimits ? { resourceLimits: this.opts.resourceLimits } : {}),
      workerData,
      // An idle thread that is not retiring, or none (the call waits, or a thread starts if there is room).
      loadBalancer: (_task, workers) =>
        workers.find((w) => w.currentUsage === 0 && !w.terminating && !w.destroyed && !this.isRetiring(w.id)) ?? null,
    });
    pool.on('workerCreate', (w: PoolThread) => {
      this.live.set(w.id, w);
      this.started++;
      // starting a thread puts V8's flags back as the command line had them
      limitYoungGeneration();
    });
    pool.on('workerDestroy', (w: PoolThread) => {
      this.live.delete(w.id);
      this.forget(w.id);
      // Calls that waited for the retired thread would otherwise wait for the next call or answer to start a thread:
      // an empty call (worker-thread.ts answers it with nothing) makes the pool start one now.
      // (after this turn: piscina removes the thread from its list only once its listeners have run)
      setImmediate(() => {
        if (this.pool === pool && pool.queueSize > 0) void pool.run(null).catch(() => undefined);
      });
    });
    // A thread that crashes with no call in progress (its calls are rejected otherwise): the pool replaces it.
    pool.on('error', () => undefined);
    this.pool = pool;
    open.add(this as WorkerPool<never, unknown>);
    return pool;
  }

  private isRetiring(threadId: number): boolean {
    for (let i = 0; i < RETIRING_SLOTS; i++) if (Atomics.load(this.retiring, i) === threadId) return true;
    return false;
  }

  private forget(threadId: number): void {
    for (let i = 0; i < RETIRING_SLOTS; i++) Atomics.compareExchange(this.retiring, i, threadId, 0);
  }

  /** Ends the retiring threads that have answered all their calls. */
  private endRetired(pool: Piscina): void {
    for (const [id, w] of this.live) {
      if (w.currentUsage > 0 || !this.isRetiring(id)) continue;
      this.live.delete(id);
      void pool.threads.find((t) => t.threadId === id)?.terminate();
    }
  }
}

/** Ends every thread of every pool (the app, when it closes). */
export async function closeWorkerPools(): Promise<void> {
  await Promise.all([...open].map((p) => p.close()));
}

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { threadId, workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { PoolWorkerData } from './workers.js';

/**
 * The thread side of `workers.ts`: what a pooled worker module uses. Its default export is `serve(handler)`.
 */
const data = workerData as PoolWorkerData;

/** The options the pool gave its threads. */
export function poolOptions<T>(): T {
  return data.options as T;
}

/**
 * The pool gives this thread no new call and ends it once the calls it already has are answered (PDFium past its
 * render count or memory, a 7-Zip module left broken or cut off mid-decode).
 */
export function retireAfterThisCall(): void {
  for (let i = 0; i < data.retiring.length; i++) {
    if (Atomics.load(data.retiring, i) === threadId) return;
    if (Atomics.compareExchange(data.retiring, i, 0, threadId) === 0) return;
  }
}

/** A worker module's default export: answers each call with `handler`; an empty call (see workers.ts) with nothing. */
export function serve<Call, Answer>(handler: (call: Call) => Answer | Promise<Answer>) {
  return (call: Call | null): Answer | Promise<Answer> | null => (call === null ? null : handler(call));
}

let collect: ((options: { type: 'minor' }) => void) | undefined;

function youngCollector(): (options: { type: 'minor' }) => void {
  collect ??= (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as (options: { type: 'minor' }) => void;
  })();
  return collect;
}

/**
 * Young-generation collections now, mid-call, until the memory of a native library's Buffers found dead (sharp's
 * outputs) is given back: a page's decoded pixels, once copied where they are read, are then freed before the call's
 * next step rather than beside it. Such a Buffer is freed in two steps of Node's: the first collection finds it dead
 * and queues its finalizer, which runs on the next turn of the event loop; only the collection after that frees its
 * memory, again from the event loop. One collection after each call left every page's pixels alive until the
 * next call had decoded its own: two pages' at once through an import (`/proc/<pid>/maps`, issue 18).
 */
export async function collectNow(): Promise<void> {
  const gc = youngCollector();
  for (let i = 0; i < 2; i++) {
    gc({ type: 'minor' });
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A young-generation collection once this call's answer is sent (0.05–0.3 ms; a full one takes 25–40 ms). What a
 * call receives (its bytes, or a view of a shared buffer) is garbage after it, and a worker allocates too little
 * for V8 to collect it by itself before it is promoted, after which only a full collection, started once such
 * garbage has grown by some 64 MB, frees it: 20 shared 12 MB buffers hashed and dropped kept 151 MB resident, and
 * the barcode worker held up to ~60 MB of received pages during an import (issue 18).
 */
export function collectAfterThisCall(): void {
  const gc = youngCollector();
  setImmediate(() => gc({ type: 'minor' })); // once this call and its bytes are unreachable
}

/** An answer whose `buffers` move to the main thread instead of being copied. */
export function moving<T>(answer: T, buffers: ArrayBuffer[]): T {
  return Piscina.move({
    [Piscina.transferableSymbol]: buffers,
    [Piscina.valueSymbol]: answer,
  } as never) as unknown as T;
}

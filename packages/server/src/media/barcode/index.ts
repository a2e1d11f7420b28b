import type { Worker } from 'node:worker_threads';
import { startWorker } from '../workers.js';
import type { BarcodeRequest, BarcodeResponse } from './protocol.js';

/** A page that takes longer than this is given up (and the worker replaced): a stuck decode must not hang a task. */
const TIMEOUT_MS = 30_000;
/** The worker ends after this long without work, releasing its WebAssembly heap. */
const IDLE_MS = 20_000;

/**
 * The worker's JavaScript needs little: small heaps keep its share of the process's memory down (the WebAssembly
 * heap, where images are decoded, is outside these limits).
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 48 };

interface Pending {
  resolve: (codes: string[]) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

let worker: Worker | null = null;
let idle: NodeJS.Timeout | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function stop(reason: Error) {
  const w = worker;
  worker = null;
  if (idle) clearTimeout(idle);
  idle = null;
  for (const p of pending.values()) {
    clearTimeout(p.timer);
    p.reject(reason);
  }
  pending.clear();
  if (w) void w.terminate();
}

function spawn(): Worker {
  const w = startWorker(new URL('./worker.js', import.meta.url), { resourceLimits: RESOURCE_LIMITS });
  w.unref();
  w.on('message', (res: BarcodeResponse) => {
    const p = pending.get(res.id);
    if (!p) return;
    pending.delete(res.id);
    clearTimeout(p.timer);
    if (res.ok) p.resolve(res.ean13);
    else p.reject(new Error(res.message));
    if (pending.size === 0 && worker === w) {
      idle = setTimeout(() => stop(new Error('barcode worker idle')), IDLE_MS);
      idle.unref();
    }
  });
  const fail = (e: Error) => {
    if (worker === w) stop(e);
  };
  w.on('error', (e) => fail(new Error(`Barcode worker crashed: ${e.message}`)));
  w.on('exit', (code) => fail(new Error(`Barcode worker exited (${code})`)));
  return w;
}

/**
 * The valid EAN-13 symbols found in an image (JPEG, PNG, GIF or BMP), read in a worker thread. Rejects when the
 * image cannot be decoded or the decoder takes too long.
 */
export function readEan13(image: Uint8Array): Promise<string[]> {
  if (idle) clearTimeout(idle);
  idle = null;
  const w = (worker ??= spawn());
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`Barcode decoding timed out after ${TIMEOUT_MS} ms`));
      stop(new Error('barcode worker replaced after a timeout'));
    }, TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    w.postMessage({ id, image } satisfies BarcodeRequest);
  });
}

/** Ends the worker (server shutdown, tests). */
export function closeBarcodeWorker(): void {
  stop(new Error('barcode worker closed'));
}

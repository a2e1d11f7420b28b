/**
 * The file hash of a book the analysis read whole, on a worker thread (the pool in `hash.ts`): the bytes are a view
 * of the analysis's shared read buffer, so nothing is copied, and the main thread checks the pages meanwhile.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createXXHash128 } from 'hash-wasm';
import { serve } from './worker-thread.js';
import type { HashCall } from './hash.js';

/** One hasher per thread, reused: each is a WebAssembly instance with its own memory. */
let hasher: Awaited<ReturnType<typeof createXXHash128>> | undefined;

/**
 * This thread's view keeps the shared buffer alive until this thread's heap is collected, and it allocates too little
 * for V8 to collect it by itself: 20 read buffers of 12 MB hashed and dropped kept 151 MB resident. A young-generation
 * collection after each call (0.05–0.3 ms; a full one took 25–40 ms) frees the view, and the buffer goes with its
 * last use.
 */
const collect = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as (options: { type: 'minor' }) => void;
})();

export default serve<HashCall, string>(async ({ bytes }) => {
  hasher ??= await createXXHash128(0, 0);
  hasher.init();
  hasher.update(bytes);
  const digest = hasher.digest('hex');
  setImmediate(() => collect({ type: 'minor' })); // once this call and its bytes are unreachable
  return digest;
});

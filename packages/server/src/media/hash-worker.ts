/**
 * The file hash of a book the analysis read whole, on a worker thread (the pool in `hash.ts`): the bytes are a view
 * of the analysis's shared read buffer, so nothing is copied, and the main thread checks the pages meanwhile.
 */
import { createXXHash128 } from 'hash-wasm';
import { collectAfterThisCall, serve } from './worker-thread.js';
import type { HashCall } from './hash.js';

/** One hasher per thread, reused: each is a WebAssembly instance with its own memory. */
let hasher: Awaited<ReturnType<typeof createXXHash128>> | undefined;

export default serve<HashCall, string>(async ({ bytes }) => {
  hasher ??= await createXXHash128(0, 0);
  hasher.init();
  hasher.update(bytes);
  const digest = hasher.digest('hex');
  // this thread's view keeps the shared buffer alive until this thread's heap is collected
  collectAfterThisCall();
  return digest;
});

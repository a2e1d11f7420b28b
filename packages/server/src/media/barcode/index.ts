import { WorkerPool } from '../workers.js';
import type { BarcodeRequest, BarcodeResponse } from './protocol.js';

/** A page that takes longer than this is given up (and its thread ended): a stuck decode must not hang a task. */
const TIMEOUT_MS = 30_000;

/**
 * One zxing thread, busy through a whole scan. It ends after 20 s without work, which gives its WebAssembly heap
 * (it never shrinks) back. Its JavaScript needs little: small heaps keep its share of the process's memory down (the
 * WebAssembly heap, where images are decoded, is outside these limits).
 */
const pool = new WorkerPool<BarcodeRequest | null, BarcodeResponse>({
  module: new URL('./worker.js', import.meta.url),
  threads: 1,
  idleTimeoutMs: 20_000,
  resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 48 },
});

/**
 * The valid EAN-13 symbols found in an image, decoded and read in a worker thread. Rejects when the image cannot be
 * decoded or the decoder takes too long.
 */
export async function readEan13(request: BarcodeRequest): Promise<string[]> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  let res: BarcodeResponse;
  try {
    res = (await pool.run(request, { signal: timeout }))!;
  } catch (e) {
    if (timeout.aborted) throw new Error(`Barcode decoding timed out after ${TIMEOUT_MS} ms`);
    throw new Error(`Barcode worker stopped: ${(e as Error).message}`);
  }
  if (!res.ok) throw new Error(res.message);
  return res.ean13;
}

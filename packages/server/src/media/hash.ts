import { createReadStream } from 'node:fs';
import { xxh3 } from '@node-rs/xxhash';
import { createXXHash128 } from 'hash-wasm';

/**
 * File hash (engine.md §5.1): XXH3-128, seed 0, streamed, canonical big-endian digest as 32 lowercase
 * hex chars — identical to Python `xxhash.xxh3_128(data).hexdigest()`. Streaming uses hash-wasm
 * (@node-rs/xxhash only offers one-shot XXH3-128).
 */
export async function hashFile(path: string, opts: { signal?: AbortSignal } = {}): Promise<string> {
  const hasher = await createXXHash128(0, 0);
  hasher.init();
  const stream = createReadStream(path, { highWaterMark: 1024 * 1024, signal: opts.signal });
  for await (const chunk of stream as AsyncIterable<Buffer>) hasher.update(chunk);
  return hasher.digest('hex');
}

/** XXH3-128 (seed 0) of a buffer, 32 lowercase hex chars. */
export function hashBytes(data: Uint8Array): string {
  return xxh3.xxh128(data).toString(16).padStart(32, '0');
}

/**
 * Page hash (engine.md §5.3): XXH3-128 of the page bytes. Komga first re-encodes JPEG pages with Java
 * ImageIO (to drop EXIF), which cannot be reproduced outside the JVM; Quire hashes the raw entry bytes
 * of every page type, so JPEG page hashes never match hashes stored by Komga (recompute them all).
 */
export function hashPage(pageBytes: Uint8Array): string {
  return hashBytes(pageBytes);
}

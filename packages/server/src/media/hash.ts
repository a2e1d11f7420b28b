import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { xxh3 } from '@node-rs/xxhash';
import { WorkerPool } from './workers.js';

const HASH_CHUNK = 1024 * 1024;

/** A hash-wasm XXH3-128 hasher and the buffer files are read into. */
interface FileHasher {
  hasher: Awaited<ReturnType<typeof import('hash-wasm').createXXHash128>>;
  buffer: Buffer;
}
/**
 * Reused, one per concurrent hash: each hasher is a WebAssembly instance with its own memory, and each read a 1 MiB
 * chunk, which a scan hashing thousands of files would otherwise leave to the GC by the thousand.
 */
const idle: FileHasher[] = [];

async function newFileHasher(): Promise<FileHasher> {
  // Loaded on first use: its WebAssembly is compiled on load, and only hashing tasks need it.
  const { createXXHash128 } = await import('hash-wasm');
  return { hasher: await createXXHash128(0, 0), buffer: Buffer.allocUnsafe(HASH_CHUNK) };
}

/**
 * File hash (engine.md §5.1): XXH3-128, seed 0, streamed, canonical big-endian digest as 32 lowercase
 * hex chars — identical to Python `xxhash.xxh3_128(data).hexdigest()`. Streaming uses hash-wasm
 * (@node-rs/xxhash only offers one-shot XXH3-128).
 */
export async function hashFile(path: string, opts: { signal?: AbortSignal } = {}): Promise<string> {
  const fileHasher = idle.pop() ?? (await newFileHasher());
  const { hasher, buffer } = fileHasher;
  hasher.init();
  const handle = await open(path, 'r');
  try {
    for (;;) {
      opts.signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, HASH_CHUNK, null);
      if (bytesRead === 0) break;
      hasher.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  const digest = hasher.digest('hex');
  idle.push(fileHasher);
  return digest;
}

/** A call to the hashing thread: bytes in a SharedArrayBuffer, which the thread reads where they are. */
export interface HashCall {
  bytes: Uint8Array;
}

/**
 * One thread: it hashes a 10 MB book in a few milliseconds, beside the analysis of the next one. It ends after 5 s
 * without work; its JavaScript needs almost nothing (the WebAssembly memory is outside these limits).
 */
const pool = new WorkerPool<HashCall | null, string>({
  module: new URL('./hash-worker.js', import.meta.url),
  threads: 1,
  idleTimeoutMs: 5_000,
  resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
});

/** Ends the hashing thread unless it is hashing (it would otherwise idle out after 5 s); true when it ended. */
export function endIdleHashThread(): Promise<boolean> {
  return pool.endIfIdle();
}

/**
 * {@link hashFile} of bytes already in memory (a file the analysis read whole). Bytes in a SharedArrayBuffer are
 * hashed on a worker thread, where they are (issue 18: 0.75 s of the main thread per 300 books, while the analysis
 * checks the same bytes' pages there); others, or when the thread fails, here with the same reused WebAssembly
 * hashers, which hash a 10 MB book in about half the time @node-rs/xxhash's one-shot XXH3-128 takes on this machine
 * (3.5–6.6 against 7.5–16.6 ms, measured side by side). The caller must not change the bytes until it resolves.
 */
export async function hashFileBytes(bytes: Uint8Array): Promise<string> {
  if (bytes.buffer instanceof SharedArrayBuffer) {
    try {
      return (await pool.run({ bytes }))!;
    } catch {
      // hashed here instead
    }
  }
  const fileHasher = idle.pop() ?? (await newFileHasher());
  const { hasher } = fileHasher;
  hasher.init();
  hasher.update(bytes);
  const digest = hasher.digest('hex');
  idle.push(fileHasher);
  return digest;
}

/** XXH3-128 (seed 0) of a buffer, 32 lowercase hex chars. */
export function hashBytes(data: Uint8Array): string {
  return xxh3.xxh128(data).toString(16).padStart(32, '0');
}

/**
 * Page hash (engine.md §5.3): XXH3-128 of the page bytes, hashed as they stream (never more than a chunk in
 * memory). Komga first re-encodes JPEG pages with Java ImageIO (to drop EXIF), which cannot be reproduced
 * outside the JVM; Quire hashes the raw entry bytes of every page type, so JPEG page hashes never match hashes
 * stored by Komga (recompute them all).
 */
export async function hashPage(page: AsyncIterable<Uint8Array>): Promise<string> {
  const fileHasher = idle.pop() ?? (await newFileHasher());
  const { hasher } = fileHasher;
  hasher.init();
  for await (const chunk of page) hasher.update(chunk);
  const digest = hasher.digest('hex');
  idle.push(fileHasher);
  return digest;
}

/**
 * KOReader's "partial MD5" (`util.partialMD5`, engine.md §5.2, koreader-client.md): for i = −1 … 10, up to 1,024
 * bytes at `1024 << 2i`, i.e. offsets 0 (LuaJIT masks the shift of i = −1 to 30, and 1024 << 30 overflows to 0),
 * 1 KiB, 4 KiB, 16 KiB … 1 GiB; stop at the first offset with nothing to read; MD5 of the bytes read, lowercase hex.
 * Komga also feeds the stale rest of its buffer after a short read (an offset in the file's last, partial KiB), so
 * its hash of such a file is one no device computes; Quire hashes only the bytes read, as KOReader does, so a
 * device finds every book, small files included.
 */
export async function koreaderHash(path: string): Promise<string> {
  const md5 = createHash('md5');
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(KOREADER_SAMPLE);
    for (let i = -1; i <= 10; i++) {
      const position = i < 0 ? 0 : KOREADER_SAMPLE * 4 ** i;
      const length = await readAt(handle, buffer, position);
      if (length === 0) break;
      md5.update(buffer.subarray(0, length));
    }
  } finally {
    await handle.close();
  }
  return md5.digest('hex');
}

const KOREADER_SAMPLE = 1024;

/** Fills `buffer` from `position` as C's fread does (a read may return less than asked before the end). */
async function readAt(handle: FileHandle, buffer: Buffer, position: number): Promise<number> {
  let length = 0;
  while (length < buffer.length) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, position + length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return length;
}

import { realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import { MediaTypes } from '../detect.js';
import { HEAD_BYTES, describeEntry, isDirectoryName, isJunk, normalizeEntryName, sortEntries } from '../pages.js';
import { BookBudget, checkInflatedBytes, mediaLimits } from '../limits.js';
import { MediaError, type ContainerEntry, type ContainerReader } from '../types.js';
import { WorkerPool } from '../workers.js';
import type { SevenZipChunk, SevenZipRequest, SevenZipResponse } from './sevenzip-worker.js';

/**
 * 7z / CB7 through 7-Zip compiled to WASM, run in worker threads (its `callMain` blocks).
 * Also serves the ZIP reader for compression methods yauzl cannot inflate, and the TAR reader for
 * xz/bzip2/zstd-compressed tars.
 *
 * Error codes: an encrypted 7z (data or headers) → ERR_1002. The spec's text for ERR_1002 says
 * "Encrypted RAR not supported"; no code fits "encrypted archive" better, so Quire uses it for every
 * encrypted container (documented in the table test). Unreadable archive → ERR_1008.
 */

/**
 * Two threads, each running one 7-Zip command at a time (the next waits in the pool); a thread ends after 30 s
 * without work (its WebAssembly memory grows to the largest block it decoded), and after 100 commands or a trap.
 */
const pool = new WorkerPool<SevenZipRequest | null, SevenZipResponse>({
  module: new URL('./sevenzip-worker.js', import.meta.url),
  threads: 2,
  idleTimeoutMs: 30_000,
});

/**
 * A command that takes longer than this is given up and its thread ended: nothing may hold a thread forever. Long
 * enough for the one pass over a big archive (7-Zip in WebAssembly decodes ~35 MiB/s here).
 */
const TIMEOUT_MS = 600_000;

type Done = Extract<SevenZipResponse, { kind: 'done' }>;

/**
 * Runs one command. `signal` (the client went away) ends the thread running it, which is the only way to stop a
 * decode in progress: 7-Zip's `callMain` blocks its thread.
 */
async function run(req: SevenZipRequest, signal?: AbortSignal, attempt = 0): Promise<Done> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let r: SevenZipResponse;
  try {
    r = (await pool.run(req, { signal: stop }))!;
  } catch (e) {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    if (timeout.aborted) throw new MediaError('ERR_1008', `7-Zip stopped after ${TIMEOUT_MS / 1000} s`);
    throw new MediaError('ERR_1008', `7-Zip worker stopped: ${(e as Error).message}`);
  }
  if (r.kind === 'failed') throw new MediaError('ERR_1008', `7-Zip failed: ${r.message}`);
  // A trapped 7-Zip voids the answer: retry on a fresh worker (the broken one is retiring).
  if (r.crashed && attempt < 2) return run(req, signal, attempt + 1);
  return r;
}

/** Stops the 7-Zip threads (tests). New calls start new ones. */
export async function closeSevenZipWorkers(): Promise<void> {
  await pool.close();
}

const isPasswordError = (stderr: string) => /wrong password|encrypted/i.test(stderr);

function failure(stderr: string, what: string): MediaError {
  if (isPasswordError(stderr)) return new MediaError('ERR_1002', `Encrypted archive not supported (${what})`);
  const line = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .join(' ');
  return new MediaError('ERR_1008', `${what}: ${line || 'unreadable archive'}`);
}

/**
 * The file's real path: 7-Zip sees the host through Emscripten's NODEFS mount, which does not follow
 * symbolic links, so a library reached through a symlink must be resolved first.
 */
const hostPath = (file: string) => realpath(file).catch(() => resolve(file));

const hostPathSync = (file: string) => {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
};

export interface SevenZipItem {
  name: string;
  size: number | null;
  directory: boolean;
  encrypted: boolean;
}

/** Lists an archive 7-Zip can open (any format), without reading entry data. */
export async function sevenZipList(file: string): Promise<SevenZipItem[]> {
  const r = await run({ op: 'list', file: await hostPath(file) });
  if (r.rc !== 0) throw failure(r.stderr, 'Cannot list archive');
  const items: SevenZipItem[] = [];
  for (const block of (r.stdout ?? '').split(/\r?\n\r?\n/)) {
    const fields = new Map<string, string>();
    for (const line of block.split(/\r?\n/)) {
      const i = line.indexOf(' = ');
      if (i > 0) fields.set(line.slice(0, i), line.slice(i + 3));
    }
    const path = fields.get('Path');
    if (path === undefined) continue;
    const size = fields.get('Size');
    const attributes = fields.get('Attributes') ?? '';
    items.push({
      name: normalizeEntryName(path),
      size: size ? Number(size) : null,
      directory: fields.get('Folder') === '+' || attributes.startsWith('D'),
      encrypted: fields.get('Encrypted') === '+',
    });
  }
  return items;
}

/**
 * One entry's bytes (the first `max` only, when given). A whole entry is read up to one byte past the entry
 * limit, and refused when it reaches it; 7-Zip stops decoding there. `signal` stops it when the bytes are no
 * longer wanted.
 */
export async function sevenZipExtract(
  file: string,
  entry: string,
  max?: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const keep = max ?? mediaLimits().maxEntryBytes + 1;
  const r = await run({ op: 'extract', file: await hostPath(file), entry, max: keep }, signal);
  if (r.rc !== 0 && !r.capped) throw failure(r.stderr, `Cannot read entry ${entry}`);
  if (r.found === false) throw new MediaError('ERR_1005', `Entry not found: ${entry}`);
  if (max === undefined) checkInflatedBytes(entry, r.data!.byteLength);
  return Buffer.from(r.data!.buffer, r.data!.byteOffset, r.data!.byteLength);
}

/**
 * Decompresses a single-stream compressed file (xz, bzip2, zstd, gzip) into a Readable, on a thread of the pool
 * that is ended when the stream is destroyed before its end (so a consumer can stop early).
 */
export function sevenZipStream(file: string): Readable {
  const stop = new AbortController();
  const { port1, port2 } = new MessageChannel();
  const out = new Readable({
    read() {},
    destroy(err, cb) {
      stop.abort(err ?? new Error('stream closed'));
      port1.close();
      cb(err);
    },
  });
  // The answer and the chunks come through different ports: the end waits for the chunks' end marker too.
  let chunksEnded!: () => void;
  const allChunks = new Promise<void>((resolve) => (chunksEnded = resolve));
  port1.on('message', (data: SevenZipChunk | null) => {
    if (data === null) chunksEnded();
    else out.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  });
  pool
    .run({ op: 'stream', file: hostPathSync(file), port: port2 }, { signal: stop.signal, transfer: [port2] })
    .then(async (r) => {
      await allChunks;
      port1.close();
      if (r!.kind === 'failed') out.destroy(new MediaError('ERR_1008', `7-Zip failed: ${r!.message}`));
      else if (r!.rc !== 0) out.destroy(failure(r!.stderr, 'Cannot decompress'));
      else out.push(null);
    })
    .catch((e: unknown) => {
      if (!out.destroyed) out.destroy(e as Error);
    });
  return out;
}

export const sevenZipReader: ContainerReader = {
  mediaTypes: [MediaTypes.sevenZip],

  async entries(file, { dimensions }) {
    const items = await sevenZipList(file);
    if (items.some((i) => i.encrypted)) throw new MediaError('ERR_1002', 'Encrypted 7z archive not supported');
    // Before the one pass that decodes everything. 7-Zip's listing has no per-entry packed size in solid blocks.
    const budget = new BookBudget();
    for (const i of items) budget.add(i.name, i.size, null);
    budget.checkArchiveRatio((await stat(file)).size);
    const files = items.filter((i) => !i.directory);
    // One pass over the archive (7z is usually solid): the first bytes of every file, in archive order.
    const r = await run({
      op: 'heads',
      file: await hostPath(file),
      sizes: files.map((f) => f.size ?? 0),
      max: HEAD_BYTES,
    });
    if (r.rc !== 0 && !r.capped) throw failure(r.stderr, 'Cannot read entries');
    const heads = r.heads ?? [];
    const entries: ContainerEntry[] = [];
    files.forEach((f, i) => {
      if (isDirectoryName(f.name) || isJunk(f.name)) return;
      const head = heads[i];
      entries.push(describeEntry(f.name, f.size, head ? Buffer.from(head) : null, dimensions));
    });
    return sortEntries(entries);
  },

  async read(file, entryName, opts) {
    return sevenZipExtract(file, entryName, undefined, opts?.signal);
  },
};

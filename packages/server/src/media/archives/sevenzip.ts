import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { MediaTypes } from '../detect.js';
import { HEAD_BYTES, describeEntry, isDirectoryName, isJunk, normalizeEntryName, sortEntries } from '../pages.js';
import { BookBudget, checkInflatedBytes, mediaLimits } from '../limits.js';
import { MediaError, type ContainerEntry, type ContainerReader } from '../types.js';
import { startWorker } from '../workers.js';
import type { SevenZipRequest, SevenZipResponse } from './sevenzip-worker.js';

/**
 * 7z / CB7 through 7-Zip compiled to WASM, run in worker threads (its `callMain` blocks).
 * Also serves the ZIP reader for compression methods yauzl cannot inflate, and the TAR reader for
 * xz/bzip2/zstd-compressed tars.
 *
 * Error codes: an encrypted 7z (data or headers) → ERR_1002. The spec's text for ERR_1002 says
 * "Encrypted RAR not supported"; no code fits "encrypted archive" better, so Quire uses it for every
 * encrypted container (documented in the table test). Unreadable archive → ERR_1008.
 */

type Pending = {
  resolve: (r: Extract<SevenZipResponse, { kind: 'done' }>) => void;
  reject: (e: Error) => void;
  onChunk?: (data: Uint8Array) => void;
};

class SevenZipWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  busy = 0;
  dead = false;
  /** Takes no new jobs; terminated once its queue is empty. */
  retiring = false;

  constructor() {
    this.worker = startWorker(new URL('./sevenzip-worker.js', import.meta.url));
    this.worker.unref();
    this.worker.on('message', (msg: SevenZipResponse) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      if (msg.kind === 'chunk') {
        p.onChunk?.(msg.data);
        return;
      }
      this.pending.delete(msg.id);
      this.busy--;
      if (msg.kind === 'done' && msg.retire) this.retiring = true;
      if (this.retiring && this.busy === 0) void this.terminate();
      if (msg.kind === 'failed') p.reject(new MediaError('ERR_1008', `7-Zip failed: ${msg.message}`));
      else p.resolve(msg);
    });
    const failAll = (e: Error) => {
      if (this.dead && this.pending.size === 0) return;
      this.dead = true;
      for (const p of this.pending.values()) p.reject(new MediaError('ERR_1008', `7-Zip worker stopped: ${e.message}`));
      this.pending.clear();
    };
    this.worker.on('error', failAll);
    this.worker.on('exit', (code) => failAll(new Error(`exit code ${code}`)));
  }

  run(
    req: SevenZipRequest,
    onChunk?: (data: Uint8Array) => void,
  ): Promise<Extract<SevenZipResponse, { kind: 'done' }>> {
    return new Promise((resolve, reject) => {
      this.busy++;
      this.pending.set(req.id, { resolve, reject, ...(onChunk ? { onChunk } : {}) });
      this.worker.postMessage(req);
    });
  }

  terminate(): Promise<number> {
    this.dead = true;
    return this.worker.terminate();
  }
}

/** A few long-lived workers, each running one 7-Zip command at a time (the next waits in its queue). */
const POOL_SIZE = 2;
const pool: SevenZipWorker[] = [];
let nextId = 1;

function pick(): SevenZipWorker {
  for (let i = pool.length - 1; i >= 0; i--) if (pool[i]!.dead || pool[i]!.retiring) pool.splice(i, 1);
  const idle = pool.find((w) => w.busy === 0);
  if (idle) return idle;
  if (pool.length < POOL_SIZE) {
    const w = new SevenZipWorker();
    pool.push(w);
    return w;
  }
  return pool.reduce((a, b) => (b.busy < a.busy ? b : a));
}

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

async function run(req: WithoutId<SevenZipRequest>, attempt = 0): Promise<Extract<SevenZipResponse, { kind: 'done' }>> {
  const r = await pick().run({ ...req, id: nextId++ } as SevenZipRequest);
  // A trapped 7-Zip voids the answer: retry on a fresh worker (the broken one is retiring).
  if (r.crashed && attempt < 2) return run(req, attempt + 1);
  return r;
}

/** Stops the pooled workers (tests, shutdown). New calls start new ones. */
export async function closeSevenZipWorkers(): Promise<void> {
  const all = pool.splice(0);
  await Promise.all(all.map((w) => w.terminate()));
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
 * One entry's bytes (the first `max` only, when given). A whole entry is kept up to one byte past the entry
 * limit, and refused when it reaches it.
 */
export async function sevenZipExtract(file: string, entry: string, max?: number): Promise<Buffer> {
  const keep = max ?? mediaLimits().maxEntryBytes + 1;
  const r = await run({ op: 'extract', file: await hostPath(file), entry, max: keep });
  if (r.rc !== 0) throw failure(r.stderr, `Cannot read entry ${entry}`);
  if (r.found === false) throw new MediaError('ERR_1005', `Entry not found: ${entry}`);
  if (max === undefined) checkInflatedBytes(entry, r.data!.byteLength);
  return Buffer.from(r.data!.buffer, r.data!.byteOffset, r.data!.byteLength);
}

/**
 * Decompresses a single-stream compressed file (xz, bzip2, zstd, gzip) into a Readable, in a worker of
 * its own that is terminated when the stream ends or is destroyed (so a consumer can stop early).
 */
export function sevenZipStream(file: string): Readable {
  const worker = new SevenZipWorker();
  const out = new Readable({
    read() {},
    destroy(err, cb) {
      void worker.terminate().finally(() => cb(err));
    },
  });
  worker
    .run({ id: 1, op: 'stream', file: hostPathSync(file) }, (data) =>
      out.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength)),
    )
    .then((r) => {
      if (r.rc !== 0) out.destroy(failure(r.stderr, 'Cannot decompress'));
      else out.push(null);
    })
    .catch((e: unknown) => {
      if (!out.destroyed) out.destroy(e as Error);
    })
    .finally(() => {
      if (!worker.dead) void worker.terminate();
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
    const files = items.filter((i) => !i.directory);
    // One pass over the archive (7z is usually solid): the first bytes of every file, in archive order.
    const r = await run({
      op: 'heads',
      file: await hostPath(file),
      sizes: files.map((f) => f.size ?? 0),
      max: HEAD_BYTES,
    });
    if (r.rc !== 0) throw failure(r.stderr, 'Cannot read entries');
    const heads = r.heads ?? [];
    const entries: ContainerEntry[] = [];
    files.forEach((f, i) => {
      if (isDirectoryName(f.name) || isJunk(f.name)) return;
      const head = heads[i];
      entries.push(describeEntry(f.name, f.size, head ? Buffer.from(head) : null, dimensions));
    });
    return sortEntries(entries);
  },

  async read(file, entryName) {
    return sevenZipExtract(file, entryName);
  },
};

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PdfService } from './index.js';

/** One page to render: the book's file, its 1-based number, the bitmap's size. */
export interface PdfPageRequest {
  file: string;
  page: number;
  width: number;
  height: number;
}

/** A page of the same file the reader is likely to ask for next. */
export type PdfPageAhead = Omit<PdfPageRequest, 'file'>;

const QUALITY = 90;

/**
 * PDF pages for readers (issue 18): the page asked for is rendered before any page rendered ahead, the pages around it
 * are rendered ahead once nothing asked for waits, and every render is kept in a bounded cache on disk.
 *
 * Renders go through {@link PdfService}'s pool, at most as many at once as it has threads: waiting here rather than
 * in the pool's first-come queue is what lets a page asked for pass the neighbours queued before it. A reader that
 * moves on makes the pages queued ahead of its old place stale: they are dropped (a render already running is left
 * to finish into the cache; ending it would end its worker thread, and the next render would load PDFium again).
 */
export class PdfPages {
  private readonly waiting: Job[] = [];
  /** Waiting or running, by key: a page asked for twice is rendered once. */
  private readonly jobs = new Map<string, Job>();
  private readonly running = new Set<Job>();
  private sequence = 0;

  constructor(private readonly d: { pdf: PdfService; cache: PdfPageCache | null }) {}

  /**
   * The page as JPEG bytes, from the cache or rendered before anything rendered ahead; `ahead` (in that order) is
   * then queued behind it, replacing what was queued ahead in the same file.
   */
  async page(req: PdfPageRequest, ahead: readonly PdfPageAhead[] = []): Promise<Buffer> {
    const version = await fileVersion(req.file);
    // a file that cannot be read: rendering says why, and nothing is cached for it
    const key = version ? keyOf(req, version) : `${randomBytes(8).toString('hex')}`;
    const cached = version ? await this.d.cache?.get(key).catch(() => null) : null;
    let bytes: Promise<Buffer>;
    if (cached) bytes = Promise.resolve(cached);
    else {
      const job = this.jobs.get(key) ?? this.add(key, req);
      job.asked = true;
      bytes = job.done;
      this.next();
    }
    if (version) void this.queueAhead(req.file, version, ahead);
    return bytes;
  }

  /** Pages waiting, in the order they will be rendered (tests). */
  get queued(): PdfPageRequest[] {
    return [...this.waiting].sort(byPriority).map((j) => j.req);
  }

  private async queueAhead(file: string, version: string, ahead: readonly PdfPageAhead[]): Promise<void> {
    const wanted = ahead.map((a) => ({ req: { file, ...a }, key: keyOf({ file, ...a }, version) }));
    const keep = new Set(wanted.map((w) => w.key));
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const job = this.waiting[i]!;
      if (job.asked || job.req.file !== file || keep.has(job.key)) continue;
      this.waiting.splice(i, 1);
      this.jobs.delete(job.key);
      job.resolve(Buffer.alloc(0));
    }
    for (const { req, key } of wanted) {
      if (this.jobs.has(key) || (await this.d.cache?.has(key))) continue;
      if (this.jobs.has(key)) continue;
      this.add(key, req).done.catch(() => undefined);
      this.next();
    }
  }

  private add(key: string, req: PdfPageRequest): Job {
    let resolve!: (b: Buffer) => void;
    let reject!: (e: unknown) => void;
    const done = new Promise<Buffer>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const job: Job = { key, req, asked: false, order: this.sequence++, done, resolve, reject };
    this.jobs.set(key, job);
    this.waiting.push(job);
    return job;
  }

  /**
   * Starts what waits, while the pool has a free thread: pages asked for first; a page ahead only once no page asked
   * for is rendering, so that one has the machine's cores to itself (the browser showing it needs one too).
   */
  private next(): void {
    while (this.running.size < this.d.pdf.threads && this.waiting.length > 0) {
      this.waiting.sort(byPriority);
      if (!this.waiting[0]!.asked && [...this.running].some((j) => j.asked)) return;
      const job = this.waiting.shift()!;
      this.running.add(job);
      void this.render(job).finally(() => {
        this.running.delete(job);
        this.jobs.delete(job.key);
        this.next();
      });
    }
  }

  private async render(job: Job): Promise<void> {
    const { file, page, width, height } = job.req;
    try {
      const rendered = await this.d.pdf.renderPage(file, page, { size: { width, height }, quality: QUALITY });
      // a full disk or a read-only data dir costs the cache, not the page
      await this.d.cache?.put(job.key, rendered.bytes).catch(() => undefined);
      job.resolve(rendered.bytes);
    } catch (e) {
      job.reject(e);
    }
  }
}

interface Job {
  key: string;
  req: PdfPageRequest;
  /** A client waits for it; else it is rendered ahead. */
  asked: boolean;
  order: number;
  done: Promise<Buffer>;
  resolve: (bytes: Buffer) => void;
  reject: (e: unknown) => void;
}

/** Pages asked for first, in the order asked; then pages ahead, in the order queued. */
const byPriority = (a: Job, b: Job) => Number(b.asked) - Number(a.asked) || a.order - b.order;

/** The file's size and modification time: a file changed in place is another set of renders. */
async function fileVersion(file: string): Promise<string | null> {
  try {
    const s = await stat(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return null;
  }
}

/** What names a render: the file and its version, the page, the bitmap's size, the JPEG quality. */
function keyOf(req: PdfPageRequest, version: string): string {
  return createHash('sha256')
    .update([req.file, version, req.page, `${req.width}x${req.height}`, QUALITY].join('\u0000'))
    .digest('hex');
}

/** Files of a write in progress (or of a process that died writing) end with this. */
const PARTIAL = '.partial';

/**
 * Rendered PDF pages on disk, under the data dir, at most about `maxBytes`: the least recently used go first. Nothing
 * lives only in this process: a render is a file named by its key, written whole then renamed into place (another
 * instance on the same data dir reads it, or the same render of its own, never half of one), reading a file marks it
 * used (its modification time), and trimming reads the directory. Each instance trims once what it wrote since its
 * last look passes a tenth of the bound, so instances sharing the directory exceed it by at most that much each.
 */
export class PdfPageCache {
  /** Bytes written since the directory was last measured, and what it held then (unknown before the first look). */
  private written = 0;
  private measured = Infinity;
  private trimming: Promise<void> | null = null;

  constructor(
    private readonly dir: string,
    readonly maxBytes: number,
  ) {}

  async get(key: string): Promise<Buffer | null> {
    const path = this.pathOf(key);
    try {
      const bytes = await readFile(path);
      const now = new Date();
      void utimes(path, now, now).catch(() => undefined);
      return bytes;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async has(key: string): Promise<boolean> {
    return stat(this.pathOf(key)).then(
      () => true,
      () => false,
    );
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    if (bytes.length > this.maxBytes) return;
    const path = this.pathOf(key);
    await mkdir(join(path, '..'), { recursive: true });
    const partial = `${path}.${randomBytes(6).toString('hex')}${PARTIAL}`;
    await writeFile(partial, bytes);
    await rename(partial, path);
    this.written += bytes.length;
    if (this.measured + this.written > this.maxBytes || this.written > this.maxBytes / 10) await this.trim();
  }

  /** Measures the directory and removes the least recently used renders until it holds at most 90 % of the bound. */
  trim(): Promise<void> {
    this.trimming ??= this.measureAndTrim().finally(() => (this.trimming = null));
    return this.trimming;
  }

  private async measureAndTrim(): Promise<void> {
    this.written = 0;
    const files: { path: string; size: number; used: number }[] = [];
    for (const sub of await readdir(this.dir).catch(() => [])) {
      for (const name of await readdir(join(this.dir, sub)).catch(() => [])) {
        const path = join(this.dir, sub, name);
        const s = await stat(path).catch(() => null);
        if (!s?.isFile()) continue;
        // a write that never finished (a minute is far longer than writing one page takes)
        if (name.endsWith(PARTIAL)) {
          if (Date.now() - s.mtimeMs > 60_000) await unlink(path).catch(() => undefined);
          continue;
        }
        files.push({ path, size: s.size, used: s.mtimeMs });
      }
    }
    let total = files.reduce((sum, f) => sum + f.size, 0);
    if (total > this.maxBytes) {
      files.sort((a, b) => a.used - b.used);
      for (const f of files) {
        if (total <= this.maxBytes * 0.9) break;
        // another instance may have removed it first
        await unlink(f.path).catch(() => undefined);
        total -= f.size;
      }
    }
    this.measured = total;
  }

  private pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.jpg`);
  }
}

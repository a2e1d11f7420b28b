import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { MediaError } from '../types.js';
import { startWorker } from '../workers.js';
import type { PdfFailureKind, PdfRequest, PdfResponse } from './protocol.js';

export type { PdfFailureKind, PdfPageSize } from './protocol.js';

/** `komga.pdf-resolution`: the shorter side of a rendered page, in pixels (engine.md §4.4). */
export const PDF_RESOLUTION = 3200;
/** Guard against absurd aspect ratios: the longer side of a rendered page never exceeds this. */
export const PDF_MAX_RENDER_EDGE = 16384;
export const PDF_RENDER_MEDIA_TYPE = 'image/jpeg';

/**
 * A PDF failure. `code` is the analysis code stored on the media: Komga (PDFBox) maps every PDF
 * opening failure — corrupt file, user password required — to the generic ERR_1005, and the error
 * catalogue has no PDF-specific code, so Quire does the same; `kind` tells the cases apart
 * (`password`, `corrupt`, `timeout`, …) for logs and HTTP mapping. Missing file → ERR_1018,
 * access denied → ERR_1000.
 */
export class PdfError extends MediaError {
  constructor(
    readonly kind: PdfFailureKind | 'timeout',
    message: string,
  ) {
    super(kind === 'not-found' ? 'ERR_1018' : kind === 'access' ? 'ERR_1000' : 'ERR_1005', message);
    this.name = 'PdfError';
  }
}

export interface PdfInfo {
  pageCount: number;
  /** Per page: crop box in points, rounded (Komga's page dimension). */
  pages: { width: number; height: number }[];
}

/** Komga's `scaleDimension`: the size of a rendered page, shorter side = {@link PDF_RESOLUTION}. */
export function pdfRenderSize(
  dim: { width: number; height: number },
  resolution = PDF_RESOLUTION,
): { width: number; height: number } {
  const scale = resolution / Math.min(dim.width, dim.height);
  let width = Math.round(dim.width * scale);
  let height = Math.round(dim.height * scale);
  const longest = Math.max(width, height);
  if (longest > PDF_MAX_RENDER_EDGE) {
    const f = PDF_MAX_RENDER_EDGE / longest;
    width = Math.max(1, Math.round(width * f));
    height = Math.max(1, Math.round(height * f));
  }
  return { width, height };
}

export interface PdfServiceOptions {
  /** Worker threads (default min(2, cores)). */
  workers?: number;
  /** Per-operation timeouts in ms. */
  infoTimeoutMs?: number;
  renderTimeoutMs?: number;
  extractTimeoutMs?: number;
  /** Idle workers exit after this many ms (default 60 s). */
  idleMs?: number;
  /** A worker is replaced after this many renders (default 100)… */
  maxRendersPerWorker?: number;
  /** …or once PDFium's WebAssembly memory has grown past this many bytes (default 384 MiB). */
  maxWorkerMemoryBytes?: number;
}

interface Pending {
  resolve: (r: PdfResponse) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/** One worker thread and the calls it has not answered yet. */
interface PdfWorker {
  thread: Worker;
  pending: Map<number, Pending>;
  renders: number;
  /** Takes no new call; terminated once its last call is answered. */
  retiring: boolean;
  idleTimer: NodeJS.Timeout | null;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Runs PDF work in worker threads so the event loop stays responsive; every call has a timeout after
 * which the worker is terminated (a stuck WASM render cannot hang the server) and replaced lazily.
 * The app creates one and passes it to whatever renders (analysis, pages, posters, barcode pages), and
 * `close()` ends its workers when the app closes.
 *
 * PDFium's WebAssembly memory grows to the largest page it has rendered and never shrinks (a WebAssembly memory
 * cannot), and each render leaves the worker's allocator a little more fragmented: a worker is retired after
 * {@link PdfServiceOptions.maxRendersPerWorker} renders, or as soon as its memory passes
 * {@link PdfServiceOptions.maxWorkerMemoryBytes}, and a fresh one takes the next call. Fuzzed PDFs with huge
 * pages drove a server past 3 GB before this.
 */
export class PdfService {
  /** Live workers that take calls (at most `opts.workers`). */
  private readonly workers: PdfWorker[] = [];
  /** Retired workers still answering their last calls. */
  private readonly retired = new Set<PdfWorker>();
  private nextId = 1;
  private rr = 0;
  private readonly opts: Required<PdfServiceOptions>;
  /** Workers started so far (tests check that retired ones were replaced). */
  started = 0;

  constructor(opts: PdfServiceOptions = {}) {
    this.opts = {
      workers: opts.workers ?? Math.max(1, Math.min(2, availableParallelism())),
      infoTimeoutMs: opts.infoTimeoutMs ?? 60_000,
      renderTimeoutMs: opts.renderTimeoutMs ?? 60_000,
      extractTimeoutMs: opts.extractTimeoutMs ?? 60_000,
      idleMs: opts.idleMs ?? 60_000,
      maxRendersPerWorker: opts.maxRendersPerWorker ?? 100,
      maxWorkerMemoryBytes: opts.maxWorkerMemoryBytes ?? 384 * 1024 * 1024,
    };
  }

  /** Page count and per-page crop box (rounded points). Corrupt / password-protected → PdfError (ERR_1005). */
  async info(file: string): Promise<PdfInfo> {
    const res = await this.call({ op: 'info', file }, this.opts.infoTimeoutMs);
    if (!res.ok || res.op !== 'info') throw new PdfError('other', 'unexpected worker response');
    return {
      pageCount: res.pageCount,
      pages: res.pages.map((p) => ({ width: Math.round(p.width), height: Math.round(p.height) })),
    };
  }

  /**
   * Renders page `page` (1-based) as JPEG, shorter side {@link PDF_RESOLUTION} px (engine.md §4.4) unless
   * `resolution` asks for fewer (posters). Pass the stored page dimension to skip the size lookup.
   */
  async renderPage(
    file: string,
    page: number,
    opts: { dimension?: { width: number; height: number }; quality?: number; resolution?: number } = {},
  ): Promise<{ bytes: Buffer; mediaType: string; width: number; height: number }> {
    let dim = opts.dimension;
    if (!dim) {
      const info = await this.info(file);
      dim = info.pages[page - 1];
      if (!dim) throw new PdfError('page-range', `No page ${page}`);
    }
    const size = pdfRenderSize(dim, Math.min(opts.resolution ?? PDF_RESOLUTION, PDF_RESOLUTION));
    const res = await this.call(
      { op: 'render', file, page, ...size, quality: opts.quality ?? 90 },
      this.opts.renderTimeoutMs,
    );
    if (!res.ok || res.op !== 'render') throw new PdfError('other', 'unexpected worker response');
    return { bytes: Buffer.from(res.bytes), mediaType: PDF_RENDER_MEDIA_TYPE, width: res.width, height: res.height };
  }

  /** A one-page PDF holding page `page` (1-based), for clients that accept application/pdf. */
  async extractPage(file: string, page: number): Promise<Buffer> {
    const res = await this.call({ op: 'extract', file, page }, this.opts.extractTimeoutMs);
    if (!res.ok || res.op !== 'extract') throw new PdfError('other', 'unexpected worker response');
    return Buffer.from(res.bytes);
  }

  /** Terminates all workers; pending calls fail. */
  async close(): Promise<void> {
    const all = [...this.workers.splice(0), ...this.retired];
    this.retired.clear();
    await Promise.all(all.map((w) => this.kill(w, new PdfError('other', 'PDF service closed'))));
  }

  /** A worker for the next call: a new one while fewer than `opts.workers` run, else the least busy. */
  private pick(): PdfWorker {
    if (this.workers.length < this.opts.workers) {
      const w = this.spawn();
      this.workers.push(w);
      return w;
    }
    // least busy, round-robin among equals
    let best = this.workers[this.rr++ % this.workers.length]!;
    for (const w of this.workers) if (w.pending.size < best.pending.size) best = w;
    return best;
  }

  private spawn(): PdfWorker {
    const thread = startWorker(new URL('./worker.js', import.meta.url));
    thread.unref();
    this.started++;
    const w: PdfWorker = { thread, pending: new Map(), renders: 0, retiring: false, idleTimer: null };
    thread.on('message', (res: PdfResponse) => {
      const p = w.pending.get(res.id);
      if (!p) return;
      w.pending.delete(res.id);
      clearTimeout(p.timer);
      if (res.ok && res.op === 'render') w.renders++;
      if (w.renders >= this.opts.maxRendersPerWorker || res.memoryBytes > this.opts.maxWorkerMemoryBytes) {
        this.retire(w);
      }
      this.release(w);
      if (res.ok) p.resolve(res);
      else p.reject(new PdfError(res.kind, res.message));
    });
    const fail = (err: Error) => void this.kill(w, err);
    thread.on('error', (e) => fail(new PdfError('other', `PDF worker crashed: ${e.message}`)));
    thread.on('exit', (code) => fail(new PdfError('other', `PDF worker exited (${code})`)));
    return w;
  }

  /** No new call goes to `w`; it ends once its pending calls are answered (see {@link release}). */
  private retire(w: PdfWorker) {
    if (w.retiring) return;
    w.retiring = true;
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
    this.retired.add(w);
  }

  private release(w: PdfWorker) {
    if (w.pending.size > 0) return;
    if (w.retiring) {
      void this.kill(w, new PdfError('other', 'PDF worker retired'));
      return;
    }
    w.idleTimer = setTimeout(() => {
      if (w.pending.size === 0) void this.kill(w, new PdfError('other', 'idle'));
    }, this.opts.idleMs);
    w.idleTimer.unref();
  }

  /** Terminates `w` and fails its pending calls with `err`. */
  private async kill(w: PdfWorker, err: Error): Promise<void> {
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
    this.retired.delete(w);
    if (w.idleTimer) clearTimeout(w.idleTimer);
    w.idleTimer = null;
    const pending = [...w.pending.values()];
    w.pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    await w.thread.terminate();
  }

  private call(req: DistributiveOmit<PdfRequest, 'id'>, timeoutMs: number): Promise<PdfResponse> {
    const w = this.pick();
    if (w.idleTimer) clearTimeout(w.idleTimer);
    w.idleTimer = null;
    const id = this.nextId++;
    return new Promise<PdfResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        w.pending.delete(id);
        // the worker may be stuck inside WASM: terminate it, fail its other calls, start another on demand
        void this.kill(w, new PdfError('timeout', 'PDF worker terminated after another call timed out'));
        reject(new PdfError('timeout', `PDF ${req.op} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      w.pending.set(id, { resolve, reject, timer });
      w.thread.postMessage({ ...req, id } as PdfRequest);
    });
  }
}

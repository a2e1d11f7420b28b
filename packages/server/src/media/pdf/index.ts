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
}

interface Pending {
  resolve: (r: PdfResponse) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker | null;
  busy: number;
  idleTimer: NodeJS.Timeout | null;
  pending: Map<number, Pending>;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Runs PDF work in worker threads so the event loop stays responsive; every call has a timeout after
 * which the worker is terminated (a stuck WASM render cannot hang the server) and replaced lazily.
 * The app creates one and passes it to whatever renders (analysis, pages, posters, barcode pages), and
 * `close()` ends its workers when the app closes.
 */
export class PdfService {
  private readonly slots: Slot[];
  private nextId = 1;
  private rr = 0;
  private readonly opts: Required<PdfServiceOptions>;

  constructor(opts: PdfServiceOptions = {}) {
    this.opts = {
      workers: opts.workers ?? Math.max(1, Math.min(2, availableParallelism())),
      infoTimeoutMs: opts.infoTimeoutMs ?? 60_000,
      renderTimeoutMs: opts.renderTimeoutMs ?? 60_000,
      extractTimeoutMs: opts.extractTimeoutMs ?? 60_000,
      idleMs: opts.idleMs ?? 60_000,
    };
    this.slots = Array.from({ length: this.opts.workers }, () => ({
      worker: null,
      busy: 0,
      idleTimer: null,
      pending: new Map(),
    }));
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
    await Promise.all(this.slots.map((s) => this.kill(s, new PdfError('other', 'PDF service closed'))));
  }

  private pick(): Slot {
    // least busy, round-robin among equals
    let best = this.slots[this.rr++ % this.slots.length]!;
    for (const s of this.slots) if (s.busy < best.busy) best = s;
    return best;
  }

  private spawn(slot: Slot): Worker {
    const worker = startWorker(new URL('./worker.js', import.meta.url));
    worker.unref();
    worker.on('message', (res: PdfResponse) => {
      const p = slot.pending.get(res.id);
      if (!p) return;
      slot.pending.delete(res.id);
      clearTimeout(p.timer);
      this.release(slot);
      if (res.ok) p.resolve(res);
      else p.reject(new PdfError(res.kind, res.message));
    });
    const fail = (err: Error) => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      const pending = [...slot.pending.values()];
      slot.pending.clear();
      slot.busy = 0;
      for (const p of pending) {
        clearTimeout(p.timer);
        p.reject(err);
      }
    };
    worker.on('error', (e) => fail(new PdfError('other', `PDF worker crashed: ${e.message}`)));
    worker.on('exit', (code) => fail(new PdfError('other', `PDF worker exited (${code})`)));
    return worker;
  }

  private release(slot: Slot) {
    slot.busy = Math.max(0, slot.busy - 1);
    if (slot.busy === 0 && slot.worker) {
      const w = slot.worker;
      slot.idleTimer = setTimeout(() => {
        if (slot.worker === w && slot.busy === 0) void this.kill(slot, new PdfError('other', 'idle'));
      }, this.opts.idleMs);
      slot.idleTimer.unref();
    }
  }

  private async kill(slot: Slot, err: Error): Promise<void> {
    const w = slot.worker;
    slot.worker = null;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    for (const p of slot.pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    slot.pending.clear();
    slot.busy = 0;
    if (w) await w.terminate();
  }

  private call(req: DistributiveOmit<PdfRequest, 'id'>, timeoutMs: number): Promise<PdfResponse> {
    const slot = this.pick();
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const worker = (slot.worker ??= this.spawn(slot));
    const id = this.nextId++;
    return new Promise<PdfResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        slot.pending.delete(id);
        // the worker may be stuck inside WASM: terminate it, fail its other calls, respawn on demand
        void this.kill(slot, new PdfError('timeout', 'PDF worker terminated after another call timed out'));
        reject(new PdfError('timeout', `PDF ${req.op} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      slot.pending.set(id, { resolve, reject, timer });
      slot.busy++;
      worker.postMessage({ ...req, id } as PdfRequest);
    });
  }
}

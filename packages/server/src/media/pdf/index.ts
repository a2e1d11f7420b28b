import { availableParallelism } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { MediaError } from '../types.js';
import { WorkerPool } from '../workers.js';
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

/**
 * How long a call waits for a {@link PdfService.warm} under way: a new thread is warm in ~1 s; one taking longer is
 * stuck on its file, and other files' work must not wait for it until its timeout.
 */
const WARM_WAIT_MS = 3000;

/** Widths a reader asks for are rounded up to a multiple of this: nearby screens share one cached render. */
export const PDF_WIDTH_STEP = 256;

/**
 * The size of a page rendered for a reader that draws it `width` pixels wide (Quire's `width` parameter): that width
 * rounded up to {@link PDF_WIDTH_STEP}, never larger than {@link pdfRenderSize} (what is served without a width).
 */
export function pdfRenderSizeForWidth(
  dim: { width: number; height: number },
  width?: number,
): { width: number; height: number } {
  const full = pdfRenderSize(dim);
  if (!width) return full;
  const wanted = Math.ceil(width / PDF_WIDTH_STEP) * PDF_WIDTH_STEP;
  if (wanted >= full.width) return full;
  return { width: wanted, height: Math.max(1, Math.round((full.height * wanted) / full.width)) };
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

/** What the pool tells each worker thread (`worker.ts`) about when to retire. */
export interface PdfWorkerOptions {
  maxRenders: number;
  maxMemoryBytes: number;
}

/**
 * Runs PDF work in a pool of worker threads (`media/workers.ts`) so the event loop stays responsive; every call has
 * a timeout after which the thread running it is ended (a stuck WASM render cannot hang the server) and replaced
 * lazily. The app creates one and passes it to whatever renders (analysis, pages, posters, barcode pages), and
 * `close()` ends its threads when the app closes.
 *
 * PDFium's WebAssembly memory grows to the largest page it has rendered and never shrinks (a WebAssembly memory
 * cannot), and each render leaves the worker's allocator a little more fragmented: a worker retires after
 * {@link PdfServiceOptions.maxRendersPerWorker} renders, or as soon as its memory passes
 * {@link PdfServiceOptions.maxWorkerMemoryBytes}, once the calls it already has are answered, and a fresh one
 * takes the next call. Fuzzed PDFs with huge pages drove a server past 3 GB before this.
 */
export class PdfService {
  private readonly pool: WorkerPool<PdfRequest | null, PdfResponse>;
  private readonly opts: Required<PdfServiceOptions>;
  /** A {@link warm} under way: calls wait for it, so they run on the thread it readies. */
  private warming: Promise<void> | undefined;

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
    this.pool = new WorkerPool({
      module: new URL('./worker.js', import.meta.url),
      threads: this.opts.workers,
      idleTimeoutMs: this.opts.idleMs,
      workerOptions: {
        maxRenders: this.opts.maxRendersPerWorker,
        maxMemoryBytes: this.opts.maxWorkerMemoryBytes,
      } satisfies PdfWorkerOptions,
    });
  }

  /** Worker threads at most: how many renders run at once. */
  get threads(): number {
    return this.opts.workers;
  }

  /** Worker threads started so far (tests check that retired ones were replaced). */
  get started(): number {
    return this.pool.started;
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
   * `resolution` asks for fewer (posters), or `size` gives the bitmap's size. Pass the stored page dimension to skip
   * the size lookup.
   */
  async renderPage(
    file: string,
    page: number,
    opts: {
      dimension?: { width: number; height: number };
      quality?: number;
      resolution?: number;
      size?: { width: number; height: number };
    } = {},
  ): Promise<{ bytes: Buffer; mediaType: string; width: number; height: number }> {
    let size = opts.size;
    if (!size) {
      let dim = opts.dimension;
      if (!dim) {
        const info = await this.info(file);
        dim = info.pages[page - 1];
        if (!dim) throw new PdfError('page-range', `No page ${page}`);
      }
      size = pdfRenderSize(dim, Math.min(opts.resolution ?? PDF_RESOLUTION, PDF_RESOLUTION));
    }
    const res = await this.call(
      { op: 'render', file, page, ...size, quality: opts.quality ?? 90 },
      this.opts.renderTimeoutMs,
    );
    if (!res.ok || res.op !== 'render') throw new PdfError('other', 'unexpected worker response');
    return { bytes: Buffer.from(res.bytes), mediaType: PDF_RENDER_MEDIA_TYPE, width: res.width, height: res.height };
  }

  /**
   * Readies a thread for `file` before its first page is asked for: starts it if none is idle, loads PDFium in it,
   * opens the file and renders its first page tiny (a new thread's first render took ~1.2 s, a warm one's 0.1–0.2 s). Calls made meanwhile wait for
   * it rather than starting a second cold thread. Never fails: the render that follows reports what is wrong.
   */
  warm(file: string): Promise<void> {
    this.warming ??= this.call({ op: 'warm', file }, this.opts.infoTimeoutMs)
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.warming = undefined;
      });
    return this.warming;
  }

  /** A one-page PDF holding page `page` (1-based), for clients that accept application/pdf. */
  async extractPage(file: string, page: number): Promise<Buffer> {
    const res = await this.call({ op: 'extract', file, page }, this.opts.extractTimeoutMs);
    if (!res.ok || res.op !== 'extract') throw new PdfError('other', 'unexpected worker response');
    return Buffer.from(res.bytes);
  }

  /** Ends all worker threads; calls in progress fail. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  private async call(req: PdfRequest, timeoutMs: number): Promise<PdfResponse> {
    if (req.op !== 'warm' && this.warming)
      await Promise.race([this.warming, delay(WARM_WAIT_MS, undefined, { ref: false })]);
    const timeout = AbortSignal.timeout(timeoutMs);
    let res: PdfResponse;
    try {
      res = (await this.pool.run(req, { signal: timeout }))!;
    } catch (e) {
      // the thread may be stuck inside WASM: the pool has ended it and starts another on demand
      if (timeout.aborted) throw new PdfError('timeout', `PDF ${req.op} timed out after ${timeoutMs} ms`);
      throw new PdfError('other', `PDF worker stopped: ${(e as Error).message}`);
    }
    if (!res.ok) throw new PdfError(res.kind, res.message);
    return res;
  }
}

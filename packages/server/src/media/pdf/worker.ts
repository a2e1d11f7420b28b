/**
 * PDF worker thread: PDFium (WASM) for page sizes and rendering, pdf-lib for single-page extraction,
 * sharp for JPEG encoding. Runs off the main thread in the pool of `PdfService`, which ends it on timeout.
 */
import { readFile, stat } from 'node:fs/promises';
import { PDFiumLibrary, type PDFiumDocument } from '@hyzyla/pdfium';
import type { PDFDocument } from 'pdf-lib';
import type { PdfWorkerOptions } from './index.js';
import type { PdfFailureKind, PdfRequest, PdfResponse } from './protocol.js';
import { loadSharp } from '../sharp.js';
import { moving, poolOptions, retireAfterThisCall, serve } from '../worker-thread.js';

class Failure extends Error {
  constructor(
    readonly kind: PdfFailureKind,
    message: string,
  ) {
    super(message);
  }
}

let library: Promise<PDFiumLibrary> | undefined;
/** PDFium's WebAssembly heap, once loaded: past a size, the thread retires. */
let heap: { HEAPU8: Uint8Array } | undefined;

const memoryBytes = () => heap?.HEAPU8.byteLength ?? 0;
const cache = new Map<string, Promise<PDFiumDocument>>();
const CACHE_SIZE = 2;

async function key(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${file}\u0000${s.size}\u0000${s.mtimeMs}`;
  } catch (e) {
    throw fsFailure(e);
  }
}

function fsFailure(e: unknown): Failure {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return new Failure('not-found', 'File not found');
  if (code === 'EACCES' || code === 'EPERM') return new Failure('access', 'File not accessible');
  return new Failure('other', (e as Error)?.message ?? String(e));
}

async function readPdf(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (e) {
    throw fsFailure(e);
  }
}

async function openDocument(file: string): Promise<PDFiumDocument> {
  const k = await key(file);
  const cached = cache.get(k);
  if (cached) {
    cache.delete(k);
    cache.set(k, cached);
    return cached;
  }
  const promise = (async () => {
    const lib = await (library ??= PDFiumLibrary.init());
    heap ??= (lib as unknown as { module: { HEAPU8: Uint8Array } }).module;
    const bytes = await readPdf(file);
    try {
      return await lib.loadDocument(bytes);
    } catch (e) {
      const msg = (e as Error).message ?? String(e);
      if (/password/i.test(msg)) throw new Failure('password', 'PDF is password protected');
      if (/security/i.test(msg)) throw new Failure('encrypted', `Unsupported PDF security handler: ${msg}`);
      throw new Failure('corrupt', `Cannot parse PDF: ${msg}`);
    }
  })();
  cache.set(k, promise);
  promise.catch(() => cache.delete(k));
  while (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next().value as string;
    const doc = cache.get(oldest);
    cache.delete(oldest);
    void doc?.then((d) => d.destroy()).catch(() => undefined);
  }
  return promise;
}

async function render(
  file: string,
  number: number,
  size: { width: number; height: number; quality: number },
): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const doc = await openDocument(file);
  if (number < 1 || number > doc.getPageCount()) throw new Failure('page-range', `No page ${number}`);
  const page = doc.getPage(number - 1);
  const rendered = await page.render({ scale: 1, width: size.width, height: size.height, render: 'bitmap' });
  // REVERSE_BYTE_ORDER is set by the wrapper: RGBA, white background, opaque
  const sharp = await loadSharp();
  const { data, info } = await sharp(rendered.data, {
    raw: { width: rendered.width, height: rendered.height, channels: 4 },
    limitInputPixels: false,
  })
    .removeAlpha()
    .jpeg({ quality: size.quality })
    .toBuffer({ resolveWithObject: true });
  return { bytes: new Uint8Array(data), width: info.width, height: info.height };
}

async function handle(req: PdfRequest): Promise<PdfResponse> {
  switch (req.op) {
    case 'info': {
      const doc = await openDocument(req.file);
      const pageCount = doc.getPageCount();
      if (pageCount <= 0) throw new Failure('corrupt', 'PDF has no pages');
      const pages = [];
      for (let i = 0; i < pageCount; i++) {
        const page = doc.getPage(i);
        const { originalWidth, originalHeight } = page.getOriginalSize();
        pages.push({ width: originalWidth, height: originalHeight });
      }
      return { ok: true, op: 'info', pageCount, pages };
    }
    case 'warm':
      // a thumbnail-sized render: a thread's first render and JPEG encoding cost ~0.2 s more than the next ones
      await render(req.file, 1, { width: 32, height: 48, quality: 50 });
      return { ok: true, op: 'warm' };
    case 'render':
      return { ok: true, op: 'render', ...(await render(req.file, req.page, req)) };
    case 'extract': {
      // only here: loading pdf-lib took ~0.3 s of every new thread's start, which a reader's first page waited for
      const { PDFDocument } = await import('pdf-lib');
      const bytes = await readPdf(req.file);
      let src: PDFDocument;
      const warn = console.warn;
      const log = console.log;
      try {
        // pdf-lib reports unparsable (e.g. encrypted) objects on the console: keep the logs clean
        console.warn = console.log = () => undefined;
        src = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
      } catch (e) {
        throw new Failure('corrupt', `Cannot parse PDF: ${(e as Error).message}`);
      } finally {
        console.warn = warn;
        console.log = log;
      }
      if (src.isEncrypted) throw new Failure('encrypted', 'Cannot extract a page from an encrypted PDF');
      if (req.page < 1 || req.page > src.getPageCount()) throw new Failure('page-range', `No page ${req.page}`);
      const out = await PDFDocument.create({ updateMetadata: false });
      const [copied] = await out.copyPages(src, [req.page - 1]);
      out.addPage(copied!);
      return { ok: true, op: 'extract', bytes: await out.save() };
    }
  }
}

const limits = poolOptions<PdfWorkerOptions>();
let renders = 0;

/**
 * The pool hands a thread one call at a time (media/workers.ts): PDFium runs synchronously anyway, and while sharp
 * encoded one page the next render once started, so several full-size bitmaps (58 MB each at 3200 px) were alive at
 * once in one worker.
 */
export default serve<PdfRequest, PdfResponse>(async (req) => {
  let res: PdfResponse;
  try {
    res = await handle(req);
  } catch (e) {
    const f = e instanceof Failure ? e : new Failure('other', (e as Error)?.message ?? String(e));
    res = { ok: false, kind: f.kind, message: f.message };
  }
  if (res.ok && res.op === 'render') renders++;
  if (renders >= limits.maxRenders || memoryBytes() > limits.maxMemoryBytes) retireAfterThisCall();
  return 'bytes' in res ? moving(res, [res.bytes.buffer as ArrayBuffer]) : res;
});

import { readdir, readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import { imageSize } from 'image-size';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfError, PdfService, pdfRenderSize } from '../../src/media/pdf/index.js';
import { fixture } from '../support/fixtures.js';

const pdf = (name: string) => fixture(`pdf/${name}`);
const service = new PdfService({ workers: 2 });
afterAll(() => service.close());

/*
 * Expected values from `pdfinfo -box` (poppler), independently of this code; first-page dimension =
 * crop box in points rounded (Komga's stored page dimension). Error rows: Komga (PDFBox) stores ERR_1005
 * for every PDF it cannot open; `kind` is Quire's finer classification.
 */
const rows: { file: string; pages?: number; first?: [number, number]; error?: string; kind?: string }[] = [
  // corrupt: wrong stream length, no trailer; pdfinfo cannot read the xref either (PDFBox might repair it)
  { file: 'REDHAT-1531897-0.pdf', error: 'ERR_1005', kind: 'corrupt' },
  { file: 'ccitt.pdf', pages: 1, first: [612, 792] },
  // crop box 489.6 x 734.4 inside a 612 x 792 media box
  { file: 'freeculture.pdf', pages: 352, first: [490, 734] },
  { file: 'invalid.pdf', error: 'ERR_1005', kind: 'corrupt' },
  // user password required
  { file: 'issue6010_1.pdf', error: 'ERR_1005', kind: 'password' },
  { file: 'komga.pdf', pages: 1, first: [512, 512] },
  { file: 'labelled_pages.pdf', pages: 11, first: [612, 792] },
  { file: 'multipage.pdf', pages: 6, first: [384, 471] },
  { file: 'nested_outline.pdf', pages: 9, first: [595, 842] },
  // AES-256 with an owner password only: opens and renders without a password
  { file: 'secHandler.pdf', pages: 1, first: [612, 792] },
  { file: 'tall.pdf', pages: 1, first: [567, 1417] },
  { file: 'test_cix.pdf', pages: 4, first: [595, 842] },
  { file: 'test_ſ.pdf', pages: 1, first: [595, 842] },
  { file: 'two_pages.pdf', pages: 2, first: [612, 792] },
];

describe('PDF info per fixture', () => {
  it.each(rows)('$file', async (row) => {
    if (row.error) {
      const err = await service.info(pdf(row.file)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PdfError);
      expect(err).toMatchObject({ code: row.error, kind: row.kind });
      return;
    }
    const info = await service.info(pdf(row.file));
    expect(info.pageCount).toBe(row.pages);
    expect(info.pages).toHaveLength(row.pages!);
    expect([info.pages[0]!.width, info.pages[0]!.height]).toEqual(row.first);
  });

  it('missing file → ERR_1018', async () => {
    await expect(service.info(pdf('nope.pdf'))).rejects.toMatchObject({ code: 'ERR_1018', kind: 'not-found' });
  });
});

describe('PDF rendering', () => {
  it('scales the shorter side to 3200 px (Komga scaleDimension)', () => {
    expect(pdfRenderSize({ width: 612, height: 792 })).toEqual({ width: 3200, height: 4141 });
    expect(pdfRenderSize({ width: 567, height: 1417 })).toEqual({ width: 3200, height: 7997 });
    expect(pdfRenderSize({ width: 792, height: 612 })).toEqual({ width: 4141, height: 3200 });
  });

  it.each([
    ['komga.pdf', 1, 3200, 3200],
    ['two_pages.pdf', 2, 3200, 4141],
    ['freeculture.pdf', 1, 3200, 4793],
    ['multipage.pdf', 6, 4141, 3200], // landscape 792 x 612 page
  ])('%s page %i → JPEG %ix%i', async (file, page, w, h) => {
    const t = performance.now();
    const r = await service.renderPage(pdf(file), page);
    const ms = performance.now() - t;
    expect(r.mediaType).toBe('image/jpeg');
    expect(r.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const size = imageSize(r.bytes);
    expect([size.type, size.width, size.height]).toEqual(['jpg', w, h]);
    console.info(`render ${file} p${page} ${w}x${h}: ${ms.toFixed(0)} ms`);
  });

  it('renders posters no larger than asked (shorter side at the given resolution, never above 3200)', async () => {
    const small = await service.renderPage(pdf('freeculture.pdf'), 1, { resolution: 300 });
    expect([small.width, small.height]).toEqual([300, 449]);
    expect(imageSize(small.bytes)).toMatchObject({ width: 300, height: 449 });
    const capped = await service.renderPage(pdf('komga.pdf'), 1, { resolution: 9000 });
    expect([capped.width, capped.height]).toEqual([3200, 3200]);
  });

  it('page out of range is refused', async () => {
    await expect(service.renderPage(pdf('komga.pdf'), 2)).rejects.toMatchObject({ kind: 'page-range' });
  });

  it('keeps the event loop responsive while rendering', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await service.renderPage(pdf('tall.pdf'), 1);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });

  it('times out and recovers (worker terminated, then respawned)', async () => {
    const svc = new PdfService({ workers: 1, renderTimeoutMs: 1 });
    try {
      await expect(
        svc.renderPage(pdf('freeculture.pdf'), 1, { dimension: { width: 490, height: 734 } }),
      ).rejects.toMatchObject({
        kind: 'timeout',
        code: 'ERR_1005',
      });
      expect((await svc.info(pdf('komga.pdf'))).pageCount).toBe(1);
    } finally {
      await svc.close();
    }
  });
});

/** Node's own threads of this process (one per worker thread among them); libvips names its threads otherwise. */
async function nodeThreads(): Promise<number> {
  let count = 0;
  for (const id of await readdir('/proc/self/task')) {
    const name = await readFile(`/proc/self/task/${id}/comm`, 'utf8').catch(() => 'gone');
    if (name.trim() === 'node') count++;
  }
  return count;
}

describe('PDF worker recycling (PDFium memory never shrinks)', () => {
  const dimension = { width: 490, height: 734 };

  it('replaces a worker after its render quota; calls waiting for it go to the next one', async () => {
    const before = await nodeThreads();
    const svc = new PdfService({ workers: 1, maxRendersPerWorker: 2 });
    try {
      // three at once for one thread: its second answer retires it, and the third waits for a fresh thread
      const first = await Promise.all([1, 2, 3].map((n) => svc.renderPage(pdf('freeculture.pdf'), n, { dimension })));
      expect(first.map((r) => r.mediaType)).toEqual(['image/jpeg', 'image/jpeg', 'image/jpeg']);
      expect(svc.started).toBe(2);
      // the second thread's second render retires it too; the fifth render needs a third
      const next = await svc.renderPage(pdf('freeculture.pdf'), 4, { dimension });
      expect(imageSize(next.bytes).width).toBe(next.width);
      expect(svc.started).toBe(2);
      await svc.renderPage(pdf('freeculture.pdf'), 5, { dimension });
      expect(svc.started).toBe(3);
    } finally {
      await svc.close();
    }
    expect(await nodeThreads()).toBe(before);
  });

  it('replaces a worker whose PDFium memory passed the bound', async () => {
    const svc = new PdfService({ workers: 1, maxWorkerMemoryBytes: 64 * 1024 * 1024 });
    try {
      // a 3200 px render needs more than 64 MiB of PDFium memory: every call retires its worker
      for (const n of [1, 2, 3]) await svc.renderPage(pdf('freeculture.pdf'), n, { dimension });
      expect(svc.started).toBe(3);
      expect((await svc.info(pdf('komga.pdf'))).pageCount).toBe(1);
    } finally {
      await svc.close();
    }
  });
});

describe('PDF single-page extraction', () => {
  it.each([
    ['freeculture.pdf', 10],
    ['two_pages.pdf', 2],
    ['komga.pdf', 1],
  ])('%s page %i → a one-page PDF', async (file, page) => {
    const bytes = await service.extractPage(pdf(file), page);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
  });

  it('refuses encrypted and corrupt files and bad page numbers', async () => {
    await expect(service.extractPage(pdf('secHandler.pdf'), 1)).rejects.toMatchObject({
      kind: 'encrypted',
      code: 'ERR_1005',
    });
    await expect(service.extractPage(pdf('invalid.pdf'), 1)).rejects.toMatchObject({ code: 'ERR_1005' });
    await expect(service.extractPage(pdf('two_pages.pdf'), 3)).rejects.toMatchObject({ kind: 'page-range' });
  });
});

import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { barcodePages, isbnInImage } from '../../src/metadata/barcode-isbn.js';
import { barcodePage, scannedBarcodePage } from './ean13.js';
import { limitMallocArenas, releaseFreedMemory } from '../../src/native-memory.js';
import { settleMemory } from '../support/memory.js';

describe('barcodePages', () => {
  it('tries the last three pages, then the first three, each once', () => {
    expect(barcodePages(10)).toEqual([10, 9, 8, 1, 2, 3]);
    expect(barcodePages(4)).toEqual([4, 3, 2, 1]);
    expect(barcodePages(1)).toEqual([1]);
    expect(barcodePages(0)).toEqual([]);
  });
});

describe('isbnInImage', () => {
  // first: the process's resident memory is measured, and what the other tests free would hide a growth
  // 1600 × 1600 px: 7.3 MiB of RGB pixels a PNG search, made by libvips in the zxing thread; a JPEG's luma plane
  // (2.4 MiB), made by zxing's own decoder in its heap
  it.each(['png', 'jpeg'] as const)(
    'keeps no %s page it searched: the zxing thread lets each one go',
    async (format) => {
      const page = await barcodePage('9780553897845', { width: 1600, height: 1600, module: 6, format });
      expect(await isbnInImage(page, `image/${format}`)).toBe('9780553897845');
      // glibc as the server sets it (main.ts): large blocks (the pages' pixels) mapped alone, given back when freed.
      await limitMallocArenas();
      // What is still alive, not what glibc keeps free in the arenas of libuv's threads (where libvips allocates):
      // the server trims those after its tasks (native-memory.ts); this process has more arenas than it.
      const settle = async () => {
        await settleMemory();
        await releaseFreedMemory();
      };
      await settle();
      const before = process.memoryUsage().rss;
      for (let i = 0; i < 10; i++) await isbnInImage(page, `image/${format}`);
      await settle();
      // When the pages were decoded on the main thread and their grey pixels cloned into the thread, the garbage of
      // each waited for V8's own full collection without a collection after each call: 43–49 MB over these 10
      // searches, 12–15 MB with it. Decoded in the thread, with the server's malloc settings and a trim (issue 18):
      // 0.4–10.7 MB in six runs with the collection, 15.8–25.0 MB in four without it.
      expect((process.memoryUsage().rss - before) / 2 ** 20).toBeLessThan(15);
    },
    60_000,
  );

  // A 2000×3000 back cover scanned at 300 dpi: 6 MP, 18 MB as RGB, 24 MB as RGBA, 6 MB as grey.
  it.each([
    // Decoded to RGBA for zxing-wasm's ImageData, which made a grey copy of it in JavaScript before copying that into
    // zxing's heap, and with each page's RGBA alive until a later call's collection (sharp's promise kept it past
    // the one after its own call), the resident memory rose by 41–58 MB over the idle thread. Turned to grey in
    // zxing's heap from RGB, which is freed before the search (issue 18): 21–23 MB. (A PNG that compresses, as a
    // page does: the page's encoded bytes are copied for the thread too.)
    { format: 'png', mb: 32, page: () => barcodePage('9780553897845', { width: 2000, height: 3000, module: 8 }) },
    // Decoded by zxing's own decoder to its luma plane, in zxing's heap, which the first search grew: 21–22 MB with
    // libvips' RGB, 0.8 MB without (issue 18).
    { format: 'jpeg', mb: 8, page: () => scannedBarcodePage('9780553897845', { module: 4 }) },
  ] as const)(
    'holds at most one decoded copy of a $format page, beside zxing’s heap, while it searches it',
    async ({ format, mb, page: make }) => {
      const page = await make();
      await limitMallocArenas();
      expect(await isbnInImage(page, `image/${format}`)).toBe('9780553897845'); // the thread, zxing and its heap started
      await settleMemory();
      await releaseFreedMemory();
      const before = residentMb();
      let peak = before;
      // the main thread only waits for the zxing thread meanwhile: sampled every millisecond or so
      const sampler = setInterval(() => (peak = Math.max(peak, residentMb())), 1);
      try {
        for (let i = 0; i < 4; i++) expect(await isbnInImage(page, `image/${format}`)).toBe('9780553897845');
      } finally {
        clearInterval(sampler);
      }
      expect(peak - before).toBeLessThan(mb);
    },
    60_000,
  );

  it('reads the ISBN of an EAN-13 barcode on a page, in every page format', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const page = await barcodePage('9780553897845', { format });
      expect({ format, isbn: await isbnInImage(page, `image/${format}`) }).toEqual({ format, isbn: '9780553897845' });
    }
  });

  it("reads a BMP page, which libvips cannot decode, with zxing's own decoder", async () => {
    const page = await barcodePage('9780553897845', { format: 'png' });
    const { data, info } = await sharp(page)
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(await isbnInImage(bmp(data, info.width, info.height), 'image/bmp')).toBe('9780553897845');
  });

  it('reads a 979 ISBN and a barcode on a page too large to decode as is', async () => {
    expect(await isbnInImage(await barcodePage('9791032305690'), 'image/png')).toBe('9791032305690');
    const big = await barcodePage('9780553897845', { width: 3600, height: 5400, module: 12, format: 'jpeg' });
    expect(await isbnInImage(big, 'image/jpeg')).toBe('9780553897845');
  });

  it('ignores EAN-13 barcodes that are not ISBNs, and pages without a barcode', async () => {
    expect(await isbnInImage(await barcodePage('4006381333931'), 'image/png')).toBeNull();
    expect(await isbnInImage(await plain(), 'image/png')).toBeNull();
  });

  it("reads a JPEG that zxing's decoder cannot, and survives one that nothing can", async () => {
    // what stb_image cannot read goes to libvips (arithmetic-coded or 12-bit JPEGs, which sharp cannot write; here
    // WebP bytes under a JPEG's type)
    const webp = await barcodePage('9780553897845', { format: 'webp' });
    expect(await isbnInImage(webp, 'image/jpeg')).toBe('9780553897845');
    const page = await barcodePage('9780553897845', { format: 'jpeg' });
    // a valid header over garbage: each decoder gives up or draws noise, and the thread answers the next page
    const sos = page.indexOf(Buffer.from([0xff, 0xda]));
    const garbage = Buffer.concat([page.subarray(0, sos + 20), Buffer.alloc(page.length - sos - 20, 0x5a)]);
    await expect(isbnInImage(garbage, 'image/jpeg').catch(() => 'refused')).resolves.not.toMatch(/^97/);
    expect(await isbnInImage(page, 'image/jpeg')).toBe('9780553897845');
  });
});

describe('isbnInImage on scanned back covers', () => {
  // A comic's back cover scanned at 300 dpi is ~2000×3000 px, and its EAN-13 (37 mm, 95 modules) ~4 px a module;
  // scanned at 200–240 dpi, or printed at 80 %, ~2.5 px. Brought down to a 1600 px edge, the 2.5 px modules were
  // 1.33 px and zxing lost them (issue 18).
  it.each([4, 2.5])('reads an EAN-13 of %s px a module on a noisy 2000×3000 scan', async (module) => {
    const page = await scannedBarcodePage('9780553897845', { module });
    expect(await isbnInImage(page, 'image/jpeg')).toBe('9780553897845');
  });

  it('reads one printed a quarter turn or a few degrees off', async () => {
    for (const rotate of [90, 5]) {
      const page = await scannedBarcodePage('9791032305690', { module: 4, rotate });
      expect({ rotate, isbn: await isbnInImage(page, 'image/jpeg') }).toEqual({ rotate, isbn: '9791032305690' });
    }
  });
});

describe('isbnInImage, what a page costs', () => {
  it('searches a page without a barcode for little more than the decoding of it costs', async () => {
    // bench:scan's page: 1600×2400 of gaussian noise at JPEG quality 80, which decodes like a scan
    const page = await sharp({
      create: {
        width: 1600,
        height: 2400,
        channels: 3,
        background: '#8a5a3c',
        noise: { type: 'gaussian', mean: 128, sigma: 8 },
      },
    })
      .jpeg({ quality: 80 })
      .toBuffer();
    const decode = () => sharp(page).raw().toBuffer();
    expect(await isbnInImage(page, 'image/jpeg')).toBeNull();
    await decode();
    // CPU time of the whole process (the worker thread's and libvips' threads' too), alternated, so that the
    // machine's other load weighs on both alike
    let searching = 0;
    let decoding = 0;
    for (let i = 0; i < 6; i++) {
      let start = process.cpuUsage();
      await isbnInImage(page, 'image/jpeg');
      searching += cpuMs(process.cpuUsage(start));
      start = process.cpuUsage();
      await decode();
      decoding += cpuMs(process.cpuUsage(start));
    }
    // Decoded by libvips to grey at a 1600 px edge (a resize, then a grey in floating point) and searched inverted
    // too, a page took 5.5 times its plain decode; decoded whole to RGBA in the zxing thread and not searched
    // inverted, as Komga searches it, 1.8–2.6 times on this 2-core machine at a load average of 7–8 (issue 18).
    expect(searching / decoding).toBeLessThan(3.5);
  }, 60_000);
});

/** A 24-bit BMP of RGB pixels: rows bottom-up, BGR, each padded to four bytes. */
function bmp(rgb: Buffer, width: number, height: number): Buffer {
  const row = Math.ceil((width * 3) / 4) * 4;
  const out = Buffer.alloc(54 + row * height);
  out.write('BM', 0);
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(row * height, 34);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 3;
      const to = 54 + (height - 1 - y) * row + x * 3;
      out[to] = rgb[from + 2]!;
      out[to + 1] = rgb[from + 1]!;
      out[to + 2] = rgb[from]!;
    }
  return out;
}

function residentMb(): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
}

function cpuMs({ user, system }: NodeJS.CpuUsage): number {
  return (user + system) / 1000;
}

function plain(): Promise<Buffer> {
  return sharp({ create: { width: 300, height: 400, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
}

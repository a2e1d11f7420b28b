import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { barcodePages, isbnInImage } from '../../src/metadata/barcode-isbn.js';
import { barcodePage } from './ean13.js';
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
  it('keeps no page it searched: the zxing thread lets each one go', async () => {
    // 1600 × 1600 px: 2.4 MiB of grey pixels a search
    const page = await barcodePage('9780553897845', { width: 1600, height: 1600, module: 6, format: 'jpeg' });
    expect(await isbnInImage(page, 'image/jpeg')).toBe('9780553897845');
    await settleMemory();
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 10; i++) await isbnInImage(page, 'image/jpeg');
    await settleMemory();
    // Without a collection after each call the thread's garbage (each page's pixels, zxing's copies of them) waits
    // for V8's own full collection: 43–49 MB measured over these 10 searches; 12–15 MB with it. (20 searches with a
    // limit of 32 MB measured 22 MB, and 32.5 once in a loaded CI run: too close.)
    expect((process.memoryUsage().rss - before) / 2 ** 20).toBeLessThan(30);
  }, 60_000);

  it('reads the ISBN of an EAN-13 barcode on a page, in every page format', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const page = await barcodePage('9780553897845', { format });
      expect({ format, isbn: await isbnInImage(page, `image/${format}`) }).toEqual({ format, isbn: '9780553897845' });
    }
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
});

function plain(): Promise<Buffer> {
  return sharp({ create: { width: 300, height: 400, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
}

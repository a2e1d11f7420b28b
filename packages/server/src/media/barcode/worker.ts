/**
 * Barcode worker thread: sharp (libvips) decodes a page to pixels and zxing-wasm (ZXing's C++ port) finds EAN-13
 * symbols in them, trying harder as Komga does. Both run here, tens of milliseconds a page, so that the event loop
 * never waits on them and the pixels (megabytes a page) are garbage in this thread only, collected after each call.
 * The pool ends the thread when idle, which gives the WebAssembly heap (it never shrinks) back.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { ReaderOptions } from 'zxing-wasm/reader';
import { loadSharp } from '../sharp.js';
import { collectAfterThisCall, serve } from '../worker-thread.js';
import type { BarcodeRequest, BarcodeResponse } from './protocol.js';

type ZXingReader = typeof import('zxing-wasm/reader');
let reader: Promise<ZXingReader> | undefined;

/** Loaded once per thread, with the WebAssembly binary read from the package (never fetched from a CDN). */
function zxing(): Promise<ZXingReader> {
  reader ??= (async () => {
    const mod = await import('zxing-wasm/reader');
    const path = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
    const bytes = await readFile(path);
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await mod.prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
    return mod;
  })();
  return reader;
}

/**
 * Komga's reader is Java ZXing with TRY_HARDER, which for EAN-13 scans more rows and the image turned 90° (kept:
 * `tryRotate`). zxing-cpp's defaults also search the image inverted (white bars on black, which Java reads only
 * with ALSO_INVERTED, not set): off, as in the reference; it redid the whole search on every page without a
 * barcode, 10–30 % of zxing's time a page (issue 18). They also search downscaled copies (a pyramid at a third of
 * the size), kept although Java has none: it read a barcode of 12–14 px a module under heavy noise and blur that
 * the plain search missed, for ~4 ms of a 1600×2400 page.
 */
const OPTIONS: ReaderOptions = {
  formats: ['EAN13'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: false,
  tryDownscale: true,
  maxNumberOfSymbols: 4,
};

/**
 * The page as RGBA, which zxing-wasm takes as ImageData and turns to grey with Java ZXing's own weights. libvips'
 * grey (`greyscale()`) goes through linear light in floating point: it cost more than the decode itself (36 against
 * 15 ms for a 1600×2400 JPEG), and with a resize before it, three times the decode (issue 18). Alpha is flattened
 * on white, then set opaque.
 */
async function rgba(req: BarcodeRequest): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const sharp = await loadSharp();
  const input = { failOn: 'none', animated: false, limitInputPixels: req.limitInputPixels } as const;
  const { width = 0, height = 0 } = req.size ?? (await sharp(req.image, input).metadata());
  let pipeline = sharp(req.image, input);
  if (width * height > req.maxPixels) {
    const scale = Math.sqrt(req.maxPixels / (width * height));
    pipeline = pipeline.resize(Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(height * scale)), {
      fit: 'inside',
    });
  }
  const { data, info } = await pipeline
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .ensureAlpha(1)
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`${info.channels} channels where four were asked for`);
  return {
    data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

export default serve<BarcodeRequest, BarcodeResponse>(async (req) => {
  try {
    const { readBarcodes } = await zxing();
    let input: Parameters<typeof readBarcodes>[0];
    try {
      input = (await rgba(req)) as unknown as Parameters<typeof readBarcodes>[0];
    } catch (e) {
      if (!req.zxingDecodes) throw e;
      input = req.image; // what libvips cannot read (BMP): zxing's own decoder
    }
    const results = await readBarcodes(input, OPTIONS);
    return { ok: true, ean13: results.filter((r) => r.isValid).map((r) => r.text) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  } finally {
    // the page's pixels and zxing's grey copy of them: garbage after this call
    collectAfterThisCall();
  }
});

/**
 * Barcode worker thread: zxing-wasm (ZXing's C++ port) finds EAN-13 symbols in the pixels it is given (or decodes
 * the image itself), trying harder as Komga does. Detection are synchronous WebAssembly, tens of milliseconds a page: they run here so
 * that the event loop never waits on them. The pool ends the thread when idle, which gives the WebAssembly
 * heap (it never shrinks) back.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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

/** Reused from page to page: one page's RGBA copy is ~7 MB, and a fresh one per page piled up between GCs. */
let rgba = new Uint8ClampedArray(0);

/**
 * zxing-wasm takes anything shaped like ImageData ({ data, width, height }, RGBA) as pixels, and turns it back to
 * grey itself; the grey pixels cross the thread boundary (a quarter of the bytes) and are spread out here.
 */
function rgbaOf(grey: { data: Uint8Array; width: number; height: number }) {
  const n = grey.width * grey.height;
  if (rgba.length < n * 4) rgba = new Uint8ClampedArray(n * 4);
  for (let i = 0, j = 0; i < n; i++, j += 4) {
    const v = grey.data[i]!;
    rgba[j] = v;
    rgba[j + 1] = v;
    rgba[j + 2] = v;
    rgba[j + 3] = 255;
  }
  return { data: rgba.subarray(0, n * 4), width: grey.width, height: grey.height };
}

export default serve<BarcodeRequest, BarcodeResponse>(async (req) => {
  try {
    const { readBarcodes } = await zxing();
    const input = 'grey' in req ? rgbaOf(req.grey) : req.image;
    const results = await readBarcodes(input as Parameters<typeof readBarcodes>[0], {
      formats: ['EAN13'],
      tryHarder: true,
      maxNumberOfSymbols: 4,
    });
    return { ok: true, ean13: results.filter((r) => r.isValid).map((r) => r.text) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  } finally {
    // the page's pixels (a view of the caller's shared buffer) or image bytes (a copy): garbage after this call
    collectAfterThisCall();
  }
});

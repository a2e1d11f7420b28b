/**
 * Barcode worker thread: zxing-wasm (ZXing's C++ port) decodes the image and finds EAN-13 symbols, trying harder
 * as Komga does. Decoding and detection are synchronous WebAssembly, tens of milliseconds a page: they run here so
 * that the event loop never waits on them. The pool ends the thread when idle, which gives the WebAssembly
 * heap (it never shrinks) back.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { serve } from '../worker-thread.js';
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

export default serve<BarcodeRequest, BarcodeResponse>(async (req) => {
  try {
    const { readBarcodes } = await zxing();
    const results = await readBarcodes(req.image, { formats: ['EAN13'], tryHarder: true, maxNumberOfSymbols: 4 });
    return { ok: true, ean13: results.filter((r) => r.isValid).map((r) => r.text) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
});

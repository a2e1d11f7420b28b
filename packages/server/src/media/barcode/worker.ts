/**
 * Barcode worker thread: zxing-wasm (ZXing's C++ port) finds EAN-13 symbols in a page, trying harder as Komga does,
 * decoded by its own decoder (a JPEG) or by sharp (libvips), as the caller asks. Both run here, tens of milliseconds
 * a page, so that the event loop never waits on them and the pixels (megabytes a page) are this thread's only, freed
 * before the search.
 * The pool ends the thread when idle, which gives the WebAssembly heap (it never shrinks) back.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import {
  BINARIZERS,
  CHARACTER_SETS,
  defaultReaderOptions,
  EAN_ADD_ON_SYMBOLS,
  encodeFormats,
  prepareZXingModule,
  TEXT_MODES,
  type ReaderOptions,
  type ZXingReaderModule,
  type ZXingReaderOptions,
  type ZXingReadResult,
  type ZXingVector,
} from 'zxing-wasm/reader';
import { loadSharp } from '../sharp.js';
import { collectAfterThisCall, collectNow, serve } from '../worker-thread.js';
import type { BarcodeRequest, BarcodeResponse } from './protocol.js';

/** With the Emscripten members zxing-wasm's types take from @types/emscripten, which is not a dependency here. */
type ZXingModule = ZXingReaderModule & {
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(at: number): void;
};
let reader: Promise<ZXingModule> | undefined;

/** Loaded once per thread, with the WebAssembly binary read from the package (never fetched from a CDN). */
function zxing(): Promise<ZXingModule> {
  reader ??= (async () => {
    const path = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
    const bytes = await readFile(path);
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return (await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true })) as ZXingModule;
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
 * The same options as the module's own entry points encode them for `readBarcodesFromPixmap`, which takes grey
 * pixels already in the WebAssembly heap (zxing-wasm 3.1's `readBarcodes` takes RGBA and makes the grey itself, in
 * a JavaScript array copied into the heap after).
 */
const PIXMAP_OPTIONS: ZXingReaderOptions = (() => {
  const o = { ...defaultReaderOptions, ...OPTIONS };
  return {
    ...o,
    formats: encodeFormats(o.formats),
    binarizer: BINARIZERS.indexOf(o.binarizer),
    eanAddOnSymbol: EAN_ADD_ON_SYMBOLS.indexOf(o.eanAddOnSymbol),
    textMode: TEXT_MODES.indexOf(o.textMode),
    characterSet: CHARACTER_SETS.indexOf(o.characterSet),
  };
})();

/**
 * The page's grey pixels, written straight into zxing's WebAssembly heap: libvips decodes it to RGB and the grey is
 * made here with Java ZXing's own weights (Komga's luminance), which zxing-wasm's ImageData path uses too. libvips'
 * grey (`greyscale()`) goes through linear light in floating point: it cost more than the decode itself (36 against
 * 15 ms for a 1600×2400 JPEG), and a `recomb` to one band 52 ms. RGB, not the RGBA zxing-wasm's ImageData wants, and
 * no JavaScript copy of the grey: a 2000×3000 page held 24 MB of RGBA, 6 MB of grey and the heap's 6 MB at once,
 * now 18 MB of RGB and the heap's (issue 18). Alpha is flattened on white. Returns the heap address, to be freed.
 */
async function greyInHeap(
  zx: ZXingModule,
  req: BarcodeRequest,
): Promise<{ at: number; width: number; height: number }> {
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
  // sharp's callback, not its promise: the RGB is turned to grey and dropped within the callback, where a promise
  // resolved with it kept it reachable beyond the next young-generation collections (issue 18)
  return new Promise((resolve, reject) => {
    pipeline
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer((err, rgb, info) => {
        if (err) return reject(err);
        if (info.channels !== 3) return reject(new Error(`${info.channels} channels where three were asked for`));
        const pixels = info.width * info.height;
        const at = zx._malloc(pixels);
        if (!at) return reject(new Error(`zxing's heap has no room for ${pixels} bytes`));
        // the view after the allocation: growing the heap replaces HEAPU8
        const grey = zx.HEAPU8.subarray(at, at + pixels);
        for (let i = 0, j = 0; i < pixels; i++, j += 3)
          grey[i] = (306 * rgb[j]! + 601 * rgb[j + 1]! + 117 * rgb[j + 2]! + 512) >> 10;
        resolve({ at, width: info.width, height: info.height });
      });
  });
}

/**
 * zxing's own decoder (stb_image), in its heap: the encoded bytes copied there and decoded to grey, which for a JPEG
 * is its luma plane as stored (Java ZXing's luminance, with no colour conversion, chroma upsampling or RGB copy).
 * Throws when it cannot load the image: with errors not asked for, its one invalid result is that failure.
 */
function readEncoded(zx: ZXingModule, image: Uint8Array): ZXingVector<ZXingReadResult> {
  const at = zx._malloc(image.length);
  if (!at) throw new Error(`zxing's heap has no room for ${image.length} bytes`);
  try {
    zx.HEAPU8.set(image, at);
    const results = zx.readBarcodesFromImage(at, image.length, PIXMAP_OPTIONS);
    const first = results.size() === 1 ? results.get(0) : undefined;
    if (first && !first.isValid && first.error) throw new Error("zxing's decoder could not read the image");
    return results;
  } finally {
    zx._free(at);
  }
}

/** libvips' decoder: the page made grey in zxing's heap, then searched there. */
async function readDecoded(zx: ZXingModule, req: BarcodeRequest): Promise<ZXingVector<ZXingReadResult>> {
  const grey = await greyInHeap(zx, req);
  try {
    // the page's RGB, copied into zxing's heap as grey: freed before the search, not beside it
    await collectNow();
    return zx.readBarcodesFromPixmap(grey.at, grey.width, grey.height, PIXMAP_OPTIONS);
  } finally {
    zx._free(grey.at);
  }
}

/** The page searched with each of the request's decoders in turn until one reads it; the last failure otherwise. */
async function search(zx: ZXingModule, req: BarcodeRequest): Promise<ZXingVector<ZXingReadResult>> {
  let failure: unknown = new Error('No decoder was asked for');
  for (const decoder of req.decoders) {
    try {
      return decoder === 'zxing' ? readEncoded(zx, req.image) : await readDecoded(zx, req);
    } catch (e) {
      failure = e;
    }
  }
  throw failure;
}

export default serve<BarcodeRequest, BarcodeResponse>(async (req) => {
  try {
    const results = await search(await zxing(), req);
    const ean13: string[] = [];
    for (let i = 0; i < results.size(); i++) {
      const r = results.get(i);
      if (r?.isValid) ean13.push(r.text);
    }
    return { ok: true, ean13 };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  } finally {
    // the page's pixels: garbage after this call
    collectAfterThisCall();
  }
});

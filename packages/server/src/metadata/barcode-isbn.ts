import { readEan13 } from '../media/barcode/index.js';
import { decodeToGrey, UnsupportedImageError } from '../media/images.js';
import { SpareBuffers } from '../media/spare-buffers.js';
import { isIsbn13 } from './validation.js';

/**
 * ISBN from a barcode printed on a page (engine.md §6.7): EAN-13 symbols read with zxing-wasm in a worker thread
 * (media/barcode), trying harder as Komga does; the first one that is a valid ISBN wins.
 */

/** Pages to try, 1-based: the last three, then the first three (distinct, within the book). */
export function barcodePages(pageCount: number): number[] {
  const candidates = [pageCount, pageCount - 1, pageCount - 2, 1, 2, 3];
  return [...new Set(candidates.filter((n) => n >= 1 && n <= pageCount))];
}

/** Image types zxing-wasm decodes itself: what is left to it when sharp cannot decode a page (BMP). */
const DECODABLE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp']);
/**
 * Longest edge the decoder looks at. An EAN-13 symbol printed on a back cover (37 mm, 95 modules) scanned at
 * 300 dpi is ~4 px a module on a ~2000×3000 px page, still 2 px a module at 1600 px, which zxing reads. Detection
 * time grows faster than the pixels (tryHarder): a 1600×2400 page took 190 ms in zxing's own decoder and
 * detection, ~80 ms decoded by sharp (libjpeg-turbo) and looked at as 1067×1600 pixels (issue 18). The decoded
 * image lives in the worker's WebAssembly heap, which only shrinks when the idle worker ends: a smaller image is
 * also less memory left behind.
 */
export const BARCODE_EDGE = 1600;

/**
 * What a page's grey pixels are handed to the zxing thread in (a 1067×1600 page is 1.7 MB): shared, so that the
 * thread reads them where they are, and reused. Cloned into the thread, every page was garbage on both sides until a
 * full collection: each thread held tens of megabytes of past pages during an import (issue 18). One per task runner
 * on a machine of two cores.
 */
const greyBuffers = new SpareBuffers(2, 4 * 1024 * 1024, true);

/** EAN-13 symbols in grey pixels, handed over in a shared buffer (sharp's is garbage while it is still young). */
async function readEan13InGrey(grey: { data: Uint8Array; width: number; height: number }): Promise<string[]> {
  const shared = greyBuffers.take(grey.data.length);
  try {
    shared.set(grey.data);
    return await readEan13({ grey: { ...grey, data: shared.subarray(0, grey.data.length) } });
  } finally {
    greyBuffers.giveBack(shared);
  }
}

/**
 * The ISBN-13 of the first EAN-13 barcode of the image that is a valid ISBN, or null. Throws when the image
 * cannot be read at all.
 */
export async function isbnInImage(bytes: Uint8Array, mediaType: string): Promise<string | null> {
  let codes: string[];
  try {
    codes = await readEan13InGrey(await decodeToGrey(bytes, BARCODE_EDGE));
  } catch (e) {
    if (!(e instanceof UnsupportedImageError) || !DECODABLE.has(mediaType.toLowerCase())) throw e;
    codes = await readEan13({ image: bytes });
  }
  for (const code of codes) if (isIsbn13(code)) return code;
  return null;
}

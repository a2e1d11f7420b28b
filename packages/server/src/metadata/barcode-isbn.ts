import { readEan13 } from '../media/barcode/index.js';
import type { BarcodeRequest } from '../media/barcode/protocol.js';
import { imageDimensions } from '../media/images.js';
import { checkImagePixels, mediaLimits } from '../media/limits.js';
import { SpareBuffers } from '../media/spare-buffers.js';
import { isIsbn13 } from './validation.js';

/**
 * ISBN from a barcode printed on a page (engine.md §6.7): the page decoded by sharp and its EAN-13 symbols read
 * with zxing-wasm, both in a worker thread (media/barcode), trying harder as Komga does; the first one that is a
 * valid ISBN wins.
 */

/** Pages to try, 1-based: the last three, then the first three (distinct, within the book). */
export function barcodePages(pageCount: number): number[] {
  const candidates = [pageCount, pageCount - 1, pageCount - 2, 1, 2, 3];
  return [...new Set(candidates.filter((n) => n >= 1 && n <= pageCount))];
}

/** Image types zxing-wasm decodes itself: what is left to it when sharp cannot decode a page (BMP). */
const DECODABLE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp']);

/**
 * Pixels the decoder looks at, at most: a page scanned at 300 dpi (a comic's 1988×3075, 2000×3000) is searched
 * whole, as Komga searches every page, and a larger one is brought down to this many. An EAN-13 symbol printed on
 * a back cover (37 mm, 95 modules) is ~4 px a module at 300 dpi, ~2.5 px at 200–240 dpi or printed at 80 %; zxing
 * read such symbols on noisy scan-like pages down to ~1.7 px a module, not at 1.33 (issue 18). The 1600 px edge this
 * replaced brought a 2000×3000 page's 2.5 px modules to 1.33 px and lost them, and an A4 page's 4 px ones to 1.8 px
 * (read on some pages, not others). Decoding whole costs less than resizing: libvips decoded a 2000×3000 JPEG to
 * RGBA and zxing searched it in ~43 ms, where the same page brought down to 4 MP took ~59 ms.
 */
export const BARCODE_MAX_PIXELS = 6_500_000;

/**
 * What a page's encoded bytes are handed to the zxing thread in: shared, so that the thread reads them where they
 * are (a page read from a ZIP is lent by the reader, valid only until the search is done), and reused. One per task
 * runner on a machine of two cores; the pixels themselves are made and dropped in the thread.
 */
const pageBuffers = new SpareBuffers(2, 4 * 1024 * 1024, { shared: true });

/**
 * Who decodes the page. A JPEG within {@link BARCODE_MAX_PIXELS}: zxing's own decoder, which gives it its luma plane
 * as stored, where libvips made an RGB copy to be turned to grey (11.5 MB for a 1600×2400 page, 18 MB for
 * 2000×3000) for the same CPU time (issue 18); libvips after it, for what it cannot read (arithmetic coding, 12-bit).
 * Any other page: libvips, which brings a larger one down and flattens transparency on white; zxing after it for
 * what libvips cannot read (BMP). zxing's decoder has no pixel limit: only for images whose header was checked.
 */
function decoders(mediaType: string, size: { width: number; height: number } | null): BarcodeRequest['decoders'] {
  if (!size || !DECODABLE.has(mediaType)) return ['libvips'];
  if (mediaType === 'image/jpeg' && size.width * size.height <= BARCODE_MAX_PIXELS) return ['zxing', 'libvips'];
  return ['libvips', 'zxing'];
}

/**
 * The ISBN-13 of the first EAN-13 barcode of the image that is a valid ISBN, or null. Throws when the image
 * cannot be read at all, or when its header declares more pixels than the media limits allow.
 */
export async function isbnInImage(bytes: Uint8Array, mediaType: string): Promise<string | null> {
  const size = imageDimensions(bytes);
  if (size) checkImagePixels(size.width, size.height);
  const shared = pageBuffers.take(bytes.length);
  let codes: string[];
  try {
    shared.set(bytes);
    // No decode slot (media/limits.ts): the one zxing thread decodes one page at a time, of a bounded size, and
    // the slots are left to what a reader waits for (pages, posters).
    codes = await readEan13({
      image: shared.subarray(0, bytes.length),
      size,
      maxPixels: BARCODE_MAX_PIXELS,
      limitInputPixels: mediaLimits().maxImagePixels,
      decoders: decoders(mediaType.toLowerCase(), size),
    });
  } finally {
    pageBuffers.giveBack(shared);
  }
  for (const code of codes) if (isIsbn13(code)) return code;
  return null;
}

import { readEan13 } from '../media/barcode/index.js';
import { convertImage, imageDimensions, resizeToJpeg } from '../media/images.js';
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

/** Image types zxing-wasm decodes itself; others are converted to PNG first. */
const DECODABLE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp']);
/**
 * Longest edge handed to the decoder. A decoded image lives in the worker's WebAssembly heap, which only shrinks
 * when the idle worker ends: a 3000 px page costs ~36 MB, a 6000 px one ~140 MB. A back-cover barcode stays
 * readable at 3000 px.
 */
const MAX_EDGE = 3000;

/** The image as the decoder wants it: a type it reads, no larger than {@link MAX_EDGE}. */
async function decodable(bytes: Uint8Array, mediaType: string): Promise<Uint8Array> {
  const size = imageDimensions(bytes);
  if (size && Math.max(size.width, size.height) > MAX_EDGE) return (await resizeToJpeg(bytes, MAX_EDGE)).bytes;
  if (DECODABLE.has(mediaType.toLowerCase())) return bytes;
  return (await convertImage(bytes, 'png', mediaType))?.bytes ?? bytes;
}

/**
 * The ISBN-13 of the first EAN-13 barcode of the image that is a valid ISBN, or null. Throws when the image
 * cannot be read at all.
 */
export async function isbnInImage(bytes: Uint8Array, mediaType: string): Promise<string | null> {
  const input = await decodable(bytes, mediaType);
  for (const code of await readEan13(input)) if (isIsbn13(code)) return code;
  return null;
}

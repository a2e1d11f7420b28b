import { imageSize } from 'image-size';
import { loadSharp } from './sharp.js';

/**
 * Whether a page image can be served and shown: its header gives a format and a size, read by image-size or, for
 * formats it does not parse, by libvips (sharp's `metadata()`). Header only: no pixel is decoded. Analysis asks
 * this of every page (issue 11: fuzzed books were READY with pages that could not be read).
 */
export async function imageHeaderReadable(bytes: Uint8Array): Promise<boolean> {
  try {
    const { width, height } = imageSize(bytes);
    if (width && height) return true;
  } catch {
    // not a format image-size knows, or a damaged header: ask libvips
  }
  try {
    const sharp = await loadSharp();
    const { width, height } = await sharp(bytes, { failOn: 'none', limitInputPixels: false }).metadata();
    return Boolean(width && height);
  } catch {
    return false;
  }
}

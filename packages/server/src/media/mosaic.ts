import type { EncodedImage } from './images.js';
import { checkImagePixels, decodeSlots, mediaLimits } from './limits.js';
import { loadSharp } from './sharp.js';

/**
 * A 2×2 poster mosaic (engine.md §7.3): a black `width`×`height` canvas, each tile fitted into its quadrant
 * (never upscaled past it, aspect ratio kept) and drawn at the quadrant's top-left corner, in reading order
 * (top-left, top-right, bottom-left, bottom-right). Tiles that cannot be decoded are skipped and the next ones
 * move up. JPEG out.
 */
export async function composeMosaic(
  tiles: readonly Uint8Array[],
  canvas: { width: number; height: number },
): Promise<EncodedImage> {
  const sharp = await loadSharp();
  return decodeSlots.run(async () => {
    const qw = Math.floor(canvas.width / 2);
    const qh = Math.floor(canvas.height / 2);
    const fitted: Buffer[] = [];
    for (const tile of tiles) {
      if (fitted.length === 4) break;
      try {
        const limitInputPixels = mediaLimits().maxImagePixels;
        // header only, unchecked: an oversized tile is skipped undecoded
        const { width, height } = await sharp(tile, { failOn: 'none', limitInputPixels: false }).metadata();
        if (width && height) checkImagePixels(width, height);
        const image = sharp(tile, { failOn: 'none', animated: false, limitInputPixels });
        fitted.push(await image.rotate().resize(qw, qh, { fit: 'inside' }).png().toBuffer());
      } catch {
        // an unreadable poster leaves its place to the next one
      }
    }
    const corners = [
      { left: 0, top: 0 },
      { left: qw, top: 0 },
      { left: 0, top: qh },
      { left: qw, top: qh },
    ];
    const bytes = await sharp({
      create: { width: canvas.width, height: canvas.height, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .composite(fitted.map((input, i) => ({ input, ...corners[i]! })))
      .jpeg({ quality: 85 })
      .toBuffer();
    return { bytes, mediaType: 'image/jpeg', width: canvas.width, height: canvas.height };
  });
}

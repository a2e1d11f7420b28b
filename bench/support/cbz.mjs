// Shared by the benchmarks: real JPEG pages (sharp); the ZIP writer is the tests' own
// (packages/server/test/support/zip-writer.mjs), re-exported here.
import sharp from 'sharp';
import { crc32 } from '../../packages/server/test/support/zip-writer.mjs';

export { crc32, writeZip, zipBuffer, zipParts } from '../../packages/server/test/support/zip-writer.mjs';

/**
 * A real JPEG page: `seed` changes its colours (and so its bytes). With `noise` (0–255, default 0) the
 * page is gaussian noise tinted by the seed, which compresses like a scanned page; without it a flat
 * colour (tiny files).
 * @param {number} seed
 */
export async function makeJpegPage(seed, { width = 1000, height = 1500, quality = 80, noise = 0 } = {}) {
  const background = { r: (seed * 67) % 256, g: (seed * 131) % 256, b: (seed * 199) % 256 };
  let img = sharp({
    create: {
      width,
      height,
      channels: 3,
      background,
      ...(noise > 0 ? { noise: { type: 'gaussian', mean: 128, sigma: noise } } : {}),
    },
  });
  if (noise > 0) img = img.tint(background);
  return img.jpeg({ quality }).toBuffer();
}

/**
 * `count` distinct JPEG pages made in parallel, each with its CRC: `[{ data, crc }]`.
 * @param {number} count
 * @param {Parameters<typeof makeJpegPage>[1]} [opts]
 */
export async function makeJpegPages(count, opts = {}) {
  const pages = await Promise.all(Array.from({ length: count }, (_, i) => makeJpegPage(i + 1, opts)));
  return pages.map((data) => ({ data, crc: crc32(data) }));
}

import sharp from 'sharp';

/**
 * EAN-13 barcodes drawn pixel by pixel (GS1 General Specifications, symbol structure), so that barcode
 * reading is tested on real images without a barcode-writing library.
 */
const L = [
  '0001101',
  '0011001',
  '0010011',
  '0111101',
  '0100011',
  '0110001',
  '0101111',
  '0111011',
  '0110111',
  '0001011',
];
const invert = (bits: string) => [...bits].map((b) => (b === '0' ? '1' : '0')).join('');
const G = L.map((p) => [...invert(p)].reverse().join(''));
const R = L.map(invert);
/** Left-half encodings chosen by the first digit. */
const PARITY = ['LLLLLL', 'LLGLGG', 'LLGGLG', 'LLGGGL', 'LGLLGG', 'LGGLLG', 'LGGGLL', 'LGLGLG', 'LGLGGL', 'LGGLGL'];

export function ean13Modules(code: string): string {
  const d = [...code].map(Number);
  let bits = '101';
  for (let i = 1; i < 7; i++) bits += PARITY[d[0]!]![i - 1] === 'L' ? L[d[i]!] : G[d[i]!];
  bits += '01010';
  for (let i = 7; i < 13; i++) bits += R[d[i]!];
  return `${bits}101`;
}

/**
 * A page (white, `width` × `height`) with the barcode of `code` near its bottom, as PNG, JPEG or WebP.
 * `module` is the width of one bar module in pixels.
 */
export async function barcodePage(
  code: string,
  opts: { width?: number; height?: number; module?: number; format?: 'png' | 'jpeg' | 'webp' } = {},
): Promise<Buffer> {
  const width = opts.width ?? 600;
  const height = opts.height ?? 900;
  const module = opts.module ?? 3;
  const bits = ean13Modules(code);
  const barWidth = bits.length * module;
  const barHeight = 120;
  const left = Math.floor((width - barWidth) / 2);
  const top = height - barHeight - 80;
  const pixels = Buffer.alloc(width * height, 255);
  for (let y = top; y < top + barHeight; y++)
    for (let i = 0; i < bits.length; i++)
      if (bits[i] === '1') for (let k = 0; k < module; k++) pixels[y * width + left + i * module + k] = 0;
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .toFormat(opts.format ?? 'png')
    .toBuffer();
}

/** A seeded generator (mulberry32), so that a noisy page is the same page at every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A back cover as a scanner gives it: `width` × `height` of noisy colour (gaussian, as bench:scan's pages), and
 * the barcode of `code` on a light label in its lower right part, `module` pixels a module (fractions drawn as the
 * grey a scanner's sensor would see), turned by `rotate` degrees, with sensor noise over the label, a slight blur
 * and JPEG at quality 85.
 */
export async function scannedBarcodePage(
  code: string,
  opts: { width?: number; height?: number; module: number; rotate?: number; seed?: number },
): Promise<Buffer> {
  const width = opts.width ?? 2000;
  const height = opts.height ?? 3000;
  const { module } = opts;
  const next = random(opts.seed ?? 18);
  const bits = ean13Modules(code);
  const barWidth = Math.round(bits.length * module);
  const barHeight = Math.round(barWidth * 0.7);
  const quiet = Math.round(12 * module);
  const labelWidth = barWidth + 2 * quiet;
  const labelHeight = barHeight + 2 * quiet;
  const paper = 240;
  const ink = 30;
  const label = Buffer.alloc(labelWidth * labelHeight);
  for (let y = 0; y < labelHeight; y++)
    for (let x = 0; x < labelWidth; x++) {
      let dark = 0;
      const bx = x - quiet;
      if (y >= quiet && y < quiet + barHeight && bx >= 0 && bx < barWidth) {
        // the share of this pixel that falls on dark modules
        const from = bx / module;
        const to = (bx + 1) / module;
        for (let m = Math.floor(from); m < Math.ceil(to) && m < bits.length; m++)
          if (bits[m] === '1') dark += Math.min(to, m + 1) - Math.max(from, m);
        dark /= to - from;
      }
      const noise = (next() + next() + next() - 1.5) * 24;
      label[y * labelWidth + x] = Math.max(0, Math.min(255, Math.round(paper + (ink - paper) * dark + noise)));
    }
  const turned = await sharp(label, { raw: { width: labelWidth, height: labelHeight, channels: 1 } })
    .rotate(opts.rotate ?? 0, { background: { r: paper, g: paper, b: paper } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const tint = { r: 120, g: 90, b: 140 };
  const cover = await sharp({
    create: { width, height, channels: 3, background: tint, noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .tint(tint)
    .raw()
    .toBuffer({ resolveWithObject: true });
  // composited first, then blurred (sharp composites last in a pipeline)
  const page = await sharp(cover.data, { raw: cover.info })
    .composite([
      {
        input: turned.data,
        left: Math.round(width * 0.62 - turned.info.width / 2),
        top: Math.round(height * 0.82 - turned.info.height / 2),
      },
    ])
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(page.data, { raw: page.info }).blur(0.8).jpeg({ quality: 85 }).toBuffer();
}

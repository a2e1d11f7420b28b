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

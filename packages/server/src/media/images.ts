import { imageSize } from 'image-size';
import type { Sharp } from 'sharp';
import { checkImagePixels, decodeSlots, ImageTooLargeError, mediaLimits } from './limits.js';
import { loadSharp } from './sharp.js';

export { ImageTooLargeError };

/** Book poster sizes (server setting `thumbnailSize`, api.md §1.9). */
export const THUMBNAIL_SIZES = { DEFAULT: 300, MEDIUM: 600, LARGE: 900, XLARGE: 1200 } as const;
export type ThumbnailSize = keyof typeof THUMBNAIL_SIZES;
/** Page thumbnails (`/pages/{n}/thumbnail`) are 300 px JPEG. */
export const PAGE_THUMBNAIL_EDGE = 300;

export type OutputFormat = 'jpeg' | 'webp' | 'png';
const MEDIA_TYPE: Record<OutputFormat, string> = { jpeg: 'image/jpeg', webp: 'image/webp', png: 'image/png' };

export interface EncodedImage {
  bytes: Buffer;
  mediaType: string;
  width: number;
  height: number;
}

/** The source cannot be decoded (unknown or unsupported format, corrupt data). */
export class UnsupportedImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedImageError';
  }
}

/** Dimensions read from the image header only (no decoding); null when the format is not recognised. */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

function sharpFormat(mediaType: string | null | undefined): string | null {
  switch (mediaType?.toLowerCase()) {
    case 'image/jpeg':
    case 'image/jpg':
      return 'jpeg';
    case 'image/png':
      return 'png';
    case 'image/webp':
      return 'webp';
    default:
      return null;
  }
}

/** `hasAlpha` false: nothing to flatten for JPEG (flatten costs a pass over the pixels). */
async function encode(pipeline: Sharp, format: OutputFormat, quality: number, hasAlpha = true): Promise<EncodedImage> {
  let p = pipeline;
  if (format === 'jpeg') p = (hasAlpha ? p.flatten({ background: '#ffffff' }) : p).jpeg({ quality, mozjpeg: false });
  else if (format === 'webp') p = p.webp({ quality });
  else p = p.png();
  try {
    const { data, info } = await p.toBuffer({ resolveWithObject: true });
    return { bytes: data, mediaType: MEDIA_TYPE[format], width: info.width, height: info.height };
  } catch (e) {
    throw new UnsupportedImageError(`Cannot convert image: ${(e as Error).message}`);
  }
}

/**
 * A decoder for `input`, once its header says it fits the pixel limit (sharp's metadata() reads the header only):
 * a small file declaring 30000×30000 pixels is refused before libvips allocates anything for it, and
 * `limitInputPixels` stops any format whose header sharp could not size up front. `hasAlpha` tells
 * {@link encode} whether a JPEG output needs flattening.
 */
async function open(input: Uint8Array): Promise<{ pipeline: Sharp; hasAlpha: boolean }> {
  const sharp = await loadSharp();
  let meta: { width?: number | undefined; height?: number | undefined; orientation?: number | undefined };
  let hasAlpha: boolean;
  try {
    // the header's own size, unchecked (with the limit, sharp would refuse it without saying how large)
    const header = await sharp(input, { failOn: 'none', limitInputPixels: false }).metadata();
    meta = header;
    // a palette PNG may carry transparency without an alpha channel: flatten it too
    hasAlpha = header.hasAlpha || header.format !== 'jpeg';
  } catch (e) {
    throw new UnsupportedImageError(`Cannot convert image: ${(e as Error).message}`);
  }
  if (meta.width && meta.height) checkImagePixels(meta.width, meta.height);
  const limitInputPixels = mediaLimits().maxImagePixels;
  // First frame of animations. EXIF orientation applied (Thumbnailator does the same), only when the header has
  // one to apply: rotate() turns off libjpeg's shrink-on-load, and a 1600×2400 page then took 56 ms to become a
  // 300 px poster instead of 9 ms (issue 18).
  const pipeline = sharp(input, { failOn: 'none', animated: false, limitInputPixels });
  return { pipeline: meta.orientation && meta.orientation > 1 ? pipeline.rotate() : pipeline, hasAlpha };
}

/**
 * Runs one decode/encode in a decode slot (media/limits.ts): a few at a time per process, each bounded by the
 * pixel limit, so that concurrent requests queue instead of multiplying the memory. `signal` gives up the wait
 * (and the work) when the bytes are no longer wanted.
 */
function decoding<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return decodeSlots.run(fn, signal);
}

/**
 * Resizes to fit a `maxEdge` square keeping the aspect ratio, never upscaling (engine.md §7.1).
 * Output JPEG (default, as Komga) or WebP. As in Komga, a JPEG source whose longest edge already fits
 * is returned unchanged when JPEG output is asked for.
 */
export async function makeThumbnail(
  input: Uint8Array,
  opts: { maxEdge?: number; format?: 'jpeg' | 'webp'; quality?: number; signal?: AbortSignal } = {},
): Promise<EncodedImage> {
  const maxEdge = opts.maxEdge ?? THUMBNAIL_SIZES.DEFAULT;
  const format = opts.format ?? 'jpeg';
  // Only a file about as small as such a thumbnail is kept as it is: a JPEG header of 300×400 px may be
  // followed by a gigabyte (issue 11: a 1 MB ZIP gave a 1 GiB poster); re-encoding keeps only the picture.
  if (format === 'jpeg' && input.length <= maxEdge * maxEdge) {
    try {
      const meta = imageSize(input);
      if (
        meta.type === 'jpg' &&
        meta.width &&
        meta.height &&
        Math.max(meta.width, meta.height) <= maxEdge &&
        !(meta.orientation && meta.orientation > 1)
      ) {
        return { bytes: Buffer.from(input), mediaType: 'image/jpeg', width: meta.width, height: meta.height };
      }
    } catch {
      // not recognised by image-size: let sharp try
    }
  }
  return decoding(async () => {
    const { pipeline, hasAlpha } = await open(input);
    const resized = pipeline.resize(maxEdge, maxEdge, { fit: 'inside', withoutEnlargement: true });
    return encode(resized, format, opts.quality ?? 85, hasAlpha);
  }, opts.signal);
}

/** Page thumbnail: longest edge 300 px, always JPEG. */
export function pageThumbnail(input: Uint8Array, signal?: AbortSignal): Promise<EncodedImage> {
  return makeThumbnail(input, { maxEdge: PAGE_THUMBNAIL_EDGE, format: 'jpeg', ...(signal ? { signal } : {}) });
}

/**
 * `convert=jpeg|png` (engine.md §4.6): no-op when the source already has that type; transparency is
 * flattened on white when converting to JPEG. Returns null for the no-op case.
 */
/** Whether {@link convertImage} would re-encode an image of this type (a conversion to its own format is none). */
export function needsConversion(sourceMediaType: string | null | undefined, to: 'jpeg' | 'png'): boolean {
  return sharpFormat(sourceMediaType) !== to;
}

export async function convertImage(
  input: Uint8Array,
  to: 'jpeg' | 'png',
  sourceMediaType?: string | null,
  signal?: AbortSignal,
): Promise<EncodedImage | null> {
  if (!needsConversion(sourceMediaType, to)) return null;
  return decoding(async () => {
    const { pipeline, hasAlpha } = await open(input);
    return encode(pipeline, to, 90, hasAlpha);
  }, signal);
}

/** Any resize request: re-encoded as JPEG, never upscaled. */
export async function resizeToJpeg(input: Uint8Array, maxEdge: number): Promise<EncodedImage> {
  return decoding(async () => {
    const { pipeline, hasAlpha } = await open(input);
    return encode(pipeline.resize(maxEdge, maxEdge, { fit: 'inside', withoutEnlargement: true }), 'jpeg', 85, hasAlpha);
  });
}

/** Encodes raw pixels (e.g. a rendered PDF page) as JPEG; held to the pixel limit like any decode. */
export async function encodeRawToJpeg(
  data: Uint8Array,
  raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 },
  quality = 90,
): Promise<EncodedImage> {
  checkImagePixels(raw.width, raw.height);
  const sharp = await loadSharp();
  return decoding(async () =>
    encode(sharp(data, { raw, limitInputPixels: mediaLimits().maxImagePixels }), 'jpeg', quality),
  );
}

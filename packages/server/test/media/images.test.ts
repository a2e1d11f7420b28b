import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  convertImage,
  imageDimensions,
  makeThumbnail,
  pageThumbnail,
  resizeToJpeg,
  THUMBNAIL_SIZES,
} from '../../src/media/images.js';

const png = (width: number, height: number, alpha = false) =>
  sharp({
    create: {
      width,
      height,
      channels: alpha ? 4 : 3,
      background: alpha ? { r: 255, g: 0, b: 0, alpha: 0 } : '#3366cc',
    },
  })
    .png()
    .toBuffer();
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#cc6633' } })
    .jpeg()
    .toBuffer();

describe('image dimensions', () => {
  it('reads dimensions from the header', async () => {
    expect(imageDimensions(await png(123, 45))).toEqual({ width: 123, height: 45 });
    expect(imageDimensions(await jpeg(10, 20))).toEqual({ width: 10, height: 20 });
    expect(imageDimensions(Buffer.from('not an image'))).toBeNull();
  });
});

describe('thumbnails', () => {
  it('sizes are 300/600/900/1200', () => {
    expect(Object.values(THUMBNAIL_SIZES)).toEqual([300, 600, 900, 1200]);
  });

  it.each(Object.entries(THUMBNAIL_SIZES))('%s: fits the max edge keeping the aspect ratio', async (_name, edge) => {
    const t = performance.now();
    const thumb = await makeThumbnail(await png(2000, 3000), { maxEdge: edge });
    console.info(`thumbnail 2000x3000 PNG → ${edge}: ${(performance.now() - t).toFixed(1)} ms`);
    expect(thumb.mediaType).toBe('image/jpeg');
    expect([thumb.width, thumb.height]).toEqual([Math.round((edge * 2) / 3), edge]);
    expect(imageDimensions(thumb.bytes)).toEqual({ width: thumb.width, height: thumb.height });
  });

  it('never upscales a small image', async () => {
    const thumb = await makeThumbnail(await png(40, 25), { maxEdge: 1200 });
    expect([thumb.width, thumb.height]).toEqual([40, 25]);
    expect(thumb.mediaType).toBe('image/jpeg');
  });

  it('keeps a small JPEG byte for byte', async () => {
    const src = await jpeg(200, 100);
    const thumb = await makeThumbnail(src, { maxEdge: 300 });
    expect(thumb.bytes.equals(src)).toBe(true);
  });

  it('can output WebP', async () => {
    const thumb = await makeThumbnail(await jpeg(1000, 500), { maxEdge: 600, format: 'webp' });
    expect(thumb.mediaType).toBe('image/webp');
    expect(imageDimensions(thumb.bytes)).toEqual({ width: 600, height: 300 });
  });

  it('page thumbnail is a 300 px JPEG', async () => {
    const thumb = await pageThumbnail(await png(900, 1200));
    expect(thumb.mediaType).toBe('image/jpeg');
    expect([thumb.width, thumb.height]).toEqual([225, 300]);
  });

  it('rejects undecodable input', async () => {
    await expect(makeThumbnail(Buffer.from('garbage'))).rejects.toThrow(/Cannot convert image/);
  });
});

describe('conversion', () => {
  it('PNG → JPEG flattens transparency on white', async () => {
    const out = (await convertImage(await png(8, 8, true), 'jpeg', 'image/png'))!;
    expect(out.mediaType).toBe('image/jpeg');
    const { data } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(250);
    expect(data[1]).toBeGreaterThan(250);
  });

  it('JPEG → PNG', async () => {
    const out = (await convertImage(await jpeg(8, 8), 'png', 'image/jpeg'))!;
    expect(out.mediaType).toBe('image/png');
    expect(imageDimensions(out.bytes)).toEqual({ width: 8, height: 8 });
  });

  it('same type is a no-op', async () => {
    expect(await convertImage(await jpeg(8, 8), 'jpeg', 'image/jpeg')).toBeNull();
  });

  it('resize re-encodes as JPEG without upscaling', async () => {
    expect(await resizeToJpeg(await png(50, 50), 500)).toMatchObject({
      width: 50,
      height: 50,
      mediaType: 'image/jpeg',
    });
    expect(await resizeToJpeg(await png(1000, 500), 500)).toMatchObject({ width: 500, height: 250 });
  });
});

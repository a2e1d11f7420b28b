/**
 * Builds real libraries on disk for scanner tests: CBZ files made of real JPEG/PNG/WebP images (sharp),
 * zipped in JS (no `zip` CLI needed: CI machines may lack it).
 */
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { zipBuffer as writeZipBuffer, type ZipEntry } from './zip-writer.mjs';

/** A plain ZIP in one buffer (see zip-writer.mjs). */
export function zipBuffer(entries: readonly ZipEntry[]): Buffer {
  return writeZipBuffer(entries);
}

export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** A small real image whose pixels depend on `seed` (different seeds give different bytes). */
export async function makeImage(format: ImageFormat, seed: number, width = 60, height = 90): Promise<Buffer> {
  const r = (seed * 67) % 256;
  const g = (seed * 131) % 256;
  const b = (seed * 199) % 256;
  const img = sharp({ create: { width, height, channels: 3, background: { r, g, b } } });
  return img.toFormat(format).toBuffer();
}

export interface CbzOptions {
  /** Page count (default 3), cycling through JPEG, PNG and WebP. */
  pages?: number;
  /** Changes the page pixels, hence the file's bytes and hash. */
  seed?: number;
  /** File modification time to set (ms since epoch). */
  mtime?: number;
  /** The text of the archive's ComicInfo.xml (default: an empty `<ComicInfo>` document). */
  comicInfo?: string;
}

/** Writes a CBZ at `path` (parent folders created) and returns its bytes. */
export async function writeCbz(path: string, opts: CbzOptions = {}): Promise<Buffer> {
  const pages = opts.pages ?? 3;
  const seed = opts.seed ?? 1;
  const formats: ImageFormat[] = ['jpeg', 'png', 'webp'];
  const entries: ZipEntry[] = [];
  for (let i = 0; i < pages; i++) {
    const format = formats[i % formats.length]!;
    const ext = format === 'jpeg' ? 'jpg' : format;
    entries.push({ name: `${String(i + 1).padStart(3, '0')}.${ext}`, data: await makeImage(format, seed * 31 + i) });
  }
  entries.push({
    name: 'ComicInfo.xml',
    data: Buffer.from(opts.comicInfo ?? '<ComicInfo></ComicInfo>'),
    deflate: true,
  });
  const bytes = zipBuffer(entries);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  if (opts.mtime !== undefined) await setTime(path, opts.mtime);
  return bytes;
}

/** Sets a file's or folder's access and modification time. */
export async function setTime(path: string, ms: number): Promise<void> {
  await utimes(path, new Date(ms), new Date(ms));
}

/** A library tree: `files` maps relative paths to CBZ options (or raw bytes for non-books). */
export async function buildLibrary(root: string, files: Record<string, CbzOptions | Buffer>): Promise<void> {
  for (const [rel, spec] of Object.entries(files)) {
    const path = join(root, rel);
    if (Buffer.isBuffer(spec)) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, spec);
    } else {
      await writeCbz(path, spec);
    }
  }
}

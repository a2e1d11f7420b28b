/**
 * Builds real libraries on disk for scanner tests: CBZ files made of real JPEG/PNG/WebP images (sharp),
 * zipped in JS (no `zip` CLI needed: CI machines may lack it).
 */
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import sharp from 'sharp';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface ZipEntry {
  name: string;
  data: Uint8Array;
  /** Deflate instead of store (images are stored, as most CBZ tools do). */
  deflate?: boolean;
}

/** A plain ZIP (no ZIP64, no data descriptors), fixed 1980-01-01 entry times so equal input gives equal bytes. */
export function zipBuffer(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const body = e.deflate ? deflateRawSync(e.data) : Buffer.from(e.data);
    const crc = crc32(e.data);
    const method = e.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
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
  entries.push({ name: 'ComicInfo.xml', data: Buffer.from('<ComicInfo></ComicInfo>'), deflate: true });
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

import { open } from 'node:fs/promises';

/**
 * Media types from magic bytes (engine.md §4.1), named as Komga (Apache Tika) names them.
 * The file name is never consulted: a `.cbz` that is really a 7z is a 7z.
 */
export const MediaTypes = {
  zip: 'application/zip',
  rar4: 'application/x-rar-compressed; version=4',
  rar5: 'application/x-rar-compressed; version=5',
  sevenZip: 'application/x-7z-compressed',
  tar: 'application/x-tar',
  gzip: 'application/gzip',
  xz: 'application/x-xz',
  bzip2: 'application/x-bzip2',
  zstd: 'application/zstd',
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
  xml: 'application/xml',
  text: 'text/plain',
  exe: 'application/x-msdownload',
  appleDouble: 'application/applefile',
  /** Tika's answer when nothing matched (also for empty content). */
  octetStream: 'application/octet-stream',
} as const;

/** The extension a file of each type should have (engine.md §11.2: repaired extensions). */
export const CANONICAL_EXTENSIONS: Readonly<Record<string, string>> = {
  [MediaTypes.zip]: 'cbz',
  [MediaTypes.rar4]: 'cbr',
  [MediaTypes.rar5]: 'cbr',
  [MediaTypes.pdf]: 'pdf',
  [MediaTypes.epub]: 'epub',
};

/** How many leading bytes {@link detectBuffer} looks at at most. */
export const SNIFF_BYTES = 4096;

const ascii = (b: Uint8Array, offset: number, s: string): boolean => {
  if (b.length < offset + s.length) return false;
  for (let i = 0; i < s.length; i++) if (b[offset + i] !== s.charCodeAt(i)) return false;
  return true;
};

const bytes = (b: Uint8Array, offset: number, sig: readonly number[]): boolean => {
  if (b.length < offset + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[offset + i] !== sig[i]) return false;
  return true;
};

const u32be = (b: Uint8Array, o: number) => ((b[o]! << 24) >>> 0) + (b[o + 1]! << 16) + (b[o + 2]! << 8) + b[o + 3]!;
const u32le = (b: Uint8Array, o: number) => b[o]! + (b[o + 1]! << 8) + (b[o + 2]! << 16) + ((b[o + 3]! << 24) >>> 0);

/** ISO-BMFF `ftyp` brands → AVIF / HEIF (HEIC). */
function isoImage(b: Uint8Array): string | null {
  if (!ascii(b, 4, 'ftyp') || b.length < 16) return null;
  const boxSize = Math.min(u32be(b, 0), b.length);
  const brands: string[] = [];
  const brandAt = (o: number) => String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!);
  brands.push(brandAt(8));
  for (let o = 16; o + 4 <= boxSize; o += 4) brands.push(brandAt(o));
  const major = brands[0]!;
  if (major === 'avif' || major === 'avis') return 'image/avif';
  if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs'].includes(major)) return 'image/heic';
  if (major === 'mif1' || major === 'msf1') {
    if (brands.includes('avif') || brands.includes('avis')) return 'image/avif';
    return 'image/heif';
  }
  return null;
}

const SVG_START = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*<svg[\s>/:]/i;

function looksLikeText(b: Uint8Array): boolean {
  const n = Math.min(b.length, 1024);
  if (n === 0) return false;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c === 0) return false;
    if (c < 0x20 && c !== 9 && c !== 10 && c !== 12 && c !== 13 && c !== 27) bad++;
  }
  if (bad > n / 50) return false;
  // Must be valid UTF-8 (a truncated last sequence is tolerated).
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, n), { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * A tar header block (POSIX ustar, GNU, or old V7 with no magic at all): the checksum field holds the sum
 * of the block's bytes with that field counted as spaces. An all-zero block (the end of an archive) is not
 * a header. (Some pre-POSIX writers summed signed bytes; tar-stream, which reads the tar, does not accept
 * those, so neither does detection.)
 */
export function isTarHeader(b: Uint8Array): boolean {
  if (b.length < 512) return false;
  let i = 148;
  while (i < 156 && (b[i] === 0x20 || b[i] === 0)) i++;
  let stored = 0;
  let digits = 0;
  for (; i < 156 && b[i]! >= 0x30 && b[i]! <= 0x37; i++, digits++) stored = stored * 8 + (b[i]! - 0x30);
  if (digits === 0 || (i < 156 && b[i] !== 0x20 && b[i] !== 0)) return false;
  let sum = 0;
  for (let j = 0; j < 512; j++) sum += j >= 148 && j < 156 ? 0x20 : b[j]!;
  return sum !== 8 * 0x20 && stored === sum;
}

/**
 * The media type of content from its first bytes (give at least {@link SNIFF_BYTES} when available).
 * Never null: unknown binary content is `application/octet-stream`, as Tika answers.
 * A ZIP is reported as `application/zip` here; {@link detectFile} tells EPUBs apart.
 */
export function detectBuffer(b: Uint8Array): string {
  // A tar first: its first bytes are an entry name, which may look like anything (even image magic); a
  // valid header checksum cannot happen by chance. V7 tars have no other signature (Tika misses them).
  if (isTarHeader(b)) return MediaTypes.tar;
  // Images next: an entry inside an archive is a page iff its type starts with "image/".
  if (bytes(b, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (bytes(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'image/gif';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'image/webp';
  const iso = isoImage(b);
  if (iso) return iso;
  if (bytes(b, 0, [0xff, 0x0a])) return 'image/jxl';
  if (bytes(b, 0, [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a])) return 'image/jxl';
  if (bytes(b, 0, [0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a])) return 'image/jp2';
  if (ascii(b, 0, 'BM') && b.length >= 18 && [12, 16, 40, 52, 56, 64, 108, 124].includes(u32le(b, 14))) {
    return 'image/bmp';
  }
  if (bytes(b, 0, [0x49, 0x49, 0x2a, 0x00]) || bytes(b, 0, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (ascii(b, 0, '8BPS')) return 'image/vnd.adobe.photoshop';
  // Windows icon: reserved 0, type 1, at least one image (Tika: image/vnd.microsoft.icon; a page for Komga).
  if (bytes(b, 0, [0, 0, 1, 0]) && b.length >= 6 && b[4]! + (b[5]! << 8) > 0 && b.length >= 22 && b[9] === 0) {
    return 'image/vnd.microsoft.icon';
  }

  // Containers.
  if (
    bytes(b, 0, [0x50, 0x4b, 0x03, 0x04]) ||
    bytes(b, 0, [0x50, 0x4b, 0x05, 0x06]) ||
    bytes(b, 0, [0x50, 0x4b, 0x07, 0x08])
  ) {
    return MediaTypes.zip;
  }
  if (bytes(b, 0, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00])) return MediaTypes.rar5;
  if (bytes(b, 0, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00])) return MediaTypes.rar4;
  if (bytes(b, 0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return MediaTypes.sevenZip;
  if (ascii(b, 257, 'ustar')) return MediaTypes.tar;
  if (bytes(b, 0, [0x1f, 0x8b])) return MediaTypes.gzip;
  if (bytes(b, 0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return MediaTypes.xz;
  if (ascii(b, 0, 'BZh') && b.length > 3 && b[3]! >= 0x31 && b[3]! <= 0x39) return MediaTypes.bzip2;
  if (bytes(b, 0, [0x28, 0xb5, 0x2f, 0xfd])) return MediaTypes.zstd;
  if (ascii(b, 0, '%PDF-') || ascii(b, 3, '%PDF-')) return MediaTypes.pdf;

  // Other content found beside pages (Media.files): named so that they are not reported as undetected.
  if (bytes(b, 0, [0x00, 0x05, 0x16, 0x07])) return MediaTypes.appleDouble;
  if (ascii(b, 0, 'MZ') && b.length >= 64) return MediaTypes.exe;
  if (looksLikeText(b)) {
    const text = new TextDecoder('utf-8').decode(b.subarray(0, Math.min(b.length, 1024))).replace(/^\uFEFF/, '');
    if (SVG_START.test(text)) return 'image/svg+xml';
    if (/^\s*<\?xml[\s?]/.test(text)) return MediaTypes.xml;
    return MediaTypes.text;
  }
  return MediaTypes.octetStream;
}

/**
 * An EPUB per Tika: a ZIP whose first local entry is an uncompressed `mimetype` holding
 * `application/epub+zip`.
 */
function isEpubHead(b: Uint8Array): boolean {
  if (!bytes(b, 0, [0x50, 0x4b, 0x03, 0x04]) || b.length < 30) return false;
  const method = b[8]! + (b[9]! << 8);
  const nameLen = b[26]! + (b[27]! << 8);
  const extraLen = b[28]! + (b[29]! << 8);
  if (method !== 0 || !ascii(b, 30, 'mimetype')) return false;
  if (nameLen !== 8) return false;
  return ascii(b, 30 + nameLen + extraLen, MediaTypes.epub);
}

/** The media type of a file from its first bytes; throws the file-system error if it cannot be read. */
export async function detectFile(file: string): Promise<string> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(head, 0, SNIFF_BYTES, 0);
    const b = head.subarray(0, bytesRead);
    const type = detectBuffer(b);
    if (type === MediaTypes.zip && isEpubHead(b)) return MediaTypes.epub;
    return type;
  } finally {
    await fh.close();
  }
}

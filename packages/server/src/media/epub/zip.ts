import { crc32 } from '@node-rs/crc32';
import type { Entry, ZipFile } from 'yauzl';
import { openZipFile } from '../archives/zip-file-reader.js';
import { BookBudget, checkDeclaredEntry, checkInflatedBytes, checkMarkupBytes, mediaLimits } from '../limits.js';
import { MediaError, type EntryStream } from '../types.js';

/** One file entry of a ZIP central directory (directories are skipped). */
export interface ZipEntryInfo {
  name: string;
  size: number;
  compressedSize: number;
}

// CP437 upper half, for legacy (non-UTF-8) entry names that are not valid UTF-8 either.
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes an entry name like commons-compress does with its default UTF-8 encoding: UTF-8 when the
 * language-encoding flag is set or the bytes are valid UTF-8 (Info-ZIP writes UTF-8 names without the
 * flag, e.g. kusamakura-japanese-vertical-writing.epub), the Info-ZIP Unicode Path extra field when
 * present, CP437 otherwise.
 */
export function decodeEntryName(raw: Buffer, flags: number, extra: { id: number; data: Buffer }[]): string {
  if (flags & 0x800) return raw.toString('utf8');
  const unicodePath = extra.find((e) => e.id === 0x7075);
  if (unicodePath && unicodePath.data.length > 5 && unicodePath.data[0] === 1) {
    return unicodePath.data.subarray(5).toString('utf8');
  }
  try {
    return utf8Strict.decode(raw);
  } catch {
    let s = '';
    for (const b of raw) s += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
    return s;
  }
}

/**
 * A ZIP file opened once, its central directory indexed by name. Entries are read on demand and
 * fully buffered (EPUB resources are small): the book's limits (media/limits.ts) are checked on the whole
 * directory when it is opened, and on the bytes inflated as they come.
 */
export class ZipArchive {
  private constructor(
    private readonly zip: ZipFile,
    private readonly byName: Map<string, { info: ZipEntryInfo; entry: Entry }>,
    /** Entries in central-directory order. */
    readonly entries: readonly ZipEntryInfo[],
  ) {}

  static async open(file: string): Promise<ZipArchive> {
    let zip: ZipFile;
    try {
      zip = (await openZipFile(file, { decodeStrings: false })).zip;
    } catch (e) {
      throw wrap(e, file);
    }
    const byName = new Map<string, { info: ZipEntryInfo; entry: Entry }>();
    const list: ZipEntryInfo[] = [];
    const budget = new BookBudget();
    try {
      for await (const entry of zip.eachEntry()) {
        const name = decodeEntryName(
          entry.fileName as unknown as Buffer,
          entry.generalPurposeBitFlag,
          entry.extraFields,
        ).replace(/\\/g, '/');
        budget.add(name, entry.uncompressedSize, entry.compressedSize);
        if (name.endsWith('/')) continue;
        const info = { name, size: entry.uncompressedSize, compressedSize: entry.compressedSize };
        // first occurrence wins, like a central-directory lookup by name
        if (!byName.has(name)) byName.set(name, { info, entry });
        list.push(info);
      }
    } catch (e) {
      zip.close();
      throw wrap(e, file);
    }
    return new ZipArchive(zip, byName, list);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string): ZipEntryInfo | undefined {
    return this.byName.get(name)?.info;
  }

  /** An entry's bytes, at most `maxBytes` of them when given (e.g. the `mimetype` check). */
  async read(name: string, maxBytes?: number): Promise<Buffer> {
    const found = this.byName.get(name);
    if (!found) throw new MediaError('ERR_1005', `Entry not found: ${name}`);
    if (maxBytes !== undefined && found.info.size > maxBytes) {
      throw new MediaError('ERR_1005', `Entry too large: ${name}`);
    }
    checkDeclaredEntry(name, found.info.size, found.info.compressedSize);
    if (found.entry.isEncrypted()) throw new MediaError('ERR_1005', `Entry is encrypted: ${name}`);
    const stream = await this.zip.openReadStreamPromise(found.entry);
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (maxBytes !== undefined && total > maxBytes) throw new MediaError('ERR_1005', `Entry too large: ${name}`);
        checkInflatedBytes(name, total);
        chunks.push(chunk);
      }
    } finally {
      stream.destroy();
    }
    return Buffer.concat(chunks, total);
  }

  /**
   * An entry as it inflates, for serving it as it is; the archive is closed once the stream is (ended, failed or
   * destroyed), so the caller hands this archive over. yauzl fails the stream if the bytes do not add up to the
   * declared size, which the limits were checked on.
   */
  async streamAndClose(name: string): Promise<EntryStream> {
    try {
      const found = this.byName.get(name);
      if (!found) throw new MediaError('ERR_1005', `Entry not found: ${name}`);
      checkDeclaredEntry(name, found.info.size, found.info.compressedSize);
      if (found.entry.isEncrypted()) throw new MediaError('ERR_1005', `Entry is encrypted: ${name}`);
      const stream = await this.zip.openReadStreamPromise(found.entry);
      stream.once('close', () => this.close());
      return { stream, size: found.info.size };
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /** The entry whole, checked against the CRC-32 its directory records (yauzl's reads do not check it). */
  async readChecked(name: string): Promise<Buffer> {
    const bytes = await this.read(name);
    const expected = this.byName.get(name)!.entry.crc32 >>> 0;
    if (crc32(bytes) >>> 0 !== expected) throw new MediaError('ERR_1005', `CRC mismatch: ${name}`);
    return bytes;
  }

  /** A document to parse or search: held to the markup limit, its tree costing far more than its bytes. */
  async readText(name: string): Promise<string> {
    const info = this.byName.get(name)?.info;
    if (info) checkMarkupBytes(name, info.size);
    return decodeText(await this.read(name, mediaLimits().maxMarkupBytes));
  }

  close(): void {
    this.zip.close();
  }
}

/** Decodes an XML/HTML resource: BOM-aware (UTF-8 / UTF-16), UTF-8 otherwise. */
export function decodeText(buf: Buffer): string {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  return new TextDecoder('utf-8').decode(buf); // strips a UTF-8 BOM
}

/** Opens, runs, closes. */
export async function withZip<T>(file: string, fn: (zip: ZipArchive) => Promise<T>): Promise<T> {
  const zip = await ZipArchive.open(file);
  try {
    return await fn(zip);
  } finally {
    zip.close();
  }
}

function wrap(e: unknown, file: string): MediaError {
  if (e instanceof MediaError) return e;
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return new MediaError('ERR_1018', `File not found: ${file}`);
  if (err?.code === 'EACCES' || err?.code === 'EPERM')
    return new MediaError('ERR_1000', `File not accessible: ${file}`);
  return new MediaError('ERR_1005', `Cannot read ZIP container: ${err?.message ?? String(e)}`);
}

import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { MediaTypes } from '../detect.js';
import { HEAD_BYTES, HeadCollector, describeEntry, isDirectoryName, isJunk, isPage, sortEntries } from '../pages.js';
import { MediaError, type ContainerEntry, type ContainerReader } from '../types.js';
import { sevenZipExtract } from './sevenzip.js';

/**
 * ZIP / CBZ with random access (yauzl): the central directory is read, then only the bytes of the entries
 * asked for. Zip64 and the Info-ZIP Unicode Path extra field are handled by yauzl's name decoding.
 * Stored and Deflate entries are inflated by yauzl; every other method (Deflate64, bzip2, LZMA, PPMd,
 * Zstandard, XZ…) is read by 7-Zip in a worker thread, which also seeks straight to that entry.
 *
 * Names are decoded but never validated as paths (yauzl would reject `../` names and fail the whole
 * listing): they are only ever keys inside the archive, never used on a file system.
 *
 * Errors: an encrypted entry (ZipCrypto, AES, strong encryption) → ERR_1002. Spec text is "Encrypted RAR
 * not supported", but no other code fits an encrypted archive and Komga's own outcome (no page → ERR_1006)
 * hides the reason; Quire reports it. No central directory (truncated file) or other structural damage →
 * ERR_1008.
 */

const YAUZL_METHODS = new Set([0, 8]);

interface ZipItem {
  name: string;
  entry: Entry;
}

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true },
      (err, zip) => {
        if (err) reject(err);
        else resolve(zip);
      },
    );
  });
}

function entryName(entry: Entry): string {
  // decodeStrings: false leaves the raw bytes; decode them here (UTF-8 flag, Unicode Path extra field,
  // else CP437; backslashes become '/') without yauzl's path validation.
  const raw = entry.fileName as unknown as Buffer;
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
}

function isEncrypted(entry: Entry): boolean {
  return (entry.generalPurposeBitFlag & 0x1) !== 0;
}

function toMediaError(e: unknown, what: string): MediaError {
  if (e instanceof MediaError) return e;
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown }).code;
  if (code === 'ENOENT') return new MediaError('ERR_1018', message);
  if (code === 'EACCES' || code === 'EPERM') return new MediaError('ERR_1000', message);
  if (/encrypt/i.test(message)) return new MediaError('ERR_1002', `Encrypted ZIP not supported: ${message}`);
  return new MediaError('ERR_1008', `${what}: ${message}`);
}

/** Walks the central directory; `visit` returns false to stop early. Always closes the file. */
async function withCentralDirectory<T>(
  file: string,
  visit: (zip: ZipFile, item: ZipItem) => Promise<boolean>,
  done: () => T,
): Promise<T> {
  let zip: ZipFile;
  try {
    zip = await openZip(file);
  } catch (e) {
    throw toMediaError(e, 'Cannot open ZIP');
  }
  try {
    await new Promise<void>((resolve, reject) => {
      let finished = false;
      const finish = (err?: unknown) => {
        if (finished) return;
        finished = true;
        if (err) reject(err);
        else resolve();
      };
      zip.on('error', finish);
      zip.on('end', () => finish());
      zip.on('entry', (entry: Entry) => {
        visit(zip, { name: entryName(entry), entry }).then(
          (more) => (more ? zip.readEntry() : finish()),
          (err: unknown) => finish(err),
        );
      });
      zip.readEntry();
    });
    return done();
  } catch (e) {
    throw toMediaError(e, 'Cannot read ZIP entries');
  } finally {
    zip.close();
  }
}

function openEntryStream(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream)));
  });
}

/** Reads an entry yauzl can inflate: all of it, or only the first `max` bytes (then stops inflating). */
async function readWithYauzl(zip: ZipFile, entry: Entry, max?: number): Promise<Buffer> {
  const stream = await openEntryStream(zip, entry);
  const collector = new HeadCollector(max ?? Infinity);
  return new Promise((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => {
      collector.push(chunk);
      if (max !== undefined && collector.full) {
        stream.destroy();
        resolve(collector.bytes());
      }
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(collector.bytes()));
  });
}

async function readEntry(file: string, zip: ZipFile, item: ZipItem, max?: number): Promise<Buffer> {
  if (isEncrypted(item.entry)) throw new MediaError('ERR_1002', `Encrypted ZIP entry not supported: ${item.name}`);
  if (YAUZL_METHODS.has(item.entry.compressionMethod)) return readWithYauzl(zip, item.entry, max);
  return sevenZipExtract(file, item.name, max);
}

export const zipReader: ContainerReader = {
  mediaTypes: [MediaTypes.zip],

  async entries(file, { dimensions }) {
    const entries: ContainerEntry[] = [];
    await withCentralDirectory(
      file,
      async (zip, item) => {
        if (isDirectoryName(item.name) || isJunk(item.name)) return true;
        if (isEncrypted(item.entry)) throw new MediaError('ERR_1002', `Encrypted ZIP not supported: ${item.name}`);
        let head: Buffer | null = null;
        try {
          head = item.entry.uncompressedSize === 0 ? Buffer.alloc(0) : await readEntry(file, zip, item, HEAD_BYTES);
        } catch (e) {
          // One unreadable entry (bad data, unknown method) is reported with a null type, as Komga does.
          if (e instanceof MediaError && e.code === 'ERR_1002') throw e;
          head = null;
        }
        let entry = describeEntry(item.name, item.entry.uncompressedSize, head, dimensions);
        if (dimensions && isPage(entry) && entry.width === undefined && head && head.length >= HEAD_BYTES) {
          // The image header lies further in (e.g. a JPEG with a large EXIF block): random access makes
          // reading this one entry whole cheap.
          entry = describeEntry(item.name, item.entry.uncompressedSize, await readEntry(file, zip, item), dimensions);
        }
        entries.push(entry);
        return true;
      },
      () => undefined,
    );
    return sortEntries(entries);
  },

  async read(file, entryName) {
    let found: Buffer | undefined;
    await withCentralDirectory(
      file,
      async (zip, item) => {
        if (item.name !== entryName || isDirectoryName(item.name)) return true;
        found = await readEntry(file, zip, item);
        return false;
      },
      () => undefined,
    );
    if (!found) throw new MediaError('ERR_1005', `Entry not found: ${entryName}`);
    return found;
  },
};

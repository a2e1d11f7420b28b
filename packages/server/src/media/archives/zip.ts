import { fstat, read as fsRead } from 'node:fs';
import { Readable, Transform, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { crc32 } from '@node-rs/crc32';
import { constants as zlibConstants, inflateRaw, inflateRawSync } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { MediaTypes, SNIFF_BYTES } from '../detect.js';
import {
  BookBudget,
  bufferedBytes,
  checkDeclaredEntry,
  checkEntryCount,
  checkInflatedBytes,
  mediaLimits,
} from '../limits.js';
import { HEAD_BYTES, HeadCollector, describeEntry, isDirectoryName, isJunk, isPage, sortEntries } from '../pages.js';
import { imageHeaderReadable } from '../page-check.js';
import { MediaError, type ContainerEntry, type ContainerReader, type ListingOptions } from '../types.js';
import { sevenZipExtract } from './sevenzip.js';
import { openZipFile, type OpenZipFile } from './zip-file-reader.js';
import { SpareBuffers } from '../spare-buffers.js';

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
/** A central directory up to this size is read at once before a walk over all of it (~100 bytes an entry). */
const DIRECTORY_PRELOAD_BYTES = 16 * 1024 * 1024;
/** The largest ZIP an analysis reads whole: it and its inflating are held in memory until the listing ends. */
const WHOLE_FILE_BYTES = 64 * 1024 * 1024;

interface ZipItem {
  name: string;
  entry: Entry;
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

/** The ZIP's central directory opened (names as raw bytes, decoded later), its failure as a MediaError. */
async function openZip(file: string): Promise<OpenZipFile> {
  try {
    return await openZipFile(file, { decodeStrings: false });
  } catch (e) {
    throw toMediaError(e, 'Cannot open ZIP');
  }
}

/** Walks the central directory; `visit` returns false to stop early. Always closes the file. */
async function withCentralDirectory<T>(
  file: string,
  visit: (zip: ZipFile, item: ZipItem, fd: number) => Promise<boolean>,
  done: (zip: ZipFile, fd: number) => Promise<T>,
): Promise<T> {
  const opened = await openZip(file);
  const { zip, fd } = opened;
  try {
    checkEntryCount(zip.entryCount);
    await opened.preloadDirectory(DIRECTORY_PRELOAD_BYTES);
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
        visit(zip, { name: entryName(entry), entry }, fd).then(
          (more) => (more ? zip.readEntry() : finish()),
          (err: unknown) => finish(err),
        );
      });
      zip.readEntry();
    });
    return await done(zip, fd);
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

/**
 * Reads an entry yauzl can inflate: all of it, or only the first `max` bytes (then stops inflating). A whole
 * read stops as soon as more bytes came out than the entry limit allows (yauzl also stops at the declared size),
 * and when `signal` aborts (the client went away).
 */
async function readWithYauzl(
  zip: ZipFile,
  entry: Entry,
  name: string,
  max?: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  signal?.throwIfAborted();
  const stream = await openEntryStream(zip, entry);
  const collector = new HeadCollector(max ?? Infinity);
  return new Promise((resolve, reject) => {
    const onAbort = () => stream.destroy(signal!.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);
    stream.on('data', (chunk: Buffer) => {
      collector.push(chunk);
      if (max !== undefined && collector.full) {
        settle();
        stream.destroy();
        resolve(collector.bytes());
        return;
      }
      try {
        checkInflatedBytes(name, collector.total);
      } catch (e) {
        settle();
        stream.destroy();
        reject(e);
      }
    });
    stream.on('error', (e) => {
      settle();
      reject(e);
    });
    stream.on('end', () => {
      settle();
      resolve(collector.bytes());
    });
  });
}

/** Up to `length` bytes of the file at `position` (fewer only at end of file). */
function readAt(fd: number, position: number, length: number): Promise<Buffer> {
  return readInto(fd, Buffer.allocUnsafe(Math.max(0, length)), position, length);
}

const LOCAL_HEADER_SIZE = 30;
/** Room for a local extra field longer than the central one (Zip64, timestamps…) so one read usually does. */
const LOCAL_EXTRA_SLACK = 256;

/**
 * The first `max` bytes of a Stored or Deflate entry, read straight from the file: one positional read
 * covers the local header and the start of the data (a second one only if the local extra field is
 * unusually long); Deflate data is inflated only as far as needed. Same checks as yauzl's read stream:
 * local header signature, data within the file, and (Deflate) no more bytes than the declared size, and
 * exactly that many when the whole entry was inflated.
 */
async function readHead(fd: number, zip: ZipFile, entry: Entry, max: number): Promise<Buffer> {
  const size = entry.uncompressedSize;
  const compressed = entry.compressedSize;
  const stored = entry.compressionMethod === 0;
  const offset = entry.relativeOffsetOfLocalHeader;
  const available = zip.fileSize - offset;
  // Deflate: compressed bytes are about as many as the output for images (already compressed).
  let rawWanted = Math.min(compressed, stored ? max : max + 1024);
  const guess = LOCAL_HEADER_SIZE + entry.fileNameLength + entry.extraFieldLength + LOCAL_EXTRA_SLACK;
  let buf = await readAt(fd, offset, Math.min(available, guess + rawWanted));
  const dataStart = localDataStart(buf, zip, entry);
  const raw = async (n: number): Promise<Buffer> => {
    if (buf.length < dataStart + n) {
      const more = await readAt(fd, offset + buf.length, dataStart + n - buf.length);
      buf = Buffer.concat([buf, more]);
      if (buf.length < dataStart + n) throw new Error('unexpected EOF');
    }
    return buf.subarray(dataStart, dataStart + n);
  };
  if (stored) return Buffer.from(await raw(Math.min(max, compressed)));

  for (;;) {
    const input = await raw(rawWanted);
    const whole = rawWanted >= compressed;
    let out: Buffer;
    try {
      out = inflateRawSync(input, {
        finishFlush: zlibConstants.Z_SYNC_FLUSH,
        maxOutputLength: Math.max(max * 64, 1 << 20),
      });
    } catch (e) {
      // Highly compressible data would inflate far beyond what is wanted: stream it and stop early.
      if (e instanceof RangeError) return readWithYauzl(zip, entry, '', max);
      throw e;
    }
    if (out.length > size)
      throw new Error(`too many bytes in the stream. expected ${size}. got at least ${out.length}`);
    if (whole && out.length < size) {
      throw new Error(`not enough bytes in the stream. expected ${size}. got only ${out.length}`);
    }
    if (out.length >= max || whole) return Buffer.from(out.subarray(0, max));
    rawWanted = Math.min(compressed, rawWanted * 4);
  }
}

/**
 * Where an entry's data starts, from the start of its local header in `buf` (read at the entry's offset), with
 * yauzl's checks: the header's signature, and data that ends inside the file.
 */
function localDataStart(buf: Buffer, zip: ZipFile, entry: Entry): number {
  if (buf.length < LOCAL_HEADER_SIZE) throw new Error('unexpected EOF');
  const signature = buf.readUInt32LE(0);
  if (signature !== 0x04034b50) throw new Error(`invalid local file header signature: 0x${signature.toString(16)}`);
  const dataStart = LOCAL_HEADER_SIZE + buf.readUInt16LE(26) + buf.readUInt16LE(28);
  const end = entry.relativeOffsetOfLocalHeader + dataStart + entry.compressedSize;
  if (end > zip.fileSize) {
    throw new Error(
      `file data overflows file bounds: ${end - entry.compressedSize} + ${entry.compressedSize} > ${zip.fileSize}`,
    );
  }
  return dataStart;
}

const inflateRawAsync = promisify(inflateRaw);
/**
 * Entries this small (ComicInfo.xml, an OPF), both compressed and inflated, are inflated on the main thread (a hostile entry that
 * declares a few bytes out of megabytes of empty blocks stays off it): a trip to libuv's pool with a zlib
 * stream set up for it cost ~0.7 ms of the main thread per entry (0.2–0.3 s per 300 imported books, issue 18), the
 * inflating itself a few microseconds.
 */
const SYNC_INFLATE_BYTES = 64 * 1024;

/** What the analysis reads entries into (four reads in flight). */
const readBuffers = new SpareBuffers(4, 4 * 1024 * 1024);
/**
 * What the analysis reads whole files into: one per task runner on a machine of two cores. Shared, so that the file
 * hash is computed on a worker thread from the same bytes (`hashFileBytes`).
 */
const wholeFileBuffers = new SpareBuffers(2, WHOLE_FILE_BYTES, { shared: true, analysis: true });

/** Up to `length` bytes of the file at `position` into `buffer` (fewer only at end of file); the bytes read. */
function readInto(fd: number, buffer: Buffer, position: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const step = (filled: number) => {
      if (filled >= length) {
        resolve(buffer.subarray(0, filled));
        return;
      }
      fsRead(fd, buffer, filled, length - filled, position + filled, (err, n) => {
        if (err) reject(err);
        else if (n === 0) resolve(buffer.subarray(0, filled));
        else step(filled + n);
      });
    };
    step(0);
  });
}

/**
 * A Stored or Deflate entry whole: one positional read of its local header and data (a second one only if the
 * local extra field is unusually long) into a reused buffer, inflated in zlib's thread pool, off the event loop;
 * exactly the declared size, or an error. The bytes are valid until `release()`.
 */
async function readWhole(
  fd: number,
  zip: ZipFile,
  entry: Entry,
  file?: Buffer,
): Promise<{ bytes: Buffer; release(): void }> {
  const offset = entry.relativeOffsetOfLocalHeader;
  const compressed = entry.compressedSize;
  const guess = LOCAL_HEADER_SIZE + entry.fileNameLength + entry.extraFieldLength + LOCAL_EXTRA_SLACK;
  const length = Math.min(zip.fileSize - offset, guess + compressed);
  // the whole file already in memory: the entry is a view of it, nothing read or taken
  const reused = file ? undefined : readBuffers.take(length);
  const release = () => reused && readBuffers.giveBack(reused);
  try {
    let buf = file ? file.subarray(offset) : await readInto(fd, reused!, offset, length);
    const dataStart = localDataStart(buf, zip, entry);
    if (buf.length < dataStart + compressed) {
      buf = Buffer.concat([buf, await readAt(fd, offset + buf.length, dataStart + compressed - buf.length)]);
      if (buf.length < dataStart + compressed) throw new Error('unexpected EOF');
    }
    const raw = buf.subarray(dataStart, dataStart + compressed);
    const size = entry.uncompressedSize;
    // more than declared fails here (RangeError), less below
    const inflate = { maxOutputLength: Math.max(size, 1) };
    const bytes =
      entry.compressionMethod === 0
        ? raw
        : size <= SYNC_INFLATE_BYTES && compressed <= SYNC_INFLATE_BYTES
          ? inflateRawSync(raw, inflate)
          : await inflateRawAsync(raw, inflate);
    if (bytes.length !== size) throw new Error(`expected ${size} bytes, got ${bytes.length}`);
    return { bytes, release };
  } catch (e) {
    release();
    throw e;
  }
}

/**
 * An entry read whole for analysis, checked against its CRC-32 (which yauzl never checks) and declared size; its
 * bytes count against the process's buffer budget while `use` looks at them. An entry larger than the whole budget
 * is checked as it streams instead, and `use` gets its first {@link HEAD_BYTES}.
 */
async function withVerifiedEntry<T>(
  file: string,
  zip: ZipFile,
  fd: number,
  item: ZipItem,
  use: (bytes: Buffer | Error) => Promise<T>,
  wholeFile?: WholeFile,
): Promise<T> {
  if (isEncrypted(item.entry)) throw new MediaError('ERR_1002', `Encrypted ZIP entry not supported: ${item.name}`);
  const size = Math.min(item.entry.uncompressedSize, mediaLimits().maxEntryBytes);
  const yauzlCanRead = YAUZL_METHODS.has(item.entry.compressionMethod);
  const read = async <R>(how: () => Promise<R>): Promise<R | Error> => {
    try {
      return await how();
    } catch (e) {
      if (e instanceof MediaError && e.code === 'ERR_1002') throw e;
      return e instanceof Error ? e : new Error(String(e));
    }
  };
  const verified = async () => {
    const whole = await read(() => readWhole(fd, zip, item.entry, wholeFile?.bytes));
    if (whole instanceof Error) return use(whole);
    try {
      return await use(await read(async () => checkedCrc(item, whole.bytes)));
    } finally {
      whole.release();
    }
  };
  // the whole file's hold already covers this entry (and its inflating): no second hold to wait for while holding
  if (wholeFile) return verified();
  if (yauzlCanRead && size > bufferedBytes.size) return use(await read(() => streamVerified(zip, item)));
  return bufferedBytes.run(size, `entry "${item.name}"`, async () => {
    if (!yauzlCanRead) return use(await read(async () => checkedCrc(item, await readEntry(file, zip, item))));
    return verified();
  });
}

/** A ZIP read whole into memory once, for its analysis (see {@link readFileWhole}). */
interface WholeFile {
  bytes: Buffer;
  release(): void;
}

/**
 * With `onFileBytes`, the file read once, whole, into a reused buffer held within the buffer budget, when it is at
 * most {@link WHOLE_FILE_BYTES} with what inflating {@link HEAD_READS_IN_FLIGHT} of its deflated entries at once
 * can take, and every entry is one yauzl's methods read: then the entries are views of it and the file hash comes
 * from the same bytes (issue 18: HashBook read every file a second time). Undefined otherwise: entries are read
 * from the file as before.
 */
async function readFileWhole(fd: number, zip: ZipFile, items: readonly ZipItem[]): Promise<WholeFile | undefined> {
  if (!items.every((i) => YAUZL_METHODS.has(i.entry.compressionMethod))) return undefined;
  const inflated = items
    .filter((i) => i.entry.compressionMethod !== 0)
    .map((i) => i.entry.uncompressedSize)
    .sort((a, b) => b - a)
    .slice(0, HEAD_READS_IN_FLIGHT)
    .reduce((sum, n) => sum + n, 0);
  const hold = zip.fileSize + inflated;
  if (hold > WHOLE_FILE_BYTES || hold > bufferedBytes.size) return undefined;
  const releaseHold = await bufferedBytes.hold(hold, 'the whole file');
  const buffer = wholeFileBuffers.take(zip.fileSize);
  const release = () => {
    wholeFileBuffers.giveBack(buffer);
    releaseHold();
  };
  try {
    const bytes = await readInto(fd, buffer, 0, zip.fileSize);
    if (bytes.length === zip.fileSize) return { bytes, release };
  } catch {
    // read it entry by entry, which reports what is wrong with it
  }
  release();
  return undefined;
}

/** Inflates an entry as it streams, checking its CRC-32 and size; returns its first {@link HEAD_BYTES}. */
async function streamVerified(zip: ZipFile, item: ZipItem): Promise<Buffer> {
  const stream = await openEntryStream(zip, item.entry); // yauzl fails it on a size other than the declared one
  const head = new HeadCollector(HEAD_BYTES);
  let crc = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    head.push(chunk);
    crc = crc32(chunk, crc);
    checkInflatedBytes(item.name, head.total);
  }
  if (crc >>> 0 !== item.entry.crc32 >>> 0) throw new MediaError('ERR_1008', `CRC mismatch in ${item.name}`);
  return head.bytes();
}

/** The first `max` bytes of an entry for listing: straight from the file when yauzl could read it. */
async function readEntryHead(file: string, zip: ZipFile, fd: number, item: ZipItem, max: number): Promise<Buffer> {
  if (isEncrypted(item.entry)) throw new MediaError('ERR_1002', `Encrypted ZIP entry not supported: ${item.name}`);
  if (YAUZL_METHODS.has(item.entry.compressionMethod)) return readHead(fd, zip, item.entry, max);
  return sevenZipExtract(file, item.name, max);
}

async function readEntry(
  file: string,
  zip: ZipFile,
  item: ZipItem,
  max?: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  if (isEncrypted(item.entry)) throw new MediaError('ERR_1002', `Encrypted ZIP entry not supported: ${item.name}`);
  if (max === undefined) checkDeclaredEntry(item.name, item.entry.uncompressedSize, item.entry.compressedSize);
  if (YAUZL_METHODS.has(item.entry.compressionMethod)) return readWithYauzl(zip, item.entry, item.name, max, signal);
  return sevenZipExtract(file, item.name, max, signal);
}

/** The entry's bytes, if they match the CRC-32 the archive records for them (yauzl does not check it). */
function checkedCrc(item: ZipItem, bytes: Buffer): Buffer {
  const actual = crc32(bytes) >>> 0;
  if (actual !== item.entry.crc32 >>> 0) {
    throw new MediaError(
      'ERR_1008',
      `CRC mismatch in ${item.name}: ${actual.toString(16)} ≠ ${item.entry.crc32.toString(16)}`,
    );
  }
  return bytes;
}

/** Concurrent head reads per archive (libuv's default thread pool has 4 threads). */
const HEAD_READS_IN_FLIGHT = 4;

/**
 * `fn` over `items` with at most `limit` calls pending; results in the order of `items`. On a failure no new
 * call starts, and the first error is thrown only once every pending call has settled (the caller closes the
 * file next).
 */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const rejected = settled.find((r) => r.status === 'rejected');
  if (rejected) throw rejected.reason;
  return out;
}

/**
 * An entry's type (and dimensions when asked), from as few bytes of it as possible; with `verify`, from all of
 * them, read once: a page that does not read whole, fails its CRC or has no readable image header is untyped.
 */
async function describeItem(
  file: string,
  zip: ZipFile,
  fd: number,
  item: ZipItem,
  opts: ListingOptions,
  wholeFile?: WholeFile,
): Promise<ContainerEntry> {
  const { dimensions } = opts;
  const size = item.entry.uncompressedSize;
  if (opts.verify) {
    const entry = await withVerifiedEntry(
      file,
      zip,
      fd,
      item,
      async (bytes) => {
        if (!(bytes instanceof Error)) {
          const whole = describeEntry(item.name, size, bytes, dimensions);
          const listed = isPage(whole) && !(await imageHeaderReadable(bytes)) ? { ...whole, mediaType: null } : whole;
          // an entry larger than the buffer budget was checked as it streamed: only its head is here
          if (bytes.length === size) opts.onVerified?.(listed, bytes);
          return listed;
        }
        return null;
      },
      wholeFile,
    );
    if (entry) return entry;
    // It does not read whole: typed from its start if that reads, as without `verify`; a page loses its type.
    const typed = await describeItem(file, zip, fd, item, { dimensions });
    return isPage(typed) ? { ...typed, mediaType: null } : typed;
  }
  const readHeadOrNull = async (max: number): Promise<Buffer | null> => {
    if (size === 0) return Buffer.alloc(0);
    try {
      return await readEntryHead(file, zip, fd, item, max);
    } catch (e) {
      // One unreadable entry (bad data, unknown method) is reported with a null type, as Komga does.
      if (e instanceof MediaError && e.code === 'ERR_1002') throw e;
      return null;
    }
  };
  // Random access makes short reads cheap: first only what type detection needs (it also holds the image
  // header of nearly every page), more only when the dimensions are not in it. Entries up to HEAD_BYTES, and
  // those 7-Zip reads, are read up to HEAD_BYTES at once.
  const sniffFirst = YAUZL_METHODS.has(item.entry.compressionMethod) && size > HEAD_BYTES;
  let head = await readHeadOrNull(sniffFirst ? SNIFF_BYTES : HEAD_BYTES);
  let entry = describeEntry(item.name, size, head, dimensions);
  const lacksDimensions = () => dimensions && isPage(entry) && entry.width === undefined;
  if (sniffFirst && lacksDimensions() && head && head.length >= SNIFF_BYTES) {
    head = await readHeadOrNull(HEAD_BYTES);
    entry = describeEntry(item.name, size, head, dimensions);
  }
  if (lacksDimensions() && head && head.length >= HEAD_BYTES) {
    // The image header lies further in (e.g. a JPEG with a large EXIF block): random access makes reading
    // this one entry whole cheap.
    entry = describeEntry(item.name, size, await readEntry(file, zip, item), dimensions);
  }
  return entry;
}

/** The ZIP reader, which streams an entry as it inflates (pages served as they are, page hashes). */
export const zipReader: ContainerReader & {
  stream: NonNullable<ContainerReader['stream']>;
  lend: NonNullable<ContainerReader['lend']>;
} = {
  mediaTypes: [MediaTypes.zip],

  async entries(file, opts) {
    const items: ZipItem[] = [];
    const budget = new BookBudget();
    return withCentralDirectory(
      file,
      async (_zip, item) => {
        budget.add(item.name, item.entry.uncompressedSize, item.entry.compressedSize);
        if (isDirectoryName(item.name) || isJunk(item.name)) return true;
        if (isEncrypted(item.entry)) throw new MediaError('ERR_1002', `Encrypted ZIP not supported: ${item.name}`);
        items.push(item);
        return true;
      },
      async (zip, fd) => {
        // The heads are read once the whole directory is known, several at a time: each read is a round trip
        // to libuv's thread pool, and overlapping them is what makes a 20-page book cheap.
        const wholeFile = opts.verify && opts.onFileBytes ? await readFileWhole(fd, zip, items) : undefined;
        // The file's bytes are handed over while the entries are checked (the hash runs on a worker thread beside
        // them); a failure of either is the listing's failure.
        const handedOver = wholeFile ? (async () => opts.onFileBytes!(wholeFile.bytes))() : undefined;
        handedOver?.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
        try {
          const entries = await mapConcurrently(items, HEAD_READS_IN_FLIGHT, (item) =>
            describeItem(file, zip, fd, item, opts, wholeFile),
          );
          await handedOver;
          return sortEntries(entries);
        } finally {
          // the buffer is reused by the next file: never while something still reads it
          await handedOver?.catch(() => undefined);
          wholeFile?.release();
        }
      },
    );
  },

  async read(file, entryName, opts) {
    const opened = await openZip(file);
    const { zip } = opened;
    try {
      const entry = (await directoryOf(opened, file)).get(entryName);
      if (!entry) throw new MediaError('ERR_1005', `Entry not found: ${entryName}`);
      return await readEntry(file, zip, { name: entryName, entry }, undefined, opts?.signal);
    } catch (e) {
      throw toMediaError(e, 'Cannot read ZIP entry');
    } finally {
      zip.close();
    }
  },

  async lend(file, entryName, use) {
    const opened = await openZip(file);
    const { zip, fd } = opened;
    let lent: { bytes: Buffer; release(): void };
    try {
      const entry = (await directoryOf(opened, file)).get(entryName);
      if (!entry) throw new MediaError('ERR_1005', `Entry not found: ${entryName}`);
      if (YAUZL_METHODS.has(entry.compressionMethod) && !isEncrypted(entry)) {
        checkDeclaredEntry(entryName, entry.uncompressedSize, entry.compressedSize);
        // a Stored page is a view of a reused read buffer (issue 18: a fresh one per page read for the barcode
        // search, six a book, outlived the young generation and piled up until a full collection)
        lent = await readWhole(fd, zip, entry);
      } else {
        lent = { bytes: await readEntry(file, zip, { name: entryName, entry }), release: () => undefined };
      }
    } catch (e) {
      throw toMediaError(e, 'Cannot read ZIP entry');
    } finally {
      zip.close();
    }
    try {
      return await use(lent.bytes);
    } finally {
      lent.release();
    }
  },

  async stream(file, entryName, opts) {
    const opened = await openZip(file);
    const { zip } = opened;
    let source: Readable;
    let size: number | null;
    let release = () => {};
    try {
      const entry = (await directoryOf(opened, file)).get(entryName);
      if (!entry) throw new MediaError('ERR_1005', `Entry not found: ${entryName}`);
      if (!YAUZL_METHODS.has(entry.compressionMethod) || isEncrypted(entry)) {
        // 7-Zip hands whole entries over (bounded by the entry limit and the buffer budget); encrypted ones fail
        // in readEntry
        release = await bufferedBytes.hold(
          Math.min(entry.uncompressedSize, mediaLimits().maxEntryBytes),
          `entry "${entryName}"`,
          opts?.signal,
        );
        const bytes = await readEntry(file, zip, { name: entryName, entry }, undefined, opts?.signal);
        source = Readable.from([bytes]);
        size = bytes.length;
      } else {
        checkDeclaredEntry(entryName, entry.uncompressedSize, entry.compressedSize);
        // yauzl fails the stream when the inflated bytes do not add up to this (validateEntrySizes)
        size = entry.uncompressedSize;
        source = await openEntryStream(zip, entry);
      }
    } catch (e) {
      release();
      zip.close();
      throw toMediaError(e, 'Cannot read ZIP entry');
    }
    let inflated = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        inflated += chunk.length;
        try {
          checkInflatedBytes(entryName, inflated);
          done(null, chunk);
        } catch (e) {
          done(e as Error);
        }
      },
    });
    // an error or early destroy on either side tears down both, and the file is closed either way; buffered bytes
    // count until the consumer has them all (or gave up)
    pipeline(source, counted, () => zip.close());
    counted.once('close', release);
    if (opts?.signal) {
      const signal = opts.signal;
      const onAbort = () => counted.destroy(signal.reason as Error);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      counted.once('close', () => signal.removeEventListener('abort', onAbort));
    }
    return { stream: counted, size };
  },
};

/**
 * The central directories of the last few ZIPs pages were read from, by file and its size and modification
 * time: a reader turning pages of a 20,000-page book would otherwise walk 20,000 directory entries per page
 * (4.5 s for the last one). An entry's offsets are all a later read needs, from any ZipFile of the same file.
 */
const directories = new Map<string, { version: string; byName: Map<string, Entry> }>();
const CACHED_DIRECTORIES = 8;

async function directoryOf({ zip, fd, preloadDirectory }: OpenZipFile, file: string): Promise<Map<string, Entry>> {
  const stats = await new Promise<{ size: number; mtimeMs: number }>((resolve, reject) =>
    fstat(fd, (err, s) => (err ? reject(err) : resolve(s))),
  );
  const version = `${stats.size}:${stats.mtimeMs}`;
  const cached = directories.get(file);
  if (cached?.version === version) {
    directories.delete(file); // most recently used last
    directories.set(file, cached);
    return cached.byName;
  }
  checkEntryCount(zip.entryCount);
  await preloadDirectory(DIRECTORY_PRELOAD_BYTES);
  const byName = await new Promise<Map<string, Entry>>((resolve, reject) => {
    const found = new Map<string, Entry>();
    zip.on('error', reject);
    zip.on('end', () => resolve(found));
    zip.on('entry', (entry: Entry) => {
      const name = entryName(entry);
      // the first of two entries of one name wins, as it did when each read walked the directory
      if (!isDirectoryName(name) && !found.has(name)) found.set(name, entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
  directories.set(file, { version, byName });
  if (directories.size > CACHED_DIRECTORIES) directories.delete(directories.keys().next().value!);
  return byName;
}

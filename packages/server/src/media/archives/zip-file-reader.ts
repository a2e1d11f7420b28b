import { close, fstat, open, read } from 'node:fs';
import { Readable } from 'node:stream';
import yauzl, { type ZipFile } from 'yauzl';

/**
 * yauzl's random-access reader over a file descriptor, keeping the bytes of its first large read in memory.
 * yauzl starts by reading the file's last 64 KiB (to find the end of the central directory), and for a comic
 * that tail holds the whole central directory: keeping it turns the two reads yauzl makes per entry into
 * memory copies. Reads outside it, and entry data streams, go to the file.
 */
class TailCachingReader extends yauzl.RandomAccessReader {
  private cache: { position: number; bytes: Buffer } | undefined;

  constructor(private readonly fd: number) {
    super();
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null, bytesRead?: number) => void,
  ): void {
    const c = this.cache;
    if (c && position >= c.position && position + length <= c.position + c.bytes.length) {
      c.bytes.copy(buffer, offset, position - c.position, position - c.position + length);
      queueMicrotask(() => callback(null, length));
      return;
    }
    read(this.fd, buffer, offset, length, position, (err, bytesRead) => {
      if (!err && !this.cache && length >= MIN_CACHED_READ) {
        // a view, not a copy: yauzl only reads this buffer (its end-of-directory search), and a 64 KiB copy per
        // archive opened was garbage that outlived the young generation (issue 18: peak RSS)
        this.cache = { position, bytes: buffer.subarray(offset, offset + bytesRead) };
      }
      callback(err, bytesRead);
    });
  }

  /**
   * Keeps bytes [position, end of file) in memory instead of the first large read: the whole central directory,
   * for a walk over all of it (two reads per entry otherwise, each a round trip to libuv's thread pool: 2 s for a
   * 20,000-entry directory).
   */
  preload(position: number, fileSize: number): Promise<void> {
    const c = this.cache;
    if (c && c.position <= position && c.position + c.bytes.length >= fileSize) return Promise.resolve();
    const bytes = Buffer.allocUnsafe(fileSize - position);
    return new Promise((resolve, reject) => {
      const step = (filled: number) => {
        if (filled >= bytes.length) {
          this.cache = { position, bytes };
          resolve();
          return;
        }
        read(this.fd, bytes, filled, bytes.length - filled, position + filled, (err, n) => {
          if (err) reject(err);
          else if (n === 0)
            resolve(); // shorter than it said: leave the cache as it was
          else step(filled + n);
        });
      };
      step(0);
    });
  }

  override _readStreamForRange(start: number, end: number): Readable {
    // Not fs.createReadStream: destroying one closes its descriptor, which here belongs to the whole archive.
    const fd = this.fd;
    let position = start;
    return new Readable({
      highWaterMark: STREAM_CHUNK,
      read(size) {
        const length = Math.min(size, STREAM_CHUNK, end - position);
        if (length <= 0) {
          this.push(null);
          return;
        }
        const chunk = Buffer.allocUnsafe(length);
        read(fd, chunk, 0, length, position, (err, bytesRead) => {
          if (err) this.destroy(err);
          else if (bytesRead === 0) this.push(null);
          else {
            position += bytesRead;
            this.push(chunk.subarray(0, bytesRead));
          }
        });
      },
    });
  }

  override close(callback: (err: Error | null) => void): void {
    close(this.fd, callback);
  }
}

const STREAM_CHUNK = 64 * 1024;
/** Smaller reads are entry headers; the end-of-directory search reads up to 64 KiB + 22 bytes. */
const MIN_CACHED_READ = 4096;

/** A ZIP opened for lazy listing and its file descriptor; `zip.close()` closes the file. */
export interface OpenZipFile {
  zip: ZipFile;
  fd: number;
  /**
   * Before walking the whole central directory: reads it at once when it is no larger than `maxBytes` (it is
   * ~100 bytes per entry, and the entry count is limited).
   */
  preloadDirectory(maxBytes: number): Promise<void>;
}

/** Where yauzl will read the next directory entry (its start, before any was read). */
const directoryStart = (zip: ZipFile) => (zip as unknown as { readEntryCursor: number }).readEntryCursor;

export function openZipFile(file: string, options: { decodeStrings: boolean }): Promise<OpenZipFile> {
  return new Promise((resolve, reject) => {
    open(file, 'r', (openErr, fd) => {
      if (openErr) return reject(openErr);
      fstat(fd, (statErr, stats) => {
        if (statErr) {
          close(fd, () => undefined);
          return reject(statErr);
        }
        const reader = new TailCachingReader(fd);
        yauzl.fromRandomAccessReader(
          reader,
          stats.size,
          { lazyEntries: true, autoClose: false, validateEntrySizes: true, ...options },
          (err, zip) => {
            if (err) {
              close(fd, () => undefined);
              reject(err);
            } else {
              const preloadDirectory = async (maxBytes: number) => {
                const start = directoryStart(zip);
                if (stats.size - start <= maxBytes) {
                  await reader.preload(start, stats.size);
                }
              };
              resolve({ zip, fd, preloadDirectory });
            }
          },
        );
      });
    });
  });
}

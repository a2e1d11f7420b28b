import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type tar from 'tar-stream';
import { MediaTypes, detectBuffer } from '../detect.js';
import {
  HEAD_BYTES,
  HeadCollector,
  describeEntry,
  isDirectoryName,
  isJunk,
  normalizeEntryName,
  sortEntries,
} from '../pages.js';
import { BookBudget, checkDeclaredEntry, checkInflatedBytes } from '../limits.js';
import { MediaError, type ContainerEntry, type ContainerReader } from '../types.js';
import { sevenZipStream } from './sevenzip.js';

/**
 * TAR / CBT (ustar, GNU, pax or V7 headers), plain or compressed as a whole (gzip with zlib; xz, bzip2, zstd with 7-Zip in a worker).
 * A tar has no index: the file is streamed from the start until the entry is found, then reading stops
 * (and the decompressor is torn down). Memory stays at one entry at most.
 *
 * A compressed tar keeps the outer type as its media type (`application/x-xz`…), as Tika names it;
 * this reader accepts those and fails with ERR_1008 when the content is not a tar.
 */

async function sniff(file: string): Promise<string> {
  const fh = await open(file, 'r');
  try {
    const b = Buffer.alloc(512);
    const { bytesRead } = await fh.read(b, 0, 512, 0);
    return detectBuffer(b.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

async function tarStream(file: string): Promise<Readable> {
  const type = await sniff(file);
  switch (type) {
    case MediaTypes.tar:
      return createReadStream(file);
    case MediaTypes.gzip: {
      const gunzip = createGunzip();
      // pipe() does not pass the file's errors on: the reader listens to the gunzip stream only.
      return createReadStream(file)
        .on('error', (e) => gunzip.destroy(e))
        .pipe(gunzip);
    }
    case MediaTypes.xz:
    case MediaTypes.bzip2:
    case MediaTypes.zstd:
      return sevenZipStream(file);
    default:
      // An empty tar is all zeros: let tar-stream decide.
      return createReadStream(file);
  }
}

function toMediaError(e: unknown): MediaError {
  if (e instanceof MediaError) return e;
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'ENOENT') return new MediaError('ERR_1018', message);
  if (code === 'EACCES' || code === 'EPERM') return new MediaError('ERR_1000', message);
  return new MediaError('ERR_1008', `TAR: ${message}`);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An entry's name. Header names (ustar with its prefix, GNU long names, V7) are bytes in whatever code page
 * the writer used; tar-stream hands them over as Latin-1 (one character per byte, nothing lost). They are
 * UTF-8 when they decode as such, else they stay Latin-1: a CP437 or Latin-1 name is then still a distinct
 * name that reads back the entry. A pax `path` record is UTF-8 by the standard and taken as it is.
 */
function entryName(header: tar.Header): string {
  const pax = (header as { pax?: Record<string, string> | null }).pax;
  if (pax?.path) return pax.path;
  try {
    return strictUtf8.decode(Buffer.from(header.name, 'latin1'));
  } catch {
    return header.name;
  }
}

type Visit = (name: string, header: tar.Header, body: Readable) => Promise<boolean>;

/** Streams the tar; `visit` consumes (or drains) each file body and returns false to stop. */
async function walk(file: string, visit: Visit): Promise<void> {
  const { extract: newExtract } = (await import('tar-stream')).default; // loaded on first use: TAR is rare
  // Loaded before the source is made: awaiting it in between (slow on first use) let a decompressor that fails at
  // once (a damaged .tar.xz) emit its error before anything listened, and an unheard 'error' ends the process.
  let source: Readable;
  try {
    source = await tarStream(file);
  } catch (e) {
    throw toMediaError(e);
  }
  // Any tar with valid header checksums: also the old V7 layout, which has no magic. (Both options exist in
  // tar-stream 3 but are missing from its type declarations.)
  const options = { filenameEncoding: 'latin1', allowUnknownFormat: true };
  const extract = newExtract(options as Parameters<typeof newExtract>[0]);
  const stop = () => {
    source.unpipe(extract);
    source.destroy();
    extract.destroy();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (err?: unknown) => {
        if (settled) return;
        settled = true;
        if (err) reject(err);
        else resolve();
      };
      source.on('error', settle);
      extract.on('error', settle);
      extract.on('finish', () => settle());
      extract.on('entry', (header, body, next) => {
        const name = normalizeEntryName(entryName(header));
        const isFile = header.type === 'file' || header.type === 'contiguous-file';
        if (!isFile || isDirectoryName(name)) {
          body.on('end', next);
          body.resume();
          return;
        }
        visit(name, header, body as unknown as Readable).then(
          (more) => {
            if (more) next();
            else {
              settle();
              stop();
            }
          },
          (err: unknown) => settle(err),
        );
      });
      source.pipe(extract);
    });
  } catch (e) {
    throw toMediaError(e);
  } finally {
    stop();
  }
}

/**
 * Reads a body: the first `max` bytes kept, the rest drained (the tar stream has to pass it anyway). A whole
 * body (`max` Infinity) is refused once more bytes came than the entry limit allows.
 */
function collect(body: Readable, max: number, name = ''): Promise<Buffer> {
  const c = new HeadCollector(max);
  return new Promise((resolve, reject) => {
    body.on('data', (chunk: Buffer) => {
      c.push(chunk);
      if (max !== Infinity) return;
      try {
        checkInflatedBytes(name, c.total);
      } catch (e) {
        body.destroy();
        reject(e);
      }
    });
    body.on('error', reject);
    body.on('end', () => resolve(c.bytes()));
  });
}

export const tarReader: ContainerReader = {
  mediaTypes: [MediaTypes.tar, MediaTypes.gzip, MediaTypes.xz, MediaTypes.bzip2, MediaTypes.zstd],

  async entries(file, { dimensions }) {
    const entries: ContainerEntry[] = [];
    const budget = new BookBudget();
    await walk(file, async (name, header, body) => {
      // Checked before the body is drained: the decompressor never inflates an over-limit entry.
      budget.add(name, header.size ?? null, null);
      if (isJunk(name)) {
        await collect(body, 0);
        return true;
      }
      const head = await collect(body, HEAD_BYTES);
      entries.push(describeEntry(name, header.size ?? null, head, dimensions));
      return true;
    });
    return sortEntries(entries);
  },

  async read(file, entryName, opts) {
    let found: Buffer | undefined;
    await walk(file, async (name, header, body) => {
      opts?.signal?.throwIfAborted();
      if (name !== entryName) {
        await collect(body, 0);
        return true;
      }
      checkDeclaredEntry(name, header.size ?? null, null);
      found = await collect(body, Infinity, name);
      return false;
    });
    if (!found) throw new MediaError('ERR_1005', `Entry not found: ${entryName}`);
    return found;
  },
};

import { basename, resolve } from 'node:path';
import type { Extractor, FileHeader } from 'node-unrar-js';
import { MediaTypes } from '../detect.js';
import { HEAD_BYTES, HeadCollector, describeEntry, isJunk, normalizeEntryName, sortEntries } from '../pages.js';
import { BookBudget, checkDeclaredEntry, checkInflatedBytes, mediaLimits } from '../limits.js';
import { MediaError, type ContainerEntry, type ContainerReader } from '../types.js';

/**
 * RAR4 / RAR5 / CBR through node-unrar-js (the real unrar, compiled to WASM), using its file-based
 * extractor: unrar reads the archive through `fs` with seeks (only the headers, then the blocks it
 * decodes), and opens the next volumes of a multi-volume set itself from beside the first one. The
 * extractor's output side is redirected to memory, so nothing is ever written to disk.
 *
 * Solid archives are decoded sequentially up to the entry asked for (unrar's own rule).
 * Encrypted files or headers → ERR_1002 ("Encrypted RAR not supported", as Komga).
 * A volume other than the first of a set, or a set with a missing volume → ERR_1004.
 * Anything else unrar rejects → ERR_1008.
 *
 * unrar runs synchronously: each call does all its unrar work in one synchronous stretch, so concurrent
 * calls never interleave inside the (shared) WASM module.
 */

/** The protected parts of node-unrar-js's ExtractorFile this module redirects. */
interface ExtractorInternals {
  unrar: { HEAPU8: Uint8Array; extractor: unknown };
  fileMap: Record<number, { size: number; pos: number; name: string }>;
  create(filename: string): number;
  write(fd: number, buf: number, size: number): boolean;
  closeFile(fd: number): void;
  closeArc(): void;
  _archive: unknown;
}

/** Output descriptors handed to unrar for "created" files; far above any real fd. */
let nextFd = 1 << 24;

interface Capture {
  /** Called with the header of the file unrar is about to extract; returns where its bytes go. */
  sinkFor(header: FileHeader): HeadCollector;
}

/** node-unrar-js, loaded with the first RAR: its glue and WebAssembly are of no use to a library without one. */
let unrar: typeof import('node-unrar-js') | undefined;

async function openExtractor(
  file: string,
  capture: Capture | null,
): Promise<{ ex: Extractor; setCurrent: (h: FileHeader) => void }> {
  unrar ??= await import('node-unrar-js');
  const ex = await unrar.createExtractorFromFile({ filepath: resolve(file), targetPath: '/nonexistent-quire-target' });
  const internals = ex as unknown as ExtractorInternals;
  let current: FileHeader | null = null;
  const sinks = new Map<number, HeadCollector>();
  internals.create = () => {
    const fd = nextFd++;
    const sink = capture && current ? capture.sinkFor(current) : new HeadCollector(0);
    sinks.set(fd, sink);
    internals.fileMap[fd] = { size: 0, pos: 0, name: current?.name ?? '' };
    return fd;
  };
  const baseWrite = internals.write.bind(ex);
  internals.write = (fd, buf, size) => {
    const sink = sinks.get(fd);
    if (!sink) return baseWrite(fd, buf, size);
    sink.push(internals.unrar.HEAPU8.subarray(buf, buf + size));
    const entry = internals.fileMap[fd]!;
    entry.pos += size;
    entry.size += size;
    return true;
  };
  const baseClose = internals.closeFile.bind(ex);
  internals.closeFile = (fd) => {
    if (sinks.delete(fd)) {
      delete internals.fileMap[fd];
      return;
    }
    baseClose(fd);
  };
  return { ex, setCurrent: (h) => (current = h) };
}

/**
 * node-unrar-js routes the WASM's file callbacks to one global `unrar.extractor`, set when an extractor is
 * created: concurrent calls would steal each other's callbacks. Each caller re-points it to its own
 * extractor right after its last `await` and then does all its unrar work synchronously, so nothing can
 * re-point it in between.
 */
function own(ex: Extractor): void {
  (ex as unknown as ExtractorInternals).unrar.extractor = ex;
}

/** Closes unrar's archive (and so its file handles) if an iteration stopped early or failed. */
function ensureClosed(ex: Extractor): void {
  const internals = ex as unknown as ExtractorInternals;
  if (internals._archive) {
    try {
      internals.closeArc();
    } catch {
      // already closed
    }
  }
}

function toMediaError(e: unknown, file: string): MediaError {
  if (e instanceof MediaError) return e;
  if (unrar && e instanceof unrar.UnrarError) {
    switch (e.reason) {
      case 'ERAR_MISSING_PASSWORD':
      case 'ERAR_BAD_PASSWORD':
        return new MediaError('ERR_1002', 'Encrypted RAR not supported');
      case 'ERAR_EOPEN':
        return new MediaError('ERR_1004', `Multi-volume RAR: a volume is missing beside ${basename(file)}`);
      default:
        return new MediaError('ERR_1008', `RAR: ${e.message}${e.file ? ` (${e.file})` : ''}`);
    }
  }
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'ENOENT') return new MediaError('ERR_1018', message);
  if (code === 'EACCES' || code === 'EPERM') return new MediaError('ERR_1000', message);
  return new MediaError('ERR_1008', `RAR: ${message}`);
}

/** `name.part3.rar` style names give the volume number; old-style `.r00` volumes are never the first. */
function laterVolume(file: string): boolean {
  const base = basename(file).toLowerCase();
  const m = /\.part0*(\d+)\.rar$/.exec(base);
  if (m) return Number(m[1]) !== 1;
  return /\.r\d\d$/.test(base);
}

/** Headers only: refuses encrypted archives and non-first volumes before any decoding. */
function checkHeaders(ex: Extractor, file: string): FileHeader[] {
  const list = ex.getFileList();
  if (list.arcHeader.flags.headerEncrypted) throw new MediaError('ERR_1002', 'Encrypted RAR not supported');
  if (list.arcHeader.flags.volume && laterVolume(file)) {
    throw new MediaError('ERR_1004', 'Multi-volume RAR: open the first volume of the set');
  }
  const headers = [...list.fileHeaders];
  if (headers.some((h) => h.flags.encrypted)) throw new MediaError('ERR_1002', 'Encrypted RAR not supported');
  // Before anything is decoded: analysis decodes every file once (solid archives need it).
  const budget = new BookBudget();
  for (const h of headers) budget.add(normalizeEntryName(h.name), h.unpSize, h.flags.directory ? null : h.packSize);
  return headers;
}

export const rarReader: ContainerReader = {
  mediaTypes: [MediaTypes.rar4, MediaTypes.rar5],

  async entries(file, { dimensions }) {
    const heads = new Map<string, HeadCollector>();
    const { ex, setCurrent } = await openExtractor(file, {
      sinkFor: (h) => {
        const c = new HeadCollector(HEAD_BYTES);
        heads.set(h.name, c);
        return c;
      },
    }).catch((e: unknown) => {
      throw toMediaError(e, file);
    });
    own(ex);
    try {
      const headers = checkHeaders(ex, file);
      const wanted = (h: FileHeader) => !h.flags.directory && !isJunk(normalizeEntryName(h.name));
      const { files } = ex.extract({
        files: (h) => {
          setCurrent(h);
          return wanted(h);
        },
      });
      for (const f of files) void f; // decodes each wanted file once, in archive order (solid-friendly)
      const entries: ContainerEntry[] = [];
      for (const h of headers) {
        if (!wanted(h)) continue;
        const head = heads.get(h.name);
        // A file with no bytes written is empty (unrar never "creates" zero-length output for some).
        entries.push(
          describeEntry(normalizeEntryName(h.name), h.unpSize, head ? head.bytes() : Buffer.alloc(0), dimensions),
        );
      }
      return sortEntries(entries);
    } catch (e) {
      throw toMediaError(e, file);
    } finally {
      ensureClosed(ex);
    }
  },

  async read(file, entryName) {
    let data: HeadCollector | undefined;
    let rawName: string | undefined;
    const { ex, setCurrent } = await openExtractor(file, {
      // Keeps no more than the entry limit whatever unrar writes; the rest is only counted.
      sinkFor: () => (data = new HeadCollector(mediaLimits().maxEntryBytes + 1)),
    }).catch((e: unknown) => {
      throw toMediaError(e, file);
    });
    own(ex);
    try {
      const headers = checkHeaders(ex, file);
      const header = headers.find((h) => !h.flags.directory && normalizeEntryName(h.name) === entryName);
      if (header === undefined) throw new MediaError('ERR_1005', `Entry not found: ${entryName}`);
      checkDeclaredEntry(entryName, header.unpSize, header.packSize);
      rawName = header.name;
      let extracted = false;
      const { files } = ex.extract({
        files: (h) => {
          setCurrent(h);
          return !extracted && h.name === rawName;
        },
      });
      for (const f of files) {
        if (f.fileHeader.name === rawName) {
          extracted = true;
          break; // stop before decoding what follows (ensureClosed releases the archive)
        }
      }
      if (!extracted) throw new MediaError('ERR_1005', `Entry not found: ${entryName}`);
      // unrar writes what it decodes into memory synchronously: the declared size was checked above, and
      // the bytes that came out are checked here (a header may lie; unrar then also fails its CRC check).
      if (data) checkInflatedBytes(entryName, data.total);
      return data ? data.bytes() : Buffer.alloc(0);
    } catch (e) {
      throw toMediaError(e, file);
    } finally {
      ensureClosed(ex);
    }
  },
};

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { LibraryFile, LibraryFiles } from './library-files.js';
import { loadZipJs } from '../media/zip-writer.js';

/**
 * Book and series downloads (api.md §1.8): file names, Content-Disposition, and the series ZIP written as a
 * stream (stored entries, Zip64) so no book is ever held in memory.
 */

/** The file name of a book, from its file: URL. */
export const fileNameOf = (url: string) => basename(fileURLToPath(url));

/** RFC 5987 `attr-char` encoding (encodeURIComponent also leaves ' ( ) * unencoded). */
const rfc5987 = (s: string) =>
  encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>` (RFC 6266): old clients
 * read the fallback (non-ASCII replaced by `_`, quotes and backslashes escaped), others the exact name.
 */
export function contentDisposition(type: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, (c) => `\\${c}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${rfc5987(fileName)}`;
}

/**
 * A file of a book, ready to stream, named as in its library (a link inside the root keeps its own name); null
 * when the file is gone or leads out of the library root.
 */
export async function openBookFile(
  files: LibraryFiles,
  book: LibraryFile,
): Promise<{ stream: Readable; size: number; name: string } | null> {
  const path = await files.pathOf(book);
  if (!path) return null;
  try {
    const s = await stat(path);
    if (!s.isFile()) return null;
    return { stream: createReadStream(path), size: s.size, name: fileNameOf(book.url) };
  } catch {
    return null;
  }
}

/**
 * A ZIP of the given files, stored (no compression) with Zip64 records, produced as it is read: each file is
 * streamed into the archive in turn. Missing files are skipped. Errors end the stream with that error.
 */
export function streamStoredZip(
  libraryFiles: LibraryFiles,
  files: readonly (LibraryFile & { name?: string })[],
): Readable {
  const out = new PassThrough();
  const names = new Set<string>();
  void (async () => {
    try {
      const { ZipWriter } = await loadZipJs();
      const writer = new ZipWriter(Writable.toWeb(out) as WritableStream<Uint8Array>, {
        level: 0,
        zip64: true,
        useWebWorkers: false,
      });
      for (const f of files) {
        const opened = await openBookFile(libraryFiles, f);
        if (!opened) continue;
        let name = f.name ?? opened.name;
        for (let i = 2; names.has(name); i++) name = `${i} - ${f.name ?? opened.name}`;
        names.add(name);
        await writer.add(name, Readable.toWeb(opened.stream) as ReadableStream<Uint8Array>, {
          level: 0,
          zip64: true,
        });
      }
      await writer.close();
    } catch (e) {
      out.destroy(e as Error);
    }
  })();
  return out;
}

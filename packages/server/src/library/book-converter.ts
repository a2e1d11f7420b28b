import { createWriteStream } from 'node:fs';
import { access, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { BookRepository, LibraryRepository, MediaRepository } from '../domain/ports.js';
import type { EventBus } from '../events/bus.js';
import { readerFor } from '../media/archives/index.js';
import { CANONICAL_EXTENSIONS, MediaTypes } from '../media/detect.js';
import type { BookAnalyzer } from './book-analyzer.js';
import { fileUrl, updatedTime } from './file-system-scanner.js';
import type { LibraryFiles } from './library-files.js';
import { loadZipJs } from '../media/zip-writer.js';
import { bookConverted, bookFileDeleted, DELETION_REASONS } from '../domain/history.js';
import type { HistoryRecorder } from './history.js';

/** Why a conversion or repair did not happen; the task logs it. */
export class ConversionError extends Error {
  override name = 'ConversionError';
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
const baseName = (path: string) => basename(path, extname(path));

/**
 * ConvertBook and RepairExtension (engine.md §11.1-11.2): RAR books rewritten as CBZ, and files renamed to the
 * extension of their real type. Both re-check the library option and the file's time at run time, and keep the
 * book's id, metadata, progress and posters: only its file changes. Quire keeps the book's number and one-shot
 * flag (Komga resets them until the next scan) and, after a rename, its hashes (the bytes did not change).
 */
export class BookConverter {
  /** Books whose conversion failed in this process: not retried after every scan (Komga's rule). */
  private readonly failed = new Set<string>();

  constructor(
    private readonly d: {
      media: MediaRepository;
      books: Pick<BookRepository, 'findByMediaType' | 'replaceFile'>;
      libraries: Pick<LibraryRepository, 'find'>;
      analyzer: Pick<BookAnalyzer, 'analyze'>;
      events: EventBus;
      files: LibraryFiles;
      history: HistoryRecorder;
      now?: () => Date;
    },
  ) {}

  /** RAR books to convert, when the library converts (FindBooksToConvert). */
  async booksToConvert(libraryId: string): Promise<{ id: string; seriesId: string }[]> {
    if (!(await this.d.libraries.find(libraryId))?.convertToCbz) return [];
    return (await this.d.books.findByMediaType(libraryId, [MediaTypes.rar4, MediaTypes.rar5])).filter(
      (b) => !this.failed.has(b.id),
    );
  }

  /**
   * Writes `<name>.cbz` beside the RAR file (every page, then every other entry, stored), checks that it reads
   * back with the same pages and files, then deletes the RAR file and points the book at the CBZ. Returns false
   * when nothing was to be done.
   */
  async convertToCbz(bookId: string): Promise<boolean> {
    const t = await this.d.media.analysisTarget(bookId);
    if (!t || !t.convertToCbz || this.failed.has(bookId)) return false;
    if (t.mediaType !== MediaTypes.rar4 && t.mediaType !== MediaTypes.rar5) return false;
    const source = fileURLToPath(t.url);
    if (!(await this.d.files.pathOf(t))) throw new ConversionError(`${source} is missing or outside its library`);
    if (!(await this.unchangedSinceScan(source, t.fileLastModified))) return false;
    if (t.status !== 'READY') throw new ConversionError(`Book ${bookId} is not analysed (${t.status})`);
    const target = join(dirname(source), `${baseName(source)}.cbz`);
    if (await exists(target)) throw new ConversionError(`Cannot convert ${source}: ${target} already exists`);

    const pages = await this.d.media.pages(bookId);
    const files = await this.d.media.files(bookId);
    try {
      await writeCbz(source, t.mediaType, [...pages.map((p) => p.fileName), ...files.map((f) => f.fileName)], target);
      const analysis = await this.d.analyzer.analyze(target, { analyzeDimensions: t.analyzeDimensions });
      const names = (list: readonly { fileName: string; mediaType?: string | null }[]) =>
        new Set(list.map((e) => `${basename(e.fileName)}\u0000${e.mediaType ?? ''}`));
      const newPages = names(analysis.pages);
      const newFiles = new Set(analysis.files.map((f) => basename(f.fileName)));
      const complete =
        analysis.status === 'READY' &&
        analysis.mediaType === MediaTypes.zip &&
        [...names(pages)].every((p) => newPages.has(p)) &&
        files.every((f) => newFiles.has(basename(f.fileName)));
      if (!complete) throw new ConversionError(`The CBZ written from ${source} does not hold every page and file`);

      const written = await stat(target);
      await rm(source);
      const now = this.now();
      await this.d.books.replaceFile(
        bookId,
        {
          url: fileUrl(target),
          fileSize: written.size,
          fileLastModified: updatedTime(written, false),
          fileHash: '',
          fileHashKoreader: '',
        },
        now,
      );
      await this.d.media.save(bookId, analysis, now);
    } catch (e) {
      this.failed.add(bookId);
      if (await exists(source)) await rm(target, { force: true });
      throw e;
    }
    const ref = { bookId, seriesId: t.seriesId, libraryId: t.libraryId };
    await this.d.history.record(bookFileDeleted(ref, source, DELETION_REASONS.afterConversion));
    await this.d.history.record(bookConverted(ref, target, source));
    this.d.events.emit({ type: 'BookChanged', data: { bookId, seriesId: t.seriesId, libraryId: t.libraryId } });
    return true;
  }

  /**
   * Renames the book's file to `<name>.<ext>` for its analysed type (ZIP → cbz, RAR → cbr, pdf, epub). A `.epub`
   * that is a plain ZIP is a broken EPUB, not a CBZ: left alone. Returns false when nothing was to be done.
   */
  async repairExtension(bookId: string): Promise<boolean> {
    const t = await this.d.media.analysisTarget(bookId);
    if (!t || !t.repairExtensions || !t.mediaType) return false;
    const ext = CANONICAL_EXTENSIONS[t.mediaType];
    const source = fileURLToPath(t.url);
    const current = extname(source).toLowerCase();
    if (!ext || current === `.${ext}` || current === '.epub') return false;
    if (!(await this.d.files.pathOf(t))) throw new ConversionError(`${source} is missing or outside its library`);
    if (!(await this.unchangedSinceScan(source, t.fileLastModified))) return false;
    const target = join(dirname(source), `${baseName(source)}.${ext}`);
    if (await exists(target)) throw new ConversionError(`Cannot rename ${source}: ${target} already exists`);
    await rename(source, target);
    const renamed = await stat(target);
    await this.d.books.replaceFile(
      bookId,
      {
        url: fileUrl(target),
        fileSize: renamed.size,
        fileLastModified: updatedTime(renamed, false),
        fileHash: t.fileHash,
        fileHashKoreader: t.fileHashKoreader,
      },
      this.now(),
    );
    this.d.events.emit({ type: 'BookChanged', data: { bookId, seriesId: t.seriesId, libraryId: t.libraryId } });
    return true;
  }

  /** The file still has the time the last scan saw: nobody changed it since (else the next scan handles it). */
  private async unchangedSinceScan(path: string, fileLastModified: string): Promise<boolean> {
    try {
      return updatedTime(await stat(path), false) <= Date.parse(fileLastModified);
    } catch {
      return false;
    }
  }

  private now(): Date {
    return this.d.now?.() ?? new Date();
  }
}

/** A stored ZIP of the given entries of an archive, read one at a time (never the whole archive in memory). */
export async function writeCbz(source: string, mediaType: string, entries: readonly string[], target: string) {
  const reader = readerFor(mediaType);
  if (!reader) throw new ConversionError(`No reader for ${mediaType}`);
  const { Uint8ArrayReader, ZipWriter } = await loadZipJs();
  const out = createWriteStream(target, { flags: 'wx' });
  const closed = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', reject);
  });
  const zip = new ZipWriter(Writable.toWeb(out) as WritableStream<Uint8Array>, { level: 0, useWebWorkers: false });
  try {
    for (const name of entries) {
      await zip.add(name, new Uint8ArrayReader(await reader.read(source, name)), { level: 0 });
    }
    await zip.close();
  } catch (e) {
    out.destroy();
    await closed.catch(() => undefined);
    throw e;
  }
  await closed;
}

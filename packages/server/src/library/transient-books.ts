import { realpath } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { badRequest, notFound } from '../domain/errors.js';
import type { MediaAnalysis, StoredPage } from '../domain/media.js';
import { newId } from '../domain/ids.js';
import type { LibraryRepository, SeriesRepository } from '../domain/ports.js';
import { guessSeries } from '../domain/series-title.js';
import { readBookSource } from '../metadata/metadata-refresh.js';
import { TRANSIENT_BOOK_TTL_MS, type TransientBook, type TransientBookRepository } from '../domain/transient-books.js';
import type { BookAnalyzer } from './book-analyzer.js';
import { notReady, type BookPages, type Content, type StreamedContent } from './book-pages.js';
import { DirectoryNotAccessibleError, scanLibraryFolder } from './file-system-scanner.js';
import { isInside } from './library-files.js';

/** A folder is walked for import like a library with every file family on and nothing excluded (engine.md §9.1). */
const IMPORT_SCAN = {
  scanCbx: true,
  scanPdf: true,
  scanEpub: true,
  scanDirectoryExclusions: [],
  oneshotsDirectory: null,
  scanForceModifiedTime: false,
};

/**
 * Transient books (engine.md §9.1): the import screen's books, found in a folder outside every library and kept in
 * their store (domain/transient-books.ts) until they expire.
 */
export class TransientBooks {
  constructor(
    private readonly d: {
      libraries: LibraryRepository;
      series: Pick<SeriesRepository, 'allTitles'>;
      transientBooks: TransientBookRepository;
      analyzer: Pick<BookAnalyzer, 'analyze'>;
      pages: Pick<BookPages, 'pageOfFile'>;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.d.now?.() ?? new Date();
  }

  /**
   * Walks `path` (resolved, symbolic links included) and stores the books found, sorted by path.
   * @throws ERR_1016 when the folder is not an absolute path to a readable folder; ERR_1017 when it lies inside a
   * library root.
   */
  async scan(path: string): Promise<TransientBook[]> {
    if (!isAbsolute(path)) throw new DirectoryNotAccessibleError(path, 'ENOTABSOLUTE');
    let folder: string;
    try {
      folder = await realpath(path);
    } catch (e) {
      throw new DirectoryNotAccessibleError(path, (e as NodeJS.ErrnoException).code ?? 'UNKNOWN');
    }
    if (await this.insideLibrary(folder)) throw badRequest('ERR_1017');
    const walked = await scanLibraryFolder(folder, IMPORT_SCAN);
    const books = walked.series
      .flatMap((s) => s.books)
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((b): TransientBook => ({
        id: newId(),
        name: b.name,
        url: b.url,
        path: b.path,
        fileSize: b.fileSize,
        fileLastModified: b.fileLastModified,
        analysis: null,
        seriesId: null,
        number: null,
      }));
    await this.d.transientBooks.save(books, this.now(), TRANSIENT_BOOK_TTL_MS);
    return books;
  }

  /** The unexpired transient book (its expiry pushed back); 404 when unknown or expired. */
  async find(id: string): Promise<TransientBook> {
    const book = await this.d.transientBooks.touch(id, this.now(), TRANSIENT_BOOK_TTL_MS);
    if (!book) throw notFound('Transient book not found');
    return book;
  }

  /**
   * Full analysis of the book (page dimensions included, engine.md §9.1), stored with it, with the guesses of its
   * number (ComicInfo's `numberSort`) and series (by the titles its metadata names).
   */
  async analyze(id: string): Promise<TransientBook> {
    const book = await this.find(id);
    const analysis = await this.d.analyzer.analyze(book.path, { analyzeDimensions: true });
    const guesses = analysis.status === 'READY' ? await this.guesses(book.path, analysis) : null;
    const analysed: TransientBook = {
      ...book,
      analysis,
      number: guesses?.number ?? null,
      seriesId: guesses?.seriesId ?? null,
    };
    await this.d.transientBooks.save([analysed], this.now(), TRANSIENT_BOOK_TTL_MS);
    return analysed;
  }

  /**
   * The number and series a book's own metadata points at (engine.md §9.1): the number from ComicInfo, the series
   * from the series names of ComicInfo (with its volume appended, then without) and of an EPUB's package. A file
   * whose metadata cannot be read gets no guess.
   */
  private async guesses(path: string, analysis: MediaAnalysis) {
    const names = analysis.files.map((f) => f.fileName);
    try {
      const withVolume = await readBookSource(path, analysis.mediaType, names, true);
      const withoutVolume = withVolume.comicInfo ? await readBookSource(path, analysis.mediaType, names, false) : null;
      const candidates = [
        withVolume.comicInfo?.series.title,
        withoutVolume?.comicInfo?.series.title,
        withVolume.opf?.series.title,
      ].filter((t): t is string => !!t);
      return {
        number: withVolume.comicInfo?.book.numberSort ?? null,
        seriesId: candidates.length > 0 ? guessSeries([...new Set(candidates)], await this.d.series.allTitles()) : null,
      };
    } catch {
      return null;
    }
  }

  /**
   * Page `number` (1-based) of an analysed transient book, as a library book's page is served. The file is resolved
   * again (a link may have been swapped in since the scan) and refused when it now leads into a library.
   */
  async page(id: string, number: number, signal?: AbortSignal): Promise<Content | StreamedContent> {
    const book = await this.find(id);
    const analysis = book.analysis;
    if (!analysis) throw notFound('Book has not been analyzed yet');
    if (analysis.status !== 'READY') throw notReady();
    const analysed = analysis.pages[number - 1];
    if (!Number.isInteger(number) || !analysed) throw badRequest('Page number does not exist');
    const file = await realpath(book.path).catch(() => null);
    if (!file || (await this.insideLibrary(file))) throw notFound('File not found, it may have moved');
    const page: StoredPage = { ...analysed, number: number - 1, fileHash: '' };
    return this.d.pages.pageOfFile({ file, mediaType: analysis.mediaType }, page, number, signal ? { signal } : {});
  }

  /** Is the real path `real` a library root or below one (compared by real paths)? */
  private async insideLibrary(real: string): Promise<boolean> {
    for (const library of await this.d.libraries.list()) {
      // A root that no longer resolves is compared as it was stored.
      const root = await realpath(library.root).catch(() => library.root);
      if (isInside(root, real)) return true;
    }
    return false;
  }
}

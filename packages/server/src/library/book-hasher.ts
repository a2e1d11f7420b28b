import type { LibraryRepository, MediaRepository } from '../domain/ports.js';
import { zipReader } from '../media/archives/index.js';
import { MediaTypes } from '../media/detect.js';
import { hashFile, hashPage, koreaderHash } from '../media/hash.js';
import type { LibraryFile, LibraryFiles } from './library-files.js';

/** `komga.page-hashing`: how many pages are hashed at each end of a book (engine.md §5.3). */
export const PAGE_HASHING = 3;

/** Which 0-based pages get a hash: the first and last {@link PAGE_HASHING} (all when pageCount ≤ 6). */
export function pagesToHash(pageCount: number, n = PAGE_HASHING): number[] {
  const out: number[] = [];
  for (let i = 0; i < pageCount; i++) if (i < n || i >= pageCount - n) out.push(i);
  return out;
}

/**
 * HashBook, HashBookKoreader, HashBookPages and FindBooksWithMissingPageHash (engine.md §5.1-5.3). Each
 * re-checks the library option at run time.
 */
export class BookHasher {
  constructor(
    private readonly d: { media: MediaRepository; libraries: Pick<LibraryRepository, 'find'>; files: LibraryFiles },
  ) {}

  /** The book's file inside its library root; a missing one (or one linking out) fails the task. */
  private async fileOf(book: LibraryFile): Promise<string> {
    const file = await this.d.files.pathOf(book);
    if (!file) throw new Error(`Book file not found or outside its library root: ${book.url}`);
    return file;
  }

  /** XXH3-128 of the file, when the library hashes files and the book has no hash yet. */
  async hashBook(bookId: string): Promise<string | null> {
    const t = await this.d.media.analysisTarget(bookId);
    if (!t || !t.hashFiles || t.fileHash !== '') return null;
    const hash = await hashFile(await this.fileOf(t));
    await this.d.media.setFileHash(bookId, hash);
    return hash;
  }

  /**
   * Page hashes of READY books whose media type is exactly application/zip (not RAR, EPUB, PDF), only for
   * pages whose hash is blank. Returns how many pages were hashed.
   */
  async hashBookPages(bookId: string): Promise<number> {
    const t = await this.d.media.analysisTarget(bookId);
    if (!t || !t.hashPages || t.status !== 'READY' || t.mediaType !== MediaTypes.zip) return 0;
    const file = await this.fileOf(t);
    const pages = await this.d.media.pages(bookId);
    const wanted = new Set(pagesToHash(pages.length));
    const hashes: { number: number; hash: string }[] = [];
    for (const p of pages) {
      if (!wanted.has(p.number) || p.fileHash !== '') continue;
      // streamed: a page is hashed as it inflates, never held whole (engine.md §5.3: the hash of the entry's bytes)
      hashes.push({ number: p.number, hash: await hashPage((await zipReader.stream(file, p.fileName)).stream) });
    }
    await this.d.media.setPageHashes(bookId, hashes);
    return hashes.length;
  }

  /** KOReader's partial MD5, when the library computes it and the book has none yet. */
  async hashBookKoreader(bookId: string): Promise<string | null> {
    const t = await this.d.media.analysisTarget(bookId);
    if (!t || !t.hashKoreader || t.fileHashKoreader !== '') return null;
    const hash = await koreaderHash(await this.fileOf(t));
    await this.d.media.setKoreaderHash(bookId, hash);
    return hash;
  }

  /** Books whose pages lack hashes, when the library hashes pages (the handler queues HashBookPages). */
  async booksWithMissingPageHashes(libraryId: string): Promise<{ id: string; seriesId: string }[]> {
    if (!(await this.d.libraries.find(libraryId))?.hashPages) return [];
    return this.d.media.booksWithMissingPageHashes(libraryId, MediaTypes.zip, PAGE_HASHING);
  }
}

/**
 * KOReader's progress sync (kosync, api.md §8.1): a device names a book by its document hash (media/hash.ts
 * `koreaderHash`, stored by HashBookKoreader when the library has `hashKoreader`) and sends or asks for its place in
 * it. The place is the user's read progress, the same row the REST API and the web reader read and write: a push
 * is a Readium progression saved through ReadProgressService (so its rules hold: 409 when not newer, pages within
 * the book), and a pull reads that row back in KOReader's terms.
 *
 * KOReader's places: a page number (as a string) for paged documents (CBZ, PDF…); for EPUB a crengine XPointer
 * `/body/DocFragment[n]/…` whose n is the 1-based spine item, or `#_doc_fragment_n_` (0-based) from older
 * versions. Readium's resources are the distinct hrefs of the book's positions, in spine order.
 */
import type { R2ProgressionLocatorDto } from '@quire/api';
import type { ReadProgressRepository } from '../domain/ports.js';
import type { ProgressBook } from '../domain/read-progress.js';
import { badRequest, conflict, notFound } from '../domain/errors.js';
import { accessTo } from '../domain/restrictions.js';
import { epubAnalysis, locatorOf, resourceOf, type StoredPosition } from './progression.js';
import type { ProgressProfile, Reader, ReadProgressService } from './read-progress.js';

/** A place in a document, as kosync exchanges it. */
export interface DocumentProgress {
  document: string;
  /** Page number (paged documents) or XPointer (EPUB). */
  progress: string;
  /** 0..1. */
  percentage: number;
  device: string;
  device_id: string;
}

export interface KoreaderSyncDeps {
  progress: Pick<ReadProgressRepository, 'booksWithKoreaderHash' | 'find'>;
  reading: Pick<ReadProgressService, 'putProgression'>;
  /** library/book-analyzer's mediaProfileOf, given by the composition root. */
  profileOf: (mediaType: string | null) => ProgressProfile | null;
  now?: () => Date;
}

const DOC_FRAGMENT = /DocFragment\[(\d+)\]/i;
const DOC_FRAGMENT_ANCHOR = /#_doc_fragment_(\d+)_/i;

export class KoreaderSync {
  private readonly now: () => Date;

  constructor(private readonly d: KoreaderSyncDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** The reader's place in the document; null when he has none (kosync's "No progress found"). */
  async pull(reader: Reader, document: string): Promise<DocumentProgress | null> {
    const book = await this.bookOf(reader, document);
    const stored = await this.d.progress.find(book.id, reader.id);
    if (!stored) return null;
    const profile = this.profileOf(book);
    const locator = locatorOf(stored.locator);
    const percentage =
      locator.locations?.totalProgression ?? (book.pageCount > 0 ? Math.min(1, stored.page / book.pageCount) : 0);
    let progress = String(stored.page);
    if (profile === 'EPUB') {
      const positions = epubAnalysis(book).positions ?? [];
      // Progress set by page (the REST API, a series marked read) has no locator: the page's position says where.
      const href = locator.href ? resourceOf(locator.href) : positions[stored.page - 1]?.href;
      const index = resourcesOf(positions).indexOf(href ?? '');
      // The start of the resource: KOReader cannot place a Readium progression inside it.
      progress = `/body/DocFragment[${Math.max(index, 0) + 1}].0`;
    }
    return { document, progress, percentage, device: stored.deviceName, device_id: stored.deviceId };
  }

  /** Saves the device's place as the reader's progress; 409 when what is stored is newer. */
  async push(reader: Reader, sent: Omit<DocumentProgress, 'progress'> & { progress: string }): Promise<void> {
    const book = await this.bookOf(reader, sent.document);
    const profile = this.profileOf(book);
    const locator = profile === 'EPUB' ? epubLocator(book, sent) : pageLocator(sent);
    await this.d.reading.putProgression(reader, book.id, {
      modified: this.now().toISOString(),
      device: { id: sent.device_id, name: sent.device },
      locator,
    });
  }

  /**
   * The one book with this hash the reader may see: a book he may not see is as unknown (404), and several (the
   * same file in two libraries) are a 409, since KOReader cannot say which it holds.
   */
  private async bookOf(reader: Reader, document: string): Promise<ProgressBook> {
    const books = (await this.d.progress.booksWithKoreaderHash(document)).filter(
      (b) => accessTo(reader, b.access) === 'ok',
    );
    if (books.length === 0) throw notFound('Book not found');
    if (books.length > 1) throw conflict('More than 1 book found with the same hash');
    return books[0]!;
  }

  private profileOf(book: ProgressBook): ProgressProfile {
    const profile = this.d.profileOf(book.mediaType);
    if (!profile) throw notFound('Book has no media profile');
    return profile;
  }
}

/** A paged document's place: the page KOReader sends as a decimal string. */
function pageLocator(sent: { progress: string; percentage: number }): R2ProgressionLocatorDto {
  if (!/^\s*\d+\s*$/.test(sent.progress)) throw badRequest(`Invalid page in progress: ${sent.progress}`);
  return {
    href: '',
    type: '',
    locations: { fragments: [], position: Number(sent.progress), totalProgression: sent.percentage },
  };
}

/**
 * An EPUB place: the spine item the XPointer names, at the position of that resource that KOReader's percentage
 * falls on (its first or last one when the percentage lies outside it): Komga takes the resource's start, which
 * sends the web reader back to the start of the chapter.
 */
function epubLocator(book: ProgressBook, sent: { progress: string; percentage: number }): R2ProgressionLocatorDto {
  const fragment = DOC_FRAGMENT.exec(sent.progress);
  const anchor = DOC_FRAGMENT_ANCHOR.exec(sent.progress);
  const index = fragment ? Number(fragment[1]) - 1 : anchor ? Number(anchor[1]) : NaN;
  if (!Number.isSafeInteger(index))
    throw badRequest(`Could not get Epub resource index from progress: ${sent.progress}`);
  const positions = epubAnalysis(book).positions;
  if (!positions) throw badRequest('Epub extension not found');
  const href = resourcesOf(positions)[index];
  if (href === undefined) throw badRequest(`Epub resource index out of range: ${sent.progress}`);
  const inResource = positions.filter((p) => p.href === href);
  const reached = inResource.filter((p) => p.locations.totalProgression <= sent.percentage).at(-1) ?? inResource[0]!;
  return {
    href,
    type: reached.type,
    locations: {
      fragments: [],
      progression: reached.locations.progression,
      totalProgression: sent.percentage,
    },
  };
}

/** The book's resources in reading order: the distinct hrefs of its positions. */
function resourcesOf(positions: readonly StoredPosition[]): string[] {
  return [...new Set(positions.map((p) => p.href))];
}

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  BookRepository,
  LibraryRepository,
  MediaRepository,
  MetadataRepository,
  SeriesRepository,
} from '../domain/ports.js';
import type { BookRecord } from '../domain/book.js';
import type { StoredMedia } from '../domain/media.js';
import type { Library } from '../domain/library.js';
import { notFound } from '../domain/errors.js';
import type { EventBus } from '../events/bus.js';
import { bufferedBytes, checkMarkupBytes, mediaLimits } from '../media/limits.js';
import { readerFor } from '../media/archives/index.js';
import { MediaTypes } from '../media/detect.js';
import { withEpub } from '../media/epub/package.js';
import { decodeText } from '../media/epub/zip.js';
import type { PdfService } from '../media/pdf/index.js';
import { BOOK_METADATA_PATCH_CAPABILITIES, PRIORITY, type Task } from '../tasks/definitions.js';
import type { TaskEmitter } from '../tasks/emitter.js';
import { aggregateBooks, aggregateSeriesPatches } from './aggregation.js';
import { barcodePages, isbnInImage } from './barcode-isbn.js';
import { comicInfoEntryOf, parseComicInfo, type ComicInfo } from './comicinfo.js';
import { MYLAR_FILE, parseMylarSeries } from './mylar.js';
import { parseOpf, type OpfMetadata } from './opf.js';
import {
  bookChanges,
  emptyBookPatch,
  emptySeriesPatch,
  fieldsOf,
  isEmpty,
  mergeBookPatches,
  seriesChanges,
  type BookCapability,
  type BookMetadataPatch,
  type SeriesMetadataPatch,
  type Skipped,
} from './patch.js';

/**
 * Where imported series and books go when the library asks for collections and read lists (engine.md §6.10):
 * lists are found by name ignoring case and created when missing; a refresh never removes anything.
 */
export interface MetadataLists {
  addSeriesToCollection(name: string, seriesId: string): Promise<void>;
  addBookToReadList(name: string, bookId: string, number: number | null): Promise<void>;
}

export interface RefreshLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** A metadata source for books (engine.md §6.1), in the order they apply: later ones win field by field. */
type BookProvider = 'barcode' | 'comicinfo' | 'epub';

const CAPABILITIES: Record<BookProvider, ReadonlySet<BookCapability>> = {
  barcode: new Set(['ISBN']),
  comicinfo: new Set([
    'TITLE',
    'SUMMARY',
    'NUMBER',
    'NUMBER_SORT',
    'RELEASE_DATE',
    'AUTHORS',
    'TAGS',
    'ISBN',
    'READ_LISTS',
    'LINKS',
  ]),
  epub: new Set(['TITLE', 'SUMMARY', 'NUMBER', 'NUMBER_SORT', 'RELEASE_DATE', 'AUTHORS', 'ISBN']),
};

/** What was read from one book file: ComicInfo.xml or the OPF, parsed. */
export interface BookSource {
  comicInfo: ComicInfo | null;
  opf: OpfMetadata | null;
}

/**
 * ComicInfo.xml of an archive, or the OPF of an EPUB, read from `file` and parsed (`fileNames`: the archive's
 * entries that are not pages). Throws when the file cannot be read.
 */
export async function readBookSource(
  file: string,
  mediaType: string | null,
  fileNames: readonly string[],
  appendVolume: boolean,
): Promise<BookSource> {
  if (mediaType === MediaTypes.epub)
    return { comicInfo: null, opf: await withEpub(file, async (epub) => parseOpf(epub.opf)) };
  const entry = comicInfoEntryOf(fileNames);
  const reader = mediaType ? readerFor(mediaType) : undefined;
  if (!entry || !reader) return { comicInfo: null, opf: null };
  return comicInfoSource(entry, await reader.read(file, entry), appendVolume);
}

/** A ComicInfo entry's bytes, parsed. Throws when they are over the markup limit. */
function comicInfoSource(entry: string, bytes: Buffer, appendVolume: boolean): BookSource {
  checkMarkupBytes(entry, bytes.length);
  return { comicInfo: parseComicInfo(decodeText(bytes), { appendVolume }), opf: null };
}

/** The book file a source was read from: what a remembered source is valid for. */
type SourceFile = Pick<BookRecord, 'id' | 'url' | 'fileLastModified' | 'fileSize'>;

const sourceKey = (book: SourceFile, appendVolume: boolean) =>
  `${book.id}\u0000${book.url}\u0000${book.fileLastModified}\u0000${book.fileSize}\u0000${appendVolume}`;

/** Parsed book files kept between a book refresh and the series refresh that follows it. */
const CACHE_SIZE = 2000;
/**
 * PDF pages are searched for a barcode rendered with their shorter side at 1600 px, not the 3200 px of a served
 * page: an ISBN barcode still spans hundreds of pixels, and the barcode worker's WebAssembly memory (which never
 * shrinks while it runs) needs a quarter of what a 3200 px page took, ~300 MB less at peak in the fuzz runs.
 */
const BARCODE_PDF_RESOLUTION = 1600;

/**
 * RefreshBookMetadata, RefreshSeriesMetadata and AggregateSeriesMetadata (engine.md §6.1-6.9): reads the
 * metadata files of books and series, applies what they say to the fields that are not locked, and keeps the
 * per-series aggregation of book metadata.
 *
 * Differences from Komga, on purpose: a refresh applies only the fields its capabilities ask for (Komga
 * re-applies every field of every selected source, so the renumbering refresh after a scan overwrote an EPUB
 * series position); the EPUB source takes part in number refreshes; events are sent only when something
 * changed; an unreadable file costs that source, not the refresh.
 */
/** A book's refresh asked for by a user: every metadata field, and its local artwork. */
const bookRefresh = (b: { id: string; seriesId: string }): Task[] => [
  {
    kind: 'RefreshBookMetadata',
    bookId: b.id,
    seriesId: b.seriesId,
    capabilities: [...BOOK_METADATA_PATCH_CAPABILITIES],
  },
  { kind: 'RefreshBookLocalArtwork', bookId: b.id },
];

export class MetadataRefresh {
  private readonly cache = new Map<string, BookSource>();

  constructor(
    private readonly d: {
      metadata: MetadataRepository;
      books: BookRepository;
      series: SeriesRepository;
      libraries: LibraryRepository;
      media: MediaRepository;
      pdf: Pick<PdfService, 'renderPage'>;
      events: EventBus;
      /** Where refreshes asked for through the API are queued. */
      tasks: TaskEmitter;
      /** Collections and read lists; without it, SeriesGroup and story arcs are not imported. */
      lists?: MetadataLists;
      /**
       * A library's file on disk (library/library-files.ts): its real path when it lies inside the library
       * root, else null.
       */
      files: { pathOf(file: { libraryId: string; url: string }): Promise<string | null> };
      logger: RefreshLogger;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.d.now?.() ?? new Date();
  }

  /** POST /books/{id}/metadata/refresh (api.md §3.2): the book's metadata and local artwork, at high priority. */
  async queueBookRefresh(bookId: string): Promise<void> {
    const book = await this.d.books.find(bookId);
    if (!book) throw notFound();
    await this.d.tasks.submit(bookRefresh(book), PRIORITY.HIGH);
  }

  /**
   * POST /series/{id}/metadata/refresh (api.md §3.3): every live book's metadata and local artwork and the series'
   * artwork at high priority, then the series itself just below.
   */
  async queueSeriesRefresh(seriesId: string): Promise<void> {
    const series = await this.d.series.find(seriesId);
    if (!series) throw notFound();
    const books = (await this.d.books.findBySeries(series.id)).filter((b) => !b.deletedDate);
    await this.d.tasks.submit(
      [...books.flatMap(bookRefresh), { kind: 'RefreshSeriesLocalArtwork', seriesId: series.id }],
      PRIORITY.HIGH,
    );
    // Each book refresh is followed by this one (engine.md §8.3); queued here too so that a series without books
    // still gets its series.json read.
    await this.d.tasks.submit([{ kind: 'RefreshSeriesMetadata', seriesId: series.id }], PRIORITY.HIGH - 1);
  }

  /**
   * Refreshes a book from its sources (engine.md §6.1). Returns its series id (for the series refresh that
   * follows), or null when the book does not exist or is in the trash.
   */
  async refreshBook(bookId: string, capabilities: readonly BookCapability[]): Promise<{ seriesId: string } | null> {
    const book = await this.d.books.find(bookId);
    if (!book || book.deletedDate) return null;
    const library = await this.d.libraries.find(book.libraryId);
    const current = await this.d.metadata.findBook(bookId);
    if (!library || !current) return { seriesId: book.seriesId };
    const requested = new Set(capabilities);
    const wanted = (p: BookProvider) => [...CAPABILITIES[p]].some((c) => requested.has(c));
    const media = await this.d.media.find(bookId);
    if (media?.status !== 'READY') return { seriesId: book.seriesId };

    // Patches in Komga's provider order, a later one winning: barcode, ComicInfo.xml, OPF.
    const patches: BookMetadataPatch[] = [];
    const skipped: Skipped[] = [];
    const comicInfoTargets = library.importComicInfoBook || library.importComicInfoReadList;
    const epubTarget = library.importEpubBook;
    let source: BookSource | null = null;
    if ((wanted('comicinfo') && comicInfoTargets) || (wanted('epub') && epubTarget)) {
      source = await this.bookSource(book, media, library);
    }
    if (source?.comicInfo && wanted('comicinfo')) {
      skipped.push(...source.comicInfo.skipped);
      if (library.importComicInfoBook) patches.push(source.comicInfo.book);
    }
    if (source?.opf && wanted('epub') && epubTarget) {
      skipped.push(...source.opf.skipped);
      patches.push(source.opf.book);
    }
    // The barcode search decodes up to six pages: not done when a later provider sets the ISBN anyway (issue 18).
    const isbnFromFile = patches.some((p) => p.isbn !== null);
    if (wanted('barcode') && library.importBarcodeIsbn && media.mediaType !== MediaTypes.epub && !isbnFromFile) {
      const isbn = await this.barcodeIsbn(book, media);
      if (isbn) patches.unshift({ ...emptyBookPatch(), isbn });
    }
    if (skipped.length > 0) this.d.logger.info({ bookId, skipped }, 'Book metadata: some values were left out');

    const changes = bookChanges(current, mergeBookPatches(patches), fieldsOf(requested));
    if (!isEmpty(changes)) {
      await this.d.metadata.updateBook(bookId, changes, this.now());
      this.d.events.emit({
        type: 'BookChanged',
        data: { bookId, seriesId: book.seriesId, libraryId: book.libraryId },
      });
    }

    const readLists = source?.comicInfo?.book.readLists ?? [];
    if (requested.has('READ_LISTS') && library.importComicInfoReadList && this.d.lists) {
      for (const entry of readLists) {
        await this.d.lists.addBookToReadList(entry.name, bookId, entry.number).catch((e: unknown) => {
          this.d.logger.warn({ bookId, readList: entry.name, err: e }, 'Could not add the book to its read list');
        });
      }
    }
    return { seriesId: book.seriesId };
  }

  /**
   * Refreshes a series (engine.md §6.1, §6.8): what its books' ComicInfo.xml and OPF files agree on, then
   * Mylar's series.json, then, for a one-shot, its book. Returns false when the series does not exist or is in
   * the trash.
   */
  async refreshSeries(seriesId: string): Promise<boolean> {
    const series = await this.d.series.find(seriesId);
    if (!series || series.deletedDate) return false;
    const library = await this.d.libraries.find(series.libraryId);
    const current = await this.d.metadata.findSeries(seriesId);
    if (!library || !current) return true;

    const patches: SeriesMetadataPatch[] = [];
    const fromComicInfo = library.importComicInfoSeries || library.importComicInfoCollection;
    const fromEpub = library.importEpubSeries;
    if (fromComicInfo || fromEpub) {
      const books = (await this.d.books.findBySeries(seriesId))
        .filter((b) => !b.deletedDate)
        .sort((a, b) => a.number - b.number);
      const comicInfo: SeriesMetadataPatch[] = [];
      const opf: SeriesMetadataPatch[] = [];
      for (const book of books) {
        const media = await this.d.media.find(book.id);
        if (media?.status !== 'READY') continue;
        const source = await this.bookSource(book, media, library);
        if (source.comicInfo) comicInfo.push(source.comicInfo.series);
        if (source.opf) opf.push(source.opf.series);
      }
      const fromBooks = aggregateSeriesPatches(comicInfo);
      if (library.importComicInfoSeries) patches.push(fromBooks);
      if (library.importComicInfoCollection && this.d.lists) {
        for (const name of fromBooks.collections) {
          await this.d.lists.addSeriesToCollection(name, seriesId).catch((e: unknown) => {
            this.d.logger.warn({ seriesId, collection: name, err: e }, 'Could not add the series to its collection');
          });
        }
      }
      if (fromEpub) patches.push(aggregateSeriesPatches(opf));
    }
    if (library.importMylarSeries && !series.oneshot) {
      const mylar = await this.mylar(series);
      if (mylar) {
        if (mylar.skipped.length > 0)
          this.d.logger.info({ seriesId, skipped: mylar.skipped }, 'series.json: some values were left out');
        patches.push(mylar.series);
      }
    }
    if (series.oneshot) patches.push(await this.oneshot(seriesId));

    const changes = seriesChanges(current, mergeSeriesPatches(patches));
    if (!isEmpty(changes)) {
      await this.d.metadata.updateSeries(seriesId, changes, this.now());
      this.d.events.emit({ type: 'SeriesChanged', data: { seriesId, libraryId: series.libraryId } });
    }
    return true;
  }

  /** AggregateSeriesMetadata (engine.md §6.9). Returns false when the series does not exist. */
  async aggregateSeries(seriesId: string): Promise<boolean> {
    const series = await this.d.series.find(seriesId);
    if (!series || series.deletedDate) return false;
    const aggregation = aggregateBooks(await this.d.metadata.aggregationSources(seriesId));
    const current = await this.d.metadata.findAggregation(seriesId);
    if (current && JSON.stringify(current) === JSON.stringify(aggregation)) return true;
    await this.d.metadata.replaceAggregation(seriesId, aggregation, this.now());
    this.d.events.emit({ type: 'SeriesChanged', data: { seriesId, libraryId: series.libraryId } });
    return true;
  }

  /** ComicInfo.xml and the OPF of a book, parsed; remembered until the file changes. */
  private async bookSource(book: BookRecord, media: StoredMedia, library: Library): Promise<BookSource> {
    const key = sourceKey(book, library.importComicInfoSeriesAppendVolume);
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    let source: BookSource = { comicInfo: null, opf: null };
    try {
      const file = await this.bookFile(book);
      const names = (await this.d.media.files(book.id)).map((f) => f.fileName);
      source = await readBookSource(file, media.mediaType, names, library.importComicInfoSeriesAppendVolume);
      if (!source.comicInfo && !source.opf && comicInfoEntryOf(names))
        this.d.logger.info({ bookId: book.id }, 'Not a ComicInfo document');
    } catch (e) {
      this.d.logger.warn({ bookId: book.id, err: e }, 'Could not read the metadata of the book');
      return source;
    }
    this.remember(book.id, key, source);
    return source;
  }

  /**
   * A ZIP's ComicInfo.xml as its analysis read it (whole, CRC-checked), parsed as the refresh that follows the
   * analysis would read it: that refresh, and the series refresh after it, then do not open the archive again
   * (issue 18: 300 refreshes reopening their books at the end of an import were ~1 ms of CPU each and ~16 MB of
   * transient buffers, the import's peak RSS). Bytes that do not parse are not remembered: the refresh reads them
   * again and says why. A refresh on another instance reads the file, as before.
   */
  rememberComicInfo(book: SourceFile, appendVolume: boolean, entry: string, bytes: Buffer): void {
    let source: BookSource;
    try {
      source = comicInfoSource(entry, bytes, appendVolume);
    } catch {
      return;
    }
    if (source.comicInfo) this.remember(book.id, sourceKey(book, appendVolume), source);
  }

  private remember(bookId: string, key: string, source: BookSource): void {
    for (const k of this.cache.keys()) if (k.startsWith(`${bookId}\u0000`)) this.cache.delete(k);
    this.cache.set(key, source);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
  }

  /** The first ISBN barcode on the last or first pages (engine.md §6.7); null when none. */
  private async barcodeIsbn(book: BookRecord, media: StoredMedia): Promise<string | null> {
    const file = await this.d.files.pathOf(book);
    if (!file) return null;
    const pages = await this.d.media.pages(book.id);
    const reader = media.mediaType ? readerFor(media.mediaType) : undefined;
    for (const number of barcodePages(pages.length)) {
      const page = pages[number - 1]!;
      try {
        if (media.mediaType === MediaTypes.pdf) {
          const dimension = page.width && page.height ? { width: page.width, height: page.height } : undefined;
          const image = await this.d.pdf.renderPage(file, number, { dimension, resolution: BARCODE_PDF_RESOLUTION });
          const isbn = await isbnInImage(image.bytes, image.mediaType);
          if (isbn) return isbn;
        } else if (reader) {
          // the page held whole, within the process's buffer budget, until the barcode reader is done with it
          const size = Math.min(page.fileSize ?? Infinity, mediaLimits().maxEntryBytes);
          const search = (bytes: Buffer) => isbnInImage(bytes, page.mediaType);
          const isbn = await bufferedBytes.run(size, `page "${page.fileName}"`, async () =>
            reader.lend ? reader.lend(file, page.fileName, search) : search(await reader.read(file, page.fileName)),
          );
          if (isbn) return isbn;
        } else return null;
      } catch (e) {
        this.d.logger.warn({ bookId: book.id, page: number, err: e }, 'Could not look for a barcode on the page');
      }
    }
    return null;
  }

  /** The book's file, inside its library root (else "file not found"). */
  private async bookFile(book: BookRecord): Promise<string> {
    const file = await this.d.files.pathOf(book);
    if (!file) throw Object.assign(new Error(`File not found: ${book.url}`), { code: 'ENOENT' });
    return file;
  }

  /** Mylar's series.json in the series folder (its name in any letter case), parsed; null when absent. */
  private async mylar(series: { libraryId: string; url: string }) {
    try {
      const folder = await this.d.files.pathOf(series);
      if (!folder) return null;
      const name = (await readdir(folder)).find((n) => n.toLowerCase() === MYLAR_FILE);
      if (!name) return null;
      const file = await this.d.files.pathOf({
        libraryId: series.libraryId,
        url: pathToFileURL(join(folder, name)).href,
      });
      if (!file) return null;
      const parsed = parseMylarSeries(await readFile(file, 'utf8'));
      if (!parsed) this.d.logger.warn({ file }, 'series.json is not a Mylar series file');
      return parsed;
    } catch (e) {
      this.d.logger.warn({ seriesUrl: series.url, err: e }, 'Could not read series.json');
      return null;
    }
  }

  /** A one-shot series takes its book's title and summary, and counts one book (engine.md §6.8). */
  private async oneshot(seriesId: string): Promise<SeriesMetadataPatch> {
    const patch = emptySeriesPatch();
    const book = (await this.d.books.findBySeries(seriesId)).find((b) => !b.deletedDate);
    const metadata = book && (await this.d.metadata.findBook(book.id));
    if (!metadata) return patch;
    return {
      ...patch,
      title: metadata.title,
      titleSort: metadata.title,
      status: 'ENDED',
      summary: metadata.summary,
      totalBookCount: 1,
    };
  }
}

/** Later patches win where they say something; collections add up. */
function mergeSeriesPatches(patches: readonly SeriesMetadataPatch[]): SeriesMetadataPatch {
  const merged = emptySeriesPatch();
  for (const p of patches)
    for (const key of Object.keys(merged) as (keyof SeriesMetadataPatch)[]) {
      if (key === 'collections') merged.collections.push(...p.collections);
      else if (p[key] !== null) (merged as unknown as Record<string, unknown>)[key] = p[key];
    }
  return merged;
}

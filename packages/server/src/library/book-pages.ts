import { Readable } from 'node:stream';
import type { BookFileView } from '../domain/book.js';
import type { MediaRepository } from '../domain/ports.js';
import type { StoredPage } from '../domain/media.js';
import { badRequest, notFound, QuireError } from '../domain/errors.js';
import { readerFor } from '../media/archives/index.js';
import { openEpubResource, readEpubResource, UnsafeResourcePathError } from '../media/epub/index.js';
import {
  convertImage,
  ImageTooLargeError,
  needsConversion,
  pageThumbnail,
  UnsupportedImageError,
} from '../media/images.js';
import { bufferedBytes, MediaLimitError, mediaLimits } from '../media/limits.js';
import { MediaError, type ContainerReader } from '../media/types.js';
import {
  PDF_RENDER_MEDIA_TYPE,
  pdfRenderSize,
  pdfRenderSizeForWidth,
  PdfError,
  type PdfService,
} from '../media/pdf/index.js';
import type { PdfPageAhead, PdfPages } from '../media/pdf/pages.js';
import { mediaProfileOf, type EpubExtension } from './book-analyzer.js';
import type { LibraryFiles } from './library-files.js';

/** Bytes of a page or resource, made in memory (conversions, renderings, thumbnails), and their media type. */
export interface Content {
  bytes: Buffer;
  mediaType: string;
}

/** An archive entry served as it is: streamed from the file as it inflates; `size` when the archive records it. */
export interface StreamedContent {
  stream: Readable;
  size: number | null;
  mediaType: string;
}

/** A page as listed by `GET /books/{id}/pages` (PDF pages as rendered JPEGs, engine.md §4.4). */
export interface ListedPage {
  /** 1-based. */
  number: number;
  fileName: string;
  mediaType: string;
  width: number | null;
  height: number | null;
  fileSize: number | null;
}

const FONT_MEDIA_TYPES = new Map([
  ['otf', 'font/otf'],
  ['ttf', 'font/ttf'],
  ['woff', 'font/woff'],
  ['woff2', 'font/woff2'],
  ['eot', 'application/vnd.ms-fontobject'],
]);

/**
 * The media type of an EPUB resource that is a font file by its name, else null. Fonts are served without
 * authentication (a reader's CSS loads them without credentials, api.md §3.3), always with this font type
 * whatever the book declares, so that nothing public is ever a document. Komga also counts `.svg` as a font;
 * an SVG is a document that can hold scripts, so here it is an ordinary resource.
 */
export function fontMediaType(path: string): string | null {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && FONT_MEDIA_TYPES.get(extension)) || null;
}

/** How a page is asked for: converted to another format, a PDF page as a one-page PDF or drawn this many pixels wide. */
export interface PageOptions {
  convert?: 'jpeg' | 'png';
  pdf?: boolean;
  width?: number;
  signal?: AbortSignal;
}

/** The file a page is read from (resolved and checked by the caller) and its analysed media type. */
export interface PageSource {
  file: string;
  mediaType: string | null;
}

export const notReady = () => notFound('Book analysis failed');
const noSuchPage = () => badRequest('Page number does not exist');
/** 422: the page exists but is over a limit of media/limits.ts (too many pixels to convert, too many bytes). */
const tooLarge = (message: string) => new QuireError(422, message);

/**
 * Serving pages and EPUB resources (engine.md §4.6): raw entry bytes of archives and Divina EPUBs,
 * PDF pages rendered as JPEG (or extracted as one-page PDFs), conversions and 300 px page thumbnails.
 * Callers check access first; these methods check the media state and the page number.
 */
export class BookPages {
  constructor(
    private readonly d: { media: MediaRepository; pdf: PdfService; pdfPages: PdfPages; files: LibraryFiles },
  ) {}

  async list(book: BookFileView): Promise<ListedPage[]> {
    if (book.media.status !== 'READY') {
      throw notFound(book.media.status === 'UNKNOWN' ? 'Book has not been analyzed yet' : 'Book analysis failed');
    }
    const pages = await this.d.media.pages(book.id);
    const pdf = mediaProfileOf(book.media.mediaType) === 'PDF';
    return pages.map((p) => {
      const size = pdf && p.width && p.height ? pdfRenderSize({ width: p.width, height: p.height }) : null;
      return {
        number: p.number + 1,
        fileName: p.fileName,
        mediaType: pdf ? PDF_RENDER_MEDIA_TYPE : p.mediaType,
        width: size ? size.width : p.width,
        height: size ? size.height : p.height,
        fileSize: p.fileSize,
      };
    });
  }

  /**
   * A reader is opening `book`: a PDF gets a PDF thread readied for it (`PdfService.warm`), so its first page does not
   * pay for starting PDFium. Other books need nothing. Never fails.
   */
  async openingReader(book: BookFileView): Promise<void> {
    if (book.media.status !== 'READY' || mediaProfileOf(book.media.mediaType) !== 'PDF') return;
    const file = await this.fileOf(book).catch(() => undefined);
    if (file) await this.d.pdf.warm(file);
  }

  /**
   * Page `number` (1-based) as an image: the entry streamed as it is, or a rendered JPEG for PDF; converted
   * (in memory, within the buffer budget) when `convert` names another format. With `pdf: true` a PDF page comes
   * as a one-page PDF instead. A PDF page is rendered `width` pixels wide when given (no wider than without it);
   * with `reading`, the pages around it are rendered ahead for the reader's next turns.
   */
  async page(
    book: BookFileView,
    number: number,
    opts: PageOptions & { reading?: boolean } = {},
  ): Promise<Content | StreamedContent> {
    const page = await this.pageRow(book, number);
    const ahead =
      opts.reading && mediaProfileOf(book.media.mediaType) === 'PDF'
        ? await this.pdfAhead(book, number, opts.width)
        : [];
    return this.pageOfFile(await this.sourceOf(book), page, number, { ...opts, ahead });
  }

  /**
   * The PDF pages a reader at page `number` turns to next, in the order it asks for them (next, previous, the one
   * after next), at the same width.
   */
  private async pdfAhead(book: BookFileView, number: number, width?: number): Promise<PdfPageAhead[]> {
    const ahead: PdfPageAhead[] = [];
    for (const n of [number + 1, number - 1, number + 2]) {
      if (n < 1 || n > book.media.pageCount) continue;
      const row = await this.d.media.page(book.id, n - 1);
      if (row?.width && row.height)
        ahead.push({ page: n, ...pdfRenderSizeForWidth({ width: row.width, height: row.height }, width) });
    }
    return ahead;
  }

  /**
   * {@link page} for a file that is not a library's book (a transient book of the import screen): the caller has
   * resolved and checked `source.file`, and gives the analysed page.
   */
  async pageOfFile(
    source: PageSource,
    page: StoredPage,
    number: number,
    opts: PageOptions & { ahead?: readonly PdfPageAhead[] } = {},
  ): Promise<Content | StreamedContent> {
    const file = source.file;
    if (mediaProfileOf(source.mediaType) === 'PDF') {
      if (opts.pdf) {
        try {
          return { bytes: await this.d.pdf.extractPage(file, number), mediaType: 'application/pdf' };
        } catch (e) {
          // an encrypted PDF cannot be split by pdf-lib: answer the rendered page instead
          if (!(e instanceof PdfError && e.kind === 'encrypted')) throw mapPdfError(e);
        }
      }
      const dimension =
        page.width && page.height
          ? { width: page.width, height: page.height }
          : (
              await this.d.pdf.info(file).catch((e: unknown) => {
                throw mapPdfError(e);
              })
            ).pages[number - 1];
      if (!dimension) throw noSuchPage();
      const size = pdfRenderSizeForWidth(dimension, opts.width);
      const bytes = await this.d.pdfPages.page({ file, page: number, ...size }, opts.ahead).catch((e: unknown) => {
        throw mapPdfError(e);
      });
      return this.converted({ bytes, mediaType: PDF_RENDER_MEDIA_TYPE }, opts.convert, opts.signal);
    }
    const convert = opts.convert;
    if (convert && needsConversion(page.mediaType, convert)) {
      return this.inMemory(source, page, (content) => this.converted(content, convert, opts.signal), opts.signal);
    }
    return this.entryStream(source, page, opts.signal);
  }

  /** The page as stored: entry bytes, or a one-page PDF for PDF books. */
  async raw(
    book: BookFileView,
    number: number,
    opts: { signal?: AbortSignal } = {},
  ): Promise<Content | StreamedContent> {
    const page = await this.pageRow(book, number);
    if (mediaProfileOf(book.media.mediaType) === 'PDF') {
      try {
        return { bytes: await this.d.pdf.extractPage(await this.fileOf(book), number), mediaType: 'application/pdf' };
      } catch (e) {
        if (e instanceof PdfError && e.kind === 'encrypted') throw badRequest('Cannot extract a page of this PDF');
        throw mapPdfError(e);
      }
    }
    return this.entryStream(await this.sourceOf(book), page, opts.signal);
  }

  /**
   * `use` with page `number`'s bytes in memory (a PDF page rendered), counted against the buffer budget until `use`
   * is done: for work on the image itself, such as a duplicate page's thumbnail.
   */
  async withPageBytes<T>(book: BookFileView, number: number, use: (content: Content) => Promise<T>): Promise<T> {
    if (mediaProfileOf(book.media.mediaType) === 'PDF') return use((await this.page(book, number)) as Content);
    const page = await this.pageRow(book, number);
    return this.inMemory(await this.sourceOf(book), page, use);
  }

  /** Longest edge 300 px, JPEG. */
  async thumbnail(book: BookFileView, number: number, opts: { signal?: AbortSignal } = {}): Promise<Content> {
    if (mediaProfileOf(book.media.mediaType) === 'PDF') {
      // rendered no wider than the thumbnail needs (its longest edge is 300 px whichever way the page is turned)
      return this.thumbnailOf((await this.page(book, number, { ...opts, width: 300 })) as Content, opts.signal);
    }
    const page = await this.pageRow(book, number);
    return this.inMemory(
      await this.sourceOf(book),
      page,
      (content) => this.thumbnailOf(content, opts.signal),
      opts.signal,
    );
  }

  private async thumbnailOf(content: Content, signal?: AbortSignal): Promise<Content> {
    try {
      const t = await pageThumbnail(content.bytes, signal);
      return { bytes: t.bytes, mediaType: t.mediaType };
    } catch (e) {
      if (e instanceof ImageTooLargeError) throw tooLarge(e.message);
      if (e instanceof UnsupportedImageError) throw notFound('Cannot read the page image');
      throw e;
    }
  }

  /** The stored EPUB analysis (TOC, positions…); null for other books. */
  async epubExtension(book: BookFileView): Promise<EpubExtension | null> {
    const media = await this.d.media.find(book.id);
    if (!media?.extension || mediaProfileOf(media.mediaType) !== 'EPUB') return null;
    return JSON.parse(media.extension) as EpubExtension;
  }

  /**
   * An EPUB resource by exact name among Media.files, streamed as it is; 404 when unknown, 400 for paths leaving
   * the EPUB.
   */
  async resource(book: BookFileView, path: string): Promise<StreamedContent> {
    if (mediaProfileOf(book.media.mediaType) !== 'EPUB') throw badRequest('Book is not an EPUB');
    const files = await this.d.media.files(book.id);
    try {
      const r = await openEpubResource(await this.fileOf(book), path, files);
      if (!r) throw notFound('Resource not found');
      return { stream: r.stream, size: r.size, mediaType: r.mediaType ?? 'application/octet-stream' };
    } catch (e) {
      if (e instanceof UnsafeResourcePathError) throw badRequest('Invalid resource path');
      if (e instanceof MediaLimitError) throw tooLarge(`Resource cannot be served: ${e.comment}`);
      throw e;
    }
  }

  /** The book's file, resolved inside its library root (a link swapped in after the scan is refused). */
  private async fileOf(book: BookFileView): Promise<string> {
    const file = await this.d.files.pathOf({ libraryId: book.access.libraryId, url: book.url });
    if (!file) throw notFound('File not found, it may have moved');
    return file;
  }

  private async sourceOf(book: BookFileView): Promise<PageSource> {
    return { file: await this.fileOf(book), mediaType: book.media.mediaType };
  }

  private async pageRow(book: BookFileView, number: number): Promise<StoredPage> {
    if (book.media.status !== 'READY') throw notReady();
    const page = await this.d.media.page(book.id, number - 1);
    if (!page) throw noSuchPage();
    return page;
  }

  /**
   * The page's entry as it is, streamed from the file. Formats whose reader can only hand an entry over whole
   * (RAR, 7z, TAR) are read within the buffer budget, held until the response has taken the bytes.
   */
  private async entryStream(source: PageSource, page: StoredPage, signal?: AbortSignal): Promise<StreamedContent> {
    const file = source.file;
    try {
      if (mediaProfileOf(source.mediaType) === 'EPUB') {
        const r = await openEpubResource(file, page.fileName, [page]);
        if (!r) throw notFound('File not found, it may have moved');
        return { stream: r.stream, size: r.size, mediaType: page.mediaType };
      }
      const reader = this.readerOf(source);
      if (reader.stream) {
        const { stream, size } = await reader.stream(file, page.fileName, signal ? { signal } : {});
        return { stream, size, mediaType: page.mediaType };
      }
      const release = await bufferedBytes.hold(bufferedSize(page), `page "${page.fileName}"`, signal);
      try {
        const bytes = await reader.read(file, page.fileName, signal ? { signal } : {});
        const stream = Readable.from([bytes]);
        stream.once('close', release);
        return { stream, size: bytes.length, mediaType: page.mediaType };
      } catch (e) {
        release();
        throw e;
      }
    } catch (e) {
      throw entryError(e);
    }
  }

  /**
   * `use` with the page's entry bytes in memory: the entry and what is made of it count against the process's
   * buffer budget (media/limits.ts) until `use` is done; a request waits for its share, or is refused (422) when it
   * is larger than the whole budget.
   */
  private async inMemory<T>(
    source: PageSource,
    page: StoredPage,
    use: (content: Content) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    let release: () => void;
    try {
      release = await bufferedBytes.hold(bufferedSize(page), `page "${page.fileName}"`, signal);
    } catch (e) {
      throw entryError(e);
    }
    try {
      return await use({ bytes: await this.entryBytes(source, page, signal), mediaType: page.mediaType });
    } finally {
      release();
    }
  }

  private async entryBytes(source: PageSource, page: StoredPage, signal?: AbortSignal): Promise<Buffer> {
    const file = source.file;
    try {
      if (mediaProfileOf(source.mediaType) === 'EPUB') {
        const pages = [{ fileName: page.fileName, mediaType: page.mediaType }];
        const r = await readEpubResource(file, page.fileName, pages);
        if (!r) throw notFound('File not found, it may have moved');
        return r.bytes;
      }
      return await this.readerOf(source).read(file, page.fileName, signal ? { signal } : {});
    } catch (e) {
      throw entryError(e);
    }
  }

  private readerOf(source: PageSource): ContainerReader {
    const reader = source.mediaType ? readerFor(source.mediaType) : undefined;
    if (!reader) throw notReady();
    return reader;
  }

  private async converted(content: Content, to: 'jpeg' | 'png' | undefined, signal?: AbortSignal): Promise<Content> {
    if (!to) return content;
    try {
      const c = await convertImage(content.bytes, to, content.mediaType, signal);
      return c ? { bytes: c.bytes, mediaType: c.mediaType } : content;
    } catch (e) {
      if (e instanceof ImageTooLargeError) throw tooLarge(e.message);
      if (e instanceof UnsupportedImageError) throw notFound('Cannot convert the page image');
      throw e;
    }
  }
}

/** What a page's entry costs in memory when held whole: its analysed size, else as much as the entry limit allows. */
function bufferedSize(page: StoredPage): number {
  return Math.min(page.fileSize ?? Infinity, mediaLimits().maxEntryBytes);
}

/** A failure reading a page's entry, as the client sees it. */
function entryError(e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  if (code === 'ERR_1018' || code === 'ENOENT') return notFound('File not found, it may have moved');
  // An entry over the limits (a header that lied at analysis, more than the buffer budget) or that no longer
  // inflates: said, not a 500 without a reason.
  if (e instanceof MediaLimitError) return tooLarge(`Page cannot be served: ${e.comment}`);
  if (e instanceof MediaError) return new QuireError(500, `Page cannot be read: ${e.code} [${e.message}]`);
  return e;
}

function mapPdfError(e: unknown): unknown {
  if (e instanceof PdfError) {
    if (e.kind === 'not-found') return notFound('File not found, it may have moved');
    if (e.kind === 'page-range') return noSuchPage();
  }
  return e;
}

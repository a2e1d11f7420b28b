import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BookFileView } from '../../domain/book.js';
import { badRequest, forbidden, notFound } from '../../domain/errors.js';
import { accessTo, type RestrictedContent } from '../../domain/restrictions.js';
import type { CurrentUser } from '../../domain/user.js';
import { mediaProfileOf } from '../../library/book-analyzer.js';
import { contentDisposition, openBookFile } from '../../library/book-files.js';
import type { Content, StreamedContent } from '../../library/book-pages.js';
import type { LibraryFiles } from '../../library/library-files.js';
import type { AppDeps } from '../deps.js';
import { contentEtag, matches } from '../plugins/etag.js';
import { pageFileName } from '../mappers/books.js';

/*
 * What every way to a book's content shares, whichever API serves it (REST `/api/v1/books`, OPDS): access checks,
 * the validators of pages, page streaming and file downloads. One place, so that a client protocol cannot serve a
 * page or a file the REST API would refuse.
 */

/** 403 unless the caller may see this library and content (api.md §2.10). */
export function checkAccess(user: CurrentUser, target: { libraryId: string } & RestrictedContent): void {
  if (accessTo(user, target) !== 'ok') throw forbidden();
}

/**
 * Aborts when the client goes away before its answer is sent: the page's inflating and decoding stop with it
 * (issue 11: abandoned requests for a bomb kept growing the process).
 */
export function untilClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('The client went away'));
  });
  return controller.signal;
}

/** A page or resource: in memory, or streamed from the archive with its length when the archive records it. */
export function sendContent(reply: FastifyReply, content: Content | StreamedContent, fileName: string | null) {
  reply.type(content.mediaType);
  if (fileName !== null) reply.header('Content-Disposition', contentDisposition('inline', fileName));
  if ('bytes' in content) return reply.send(content.bytes);
  if (content.size !== null) reply.header('Content-Length', String(content.size));
  return reply.send(content.stream);
}

/** `convert=jpeg|png` in any case; "" ignored; anything else 400 (api.md §1.9). */
function conversion(value: string | undefined): 'jpeg' | 'png' | undefined {
  if (value === undefined || value === '') return undefined;
  const v = value.toLowerCase();
  if (v === 'jpeg' || v === 'png') return v;
  throw badRequest(`Invalid conversion format: ${value}`);
}

/**
 * Does `Accept` ask for `application/pdf` more than for an image (api.md §1.9)? Higher quality wins; at equal
 * quality the more specific range wins (application/pdf over image/* or *\/*); at equal both, the first listed.
 */
export function prefersPdf(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = accept.split(',').map((part, index) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return { type, q: q ? Number(q.slice(2)) : 1, index };
  });
  const score = (want: (t: string) => number) => {
    let best: { q: number; specificity: number; index: number } | null = null;
    for (const r of ranges) {
      const specificity = want(r.type);
      if (specificity < 0 || !(r.q > 0)) continue;
      if (!best || specificity > best.specificity) best = { q: r.q, specificity, index: r.index };
    }
    return best;
  };
  const pdf = score((t) => (t === 'application/pdf' ? 2 : -1));
  if (!pdf) return false;
  const image = score((t) => (t === '*/*' ? 0 : t === 'image/*' ? 1 : t.startsWith('image/') ? 2 : -1));
  if (!image) return true;
  if (pdf.q !== image.q) return pdf.q > image.q;
  if (pdf.specificity !== image.specificity) return pdf.specificity > image.specificity;
  return pdf.index < image.index;
}

/** The server's address as the client sees it (scheme, host, forwarded headers) with the context path. */
export function baseUrl(req: FastifyRequest, contextPath: string): string {
  return `${req.protocol}://${req.host}${contextPath}`;
}

export interface PageRequestOptions {
  /** `convert` as the client wrote it (api.md §1.9). */
  convert?: string | undefined;
  /** false: never answer a PDF page as a one-page PDF. */
  contentNegotiation?: boolean | undefined;
  width?: number | undefined;
}

export interface BookContentDeps {
  books: Pick<AppDeps['books'], 'queries' | 'pages'>;
  files: LibraryFiles;
}

/** Access, validators, pages and files of books, for the routes of every API. */
export function bookContent({ books, files }: BookContentDeps) {
  /** The book for page/file endpoints: 404 when unknown, 403 when not visible to the caller. */
  const visibleBook = async (req: FastifyRequest, bookId: string): Promise<BookFileView> => {
    const book = await books.queries.findFile(bookId);
    if (!book) throw notFound();
    checkAccess(req.user!, book.access);
    return book;
  };

  /**
   * Last-Modified = the media's last change, and If-Modified-Since → 304 (api.md §1.7). Called only once the
   * caller may see the book: Komga answers before access control, which tells anyone that a hidden book
   * exists and when it changed.
   */
  const notModified = async (req: FastifyRequest, reply: FastifyReply, bookId: string): Promise<boolean> => {
    const lastModified = await books.queries.mediaLastModified(bookId);
    if (!lastModified) return false;
    const seconds = Math.floor(Date.parse(lastModified) / 1000) * 1000;
    reply.header('Last-Modified', new Date(seconds).toUTCString());
    const since = req.headers['if-modified-since'];
    if (since && !Number.isNaN(Date.parse(since)) && Date.parse(since) >= seconds) {
      await reply.code(304).send();
      return true;
    }
    return false;
  };

  /**
   * Validators of a page, page thumbnail or resource, once the caller may see the book: Last-Modified (304 to
   * If-Modified-Since), then an ETag made from what identifies the body (the book's file and analysis, and
   * `variant`: which page or resource, which conversion), 304 to If-None-Match. Neither needs the body, which
   * is produced only when the client does not have it.
   */
  const cached = async (req: FastifyRequest, reply: FastifyReply, book: BookFileView, variant: unknown[]) => {
    if (await notModified(req, reply, book.id)) return true;
    const etag = contentEtag([
      book.id,
      book.fileSize,
      book.fileLastModified,
      book.media.lastModifiedDate,
      ...variant.map((v) => (v === undefined ? null : String(v))),
    ]);
    reply.header('ETag', etag);
    if (matches(req.headers['if-none-match'], etag)) {
      await reply.code(304).send();
      return true;
    }
    return false;
  };

  /** The book's file as an attachment typed with its analysed media type, streamed (api.md §1.8). */
  const sendFile = async (req: FastifyRequest, reply: FastifyReply, bookId: string) => {
    const book = await visibleBook(req, bookId);
    const file = await openBookFile(files, { libraryId: book.access.libraryId, url: book.url });
    if (!file) throw notFound('File not found, it may have moved');
    return reply
      .type(book.media.mediaType ?? 'application/octet-stream')
      .header('Content-Disposition', contentDisposition('attachment', file.name))
      .header('Content-Length', String(file.size))
      .send(file.stream);
  };

  /** Page `n` (1-based) of a visible book as an image, converted on request (api.md §1.9). */
  const sendPage = async (
    req: FastifyRequest,
    reply: FastifyReply,
    bookId: string,
    n: number,
    opts: PageRequestOptions,
  ) => {
    const convert = conversion(opts.convert);
    const book = await visibleBook(req, bookId);
    const negotiate = opts.contentNegotiation !== false;
    const pdf = negotiate && mediaProfileOf(book.media.mediaType) === 'PDF' && prefersPdf(req.headers.accept);
    const width = opts.width;
    if (await cached(req, reply, book, ['page', n, convert, pdf, width])) return reply;
    const content = await books.pages.page(book, n, {
      convert,
      pdf,
      ...(width ? { width } : {}),
      reading: true,
      signal: untilClientLeaves(reply),
    });
    return sendContent(reply, content, pageFileName(book.name, n, content.mediaType));
  };

  return { visibleBook, notModified, cached, sendFile, sendPage };
}

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  BookDto,
  BookIdParams,
  BookLatestQuery,
  BookListQuery,
  BookOnDeckQuery,
  ListPagingQuery,
  BookPageDto,
  BookPageParams,
  BookPageQuery,
  BookResourceParams,
  PageBookDto,
  PagingQuery,
  R2PositionsDto,
  WPPublicationDto,
} from '@quire/api';
import type { BookFileView } from '../../db/queries/books.js';
import { checkBookCondition, listContext } from '../../db/queries/conditions.js';
import { parseSort, type SortOrder } from '../../db/queries/sort.js';
import { badRequest, forbidden, notFound } from '../../domain/errors.js';
import { accessTo, type RestrictedContent } from '../../domain/restrictions.js';
import { isAdmin, type CurrentUser } from '../../domain/user.js';
import { mediaProfileOf } from '../../library/book-analyzer.js';
import { contentDisposition, openBookFile } from '../../library/book-files.js';
import { fontMediaType, notReady } from '../../library/book-pages.js';
import { MEDIATYPE_DIVINA_JSON, MEDIATYPE_WEBPUB_JSON } from '../../media/epub/index.js';
import { PRIORITY } from '../../tasks/definitions.js';
import type { AppDeps } from '../deps.js';
import { PUBLICATION_RESOURCE_POLICY } from '../plugins/security-headers.js';
import { epubManifest, pageFileName, pagesManifest, toBookDto, toBookPageDto, toPositions } from '../mappers/books.js';
import { bookFilterCondition, bookPage, pageRequest, toPage } from '../listing.js';

const accepted = { 202: Type.Null({ description: 'Accepted' }) };
const binary = { 200: Type.Unsafe<Buffer>({ description: 'bytes' }) };

/** `POST /books/list` body; the condition tree is checked by checkBookCondition (a 400 when malformed). */
const BookSearchBody = Type.Object({
  condition: Type.Optional(Type.Unknown()),
  fullTextSearch: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** The requested orders; with none, relevance when there is a full-text search (api.md §1.4). */
function ordersOf(sort: string[] | undefined, fullText: string | null | undefined): SortOrder[] {
  const orders = parseSort(sort);
  if (orders.length === 0 && fullText && fullText.trim() !== '') return [{ property: 'relevance', descending: false }];
  return orders;
}

/** 403 unless the caller may see this library and content (api.md §2.10). */
export function checkAccess(user: CurrentUser, target: { libraryId: string } & RestrictedContent): void {
  if (accessTo(user, target) !== 'ok') throw forbidden();
}

/**
 * Aborts when the client goes away before its answer is sent: the page's inflating and decoding stop with it
 * (issue 11: abandoned requests for a bomb kept growing the process).
 */
function untilClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('The client went away'));
  });
  return controller.signal;
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

function baseUrl(req: FastifyRequest, contextPath: string): string {
  return `${req.protocol}://${req.host}${contextPath}`;
}

/** Books (api.md §3.3): details, pages, downloads, manifests, EPUB resources, analysis, duplicates. */
export const bookRoutes: FastifyPluginAsync<AppDeps & { contextPath: string }> = async (instance, deps) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { books, tasks, contextPath, browse } = deps;
  const auth = app.authenticate;
  const admin = app.requireRole('ADMIN');
  const streaming = app.requireRole('PAGE_STREAMING');
  const download = app.requireRole('FILE_DOWNLOAD');

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

  const sendContent = (reply: FastifyReply, bytes: Buffer, mediaType: string, fileName: string) =>
    reply.type(mediaType).header('Content-Disposition', contentDisposition('inline', fileName)).send(bytes);

  app.get(
    '/api/v1/books/duplicates',
    { schema: { querystring: PagingQuery, response: { 200: PageBookDto } }, onRequest: admin },
    async (req) => {
      const page = Math.max(0, req.query.page ?? 0);
      const size = req.query.size === undefined || req.query.size < 1 ? 20 : Math.min(req.query.size, 2000);
      const unpaged = req.query.unpaged === true;
      const sort: { property: 'fileHash' | 'fileSize' | 'name' | 'url'; descending: boolean }[] = [];
      for (const s of req.query.sort ?? []) {
        const [property = '', direction] = s.split(',').map((x) => x.trim());
        const p = property === 'size' ? 'fileSize' : property;
        if (p === 'fileHash' || p === 'fileSize' || p === 'name' || p === 'url') {
          sort.push({ property: p, descending: direction?.toLowerCase() === 'desc' });
        }
      }
      if (sort.length === 0) sort.push({ property: 'fileHash', descending: false });
      const { ids, total } = await books.queries.duplicates(
        unpaged ? { sort } : { sort, offset: page * size, limit: size },
      );
      const views = await books.queries.findMany(ids, req.user!.id);
      return toPage(
        views.map((v) => toBookDto(v, true)),
        total,
        { page, size, unpaged },
      );
    },
  );

  // ---- lists (api.md §3.3, §5) ----

  app.post(
    '/api/v1/books/list',
    {
      schema: { querystring: ListPagingQuery, body: BookSearchBody, response: { 200: PageBookDto } },
      onRequest: auth,
    },
    async (req) => {
      const page = pageRequest(req.query);
      const fullText = req.body.fullTextSearch;
      const found = await browse.books.list(
        { ctx: listContext(req.user!), condition: checkBookCondition(req.body.condition), fullText },
        ordersOf(req.query.sort, fullText),
        page.slice,
      );
      return bookPage(deps, req, found, page);
    },
  );

  app.get(
    '/api/v1/books',
    {
      schema: { querystring: BookListQuery, response: { 200: PageBookDto } },
      onRequest: auth,
    },
    async (req) => {
      const page = pageRequest(req.query);
      const found = await browse.books.list(
        { ctx: listContext(req.user!), condition: bookFilterCondition(req.query), fullText: req.query.search },
        ordersOf(req.query.sort, req.query.search),
        page.slice,
      );
      return bookPage(deps, req, found, page);
    },
  );

  app.get(
    '/api/v1/books/latest',
    { schema: { querystring: BookLatestQuery, response: { 200: PageBookDto } }, onRequest: auth },
    async (req) => {
      const page = pageRequest(req.query);
      const found = await browse.books.list(
        { ctx: listContext(req.user!), condition: null },
        [{ property: 'lastModifiedDate', descending: true }],
        page.slice,
      );
      return bookPage(deps, req, found, page);
    },
  );

  app.get(
    '/api/v1/books/ondeck',
    {
      schema: { querystring: BookOnDeckQuery, response: { 200: PageBookDto } },
      onRequest: auth,
    },
    async (req) => {
      const page = pageRequest(req.query);
      const libraries = req.query.library_id?.length ? req.query.library_id : null;
      const found = await browse.books.onDeck(listContext(req.user!), libraries, page.slice);
      return bookPage(deps, req, found, page);
    },
  );

  /** The neighbour of a visible book in its series (api.md §3.3): 404 at the ends. */
  const sibling = async (req: FastifyRequest, bookId: string, next: boolean) => {
    const book = await books.queries.findFile(bookId);
    if (!book) throw notFound();
    checkAccess(req.user!, book.access);
    const id = await browse.books.siblingInSeries(bookId, next);
    const view = id ? await books.queries.findById(id, req.user!.id) : undefined;
    if (!view) throw notFound();
    return toBookDto(view, isAdmin(req.user!));
  };
  app.get(
    '/api/v1/books/:bookId/next',
    { schema: { params: BookIdParams, response: { 200: BookDto } }, onRequest: auth },
    (req) => sibling(req, req.params.bookId, true),
  );
  app.get(
    '/api/v1/books/:bookId/previous',
    { schema: { params: BookIdParams, response: { 200: BookDto } }, onRequest: auth },
    (req) => sibling(req, req.params.bookId, false),
  );

  app.get(
    '/api/v1/books/:bookId',
    { schema: { params: BookIdParams, response: { 200: BookDto } }, onRequest: auth },
    async (req, reply) => {
      const book = await books.queries.findById(req.params.bookId, req.user!.id);
      // Komga's handler sets the status only: 404 with an empty body (api.md §1.6).
      if (!book) return (reply as FastifyReply).code(404).send();
      checkAccess(req.user!, book.access);
      return toBookDto(book, isAdmin(req.user!));
    },
  );

  app.get(
    '/api/v1/books/:bookId/pages',
    { schema: { params: BookIdParams, response: { 200: Type.Array(BookPageDto) } }, onRequest: auth },
    async (req) => {
      const book = await visibleBook(req, req.params.bookId);
      return (await books.pages.list(book)).map(toBookPageDto);
    },
  );

  app.get(
    '/api/v1/books/:bookId/pages/:pageNumber',
    { schema: { params: BookPageParams, querystring: BookPageQuery, response: binary }, onRequest: streaming },
    async (req, reply) => {
      const convert = conversion(req.query.convert);
      const book = await visibleBook(req, req.params.bookId);
      if (await notModified(req, reply, book.id)) return reply;
      const n = req.params.pageNumber + (req.query.zero_based ? 1 : 0);
      const negotiate = req.query.contentNegotiation !== false;
      const pdf = negotiate && mediaProfileOf(book.media.mediaType) === 'PDF' && prefersPdf(req.headers.accept);
      const content = await books.pages.page(book, n, { convert, pdf, signal: untilClientLeaves(reply) });
      return sendContent(reply, content.bytes, content.mediaType, pageFileName(book.name, n, content.mediaType));
    },
  );

  app.get(
    '/api/v1/books/:bookId/pages/:pageNumber/raw',
    { schema: { params: BookPageParams, querystring: BookPageQuery, response: binary }, onRequest: streaming },
    async (req, reply) => {
      const book = await visibleBook(req, req.params.bookId);
      if (await notModified(req, reply, book.id)) return reply;
      const n = req.params.pageNumber + (req.query.zero_based ? 1 : 0);
      const content = await books.pages.raw(book, n, { signal: untilClientLeaves(reply) });
      return sendContent(reply, content.bytes, content.mediaType, pageFileName(book.name, n, content.mediaType));
    },
  );

  app.get(
    '/api/v1/books/:bookId/pages/:pageNumber/thumbnail',
    { schema: { params: BookPageParams, querystring: BookPageQuery, response: binary }, onRequest: auth },
    async (req, reply) => {
      const book = await visibleBook(req, req.params.bookId);
      if (await notModified(req, reply, book.id)) return reply;
      const n = req.params.pageNumber + (req.query.zero_based ? 1 : 0);
      const content = await books.pages.thumbnail(book, n, { signal: untilClientLeaves(reply) });
      return reply.type(content.mediaType).send(content.bytes);
    },
  );

  const sendFile = async (req: FastifyRequest, reply: FastifyReply, bookId: string) => {
    const book = await visibleBook(req, bookId);
    const file = await openBookFile(deps.libraries.files, { libraryId: book.access.libraryId, url: book.url });
    if (!file) throw notFound('File not found, it may have moved');
    return reply
      .type(book.media.mediaType ?? 'application/octet-stream')
      .header('Content-Disposition', contentDisposition('attachment', file.name))
      .header('Content-Length', String(file.size))
      .send(file.stream);
  };
  app.get('/api/v1/books/:bookId/file', { schema: { params: BookIdParams }, onRequest: download }, (req, reply) =>
    sendFile(req, reply, req.params.bookId),
  );
  app.get(
    '/api/v1/books/:bookId/file/*',
    { schema: { params: Type.Object({ bookId: Type.String(), '*': Type.String() }) }, onRequest: download },
    (req, reply) => sendFile(req, reply, req.params.bookId),
  );

  /** The book with metadata for manifests, visible to the caller, analysed. */
  const manifestBook = async (req: FastifyRequest, bookId: string) => {
    const book = await books.queries.findById(bookId, req.user!.id);
    if (!book) throw notFound();
    checkAccess(req.user!, book.access);
    if (book.media.status !== 'READY') throw notReady();
    return book;
  };
  const manifestSchema = { schema: { params: BookIdParams, response: { 200: WPPublicationDto } }, onRequest: auth };

  const manifest = async (
    req: FastifyRequest,
    reply: FastifyReply,
    bookId: string,
    wanted: 'any' | 'EPUB' | 'PDF' | 'DIVINA',
  ) => {
    const book = await manifestBook(req, bookId);
    const profile = mediaProfileOf(book.media.mediaType);
    if (!profile) throw notReady();
    const base = baseUrl(req, contextPath);
    const file = await books.queries.findFile(book.id);
    if (wanted === 'DIVINA' || (wanted === 'any' && profile === 'DIVINA')) {
      if (profile === 'EPUB' && !book.media.epubDivinaCompatible) throw badRequest('Book is not DiViNa compatible');
      const pages = await books.pages.list(file!);
      return reply.type(MEDIATYPE_DIVINA_JSON).send(pagesManifest('DIVINA', base, book, pages));
    }
    if (wanted !== 'any' && wanted !== profile) throw badRequest(`Book is not a ${wanted}`);
    if (profile === 'PDF') {
      return reply.type(MEDIATYPE_WEBPUB_JSON).send(pagesManifest('PDF', base, book, await books.pages.list(file!)));
    }
    const ext = await books.pages.epubExtension(file!);
    const files = await books.media.files(book.id);
    return reply.type(MEDIATYPE_WEBPUB_JSON).send(epubManifest(base, book, files, ext));
  };
  app.get('/api/v1/books/:bookId/manifest', manifestSchema, (req, reply) =>
    manifest(req, reply, req.params.bookId, 'any'),
  );
  app.get('/api/v1/books/:bookId/manifest/epub', manifestSchema, (req, reply) =>
    manifest(req, reply, req.params.bookId, 'EPUB'),
  );
  app.get('/api/v1/books/:bookId/manifest/pdf', manifestSchema, (req, reply) =>
    manifest(req, reply, req.params.bookId, 'PDF'),
  );
  app.get('/api/v1/books/:bookId/manifest/divina', manifestSchema, (req, reply) =>
    manifest(req, reply, req.params.bookId, 'DIVINA'),
  );

  app.get(
    '/api/v1/books/:bookId/positions',
    { schema: { params: BookIdParams, response: { 200: R2PositionsDto } }, onRequest: auth },
    async (req, reply) => {
      const book = await visibleBook(req, req.params.bookId);
      if (await notModified(req, reply, book.id)) return reply;
      const ext = book.media.status === 'READY' ? await books.pages.epubExtension(book) : null;
      if (!ext) throw notFound('Book is not an EPUB');
      return reply.type('application/vnd.readium.position-list+json').send(toPositions(ext));
    },
  );

  // Font files are public (a reader's CSS loads them without credentials); everything else needs a caller who
  // may see the book. Whatever the book holds is inert if opened on its own (PUBLICATION_RESOURCE_POLICY).
  app.get(
    '/api/v1/books/:bookId/resource/*',
    { schema: { params: BookResourceParams, response: binary } },
    async (req, reply) => {
      reply.header('Content-Security-Policy', PUBLICATION_RESOURCE_POLICY);
      const path = req.params['*'];
      const font = fontMediaType(path);
      if (!font) {
        await app.authenticate.call(app, req, reply, () => undefined);
        if (reply.sent) return reply;
      }
      const book = font ? await books.queries.findFile(req.params.bookId) : await visibleBook(req, req.params.bookId);
      if (!book) throw notFound();
      if (await notModified(req, reply, book.id)) return reply;
      const content = await books.pages.resource(book, path);
      const name = path.split('/').at(-1) ?? path;
      return sendContent(reply, content.bytes, font ?? content.mediaType, name);
    },
  );

  app.post(
    '/api/v1/books/:bookId/analyze',
    { schema: { params: BookIdParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      const book = await books.queries.findFile(req.params.bookId);
      if (!book) throw notFound();
      await tasks.submit([{ kind: 'AnalyzeBook', bookId: book.id, seriesId: book.seriesId }], PRIORITY.HIGH);
      return reply.code(202).send(null);
    },
  );
};

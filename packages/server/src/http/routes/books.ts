import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WPPublicationDto } from '@quire/api';
import type { bookOperations, bookPageOperations, webPubOperations } from '@quire/api/operations';
import type { BookView } from '../../db/queries/books.js';
import { listContext } from '../../db/queries/conditions.js';
import { badRequest, notFound } from '../../domain/errors.js';
import { isAdmin } from '../../domain/user.js';
import { mediaProfileOf, type BookAnalyzer } from '../../library/book-analyzer.js';
import { fontMediaType, notReady } from '../../library/book-pages.js';
import type { LibraryFiles } from '../../library/library-files.js';
import { MEDIATYPE_DIVINA_JSON, MEDIATYPE_WEBPUB_JSON } from '../../media/epub/index.js';
import type { AppDeps } from '../deps.js';
import { PUBLICATION_RESOURCE_POLICY } from '../plugins/security-headers.js';
import { epubManifest, pageFileName, pagesManifest, toBookDto, toBookPageDto, toPositions } from '../mappers/books.js';
import { bookFilterCondition, bookPage, ordersOf, pageRequest, searchRequest, toPage } from '../listing.js';
import type { Handlers, OperationIdsOf } from '../operations.js';
import { baseUrl, bookContent, checkAccess, sendContent, untilClientLeaves } from './book-content.js';

export interface BookRouteDeps {
  books: Pick<AppDeps['books'], 'queries' | 'series' | 'media' | 'pages'>;
  analyzer: Pick<BookAnalyzer, 'queueAnalysis'>;
  browse: AppDeps['browse'];
  files: LibraryFiles;
  contextPath: string;
}

/** What these handlers answer; the book edits, read progress and file deletion are elsewhere. */
type BookOperation =
  | Exclude<
      OperationIdsOf<typeof bookOperations>,
      | 'updateBookMetadata'
      | 'updateBookMetadataByBatch'
      | 'bookRefreshMetadata'
      | 'markBookReadProgress'
      | 'deleteBookReadProgress'
      | 'deleteBookFile'
    >
  | OperationIdsOf<typeof bookPageOperations>
  | Exclude<OperationIdsOf<typeof webPubOperations>, 'getBookProgression' | 'updateBookProgression'>;

type ManifestOperation =
  'getBookWebPubManifest' | 'getBookWebPubManifestEpub' | 'getBookWebPubManifestPdf' | 'getBookWebPubManifestDivina';

/**
 * Where a set of manifests points its links, and what it adds: the REST API's under `/api/v1` as they are; OPDS 2
 * serves the same manifests under `/opds/v2` (api.md §7.2) and adds what its clients need (routes/opds2/).
 */
export interface ManifestFlavour {
  /** The endpoints' path below the context path: `/api/v1` or `/opds/v2`. */
  apiPath: string;
  finish(manifest: WPPublicationDto, book: BookView, server: string): WPPublicationDto;
}

const REST_MANIFESTS: ManifestFlavour = { apiPath: '/api/v1', finish: (manifest) => manifest };

/** The four WebPub manifest operations (api.md §4.7) of one flavour. */
export function webPubManifests(
  deps: Pick<BookRouteDeps, 'books' | 'contextPath'>,
  flavour: ManifestFlavour,
): Handlers<ManifestOperation> {
  const { books, contextPath } = deps;

  /** The book with metadata for manifests, visible to the caller, analysed. */
  const manifestBook = async (req: FastifyRequest, bookId: string) => {
    const book = await books.queries.findById(bookId, req.user!.id);
    if (!book) throw notFound();
    checkAccess(req.user!, book.access);
    if (book.media.status !== 'READY') throw notReady();
    return book;
  };

  const manifest = async (
    req: FastifyRequest,
    reply: FastifyReply,
    bookId: string,
    wanted: 'any' | 'EPUB' | 'PDF' | 'DIVINA',
  ) => {
    const book = await manifestBook(req, bookId);
    const profile = mediaProfileOf(book.media.mediaType);
    if (!profile) throw notReady();
    const server = baseUrl(req, contextPath);
    const apiBase = `${server}${flavour.apiPath}`;
    const send = (type: string, m: WPPublicationDto) => reply.type(type).send(flavour.finish(m, book, server));
    const file = await books.queries.findFile(book.id);
    if (wanted === 'DIVINA' || (wanted === 'any' && profile === 'DIVINA')) {
      if (profile === 'EPUB' && !book.media.epubDivinaCompatible) throw badRequest('Book is not DiViNa compatible');
      const pages = await books.pages.list(file!);
      return send(MEDIATYPE_DIVINA_JSON, pagesManifest('DIVINA', apiBase, book, pages));
    }
    if (wanted !== 'any' && wanted !== profile) throw badRequest(`Book is not a ${wanted}`);
    if (profile === 'PDF') {
      return send(MEDIATYPE_WEBPUB_JSON, pagesManifest('PDF', apiBase, book, await books.pages.list(file!)));
    }
    const ext = await books.pages.epubExtension(file!);
    const mediaFiles = await books.media.files(book.id);
    return send(MEDIATYPE_WEBPUB_JSON, epubManifest(apiBase, book, mediaFiles, ext));
  };

  return {
    getBookWebPubManifest: (req, reply) => manifest(req, reply, req.params.bookId, 'any'),
    getBookWebPubManifestEpub: (req, reply) => manifest(req, reply, req.params.bookId, 'EPUB'),
    getBookWebPubManifestPdf: (req, reply) => manifest(req, reply, req.params.bookId, 'PDF'),
    getBookWebPubManifestDivina: (req, reply) => manifest(req, reply, req.params.bookId, 'DIVINA'),
  };
}

/** Books (api.md §3.3): details, lists, pages, downloads, manifests, EPUB resources, analysis, duplicates. */
export function bookHandlers(deps: BookRouteDeps): Handlers<BookOperation> {
  const { books, browse, files, analyzer } = deps;

  const { visibleBook, notModified, cached, sendFile, sendPage } = bookContent({ books, files });

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

  return {
    getBooksDuplicates: async (req) => {
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
      const views = await books.queries.findMany(ids, req.user.id);
      return toPage(
        views.map((v) => toBookDto(v, true)),
        total,
        { page, size, unpaged },
      );
    },

    // ---- lists (api.md §3.3, §5) ----

    getBooks: async (req) => {
      const { search, orders, page } = searchRequest(req);
      return bookPage(deps, req, await browse.books.list(search, orders, page.slice), page);
    },
    getAllBooksDeprecated: async (req) => {
      const page = pageRequest(req.query);
      const found = await browse.books.list(
        { ctx: listContext(req.user), condition: bookFilterCondition(req.query), fullText: req.query.search },
        ordersOf(req.query.sort, req.query.search),
        page.slice,
      );
      return bookPage(deps, req, found, page);
    },
    getBooksLatest: async (req) => {
      const page = pageRequest(req.query);
      const found = await browse.books.list(
        { ctx: listContext(req.user), condition: null },
        [{ property: 'lastModifiedDate', descending: true }],
        page.slice,
      );
      return bookPage(deps, req, found, page);
    },
    getBooksOnDeck: async (req) => {
      const page = pageRequest(req.query);
      const libraries = req.query.library_id?.length ? req.query.library_id : null;
      const found = await browse.books.onDeck(listContext(req.user), libraries, page.slice);
      return bookPage(deps, req, found, page);
    },

    getBookSiblingNext: (req) => sibling(req, req.params.bookId, true),
    getBookSiblingPrevious: (req) => sibling(req, req.params.bookId, false),
    getBookById: async (req, reply) => {
      const book = await books.queries.findById(req.params.bookId, req.user.id);
      // Komga's handler sets the status only: 404 with an empty body (api.md §1.6).
      if (!book) return reply.code(404).send();
      checkAccess(req.user, book.access);
      return toBookDto(book, isAdmin(req.user));
    },

    // ---- pages (api.md §1.9) ----

    getBookPages: async (req) => {
      const book = await visibleBook(req, req.params.bookId);
      // readers ask for the list before the first page: a PDF's renderer starts meanwhile
      void books.pages.openingReader(book);
      return (await books.pages.list(book)).map(toBookPageDto);
    },
    getBookPageByNumber: async (req, reply) => {
      const n = req.params.pageNumber + (req.query.zero_based ? 1 : 0);
      return sendPage(req, reply, req.params.bookId, n, {
        convert: req.query.convert,
        contentNegotiation: req.query.contentNegotiation,
        width: req.query.width,
      });
    },
    getBookPageRawByNumber: async (req, reply) => {
      const book = await visibleBook(req, req.params.bookId);
      const n = req.params.pageNumber + (req.query.zero_based ? 1 : 0);
      if (await cached(req, reply, book, ['raw', n])) return reply;
      const content = await books.pages.raw(book, n, { signal: untilClientLeaves(reply) });
      return sendContent(reply, content, pageFileName(book.name, n, content.mediaType));
    },
    getBookPageThumbnailByNumber: async (req, reply) => {
      const book = await visibleBook(req, req.params.bookId);
      const n = req.params.pageNumber + (req.query.zero_based ? 1 : 0);
      if (await cached(req, reply, book, ['thumbnail', n])) return reply;
      const content = await books.pages.thumbnail(book, n, { signal: untilClientLeaves(reply) });
      return reply.type(content.mediaType).send(content.bytes);
    },

    downloadBookFile: (req, reply) => sendFile(req, reply, req.params.bookId),
    downloadBookFile_1: (req, reply) => sendFile(req, reply, req.params.bookId),

    // ---- Readium (api.md §3.3) ----

    ...webPubManifests(deps, REST_MANIFESTS),
    getBookPositions: async (req, reply) => {
      const book = await visibleBook(req, req.params.bookId);
      if (await notModified(req, reply, book.id)) return reply;
      const ext = book.media.status === 'READY' ? await books.pages.epubExtension(book) : null;
      if (!ext) throw notFound('Book is not an EPUB');
      return reply.type('application/vnd.readium.position-list+json').send(toPositions(ext));
    },
    // Font files are public (a reader's CSS loads them without credentials); everything else needs a caller who
    // may see the book. Whatever the book holds is inert if opened on its own (PUBLICATION_RESOURCE_POLICY).
    getBookEpubResource: async (req, reply) => {
      reply.header('Content-Security-Policy', PUBLICATION_RESOURCE_POLICY);
      const path = req.params.resource;
      const font = fontMediaType(path);
      if (!font) {
        await req.server.authenticate.call(req.server, req, reply, () => undefined);
        if (reply.sent) return reply;
      }
      const book = font ? await books.queries.findFile(req.params.bookId) : await visibleBook(req, req.params.bookId);
      if (!book) throw notFound();
      if (await cached(req, reply, book, ['resource', path])) return reply;
      const content = await books.pages.resource(book, path);
      const name = path.split('/').at(-1) ?? path;
      return sendContent(reply, { ...content, mediaType: font ?? content.mediaType }, name);
    },

    bookAnalyze: async (req, reply) => {
      const book = await books.queries.findFile(req.params.bookId);
      if (!book) throw notFound();
      await analyzer.queueAnalysis([{ id: book.id, seriesId: book.seriesId }]);
      return reply.code(202).send(null);
    },
  };
}

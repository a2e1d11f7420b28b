import type { FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { SearchConditionBook, SearchConditionSeries } from '@quire/api';
import { listContext, type ListContext } from '../../../db/queries/conditions.js';
import type { IdPage } from '../../../db/queries/series-list.js';
import type { SortOrder } from '../../../db/queries/sort.js';
import type { BookView } from '../../../db/queries/books.js';
import type { SeriesView } from '../../../db/queries/series.js';
import { forbidden, notFound } from '../../../domain/errors.js';
import { mediaProfileOf } from '../../../library/book-analyzer.js';
import { fileNameOf } from '../../../library/book-files.js';
import type { AppDeps } from '../../deps.js';
import { pageRequest, type PageRequest } from '../../listing.js';
import { humanSize } from '../../mappers/books.js';
import { canSeeLibrary } from '../../mappers/libraries.js';
import { utcDateTime } from '../../mappers/users.js';
import { baseUrl, bookContent, checkAccess, sendContent, untilClientLeaves } from '../book-content.js';
import {
  atomFeed,
  FEED_TYPES,
  NAVIGATION_TYPE,
  negotiate,
  OPDS2_TYPE,
  OPENSEARCH_TYPE,
  OPENSEARCH_TYPES,
  openSearchDescription,
  REL,
  type AcquisitionEntry,
  type AtomLink,
  type NavigationEntry,
  type PseLink,
} from './atom.js';

/*
 * OPDS 1.2 (api.md §7.1) under `/opds/v1.2/`: Atom feeds of what the caller may see, for e-reader and phone apps
 * (KOReader, Panels, Chunky, Thorium…). Every list is a query of the REST API's list engine (`browse`), with the
 * caller's libraries and content restrictions in its SQL and its page read with LIMIT/OFFSET; pages, files and
 * thumbnails go through the same access checks as `/api/v1/books` (book-content.ts).
 */

const BASE = '/opds/v1.2';
/** PSE clients draw these as they are; any other page type is converted to JPEG on the way (api.md §7.1). */
const STREAMABLE = new Set(['image/jpeg', 'image/png', 'image/gif']);

const PagingQuery = Type.Object({
  page: Type.Optional(Type.Integer()),
  size: Type.Optional(Type.Integer()),
});
const SeriesQuery = Type.Object({
  page: Type.Optional(Type.Integer()),
  size: Type.Optional(Type.Integer()),
  search: Type.Optional(Type.String()),
  publisher: Type.Optional(Type.Array(Type.String())),
});
const IdParams = Type.Object({ id: Type.String() });
const PageParams = Type.Object({ id: Type.String(), pageNumber: Type.Integer() });
const ConvertQuery = Type.Object({ convert: Type.Optional(Type.String()) });

type Paging = { page?: number; size?: number };

export type OpdsV1Deps = Pick<AppDeps, 'books' | 'browse' | 'collections' | 'referential' | 'thumbnails'> & {
  libraries: Pick<AppDeps['libraries'], 'repository' | 'files'>;
  contextPath: string;
};

export const opdsV1Routes: FastifyPluginAsync<OpdsV1Deps> = async (app, deps) => {
  const { books, browse, collections, referential, thumbnails } = deps;
  const content = bookContent({ books, files: deps.libraries.files });
  const auth = { onRequest: app.authenticate };

  /** The absolute URL of an OPDS path (api.md §1.1: built from the request, never configured). */
  const urlOf = (req: FastifyRequest, path: string) => `${baseUrl(req, deps.contextPath)}${BASE}/${path}`;

  /**
   * Feeds answer in the type the client's `Accept` picks, or 406 before anything is looked up (Spring refuses the
   * request before the handler runs). After authentication: a client without credentials gets its 401 challenge.
   */
  const answering =
    (produces: readonly string[]): preHandlerAsyncHookHandler =>
    async (req, reply) => {
      const type = negotiate(req.headers.accept, produces);
      if (type === null) return reply.code(406).send();
      reply.type(`${type};charset=UTF-8`);
    };
  const feed = { onRequest: app.authenticate, preHandler: answering(FEED_TYPES) };

  /** Self, start, and previous/next keeping the request's other parameters (api.md §7.1: no first/last). */
  const feedLinks = (
    req: FastifyRequest,
    path: string,
    paging?: { page: PageRequest; total: number; params: [string, string][] },
  ): AtomLink[] => {
    const href = (params: [string, string][]) => {
      const q = new URLSearchParams(params).toString();
      return urlOf(req, q ? `${path}?${q}` : path);
    };
    const links: AtomLink[] = [
      { rel: REL.self, type: NAVIGATION_TYPE, href: href(paging ? pagedParams(paging.params, paging.page, null) : []) },
      { rel: REL.start, type: NAVIGATION_TYPE, href: urlOf(req, 'catalog') },
    ];
    if (paging) {
      const { page, total, params } = paging;
      if (page.page > 0) {
        links.push({ rel: REL.previous, type: NAVIGATION_TYPE, href: href(pagedParams(params, page, page.page - 1)) });
      }
      if ((page.page + 1) * page.size < total) {
        links.push({ rel: REL.next, type: NAVIGATION_TYPE, href: href(pagedParams(params, page, page.page + 1)) });
      }
    }
    return links;
  };

  const now = () => new Date().toISOString();

  // ---- entries ----

  const seriesEntries = async (req: FastifyRequest, ids: string[]): Promise<NavigationEntry[]> =>
    (await books.series.findMany(ids, req.user!.id)).map((s: SeriesView) => ({
      id: s.id,
      title: s.metadata.title,
      updated: s.lastModifiedDate,
      content: '',
      href: urlOf(req, `series/${s.id}`),
    }));

  /**
   * Book entries: thumbnail, cover, acquisition with the analysed media type, and page streaming when the book has
   * page images (comics, PDF, DiViNa-compatible EPUB), with the caller's progress. `prefixed`: titles start with
   * the series and number, for feeds that mix series.
   */
  const bookEntries = async (req: FastifyRequest, ids: string[], prefixed: boolean): Promise<AcquisitionEntry[]> => {
    const views = await books.queries.findMany(ids, req.user!.id);
    const pageTypes = await books.queries.pageMediaTypes(views.map((b) => b.id));
    return views.map((b) => {
      const url = (path: string) => urlOf(req, `books/${b.id}/${path}`);
      const fileName = fileNameOf(b.url);
      const ext = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : '';
      const summary = b.metadata.summary ? `\n\n${b.metadata.summary}` : '';
      const links: (AtomLink | PseLink)[] = [
        { rel: REL.thumbnail, type: 'image/jpeg', href: url('thumbnail/small') },
        { rel: REL.image, type: 'image/jpeg', href: url('thumbnail') },
        {
          rel: REL.acquisition,
          type: b.media.mediaType ?? 'application/octet-stream',
          href: url(`file/${encodeURIComponent(fileName.replaceAll(';', ''))}`),
        },
      ];
      const stream = pseLink(b, pageTypes.get(b.id) ?? [], url('pages/{pageNumber}'));
      if (stream) links.push(stream);
      return {
        id: b.id,
        title: prefixed ? `${b.seriesTitle} ${b.metadata.number}: ${b.metadata.title}` : b.metadata.title,
        updated: b.lastModifiedDate,
        content: `${ext} - ${humanSize(b.fileSize)}${summary}`.replace(/\r?\n/g, '<br/>'),
        authors: b.metadata.authors.map((a) => a.name),
        links,
      };
    });
  };

  // ---- lists ----

  const seriesList = (ctx: ListContext, condition: SearchConditionSeries[], orders: SortOrder[], page: PageRequest) =>
    browse.series.list(
      { ctx, condition: { allOf: [{ deleted: { operator: 'isFalse' } }, ...condition] } },
      orders,
      page.slice,
    );

  const readyBooks = (ctx: ListContext, condition: SearchConditionBook[], orders: SortOrder[], page: PageRequest) =>
    browse.books.list(
      {
        ctx,
        condition: {
          allOf: [
            { mediaStatus: { operator: 'is', value: 'READY' } },
            { deleted: { operator: 'isFalse' } },
            ...condition,
          ],
        },
      },
      orders,
      page.slice,
    );

  const navigationFeed = async (
    req: FastifyRequest,
    reply: FastifyReply,
    head: { id: string; title: string; path: string; params?: [string, string][] },
    found: IdPage,
    page: PageRequest,
  ) => {
    const entries = await seriesEntries(req, found.ids);
    return reply.send(
      atomFeed(
        {
          id: head.id,
          title: head.title,
          updated: now(),
          links: feedLinks(req, head.path, { page, total: found.total, params: head.params ?? [] }),
        },
        { navigation: entries },
      ),
    );
  };

  const acquisitionFeed = async (
    req: FastifyRequest,
    reply: FastifyReply,
    head: { id: string; title: string; path: string; updated?: string },
    found: IdPage,
    page: PageRequest,
    prefixed: boolean,
  ) => {
    const entries = await bookEntries(req, found.ids, prefixed);
    return reply.send(
      atomFeed(
        {
          id: head.id,
          title: head.title,
          updated: head.updated ?? now(),
          links: feedLinks(req, head.path, { page, total: found.total, params: [] }),
        },
        { acquisition: entries },
      ),
    );
  };

  // ---- feeds ----

  app.get(`${BASE}/catalog`, feed, async (req, reply) => {
    const updated = now();
    const entry = (id: string, title: string, text: string, path: string): NavigationEntry => ({
      id,
      title,
      updated,
      content: text,
      href: urlOf(req, path),
    });
    return reply.send(
      atomFeed(
        {
          id: 'root',
          title: 'Quire OPDS catalog',
          updated,
          links: [
            ...feedLinks(req, 'catalog'),
            { rel: REL.search, type: OPENSEARCH_TYPE, href: urlOf(req, 'search') },
            // The same catalog in OPDS 2 (api.md §7.1), for apps that read both.
            { rel: REL.alternate, type: OPDS2_TYPE, href: `${baseUrl(req, deps.contextPath)}/opds/v2/catalog` },
          ],
        },
        {
          navigation: [
            entry('keepReading', 'Keep Reading', 'Continue reading your in progress books', 'keep-reading'),
            entry('ondeck', 'On Deck', 'Browse what to read next', 'ondeck'),
            entry('allSeries', 'All series', 'Browse by series', 'series'),
            entry('latestSeries', 'Latest series', 'Browse latest series', 'series/latest'),
            entry('latestBooks', 'Latest books', 'Browse latest books', 'books/latest'),
            entry('allLibraries', 'All libraries', 'Browse by library', 'libraries'),
            entry('allCollections', 'All collections', 'Browse by collection', 'collections'),
            entry('allReadLists', 'All read lists', 'Browse by read lists', 'readlists'),
            entry('allPublishers', 'All publishers', 'Browse by publishers', 'publishers'),
          ],
        },
      ),
    );
  });

  app.get(
    `${BASE}/search`,
    { onRequest: app.authenticate, preHandler: answering(OPENSEARCH_TYPES) },
    async (req, reply) => {
      return reply.send(openSearchDescription(`${urlOf(req, 'series')}?search={searchTerms}`));
    },
  );

  app.get<{ Querystring: Paging }>(
    `${BASE}/keep-reading`,
    { ...feed, schema: { querystring: PagingQuery } },
    async (req, reply) => {
      const page = pageRequest(req.query);
      const found = await readyBooks(
        listContext(req.user!),
        [{ readStatus: { operator: 'is', value: 'IN_PROGRESS' } }],
        [{ property: 'readProgress.readDate', descending: true }],
        page,
      );
      return acquisitionFeed(
        req,
        reply,
        { id: 'keepReading', title: 'Keep Reading', path: 'keep-reading' },
        found,
        page,
        true,
      );
    },
  );

  app.get<{ Querystring: Paging }>(
    `${BASE}/ondeck`,
    { ...feed, schema: { querystring: PagingQuery } },
    async (req, reply) => {
      const page = pageRequest(req.query);
      const found = await browse.books.onDeck(listContext(req.user!), null, page.slice);
      return acquisitionFeed(req, reply, { id: 'ondeck', title: 'On Deck', path: 'ondeck' }, found, page, true);
    },
  );

  app.get<{ Querystring: { page?: number; size?: number; search?: string; publisher?: string[] } }>(
    `${BASE}/series`,
    { ...feed, schema: { querystring: SeriesQuery } },
    async (req, reply) => {
      const page = pageRequest(req.query);
      const search = req.query.search?.trim() ? req.query.search : undefined;
      const publishers = req.query.publisher ?? [];
      const condition: SearchConditionSeries[] = [];
      if (search) condition.push({ title: { operator: 'contains', value: search } });
      if (publishers.length) {
        condition.push({ anyOf: publishers.map((p) => ({ publisher: { operator: 'is' as const, value: p } })) });
      }
      const found = await seriesList(
        listContext(req.user!),
        condition,
        [{ property: 'metadata.titleSort', descending: false }],
        page,
      );
      const params: [string, string][] = [
        ...(search ? [['search', search] as [string, string]] : []),
        ...publishers.map((p): [string, string] => ['publisher', p]),
      ];
      return navigationFeed(
        req,
        reply,
        { id: 'allSeries', title: search ? `Series search for: ${search}` : 'All series', path: 'series', params },
        found,
        page,
      );
    },
  );

  app.get<{ Querystring: Paging }>(
    `${BASE}/series/latest`,
    { ...feed, schema: { querystring: PagingQuery } },
    async (req, reply) => {
      const page = pageRequest(req.query);
      const found = await seriesList(
        listContext(req.user!),
        [],
        [{ property: 'lastModified', descending: true }],
        page,
      );
      return navigationFeed(
        req,
        reply,
        { id: 'latestSeries', title: 'Latest series', path: 'series/latest' },
        found,
        page,
      );
    },
  );

  app.get<{ Querystring: Paging }>(
    `${BASE}/books/latest`,
    { ...feed, schema: { querystring: PagingQuery } },
    async (req, reply) => {
      const page = pageRequest(req.query);
      const found = await readyBooks(listContext(req.user!), [], [{ property: 'created', descending: true }], page);
      return acquisitionFeed(
        req,
        reply,
        { id: 'latestBooks', title: 'Latest books', path: 'books/latest' },
        found,
        page,
        true,
      );
    },
  );

  app.get(`${BASE}/libraries`, feed, async (req, reply) => {
    const updated = now();
    const visible = (await deps.libraries.repository.list()).filter((l) => canSeeLibrary(req.user!, l.id));
    return reply.send(
      atomFeed(
        { id: 'allLibraries', title: 'All libraries', updated, links: feedLinks(req, 'libraries') },
        {
          navigation: visible.map((l) => ({
            id: l.id,
            title: l.name,
            updated,
            content: '',
            href: urlOf(req, `libraries/${l.id}`),
          })),
        },
      ),
    );
  });

  app.get<{ Params: { id: string }; Querystring: Paging }>(
    `${BASE}/libraries/:id`,
    { ...feed, schema: { params: IdParams, querystring: PagingQuery } },
    async (req, reply) => {
      const library = await deps.libraries.repository.find(req.params.id);
      if (!library) throw notFound();
      if (!canSeeLibrary(req.user!, library.id)) throw forbidden();
      const page = pageRequest(req.query);
      const found = await seriesList(
        listContext(req.user!),
        [{ libraryId: { operator: 'is', value: library.id } }],
        [{ property: 'metadata.titleSort', descending: false }],
        page,
      );
      return navigationFeed(
        req,
        reply,
        { id: library.id, title: library.name, path: `libraries/${library.id}` },
        found,
        page,
      );
    },
  );

  app.get<{ Querystring: Paging }>(
    `${BASE}/collections`,
    { ...feed, schema: { querystring: PagingQuery } },
    async (req, reply) => {
      const page = pageRequest(req.query);
      const { content: found, total } = await collections.collections.list(req.user!, {
        paging: page.slice ?? undefined,
      });
      return reply.send(
        atomFeed(
          {
            id: 'allCollections',
            title: 'All collections',
            updated: now(),
            links: feedLinks(req, 'collections', { page, total, params: [] }),
          },
          {
            navigation: found.map((c) => ({
              id: c.id,
              title: c.name,
              updated: c.lastModifiedDate,
              content: '',
              href: urlOf(req, `collections/${c.id}`),
            })),
          },
        ),
      );
    },
  );

  app.get<{ Params: { id: string }; Querystring: Paging }>(
    `${BASE}/collections/:id`,
    { ...feed, schema: { params: IdParams, querystring: PagingQuery } },
    async (req, reply) => {
      const collection = await collections.collections.get(req.user!, req.params.id);
      const page = pageRequest(req.query);
      const found = await seriesList(
        listContext(req.user!),
        [{ collectionId: { operator: 'is', value: collection.id } }],
        [{ property: collection.ordered ? 'collection.number' : 'metadata.titleSort', descending: false }],
        page,
      );
      return navigationFeed(
        req,
        reply,
        { id: collection.id, title: collection.name, path: `collections/${collection.id}` },
        found,
        page,
      );
    },
  );

  app.get<{ Querystring: Paging }>(
    `${BASE}/readlists`,
    { ...feed, schema: { querystring: PagingQuery } },
    async (req, reply) => {
      const page = pageRequest(req.query);
      const { content: found, total } = await collections.readLists.list(req.user!, {
        paging: page.slice ?? undefined,
      });
      return reply.send(
        atomFeed(
          {
            id: 'allReadLists',
            title: 'All read lists',
            updated: now(),
            links: feedLinks(req, 'readlists', { page, total, params: [] }),
          },
          {
            navigation: found.map((r) => ({
              id: r.id,
              title: r.name,
              updated: r.lastModifiedDate,
              content: r.summary,
              href: urlOf(req, `readlists/${r.id}`),
            })),
          },
        ),
      );
    },
  );

  app.get<{ Params: { id: string }; Querystring: Paging }>(
    `${BASE}/readlists/:id`,
    { ...feed, schema: { params: IdParams, querystring: PagingQuery } },
    async (req, reply) => {
      const readList = await collections.readLists.get(req.user!, req.params.id);
      const page = pageRequest(req.query);
      const found = await readyBooks(
        listContext(req.user!),
        [{ readListId: { operator: 'is', value: readList.id } }],
        [{ property: readList.ordered ? 'readList.number' : 'metadata.releaseDate', descending: false }],
        page,
      );
      return acquisitionFeed(
        req,
        reply,
        { id: readList.id, title: readList.name, path: `readlists/${readList.id}` },
        found,
        page,
        true,
      );
    },
  );

  app.get<{ Querystring: Paging }>(
    `${BASE}/publishers`,
    { ...feed, schema: { querystring: PagingQuery } },
    async (req, reply) => {
      const page = pageRequest(req.query);
      const all = await referential.seriesValues(req.user!, 'publisher', {});
      const shown = page.slice ? all.slice(page.slice.offset, page.slice.offset + page.slice.limit) : all;
      const updated = now();
      return reply.send(
        atomFeed(
          {
            id: 'allPublishers',
            title: 'All publishers',
            updated,
            links: feedLinks(req, 'publishers', { page, total: all.length, params: [] }),
          },
          {
            navigation: shown.map((p) => ({
              id: `publisher:${encodeURIComponent(p)}`,
              title: p,
              updated,
              content: '',
              href: `${urlOf(req, 'series')}?${new URLSearchParams([['publisher', p]]).toString()}`,
            })),
          },
        ),
      );
    },
  );

  app.get<{ Params: { id: string }; Querystring: Paging }>(
    `${BASE}/series/:id`,
    { ...feed, schema: { params: IdParams, querystring: PagingQuery } },
    async (req, reply) => {
      const series = await books.series.findById(req.params.id, req.user!.id);
      if (!series) throw notFound();
      checkAccess(req.user!, series.access);
      const page = pageRequest(req.query);
      const found = await readyBooks(
        listContext(req.user!),
        [{ seriesId: { operator: 'is', value: series.id } }],
        [{ property: 'metadata.numberSort', descending: false }],
        page,
      );
      return acquisitionFeed(
        req,
        reply,
        { id: series.id, title: series.metadata.title, path: `series/${series.id}`, updated: series.lastModifiedDate },
        found,
        page,
        false,
      );
    },
  );

  // ---- thumbnails, pages, files ----

  app.get<{ Params: { id: string } }>(
    `${BASE}/books/:id/thumbnail/small`,
    { ...auth, schema: { params: IdParams } },
    async (req, reply) => {
      await thumbnails.checkBookAccess(req.user!, req.params.id);
      const poster = await thumbnails.bookPoster(req.params.id);
      if (!poster) throw notFound();
      return reply.type('image/jpeg').send(poster);
    },
  );

  // The cover at its own size: the first page as JPEG when the poster was made from it, else the chosen poster.
  app.get<{ Params: { id: string } }>(
    `${BASE}/books/:id/thumbnail`,
    { ...auth, schema: { params: IdParams } },
    async (req, reply) => {
      const book = await content.visibleBook(req, req.params.id);
      const selected = (await thumbnails.list('book', book.id)).find((t) => t.selected);
      const profile = mediaProfileOf(book.media.mediaType);
      const pageCover =
        book.media.status === 'READY' &&
        book.media.pageCount > 0 &&
        (profile === 'DIVINA' || profile === 'PDF') &&
        (!selected || selected.type === 'GENERATED');
      if (pageCover) {
        const cover = await books.pages.page(book, 1, { convert: 'jpeg', signal: untilClientLeaves(reply) });
        return sendContent(reply, cover, null);
      }
      const poster = await thumbnails.bookPoster(book.id);
      if (!poster) throw notFound();
      return reply.type('image/jpeg').send(poster);
    },
  );

  app.get<{ Params: { id: string; pageNumber: number }; Querystring: { convert?: string } }>(
    `${BASE}/books/:id/pages/:pageNumber`,
    { onRequest: app.requireRole('PAGE_STREAMING'), schema: { params: PageParams, querystring: ConvertQuery } },
    // 0-based here (the PSE template), 1-based everywhere else; images only, never a one-page PDF.
    (req, reply) =>
      content.sendPage(req, reply, req.params.id, req.params.pageNumber + 1, {
        convert: req.query.convert,
        contentNegotiation: false,
      }),
  );

  app.get<{ Params: { id: string } }>(
    `${BASE}/books/:id/file/*`,
    {
      onRequest: app.requireRole('FILE_DOWNLOAD'),
      schema: { params: Type.Object({ id: Type.String(), '*': Type.String() }) },
    },
    (req, reply) => content.sendFile(req, reply, req.params.id),
  );
};

/** The request's filter parameters, then `size` when the client chose one, then `page` when not the first. */
function pagedParams(params: [string, string][], page: PageRequest, number: number | null): [string, string][] {
  const out = [...params];
  if (page.size !== 20) out.push(['size', String(page.size)]);
  if (number !== null && number > 0) out.push(['page', String(number)]);
  else if (number === null && page.page > 0) out.push(['page', String(page.page)]);
  return out;
}

/**
 * The Page Streaming Extension link of a book with page images, or null: the single page type when every page is
 * JPEG, PNG or GIF, else JPEG through `?convert=jpeg`; PDF pages are rendered as JPEG already.
 */
function pseLink(b: BookView, pageTypes: string[], template: string): PseLink | null {
  const profile = mediaProfileOf(b.media.mediaType);
  const pages = profile === 'DIVINA' || profile === 'PDF' || (profile === 'EPUB' && b.media.epubDivinaCompatible);
  if (b.media.status !== 'READY' || !pages || b.media.pageCount === 0) return null;
  const single = profile === 'PDF' ? 'image/jpeg' : pageTypes.length === 1 ? pageTypes[0]! : null;
  const direct = single !== null && STREAMABLE.has(single);
  const link: PseLink = {
    rel: REL.stream,
    type: direct ? single : 'image/jpeg',
    href: direct ? template : `${template}?convert=jpeg`,
    count: b.media.pageCount,
  };
  if (b.readProgress) {
    link.lastRead = b.readProgress.page;
    link.lastReadDate = utcDateTime(b.readProgress.lastModifiedDate);
  }
  return link;
}

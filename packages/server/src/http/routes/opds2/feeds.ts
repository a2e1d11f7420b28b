import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { SearchConditionBook, SearchConditionSeries } from '@quire/api';
import type { Collections } from '../../../collections/index.js';
import type { BookQueries } from '../../../db/queries/books.js';
import type { Browse } from '../../../db/queries/browse.js';
import { listContext, type ListContext } from '../../../db/queries/conditions.js';
import type { ReferentialQueries } from '../../../db/queries/referential.js';
import type { IdPage } from '../../../db/queries/series-list.js';
import type { SeriesQueries } from '../../../db/queries/series.js';
import type { SortOrder } from '../../../db/queries/sort.js';
import type { Library } from '../../../domain/library.js';
import type { LibraryRepository } from '../../../domain/ports.js';
import { forbidden, notFound } from '../../../domain/errors.js';
import type { CurrentUser } from '../../../domain/user.js';
import { pageRequest, type PageRequest } from '../../listing.js';
import { canSeeLibrary } from '../../mappers/libraries.js';
import {
  compactFeed,
  MEDIATYPE_OPDS_JSON,
  navigationLink,
  opdsPublication,
  opdsUrl,
  type Feed,
  type FeedGroup,
  type FeedLink,
} from '../../mappers/opds2.js';
import { baseUrl, checkAccess } from '../book-content.js';

/** How many items each group of a "Recommended" feed shows (its `self` link opens the whole list). */
const RECOMMENDED_ITEMS = 5;
/** How many of each kind a search shows. */
const SEARCH_ITEMS = 20;

const paging = { page: Type.Optional(Type.Integer()), size: Type.Optional(Type.Integer()) };
const PagedQuery = Type.Object(paging);
const BrowseQuery = Type.Object({ ...paging, publisher: Type.Optional(Type.Array(Type.String())) });
const SeriesQuery = Type.Object({ ...paging, tag: Type.Optional(Type.String()) });
const SearchQuery = Type.Object({ query: Type.Optional(Type.String()) });
const LibraryParams = Type.Object({ libraryId: Type.Optional(Type.String()) });
const IdParams = Type.Object({ id: Type.String() });

export interface Opds2FeedDeps {
  libraries: Pick<LibraryRepository, 'list' | 'find'>;
  browse: Pick<Browse, 'books' | 'series'>;
  books: { queries: Pick<BookQueries, 'findMany'>; series: Pick<SeriesQueries, 'findMany' | 'findById'> };
  collections: Pick<Collections, 'collections' | 'readLists'>;
  referential: Pick<ReferentialQueries, 'seriesValues' | 'bookTags'>;
  contextPath: string;
}

const is = <T extends string>(value: T) => ({ operator: 'is' as const, value });
const isFalse = { operator: 'isFalse' as const };
const readyBooks: SearchConditionBook[] = [{ mediaStatus: is('READY') }, { deleted: isFalse }];

/** The feeds a library scope opens: every visible library (`libraries/…`), or one (`libraries/{id}/…`). */
interface Scope {
  library: Library | null;
  /** null: every library the caller may see (the list queries apply the sharing). */
  libraryIds: string[] | null;
  /** `libraries` or `libraries/{id}`. */
  path: string;
  title: string;
}

/**
 * The OPDS 2 feeds (api.md §7.2). Every list is a query of the REST API's list engine (db/queries), paged in SQL and
 * filtered there by the caller's libraries, age rating and labels, so a hidden series never shows up in a feed, a
 * facet, a count or a search; the collections and read lists come from their services, as for the REST API.
 */
export function registerOpds2Feeds(app: FastifyInstance, deps: Opds2FeedDeps): void {
  const { libraries, browse, books, collections, referential } = deps;
  const serverOf = (req: FastifyRequest) => baseUrl(req, deps.contextPath);

  const scopeOf = async (user: CurrentUser, libraryId: string | undefined): Promise<Scope> => {
    if (libraryId === undefined) return { library: null, libraryIds: null, path: 'libraries', title: 'All libraries' };
    const library = await libraries.find(libraryId);
    if (!library) throw notFound();
    if (!canSeeLibrary(user, library.id)) throw forbidden();
    return { library, libraryIds: [library.id], path: `libraries/${library.id}`, title: library.name };
  };
  const inScope = <C>(scope: Scope, make: (id: string) => C): C[] =>
    scope.libraryIds ? [{ anyOf: scope.libraryIds.map(make) } as C] : [];

  const publications = async (req: FastifyRequest, found: IdPage) => {
    const views = await books.queries.findMany(found.ids, req.user!.id);
    const server = serverOf(req);
    return views.map((v) => opdsPublication(server, v));
  };
  const seriesLinks = async (req: FastifyRequest, found: IdPage) => {
    const views = await books.series.findMany(found.ids, req.user!.id);
    const server = serverOf(req);
    return views.map((v) => navigationLink(v.metadata.title, opdsUrl(server, `series/${v.id}`)));
  };

  const bookList = (ctx: ListContext, condition: SearchConditionBook[], order: SortOrder, page: Slice) =>
    browse.books.list({ ctx, condition: { allOf: condition } }, [order], page);
  const seriesList = (ctx: ListContext, condition: SearchConditionSeries[], order: SortOrder, page: Slice) =>
    browse.series.list({ ctx, condition: { allOf: condition } }, [order], page);

  /** The lists of a library scope, each for one page. */
  const lists = {
    keepReading: (ctx: ListContext, scope: Scope, slice: Slice) =>
      bookList(
        ctx,
        [{ readStatus: is('IN_PROGRESS') }, ...readyBooks, ...inScope(scope, (id) => ({ libraryId: is(id) }))],
        { property: 'readProgress.readDate', descending: true },
        slice,
      ),
    onDeck: (ctx: ListContext, scope: Scope, slice: Slice) => browse.books.onDeck(ctx, scope.libraryIds, slice),
    latestBooks: (ctx: ListContext, scope: Scope, slice: Slice) =>
      bookList(
        ctx,
        [...readyBooks, ...inScope(scope, (id) => ({ libraryId: is(id) }))],
        { property: 'createdDate', descending: true },
        slice,
      ),
    latestSeries: (ctx: ListContext, scope: Scope, slice: Slice) =>
      seriesList(
        ctx,
        [{ deleted: isFalse }, { oneShot: isFalse }, ...inScope(scope, (id) => ({ libraryId: is(id) }))],
        { property: 'lastModifiedDate', descending: true },
        slice,
      ),
  };

  /** Home, search, and the library scope's sections (Collections and Read lists only when it has some). */
  const common = (server: string): FeedLink[] => [
    { title: 'Home', rel: 'start', href: opdsUrl(server, 'catalog'), type: MEDIATYPE_OPDS_JSON },
    {
      title: 'Search',
      rel: 'search',
      href: `${opdsUrl(server, 'search')}{?query}`,
      type: MEDIATYPE_OPDS_JSON,
      templated: true,
    },
  ];
  const sections = async (user: CurrentUser, server: string, scope: Scope): Promise<FeedLink[]> => {
    const libraryIds = scope.libraryIds ?? undefined;
    const first = { offset: 0, limit: 1 };
    const [someCollections, someReadLists] = await Promise.all([
      collections.collections.list(user, { libraryIds, paging: first }),
      collections.readLists.list(user, { libraryIds, paging: first }),
    ]);
    const link = (title: string, path: string) => navigationLink(title, opdsUrl(server, path), 'subsection');
    return [
      link('Recommended', scope.path),
      link('Browse', `${scope.path}/browse`),
      ...(someCollections.total > 0 ? [link('Collections', `${scope.path}/collections`)] : []),
      ...(someReadLists.total > 0 ? [link('Read lists', `${scope.path}/readlists`)] : []),
    ];
  };

  const send = (feed: Feed) => compactFeed(feed);
  const now = () => new Date().toISOString();

  // ---- Recommended: the catalog, and the same per library ----

  const recommended = async (req: FastifyRequest, libraryId: string | undefined, selfPath: string) => {
    const user = req.user!;
    const server = serverOf(req);
    const scope = await scopeOf(user, libraryId);
    const ctx = listContext(user);
    const first = { offset: 0, limit: RECOMMENDED_ITEMS };
    const [keepReading, onDeck, latestBooks, latestSeries] = await Promise.all([
      lists.keepReading(ctx, scope, first),
      lists.onDeck(ctx, scope, first),
      lists.latestBooks(ctx, scope, first),
      lists.latestSeries(ctx, scope, first),
    ]);
    const group = (title: string, path: string, found: IdPage): Pick<FeedGroup, 'metadata' | 'links'> => ({
      metadata: {
        title,
        itemsPerPage: RECOMMENDED_ITEMS,
        currentPage: 1,
        numberOfItems: found.total,
      },
      links: [{ title, rel: 'self', href: opdsUrl(server, `${scope.path}/${path}`), type: MEDIATYPE_OPDS_JSON }],
    });
    const groups: FeedGroup[] = [];
    if (!scope.library) {
      const visible = (await libraries.list()).filter((l) => canSeeLibrary(user, l.id));
      groups.push({
        metadata: { title: 'Libraries' },
        links: [{ rel: 'self', href: opdsUrl(server, 'libraries'), type: MEDIATYPE_OPDS_JSON }],
        navigation: visible.map((l) => navigationLink(l.name, opdsUrl(server, `libraries/${l.id}`))),
      });
    }
    if (keepReading.ids.length) {
      groups.push({
        ...group('Keep Reading', 'keep-reading', keepReading),
        publications: await publications(req, keepReading),
      });
    }
    if (onDeck.ids.length) {
      groups.push({ ...group('On Deck', 'on-deck', onDeck), publications: await publications(req, onDeck) });
    }
    if (latestBooks.ids.length) {
      groups.push({
        ...group('Latest Books', 'books/latest', latestBooks),
        publications: await publications(req, latestBooks),
      });
    }
    if (latestSeries.ids.length) {
      groups.push({
        ...group('Latest Series', 'series/latest', latestSeries),
        navigation: await seriesLinks(req, latestSeries),
      });
    }
    return send({
      metadata: { title: `${scope.title} - Recommended`, modified: now() },
      links: [{ rel: 'self', href: opdsUrl(server, selfPath), type: MEDIATYPE_OPDS_JSON }, ...common(server)],
      navigation: await sections(user, server, scope),
      groups,
    });
  };

  const route = { onRequest: app.authenticate };

  app.get('/opds/v2/catalog', route, (req) => recommended(req, undefined, 'catalog'));
  app.get('/opds/v2/libraries', route, (req) => recommended(req, undefined, 'libraries'));
  app.get<ScopedRequest>('/opds/v2/libraries/:libraryId', { ...route, schema: { params: LibraryParams } }, (req) =>
    recommended(req, req.params.libraryId, `libraries/${req.params.libraryId}`),
  );

  // ---- the full lists behind the groups, and browsing ----

  /** A paged feed of a scope: metadata of the page, its links with previous/next. */
  const pagedFeed = (
    server: string,
    path: string,
    title: string,
    found: IdPage,
    page: PageRequest,
    params: [string, string][] = [],
  ): Pick<Feed, 'metadata' | 'links'> => ({
    metadata: {
      title,
      modified: now(),
      itemsPerPage: page.size,
      currentPage: page.page + 1,
      numberOfItems: found.total,
    },
    links: [
      { rel: 'self', href: withQuery(opdsUrl(server, path), params), type: MEDIATYPE_OPDS_JSON },
      ...common(server),
      ...pageLinks(opdsUrl(server, path), params, page, found.total),
    ],
  });

  const scopedList = (
    suffix: string,
    title: string,
    list: (ctx: ListContext, scope: Scope, slice: Slice) => Promise<IdPage>,
    kind: 'books' | 'series',
  ) => {
    const handler = async (req: FastifyRequest<ScopedRequest>) => {
      const user = req.user!;
      const scope = await scopeOf(user, req.params.libraryId);
      const page = pageRequest(req.query);
      const found = await list(listContext(user), scope, page.slice);
      const server = serverOf(req);
      const feed = pagedFeed(server, `${scope.path}/${suffix}`, `${scope.title} - ${title}`, found, page);
      return send(
        kind === 'books'
          ? { ...feed, publications: await publications(req, found) }
          : { ...feed, navigation: await seriesLinks(req, found) },
      );
    };
    const options = { ...route, schema: { params: LibraryParams, querystring: PagedQuery } };
    app.get<ScopedRequest>(`/opds/v2/libraries/${suffix}`, options, handler);
    app.get<ScopedRequest>(`/opds/v2/libraries/:libraryId/${suffix}`, options, handler);
  };
  scopedList('keep-reading', 'Keep Reading', lists.keepReading, 'books');
  scopedList('on-deck', 'On Deck', lists.onDeck, 'books');
  scopedList('books/latest', 'Latest Books', lists.latestBooks, 'books');
  scopedList('series/latest', 'Latest Series', lists.latestSeries, 'series');

  /** Series by sort title, with a facet-like group of the scope's publishers (api.md §7.2). */
  const browseFeed = async (req: FastifyRequest<ScopedRequest<Static<typeof BrowseQuery>>>) => {
    const user = req.user!;
    const scope = await scopeOf(user, req.params.libraryId);
    const page = pageRequest(req.query);
    const publishers = req.query.publisher ?? [];
    const found = await seriesList(
      listContext(user),
      [
        { deleted: isFalse },
        ...inScope<SearchConditionSeries>(scope, (id) => ({ libraryId: is(id) })),
        ...(publishers.length ? [{ anyOf: publishers.map((p) => ({ publisher: is(p) })) }] : []),
      ],
      { property: 'metadata.titleSort', descending: false },
      page.slice,
    );
    const server = serverOf(req);
    const path = `${scope.path}/browse`;
    const all = await referential.seriesValues(user, 'publisher', {
      filter: scope.libraryIds ? { kind: 'library', ids: scope.libraryIds } : null,
    });
    const publisherLinks = all.map((p) => navigationLink(p, withQuery(opdsUrl(server, path), [['publisher', p]])));
    return send({
      ...pagedFeed(
        server,
        path,
        scope.title,
        found,
        page,
        publishers.map((p) => ['publisher', p]),
      ),
      navigation: await sections(user, server, scope),
      groups: [
        { metadata: { title: 'Series' }, navigation: await seriesLinks(req, found) },
        ...(publisherLinks.length ? [{ metadata: { title: 'Publisher' }, navigation: publisherLinks }] : []),
      ],
    });
  };
  const browseOptions = { ...route, schema: { params: LibraryParams, querystring: BrowseQuery } };
  app.get<ScopedRequest<Static<typeof BrowseQuery>>>('/opds/v2/libraries/browse', browseOptions, browseFeed);
  app.get<ScopedRequest<Static<typeof BrowseQuery>>>('/opds/v2/libraries/:libraryId/browse', browseOptions, browseFeed);

  /** Collections or read lists of a scope, by name, as a navigation group. */
  const setsFeed = (kind: 'collections' | 'readlists') => async (req: FastifyRequest<ScopedRequest>) => {
    const user = req.user!;
    const scope = await scopeOf(user, req.params.libraryId);
    const page = pageRequest(req.query);
    const query = { libraryIds: scope.libraryIds ?? undefined, paging: page.slice ?? { offset: 0 } };
    const { content, total } =
      kind === 'collections'
        ? await collections.collections.list(user, query)
        : await collections.readLists.list(user, query);
    const server = serverOf(req);
    const title = kind === 'collections' ? 'Collections' : 'Read Lists';
    const found: IdPage = { ids: content.map((c) => c.id), total, sorted: true };
    return send({
      ...pagedFeed(server, `${scope.path}/${kind}`, `${scope.title} - ${title}`, found, page),
      navigation: await sections(user, server, scope),
      groups: [
        {
          metadata: { title },
          navigation: content.map((c) => navigationLink(c.name, opdsUrl(server, `${kind}/${c.id}`))),
        },
      ],
    });
  };
  for (const kind of ['collections', 'readlists'] as const) {
    const options = { ...route, schema: { params: LibraryParams, querystring: PagedQuery } };
    app.get<ScopedRequest>(`/opds/v2/libraries/${kind}`, options, setsFeed(kind));
    app.get<ScopedRequest>(`/opds/v2/libraries/:libraryId/${kind}`, options, setsFeed(kind));
  }

  // ---- one collection, read list or series ----

  app.get<ByIdRequest>(
    '/opds/v2/collections/:id',
    { ...route, schema: { params: IdParams, querystring: PagedQuery } },
    async (req) => {
      const user = req.user!;
      const ctx = listContext(user);
      // Invisible (or missing) → 404, as the REST API (api.md §2.10).
      const collection = await collections.collections.get(user, req.params.id);
      const page = pageRequest(req.query);
      const found = await seriesList(
        ctx,
        [{ collectionId: is(collection.id) }, { deleted: isFalse }],
        { property: collection.ordered ? 'collection.number' : 'metadata.titleSort', descending: false },
        page.slice,
      );
      const server = serverOf(req);
      const feed = pagedFeed(server, `collections/${collection.id}`, collection.name, found, page);
      return send({
        ...feed,
        metadata: { ...feed.metadata, modified: collection.lastModifiedDate },
        navigation: await seriesLinks(req, found),
      });
    },
  );

  app.get<ByIdRequest>(
    '/opds/v2/readlists/:id',
    { ...route, schema: { params: IdParams, querystring: PagedQuery } },
    async (req) => {
      const user = req.user!;
      const readList = await collections.readLists.get(user, req.params.id);
      const page = pageRequest(req.query);
      const found = await bookList(
        listContext(user),
        [{ readListId: is(readList.id) }, ...readyBooks],
        { property: readList.ordered ? 'readList.number' : 'metadata.releaseDate', descending: false },
        page.slice,
      );
      const server = serverOf(req);
      const feed = pagedFeed(server, `readlists/${readList.id}`, readList.name, found, page);
      return send({
        ...feed,
        metadata: { ...feed.metadata, modified: readList.lastModifiedDate },
        publications: await publications(req, found),
      });
    },
  );

  app.get<ByIdRequest<Static<typeof SeriesQuery>>>(
    '/opds/v2/series/:id',
    { ...route, schema: { params: IdParams, querystring: SeriesQuery } },
    async (req) => {
      const user = req.user!;
      const series = await books.series.findById(req.params.id, user.id);
      if (!series) throw notFound();
      checkAccess(user, series.access);
      const page = pageRequest(req.query);
      const tag = req.query.tag;
      const found = await bookList(
        listContext(user),
        [{ seriesId: is(series.id) }, ...readyBooks, ...(tag !== undefined ? [{ tag: is(tag) }] : [])],
        { property: 'metadata.numberSort', descending: false },
        page.slice,
      );
      const server = serverOf(req);
      const path = `series/${series.id}`;
      const tags = await referential.bookTags(user, { filter: { kind: 'series', ids: [series.id] } });
      const feed = pagedFeed(server, path, series.metadata.title, found, page, tag !== undefined ? [['tag', tag]] : []);
      const description = series.metadata.summary || series.booksMetadata.summary;
      return send({
        ...feed,
        metadata: {
          ...feed.metadata,
          modified: new Date(series.lastModifiedDate).toISOString(),
          ...(description ? { description } : {}),
        },
        publications: await publications(req, found),
        facets: tags.length
          ? [
              {
                metadata: { title: 'Tag' },
                links: tags.map((t) => ({
                  ...navigationLink(t, withQuery(opdsUrl(server, path), [['tag', t]])),
                  ...(t === tag ? { rel: 'self' } : {}),
                })),
              },
            ]
          : [],
      });
    },
  );

  // ---- search ----

  app.get<{ Querystring: Static<typeof SearchQuery> }>(
    '/opds/v2/search',
    { ...route, schema: { querystring: SearchQuery } },
    async (req) => {
      const user = req.user!;
      const ctx = listContext(user);
      const query = req.query.query ?? '';
      // Every word must be in the title (api.md §7.2); collections and read lists are searched by their services.
      const words = query.split(/\s+/).filter((w) => w !== '');
      const first = { offset: 0, limit: SEARCH_ITEMS };
      const [series, bookIds, sets, lists] = await Promise.all([
        seriesList(
          ctx,
          [
            { deleted: isFalse },
            { oneShot: isFalse },
            ...words.map((w) => ({ title: { operator: 'contains' as const, value: w } })),
          ],
          { property: 'metadata.titleSort', descending: false },
          first,
        ),
        bookList(
          ctx,
          [{ deleted: isFalse }, ...words.map((w) => ({ title: { operator: 'contains' as const, value: w } }))],
          { property: 'metadata.title', descending: false },
          first,
        ),
        collections.collections.list(user, { search: query, paging: first }),
        collections.readLists.list(user, { search: query, paging: first }),
      ]);
      const server = serverOf(req);
      const groups: FeedGroup[] = [];
      if (series.ids.length) groups.push({ metadata: { title: 'Series' }, navigation: await seriesLinks(req, series) });
      if (bookIds.ids.length)
        groups.push({ metadata: { title: 'Books' }, publications: await publications(req, bookIds) });
      if (sets.content.length) {
        groups.push({
          metadata: { title: 'Collections' },
          navigation: sets.content.map((c) => navigationLink(c.name, opdsUrl(server, `collections/${c.id}`))),
        });
      }
      if (lists.content.length) {
        groups.push({
          metadata: { title: 'Read Lists' },
          navigation: lists.content.map((r) => navigationLink(r.name, opdsUrl(server, `readlists/${r.id}`))),
        });
      }
      return send({ metadata: { title: 'Search results', modified: now() }, links: common(server), groups });
    },
  );
}

type Slice = PageRequest['slice'];
type ScopedRequest<Q = Static<typeof PagedQuery>> = { Params: Static<typeof LibraryParams>; Querystring: Q };
type ByIdRequest<Q = Static<typeof PagedQuery>> = { Params: Static<typeof IdParams>; Querystring: Q };

/** A URL with query parameters, encoded as a browser would. */
function withQuery(url: string, params: [string, string][]): string {
  if (params.length === 0) return url;
  return `${url}?${new URLSearchParams(params).toString()}`;
}

/** `previous` and `next` (api.md §7.2: 0-based `page`), keeping the filters and the page size asked for. */
function pageLinks(url: string, params: [string, string][], page: PageRequest, total: number): FeedLink[] {
  const at = (n: number) => withQuery(url, [...params, ['page', String(n)], ['size', String(page.size)]]);
  const links: FeedLink[] = [];
  if (page.page > 0) links.push({ rel: 'previous', href: at(page.page - 1), type: MEDIATYPE_OPDS_JSON });
  if ((page.page + 1) * page.size < total)
    links.push({ rel: 'next', href: at(page.page + 1), type: MEDIATYPE_OPDS_JSON });
  return links;
}

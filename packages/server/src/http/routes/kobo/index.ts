import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { QuireError, forbidden, notFound } from '../../../domain/errors.js';
import type { CurrentUser } from '../../../domain/user.js';
import { TooManyAttempts } from '../../../accounts/login-throttle.js';
import { contentDisposition, fileNameOf } from '../../../library/book-files.js';
import { KepubConversionFailed, type OpenKepub } from '../../../library/kepubify.js';
import { decodeSyncToken, encodeSyncToken } from '../../../reading/kobo-sync.js';
import type { AppDeps } from '../../deps.js';
import { clientOf } from '../../plugins/auth.js';
import { sendError } from '../../plugins/errors.js';
import { checkAccess } from '../book-content.js';
import { bookMetadata, entitlement, readingState, removedEntitlement, tag, type Download } from './dto.js';
import { builtInResources, withCoverTemplates } from './resources.js';
import { callStore, forwardToStore } from './store-proxy.js';

const KOBO_JSON = 'application/json; charset=utf-8';
const SYNC_TOKEN_HEADER = 'x-kobo-synctoken';
/** Where Kobo's own covers are, for ids that are not Quire's books when the store is proxied. */
const KOBO_CDN = 'https://cdn.kobo.com/book-images';

export type KoboRouteDeps = Pick<
  AppDeps,
  'accounts' | 'settings' | 'serverSettings' | 'books' | 'thumbnails' | 'reading' | 'kobo' | 'kepubs'
> & {
  files: AppDeps['libraries']['files'];
  storeUrl: string;
  contextPath: string;
};

const BookParams = Type.Object({ apiKey: Type.String(), bookId: Type.String() });
const ThumbnailParams = Type.Object({
  apiKey: Type.String(),
  bookId: Type.String(),
  width: Type.String(),
  height: Type.String(),
  quality: Type.Optional(Type.String()),
  greyscale: Type.String(),
});
const Percent = Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]));
const DateText = Type.Optional(Type.Union([Type.String(), Type.Null()]));
/** What a Kobo sends to `PUT v1/library/{id}/state` (the parts Quire reads; the rest is ignored). */
const ReadingStateUpdate = Type.Object({
  ReadingStates: Type.Array(
    Type.Object({
      EntitlementId: Type.Optional(Type.String()),
      LastModified: DateText,
      CurrentBookmark: Type.Optional(
        Type.Union([
          Type.Null(),
          Type.Object({
            LastModified: DateText,
            ProgressPercent: Percent,
            ContentSourceProgressPercent: Percent,
            Location: Type.Optional(
              Type.Union([
                Type.Null(),
                Type.Object({ Value: Type.String(), Type: Type.Optional(Type.String()), Source: Type.String() }),
              ]),
            ),
          }),
        ]),
      ),
      StatusInfo: Type.Optional(
        Type.Union([Type.Null(), Type.Object({ Status: Type.Optional(Type.String()), LastModified: DateText })]),
      ),
    }),
    { minItems: 1 },
  ),
});
type ReadingStateUpdate = Static<typeof ReadingStateUpdate>;

type Result = 'Success' | 'Failure' | 'Ignored';

/**
 * Kobo sync under `/kobo/{apiKey}/` (api.md §8.2). The API key in the path authenticates (through the same
 * authenticator as `X-API-Key`); a missing or wrong key, or a user without KOBO_SYNC, is a 403 without challenge
 * (§2.3). What a device may see is what its user may see in the REST API: sync points are snapshots taken with the
 * lists' visibility rules, and every book by id is checked as the REST API checks it (403/404).
 *
 * The Kobo store is never called unless the administrator turned `koboProxy` on: then the calls Quire does not
 * answer itself (and books that are not Quire's) are forwarded to it; otherwise they answer `{}`.
 */
/** `…/kobo/<api key>/v1/…` with the key replaced by `***`, for logs. */
export const maskKoboKey = (url: string) => url.replace(/(\/kobo\/)[^/?#]+/, '$1***');

export const koboRoutes: FastifyPluginAsync<KoboRouteDeps> = async (app, deps) => {
  const { accounts, settings, serverSettings, books, thumbnails, reading, kobo, kepubs, files, storeUrl, contextPath } =
    deps;
  /** The setting, else the configuration's QUIRE_KEPUBIFY_PATH; null: no conversion. */
  const kepubifyPathNow = async () => (await serverSettings.view()).kepubifyPath.effectiveValue;

  app.addHook('onRequest', async (req, reply) => {
    const key = (req.params as { apiKey?: string }).apiKey ?? '';
    if (!/^[\w-]+$/.test(key)) return sendError(reply, req, 403, 'Forbidden');
    let user: CurrentUser;
    try {
      user = await accounts.authenticator.apiKey(key, clientOf(req));
    } catch (err) {
      if (err instanceof TooManyAttempts) {
        reply.header('Retry-After', String(err.retryAfterSeconds));
        return sendError(reply, req, 429, err.message);
      }
      if (err instanceof QuireError && err.status === 401) return sendError(reply, req, 403, 'Forbidden');
      throw err;
    }
    if (!user.roles.has('KOBO_SYNC')) return sendError(reply, req, 403, 'Forbidden');
    req.user = user;
    req.credential = 'api-key';
  });

  const proxyOn = async () => (await settings.get()).koboProxy;

  /** The path of the call after `/kobo/{apiKey}`, query included: what the Kobo store would have been asked. */
  const storePath = (req: FastifyRequest) => {
    const key = (req.params as { apiKey: string }).apiKey;
    return req.url.slice(`/kobo/${key}`.length) || '/';
  };

  /**
   * This server as the device reaches it. Kobo devices drop the port of the endpoint they were given, so without a
   * proxy's forwarded headers the port is the `koboPort` setting, else the one the request came in on (api.md §1.1).
   */
  const bases = async (req: FastifyRequest) => {
    const forwarded = ['forwarded', 'x-forwarded-host', 'x-forwarded-port', 'x-forwarded-proto'].some(
      (h) => req.headers[h] !== undefined,
    );
    let host = req.host;
    if (!forwarded) {
      const port = (await settings.get()).koboPort ?? req.socket.localPort;
      host = port ? `${req.hostname}:${port}` : req.hostname;
    }
    const server = `${req.protocol}://${host}${contextPath}`;
    const key = (req.params as { apiKey: string }).apiKey;
    return { server, kobo: `${server}/kobo/${key}` };
  };

  const reader = (req: FastifyRequest) => req.user!;

  /** A book by id for this device: 403 when hidden from its user; undefined when unknown. */
  const visibleBook = async (req: FastifyRequest, bookId: string) => {
    const book = await books.queries.findById(bookId, reader(req).id);
    if (!book) return undefined;
    checkAccess(reader(req), book.access);
    return book;
  };

  /** A book id Quire does not know: the store's book when proxied, else 404. */
  const notQuires = async (req: FastifyRequest, reply: FastifyReply) => {
    if (await proxyOn()) return forwardToStore(storeUrl, req, reply, storePath(req));
    throw notFound();
  };

  /**
   * How the device gets a book: a KEPUB as it is; a fixed-layout EPUB as such (kepubify is for reflowable text);
   * otherwise converted to KEPUB when kepubify is configured, else the EPUB as it is.
   */
  const downloadOf = async (book: { media: { epubIsKepub: boolean } }, fixedLayout: boolean): Promise<Download> => {
    const kepubifyPath = await kepubifyPathNow();
    if (book.media.epubIsKepub) return { format: 'KEPUB', convertKepub: false };
    if (fixedLayout) return { format: 'EPUB3FL', convertKepub: false };
    if (kepubifyPath) return { format: 'KEPUB', convertKepub: true };
    return { format: 'EPUB3', convertKepub: false };
  };

  const json = (reply: FastifyReply, body: unknown) => reply.type(KOBO_JSON).send(body);

  /** The Kobo store's part of a sync (proxy on): its items, its next token, whether it has more. Undefined if down. */
  const storeSync = async (req: FastifyRequest, rawToken: string) => {
    const headers: Record<string, string | string[] | undefined> = { ...req.headers };
    delete headers[SYNC_TOKEN_HEADER];
    if (rawToken) headers[SYNC_TOKEN_HEADER] = rawToken;
    try {
      const res = await callStore(storeUrl, { method: 'GET', path: storePath(req), headers });
      const body: unknown = await res.json();
      if (!res.ok || !Array.isArray(body)) return undefined;
      return {
        items: body as unknown[],
        token: res.headers.get(SYNC_TOKEN_HEADER),
        more: res.headers.get('x-kobo-sync')?.toLowerCase() === 'continue',
      };
    } catch (err) {
      req.log.warn({ err }, 'The Kobo store did not answer the library sync; syncing Quire only');
      return undefined;
    }
  };

  app.get('/ping', async (_req, reply) => reply.type(KOBO_JSON).send('pong'));

  app.get('/v1/initialization', async (req, reply) => {
    const { server, kobo: koboBase } = await bases(req);
    let resources: Record<string, unknown> | undefined;
    if (await proxyOn()) {
      try {
        const res = await callStore(storeUrl, { method: 'GET', path: storePath(req), headers: req.headers });
        const body = (await res.json()) as { Resources?: unknown };
        if (res.ok && body.Resources && typeof body.Resources === 'object')
          resources = body.Resources as Record<string, unknown>;
      } catch (err) {
        req.log.warn({ err }, 'The Kobo store did not answer the initialization; using the built-in resources');
      }
    }
    reply.header('x-kobo-apitoken', 'e30=');
    return json(reply, { Resources: withCoverTemplates(resources ?? builtInResources(koboBase), server, koboBase) });
  });

  app.post('/v1/auth/device', async (req, reply) => {
    if (await proxyOn()) return forwardToStore(storeUrl, req, reply, storePath(req));
    // A local answer: the device only keeps these to send them back.
    const body = req.body as { UserKey?: unknown } | undefined;
    const token = randomBytes(18).toString('base64url');
    return json(reply, {
      AccessToken: token,
      RefreshToken: token,
      TokenType: 'Bearer',
      TrackingId: randomUUID(),
      UserKey: typeof body?.UserKey === 'string' ? body.UserKey : '',
    });
  });

  app.get('/v1/library/sync', async (req, reply) => {
    const user = reader(req);
    const header = req.headers[SYNC_TOKEN_HEADER];
    const batch = await kobo.sync(user, user.apiKeyId!, decodeSyncToken(Array.isArray(header) ? header[0] : header));
    const { kobo: koboBase } = await bases(req);
    const ids = [...batch.added, ...batch.changed, ...batch.readingStates];
    const views = new Map((await books.queries.findMany(ids, user.id)).map((b) => [b.id, b]));
    const progress = await kobo.progress(user.id, ids);
    const fixedLayout = await books.queries.fixedLayout([...batch.added, ...batch.changed]);
    const items: unknown[] = [];
    const full = async (bookId: string) => {
      const book = views.get(bookId);
      if (!book) return undefined;
      const download = await downloadOf(book, fixedLayout.has(book.id));
      const url = `${koboBase}/v1/books/${book.id}/file/epub?convert_kepub=${download.convertKepub}`;
      return {
        BookEntitlement: entitlement(book),
        BookMetadata: bookMetadata(book, url, download),
        ReadingState: readingState(book.id, book.media.pageCount, progress.get(book.id), book.createdDate),
      };
    };
    for (const id of batch.added) {
      const e = await full(id);
      if (e) items.push({ NewEntitlement: e });
    }
    for (const id of batch.changed) {
      const e = await full(id);
      if (e) items.push({ ChangedEntitlement: e });
    }
    const now = new Date();
    for (const id of batch.removed) items.push({ ChangedEntitlement: removedEntitlement(id, now) });
    for (const id of batch.readingStates) {
      const book = views.get(id);
      if (book)
        items.push({
          ChangedReadingState: {
            ReadingState: readingState(id, book.media.pageCount, progress.get(id), book.createdDate),
          },
        });
    }
    for (const list of batch.readLists) {
      if (batch.newReadLists.has(list.id)) items.push({ NewTag: { Tag: tag(list, null) } });
      else items.push({ ChangedTag: { Tag: tag(list, now) } });
    }
    for (const id of batch.removedReadLists)
      items.push({ DeletedTag: { Tag: { Id: id, LastModified: now.toISOString() } } });
    let { more, token } = batch;
    if (await proxyOn()) {
      // The store's own entitlements (books bought from Kobo) follow Quire's, with the store's token kept in ours.
      const store = await storeSync(req, token.rawKoboSyncToken);
      if (store) {
        items.push(...store.items);
        token = { ...token, rawKoboSyncToken: store.token ?? token.rawKoboSyncToken };
        more ||= store.more;
      }
    }
    if (more) reply.header('x-kobo-sync', 'continue');
    reply.header(SYNC_TOKEN_HEADER, encodeSyncToken(token));
    return json(reply, items);
  });

  app.get<{ Params: Static<typeof BookParams> }>(
    '/v1/library/:bookId/metadata',
    { schema: { params: BookParams } },
    async (req, reply) => {
      const book = await visibleBook(req, req.params.bookId);
      if (!book) return notQuires(req, reply);
      const { kobo: koboBase } = await bases(req);
      const download = await downloadOf(book, (await books.queries.fixedLayout([book.id])).has(book.id));
      const url = `${koboBase}/v1/books/${book.id}/file/epub?convert_kepub=${download.convertKepub}`;
      return json(reply, [bookMetadata(book, url, download)]);
    },
  );

  app.get<{ Params: Static<typeof BookParams> }>(
    '/v1/library/:bookId/state',
    { schema: { params: BookParams } },
    async (req, reply) => {
      const book = await visibleBook(req, req.params.bookId);
      if (!book) return notQuires(req, reply);
      const progress = await kobo.progress(reader(req).id, [book.id]);
      return json(reply, [readingState(book.id, book.media.pageCount, progress.get(book.id), book.createdDate)]);
    },
  );

  app.put<{ Params: Static<typeof BookParams>; Body: ReadingStateUpdate }>(
    '/v1/library/:bookId/state',
    { schema: { params: BookParams, body: ReadingStateUpdate } },
    async (req, reply) => {
      const user = reader(req);
      const book = await visibleBook(req, req.params.bookId);
      if (!book) return notQuires(req, reply);
      const state = req.body.ReadingStates[0]!;
      const bookmark = state.CurrentBookmark ?? null;
      const status = state.StatusInfo?.Status ?? null;
      const modified = bookmark?.LastModified ?? state.LastModified ?? new Date().toISOString();
      let result: Result = 'Ignored';
      try {
        if (status === 'Finished') {
          await reading.update(user, book.id, { completed: true });
          result = 'Success';
        } else if (status === 'ReadyToRead' && !bookmark?.Location) {
          // Marked unread on the device.
          await reading.remove(user, book.id);
          result = 'Success';
        } else if (bookmark?.Location) {
          const key = (await accounts.apiKeys.list(user.id)).find((k) => k.id === user.apiKeyId);
          await reading.putProgression(user, book.id, {
            modified,
            device: { id: user.apiKeyId ?? '', name: key?.comment ?? 'Kobo' },
            locator: {
              href: bookmark.Location.Source,
              type: 'application/xhtml+xml',
              locations: {
                fragments: [],
                progression: (bookmark.ContentSourceProgressPercent ?? 0) / 100,
                ...(typeof bookmark.ProgressPercent === 'number'
                  ? { totalProgression: bookmark.ProgressPercent / 100 }
                  : {}),
              },
              koboSpan: bookmark.Location.Value,
            },
          });
          result = 'Success';
        }
      } catch (err) {
        // Older than what Quire has (409), or a place that is not in the book (400): the device is told, not failed.
        if (!(err instanceof QuireError) || (err.status !== 400 && err.status !== 409)) throw err;
        req.log.info({ bookId: book.id, reason: err.message }, 'Kobo reading state not applied');
        result = 'Failure';
      }
      return json(reply, {
        RequestResult: 'Success',
        UpdateResults: [
          {
            EntitlementId: book.id,
            CurrentBookmarkResult: { Result: result },
            StatisticsResult: { Result: 'Ignored' },
            StatusInfoResult: { Result: result },
          },
        ],
      });
    },
  );

  app.get<{ Params: Static<typeof BookParams>; Querystring: { convert_kepub?: string } }>(
    '/v1/books/:bookId/file/epub',
    { schema: { params: BookParams } },
    async (req, reply) => {
      const user = reader(req);
      if (!user.roles.has('FILE_DOWNLOAD')) throw forbidden();
      const book = await books.queries.findFile(req.params.bookId);
      if (!book) throw notFound();
      checkAccess(user, book.access);
      const path = await files.pathOf({ libraryId: book.access.libraryId, url: book.url });
      if (!path) throw notFound('File not found, it may have moved');
      const name = fileNameOf(book.url);
      const kepubifyPath = await kepubifyPathNow();
      const convert = /^(true|1|yes|on)$/i.test(req.query.convert_kepub ?? '');
      // Never a fixed-layout book: its download URL does not ask for conversion, but a device may.
      const fixed = (await books.queries.fixedLayout([book.id])).has(book.id);
      if (convert && kepubifyPath && !book.media.epubIsKepub && !fixed) {
        let kepub: OpenKepub;
        try {
          kepub = await kepubs.open(kepubifyPath, path);
        } catch (err) {
          if (!(err instanceof KepubConversionFailed)) throw err;
          req.log.warn({ bookId: book.id, err: err.message }, 'kepub conversion failed');
          return sendError(reply, req, 503, 'Kepub conversion failed');
        }
        // The stream closes the handle; the file itself stays for the next download within 5 minutes.
        const stream = kepub.handle.createReadStream();
        return reply
          .type('application/kepub+zip')
          .header('Content-Disposition', contentDisposition('attachment', name.replace(/\.epub$/i, '.kepub.epub')))
          .header('Content-Length', String(kepub.size))
          .send(stream);
      }
      const { size } = await stat(path);
      return reply
        .type(book.media.mediaType ?? 'application/epub+zip')
        .header('Content-Disposition', contentDisposition('attachment', name))
        .header('Content-Length', String(size))
        .send(createReadStream(path));
    },
  );

  const thumbnail = async (req: FastifyRequest<{ Params: Static<typeof ThumbnailParams> }>, reply: FastifyReply) => {
    const { bookId, width, height, quality, greyscale } = req.params;
    const exists = await books.queries.findFile(bookId);
    if (!exists) {
      if (await proxyOn()) {
        const rest = [width, height, ...(quality === undefined ? [] : [quality]), greyscale].join('/');
        return reply.redirect(`${KOBO_CDN}/${encodeURIComponent(bookId)}/${rest}/image.jpg`, 307);
      }
      throw notFound();
    }
    await thumbnails.checkBookAccess(reader(req), bookId);
    const bytes = await thumbnails.bookPoster(bookId);
    if (!bytes) throw notFound();
    return reply.type('image/jpeg').send(bytes);
  };
  app.get(
    '/v1/books/:bookId/thumbnail/:width/:height/:greyscale/image.jpg',
    { schema: { params: ThumbnailParams } },
    thumbnail,
  );
  app.get(
    '/v1/books/:bookId/thumbnail/:width/:height/:quality/:greyscale/image.jpg',
    { schema: { params: ThumbnailParams } },
    thumbnail,
  );

  // Anything else the device asks: the store's answer when proxied, else an empty object (nothing leaves).
  app.route({
    method: ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'],
    url: '/*',
    handler: async (req, reply) => {
      if (await proxyOn()) return forwardToStore(storeUrl, req, reply, storePath(req));
      return json(reply, {});
    },
  });
};

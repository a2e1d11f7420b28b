import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MEDIATYPE_PROGRESSION_JSON } from '@quire/api';
import type { AppDeps } from '../deps.js';
import { authPlugin } from '../plugins/auth.js';
import { cacheControlPlugin } from '../plugins/cache.js';
import { etagPlugin } from '../plugins/etag.js';
import { securityHeadersPlugin } from '../plugins/security-headers.js';
import { bindingPlugin } from '../plugins/binding.js';
import { claimHandlers } from './claim.js';
import { oauth2Handlers, oauth2Routes } from './oauth2.js';
import { userHandlers } from './users.js';
import { userSessionHandlers } from './user-session.js';
import { settingsHandlers } from './settings.js';
import { actuatorHandlers, actuatorRoutes } from './actuator.js';
import { metricRoutes } from './metrics.js';
import { updateHandlers } from './updates.js';
import { eventStreams } from './sse.js';
import { clientSettingsHandlers } from './client-settings.js';
import { taskHandlers } from './tasks.js';
import { libraryHandlers } from './libraries.js';
import { registerApiDocs, registerOperations } from '../operations.js';
import { filesystemHandlers } from './filesystem.js';
import { thumbnailHandlers } from './thumbnails.js';
import { bookHandlers } from './books.js';
import { seriesHandlers } from './series.js';
import { collectionSeriesHandlers } from './collection-series.js';
import { readListBookHandlers } from './readlist-books.js';
import { collectionHandlers } from './collections.js';
import { readListHandlers } from './readlists.js';
import { readProgressHandlers } from './read-progress.js';
import { referentialHandlers } from './referential.js';
import { fileDeletionHandlers } from './file-deletion.js';
import { metadataHandlers } from './metadata.js';
import { fontHandlers } from './fonts.js';
import { pageHashHandlers } from './page-hashes.js';
import { historyHandlers } from './history.js';
import { mediaManagementHandlers } from './media-management.js';
import { importHandlers } from './import.js';
import { webRoutes } from './web.js';
import { opds2Routes } from './opds2/index.js';
import { koreaderRoutes } from './koreader/index.js';
import { koboRoutes, maskKoboKey } from './kobo/index.js';
import { syncPointHandlers } from './sync-points.js';
import { opdsV1Routes } from './opds/v1.js';

export interface RouteOptions {
  contextPath: string;
}

/** Every route plugin, in one list. Each receives the dependencies it needs from `deps`. */
export async function registerRoutes(app: FastifyInstance, deps: AppDeps, opts: RouteOptions): Promise<void> {
  // First, so that their hooks cover every route (api.md §1.7).
  await registerApiDocs(app, { version: deps.config.build.version });
  await app.register(securityHeadersPlugin);
  await app.register(cacheControlPlugin);
  await app.register(etagPlugin);
  await app.register(bindingPlugin);
  await app.register(authPlugin, deps);
  await app.register(actuatorRoutes, {
    dataDir: deps.config.dataDir,
    settings: deps.settings,
    shutdown: deps.shutdown,
  });
  await app.register(metricRoutes, deps.metrics);
  await app.register(koreaderRoutes, { authenticator: deps.accounts.authenticator, koreader: deps.koreader });
  await app.register(koboRoutes, {
    prefix: '/kobo/:apiKey',
    // The API key is the path's first segment: request logs (debug level) must not write it to the log file.
    logSerializers: { req: (req: FastifyRequest) => `${req.method} ${maskKoboKey(req.url)}` },
    accounts: deps.accounts,
    settings: deps.settings,
    serverSettings: deps.serverSettings,
    books: deps.books,
    thumbnails: deps.thumbnails,
    reading: deps.reading,
    kobo: deps.kobo,
    kepubs: deps.kepubs,
    files: deps.libraries.files,
    storeUrl: deps.config.koboStoreUrl,
    contextPath: opts.contextPath,
  });
  const { accounts } = deps;
  await app.register(oauth2Routes, {
    oauth2: accounts.oauth2,
    baseUrl: deps.config.baseUrl,
    contextPath: opts.contextPath,
  });
  const liveEvents = eventStreams({
    events: deps.events,
    visibility: deps.visibility,
    sessions: accounts.authenticator,
  });
  // preClose runs before the HTTP server stops accepting and waits for connections to end.
  app.addHook('preClose', async () => liveEvents.closeAll());
  await app.register(async (scope) => {
    // Bodies other than JSON: poster uploads, and Readium progressions with their own media type.
    await scope.register(multipart);
    const json = scope.getDefaultJsonParser('error', 'error');
    scope.addContentTypeParser(MEDIATYPE_PROGRESSION_JSON, { parseAs: 'string' }, json);
    // Spring reads an empty JSON body as no body: where the body is optional (POST /api/v1/filesystem), that is
    // not the 400 it is elsewhere.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body: string, done) => {
      if (body === '' && req.routeOptions.config.optionalBody) return done(null, undefined);
      json(req, body, done);
    });
    await scope.register(opds2Routes, { deps, contextPath: opts.contextPath });
    registerOperations(scope, {
      getApiDocs: async () => app.swagger() as unknown as Record<string, unknown>,
      ...libraryHandlers({ libraries: deps.libraries.repository, lifecycle: deps.libraries.lifecycle }),
      ...userHandlers({ users: accounts.users, activity: accounts.activity, apiKeys: accounts.apiKeys }),
      ...userSessionHandlers({ authenticator: accounts.authenticator, contextPath: opts.contextPath }),
      ...claimHandlers({ users: accounts.users }),
      ...oauth2Handlers({ oauth2: accounts.oauth2 }),
      ...settingsHandlers({ serverSettings: deps.serverSettings }),
      ...clientSettingsHandlers({ clientSettings: deps.clientSettings }),
      ...actuatorHandlers({ build: deps.config.build }),
      ...liveEvents.handlers,
      ...taskHandlers({ tasks: deps.tasks }),
      ...historyHandlers({ history: deps.history }),
      ...mediaManagementHandlers({ mediaManagement: deps.mediaManagement, books: deps.books }),
      ...filesystemHandlers(),
      ...fontHandlers({ fonts: deps.fonts }),
      ...updateHandlers({ announcements: deps.updates.announcements, releases: deps.updates.releases }),
      ...collectionHandlers({ collections: deps.collections.collections }),
      ...collectionSeriesHandlers({ browse: deps.browse, books: deps.books }),
      ...readListHandlers({ readLists: deps.collections.readLists, files: deps.libraries.files }),
      ...readListBookHandlers({ browse: deps.browse, books: deps.books }),
      ...referentialHandlers({ referential: deps.referential }),
      ...readProgressHandlers({ reading: deps.reading }),
      ...syncPointHandlers({ kobo: deps.kobo }),
      ...fileDeletionHandlers({ deletion: deps.fileDeletion }),
      ...pageHashHandlers({ duplicatePages: deps.duplicatePages }),
      ...importHandlers({ transientBooks: deps.transientBooks, importer: deps.importer }),
      ...metadataHandlers({ editing: deps.metadata.editing, refresh: deps.metadata.refresh }),
      ...thumbnailHandlers({ thumbnails: deps.thumbnails }),
      ...bookHandlers({
        books: deps.books,
        analyzer: deps.books.analyzer,
        browse: deps.browse,
        files: deps.libraries.files,
        contextPath: opts.contextPath,
      }),
      ...seriesHandlers({
        books: deps.books,
        analyzer: deps.books.analyzer,
        browse: deps.browse,
        files: deps.libraries.files,
      }),
    });
  });
  await app.register(opdsV1Routes, { ...deps, contextPath: opts.contextPath });
  // Last: JSON 404s for unknown /api paths and the web client with its history-mode fallback.
  await app.register(webRoutes, { ...deps, contextPath: opts.contextPath });
}

import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { Config } from './config.js';
import { setMediaLimits } from './media/limits.js';
import { openDatabase } from './db/database.js';
import { createRepositories, createUnitOfWork } from './db/unit-of-work.js';
import { createEventBus } from './events/bus.js';
import { drainConnections } from './http/drain.js';
import { createLogger } from './logging.js';
import { createSettingsStore } from './settings/server-settings.js';
import { createAccounts } from './accounts/index.js';
import { createTaskQueue, type SharedTaskQueue } from './tasks/queue.js';
import { waitsForAnalyses, type Task } from './tasks/definitions.js';
import { createWorkerPool } from './tasks/worker-pool.js';
import { collectAndReleaseMemory, memoryReleaser } from './native-memory.js';
import { releaseAnalysisMemory } from './media/analysis-memory.js';
import { createHandlers } from './tasks/handlers.js';
import { startTaskQueueStatus } from './tasks/status.js';
import { createScheduler } from './tasks/scheduler.js';
import { ClientSettings } from './settings/client-settings.js';
import { ServerSettingsService } from './settings/settings-service.js';
import { createFonts } from './fonts/fonts.js';
import { answerFrameworkError, registerErrorHandling } from './http/plugins/errors.js';
import { registerRoutes } from './http/routes/index.js';
import type { AppDeps } from './http/deps.js';
import { lazyCompilers } from './http/lazy-compilers.js';
import { PdfService } from './media/pdf/index.js';
import { PdfPageCache, PdfPages } from './media/pdf/pages.js';
import { closeWorkerPools } from './media/workers.js';
import { BookQueries } from './db/queries/books.js';
import { SeriesQueries } from './db/queries/series.js';
import { createBrowse } from './db/queries/browse.js';
import { listContext } from './db/queries/conditions.js';
import { BookAnalyzer } from './library/book-analyzer.js';
import { BookPages } from './library/book-pages.js';
import { BookConverter } from './library/book-converter.js';
import { BookHasher } from './library/book-hasher.js';
import { LibraryScanner } from './library/library-scanner.js';
import { LibraryLifecycle } from './library/library-lifecycle.js';
import { LibraryFiles } from './library/library-files.js';
import { Trash } from './library/trash.js';
import { createThumbnails } from './library/thumbnails.js';
import { hashFile } from './media/hash.js';
import { createCollections } from './collections/index.js';
import { ReferentialQueries } from './db/queries/referential.js';
import { VisibilityQueries } from './db/queries/visibility.js';
import { ReadProgressService } from './reading/read-progress.js';
import { KoreaderSync } from './reading/koreader-sync.js';
import { KoboSync } from './reading/kobo-sync.js';
import { KepubCache } from './library/kepubify.js';
import { EPUB_MIMETYPE } from './media/epub/package.js';
import { FileDeletion } from './library/file-deletion.js';
import { TransientBooks } from './library/transient-books.js';
import { BookImporter } from './library/book-importer.js';
import { History } from './library/history.js';
import { MediaManagementQueries } from './db/queries/media-management.js';
import { MetricsQueries } from './db/queries/metrics.js';
import { TASK_METRICS_WINDOW_MS } from './domain/metrics.js';
import { mediaProfileOf } from './library/book-analyzer.js';
import { MetadataRefresh } from './metadata/metadata-refresh.js';
import { MetadataEditing } from './metadata/metadata-editing.js';
import { DuplicatePages } from './library/duplicate-pages.js';
import { BookPageEditor } from './library/book-page-editor.js';
import { AnnouncementService } from './updates/announcements.js';
import { readReleases } from './updates/releases.js';

export interface QuireApp {
  http: FastifyInstance;
  deps: AppDeps;
  /**
   * The task queue whole: routes see only its TaskEmitter & TaskCancellation ports (deps.tasks), while the tests
   * that wait for it to drain, or look at what is queued, need its counts.
   */
  tasks: SharedTaskQueue;
  /** Effective port and context path (the database settings win over the environment). */
  port: number;
  contextPath: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** The composition root shared by serve.ts and the tests: config → db → services → HTTP. */
export async function createApp(config: Config, opts: { onShutdown?: () => void } = {}): Promise<QuireApp> {
  setMediaLimits(config.mediaLimits);
  mkdirSync(config.dataDir, { recursive: true });
  mkdirSync(join(config.dataDir, 'thumbnails'), { recursive: true });
  const logging = await createLogger(config);
  const logger = logging.logger;
  const database = await openDatabase(config.database.url ?? join(config.dataDir, 'database.sqlite'), {
    max: config.database.poolMax,
    timeoutMs: config.database.poolTimeoutMs,
  });
  const db = database.db;
  // Every service reaches the database through these ports: the repositories, and the unit of work that binds
  // them to one transaction. This is the one place that knows they are Kysely's.
  const repos = createRepositories(db);
  const uow = createUnitOfWork(db);
  // PostgreSQL mode (issue 20): the task queue (graphile-worker), the runners' liveness, the scheduler's claims and
  // the events are shared by every instance on the database; this process is one instance among them.
  const instanceId = randomBytes(6).toString('hex');
  const cluster = config.database.url ? await openCluster(config.database.url) : undefined;
  const sharedEvents = cluster && (await cluster.createEventBus({ logger, instanceId }));
  const events = sharedEvents || createEventBus();
  const settings = createSettingsStore(repos.serverSettings);
  const stored = await settings.get();
  const contextPath = stored.serverContextPath ?? config.contextPath;
  const port = config.port === 0 ? 0 : (stored.serverPort ?? config.port);
  // Tasks a killed process had taken run again; then the pool drains the queue (engine.md §8.1).
  const tasks = cluster ? await cluster.openTaskQueue() : createTaskQueue(db, { logger });
  if ('reclaimOrphans' in tasks) await tasks.reclaimOrphans();
  // Libraries: repositories, then the use cases; the scheduler is created here (started below) so that
  // creating, updating and deleting a library can arm and disarm its periodic scan.
  const libraryRepository = repos.libraries;
  const seriesRepository = repos.series;
  const bookRepository = repos.books;
  // Every file of a library is opened through this: resolved, and refused when links lead out of its root.
  const files = new LibraryFiles({ libraries: libraryRepository, logger });
  const trash = new Trash({ uow, series: seriesRepository, books: bookRepository, events, dataDir: config.dataDir });
  const scanner = new LibraryScanner({
    uow,
    libraries: libraryRepository,
    series: seriesRepository,
    books: bookRepository,
    sidecars: repos.sidecars,
    events,
    tasks,
    hashFile: (path) => hashFile(path),
    emptyTrash: (libraryId) => trash.empty(libraryId),
    logger,
  });
  const scheduler = createScheduler({
    queue: tasks,
    libraries: () => libraryRepository.list(),
    logger,
    claim: cluster && ((name, minGapMs) => cluster.store.claim(name, minGapMs)),
  });
  const libraries = {
    repository: libraryRepository,
    series: seriesRepository,
    books: bookRepository,
    scanner,
    trash,
    files,
    lifecycle: new LibraryLifecycle({
      uow,
      libraries: libraryRepository,
      series: seriesRepository,
      books: bookRepository,
      events,
      tasks,
      scheduler,
      dataDir: config.dataDir,
    }),
  };
  // The one PDF worker pool of the process: analysis, pages, posters and barcode pages render through it, and the
  // app closes it (its workers would otherwise outlive the app until they idle out).
  const pdf = new PdfService();
  const thumbnails = createThumbnails({
    thumbnails: repos.thumbnails,
    uow,
    events,
    settings,
    dataDir: config.dataDir,
    files,
    tasks,
    pdf,
    logger,
  });
  const collections = createCollections({ repos, uow, events, settings, thumbnails, dataDir: config.dataDir, logger });
  const media = repos.media;
  // Metadata: refresh tasks read ComicInfo.xml, OPF, series.json and barcodes; edits come from the API.
  const metadataRepository = repos.metadata;
  const metadataDeps = { metadata: metadataRepository, books: bookRepository, series: seriesRepository, events };
  const metadataRefresh = new MetadataRefresh({
    ...metadataDeps,
    libraries: libraryRepository,
    media,
    pdf,
    lists: collections.metadataLists,
    files,
    tasks,
    logger,
  });
  // Books: read models, analysis, pages and hashing.
  const books = {
    queries: new BookQueries(db),
    series: new SeriesQueries(db),
    media,
    // posters, comicInfo: a ZIP's poster and ComicInfo.xml come from the bytes its analysis read (no second opening)
    analyzer: new BookAnalyzer({
      media,
      pdf,
      events,
      files,
      tasks,
      posters: thumbnails,
      comicInfo: metadataRefresh,
      logger,
    }),
    pages: new BookPages({
      media,
      pdf,
      files,
      pdfPages: new PdfPages({
        pdf,
        cache:
          config.pdfPageCacheBytes > 0
            ? new PdfPageCache(join(config.dataDir, 'cache', 'pdf-pages'), config.pdfPageCacheBytes)
            : null,
      }),
    }),
    hasher: new BookHasher({ media, libraries: libraryRepository, files }),
  };
  const metadata = { editing: new MetadataEditing({ ...metadataDeps, tasks }), refresh: metadataRefresh };
  // Read progress, referential values, and deleting files on disk (DeleteBook / DeleteSeries tasks).
  const reading = new ReadProgressService({
    progress: repos.readProgress,
    uow,
    events,
    profileOf: mediaProfileOf,
  });
  const koreader = new KoreaderSync({ progress: repos.readProgress, reading, profileOf: mediaProfileOf });
  // What happened to files on disk: the use cases that change files record it, GET /api/v1/history lists it.
  const history = new History({ history: repos.history, logger });
  const fileDeletion = new FileDeletion({
    uow,
    libraries: libraryRepository,
    series: seriesRepository,
    books: bookRepository,
    thumbnails: repos.thumbnails,
    events,
    tasks,
    history,
    logger,
  });
  // Books brought in from outside the libraries (ImportBook tasks).
  const importer = new BookImporter({
    uow,
    libraries: libraryRepository,
    series: seriesRepository,
    books: bookRepository,
    bookImports: repos.bookImports,
    thumbnails: repos.thumbnails,
    events,
    tasks,
    history,
    logger,
  });
  const pageHashes = repos.pageHashes;
  const duplicatePages = new DuplicatePages({ pageHashes, books: books.queries, pages: books.pages, tasks });
  const pageEditor = new BookPageEditor({
    media,
    books: bookRepository,
    pageHashes,
    analyzer: books.analyzer,
    history,
    events,
    files,
    logger,
  });
  // Lists and search; search documents follow changes in the background, and are brought up to date before a query.
  const browse = createBrowse(db);
  // Conversions a previous run left are swept at start: the cache is otherwise swept only when it converts.
  const kepubs = new KepubCache(join(config.dataDir, 'cache', 'kepub'));
  void kepubs.sweep().catch(() => undefined);
  events.subscribe(() => browse.search.scheduleRefresh());
  browse.search.scheduleRefresh();
  // freed native memory back to the system after tasks (docs/architecture.md, "Memory")
  const freedMemory = memoryReleaser();
  const runners = {
    handlers: createHandlers({
      analyzer: books.analyzer,
      hasher: books.hasher,
      converter: new BookConverter({
        media,
        books: bookRepository,
        libraries: libraryRepository,
        analyzer: books.analyzer,
        events,
        files,
        history,
      }),
      scanner,
      trash,
      thumbnails,
      deletion: fileDeletion,
      importer,
      duplicatePages,
      pageEditor,
      collections,
      metadata: metadataRefresh,
    }),
    size: stored.taskPoolSize,
    logger,
    taskMetrics: repos.taskMetrics,
    afterTask: freedMemory.workDone,
    // a task held back until the analyses were over (an import's barcode searches): their memory goes first
    beforeTask: (task: Task) =>
      waitsForAnalyses(task)
        ? releaseAnalysisMemory().then((released) => {
            if (released) void collectAndReleaseMemory();
          })
        : undefined,
  };
  const taskPool =
    'reclaimOrphans' in tasks
      ? createWorkerPool({ ...runners, queue: tasks })
      : cluster!.createWorkerPool({ ...runners, queue: tasks, instanceId });
  const stopTaskStatus = startTaskQueueStatus({ queue: tasks, events, logger });
  // Announcements are fetched in the background (scheduled below) and served from the database.
  const announcements = new AnnouncementService({
    repository: repos.announcements,
    ...config.announcements,
    logger,
  });

  const http: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' }),
    // X-Forwarded-For/-Host/-Proto only from the configured proxies (QUIRE_TRUSTED_PROXIES): anyone else could
    // pick the address login throttling counts and activity records.
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    // Closing lets the responses under way finish, within a limit (drainConnections, registered below).
    forceCloseConnections: false,
    bodyLimit: 10 * 1024 * 1024,
    frameworkErrors: answerFrameworkError,
    // Serve everything under the context path by stripping it before routing (api.md §1.1).
    rewriteUrl: (req) => {
      const url = req.url ?? '/';
      if (!contextPath) return url;
      if (url === contextPath || url.startsWith(`${contextPath}/`) || url.startsWith(`${contextPath}?`)) {
        return url.slice(contextPath.length) || '/';
      }
      return '/__outside_context_path__';
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true } },
    // each route's validators and serializers compiled on its first request (http/lazy-compilers.ts)
    schemaController: { compilersFactory: lazyCompilers },
  });

  let shuttingDown = false;
  const deps: AppDeps = {
    updates: {
      announcements,
      releases: readReleases({
        version: config.build.version,
        date: config.build.git.commit.time ?? config.build.time,
      }),
    },
    books,
    config,
    db,
    events,
    settings,
    accounts: createAccounts({ repos, uow, events, settings, config }),
    tasks,
    clientSettings: new ClientSettings(repos.clientSettings),
    // Built during start-up, so `startedWith` is what the running process uses (port, context path).
    serverSettings: new ServerSettingsService({
      store: settings,
      configured: { port: config.port, contextPath: config.contextPath, kepubifyPath: config.kepubifyPath },
      startedWith: stored,
      taskPool,
    }),
    fonts: createFonts({ dir: join(config.dataDir, 'fonts') }),
    browse,
    libraries,
    thumbnails,
    collections,
    reading,
    koreader,
    // Kobo sync points: 100 items per sync call, as Komga's `komga.kobo.sync-item-limit`.
    kobo: new KoboSync({
      syncPoints: repos.syncPoints,
      progress: repos.readProgress,
      itemLimit: config.koboSyncItemLimit,
      epubMediaType: EPUB_MIMETYPE,
      onDeck: async (reader) => (await browse.books.onDeck(listContext(reader), null, null)).ids,
    }),
    kepubs,
    referential: new ReferentialQueries(db),
    visibility: new VisibilityQueries(db),
    metadata,
    fileDeletion,
    duplicatePages,
    transientBooks: new TransientBooks({
      libraries: libraryRepository,
      series: seriesRepository,
      transientBooks: repos.transientBooks,
      analyzer: books.analyzer,
      pages: books.pages,
    }),
    importer,
    history,
    mediaManagement: new MediaManagementQueries(db),
    metrics: { queries: new MetricsQueries(db), taskMetrics: repos.taskMetrics },
    logger,
    shutdown: () => {
      if (shuttingDown) return;
      shuttingDown = true;
      setTimeout(() => opts.onShutdown?.(), 50);
    },
  };

  http.addHook('preClose', async () => drainConnections(http.server));
  await http.register(cookie);
  registerErrorHandling(http);
  await registerRoutes(http, deps, { contextPath });

  taskPool.start();
  // Old authentication activity and idle sessions are purged at start-up and then every night.
  await deps.accounts.housekeeping();
  scheduler.addHousekeeping({ name: 'accounts', run: async () => void (await deps.accounts.housekeeping()) });
  // Task figures older than the metrics' window are never read again.
  scheduler.addHousekeeping({
    name: 'task metrics',
    run: async () => void (await repos.taskMetrics.deleteBefore(new Date(Date.now() - TASK_METRICS_WINDOW_MS))),
  });

  if ('housekeeping' in tasks) scheduler.addHousekeeping({ name: 'task queue', run: () => tasks.housekeeping() });

  // Checked more often than the feed's period, so that whichever instance finds it due first fetches it soon after.
  scheduler.addRecurring({
    name: 'announcements',
    everyMs: Math.min(config.announcements.refreshMs, 5 * 60_000),
    run: () => announcements.refreshIfDue(),
  });
  // Queues the scan-on-startup libraries and arms every library's periodic scan.
  await scheduler.start();
  http.addHook('onClose', async () => {
    scheduler.stop();
    await announcements.close();
    stopTaskStatus();
    await taskPool.stop(10_000);
    freedMemory.stop();
    await collections.close();
    // every worker thread: PDFium, 7-Zip, zxing, EPUB analysis (their pools start threads again if called)
    await closeWorkerPools();
    if (sharedEvents) await sharedEvents.close();
    await database.close();
    await cluster?.close();
  });

  return {
    http,
    deps,
    tasks,
    port,
    contextPath,
    async listen() {
      const address = await http.listen({ port, host: config.host });
      return address;
    },
    async close() {
      await http.close();
      await logging.close();
    },
  };
}

/**
 * The connections and tables PostgreSQL mode shares between instances (db/cluster.ts), and what runs over them: the
 * events, the task queue and its runners. Loaded only in that mode, so that a server on SQLite never loads pg and
 * graphile-worker (their code stays out of its memory).
 */
async function openCluster(databaseUrl: string) {
  const [{ ClusterStore, openPgPool }, { createPgEventBus }, { openPgTaskQueue }, { createPgWorkerPool }] =
    await Promise.all([
      import('./db/cluster.js'),
      import('./events/pg-bus.js'),
      import('./tasks/pg-queue.js'),
      import('./tasks/pg-worker-pool.js'),
    ]);
  // graphile-worker's runners hold a connection each to LISTEN, the event bus two: room for them and the queries.
  const pool = openPgPool(databaseUrl, 20);
  const store = await ClusterStore.open(pool);
  type WorkerPoolOptions = Omit<Parameters<typeof createPgWorkerPool>[0], 'pool' | 'store'>;
  return {
    store,
    createEventBus: (options: Parameters<typeof createPgEventBus>[1]) => createPgEventBus(store, options),
    openTaskQueue: () => openPgTaskQueue(pool, store),
    createWorkerPool: (options: WorkerPoolOptions) => createPgWorkerPool({ ...options, pool, store }),
    /** Waits for the connections to close, at most 2 s: a task abandoned at shutdown may still hold one. */
    close: () => Promise.race([pool.end(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]),
  };
}

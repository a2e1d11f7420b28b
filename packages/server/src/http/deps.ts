import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import type { SettingsStore } from '../domain/settings.js';
import type { Accounts } from '../accounts/index.js';
import type { ClientSettings } from '../settings/client-settings.js';
import type { ServerSettingsService } from '../settings/settings-service.js';
import type { Fonts } from '../fonts/fonts.js';
import type { TaskCancellation, TaskEmitter, TaskInspection } from '../tasks/emitter.js';
import type { BookRepository, LibraryRepository, MediaRepository, SeriesRepository } from '../domain/ports.js';
import type { LibraryLifecycle } from '../library/library-lifecycle.js';
import type { LibraryScanner } from '../library/library-scanner.js';
import type { LibraryFiles } from '../library/library-files.js';
import type { Trash } from '../library/trash.js';
import type { Thumbnails } from '../library/thumbnails.js';
import type { Collections } from '../collections/index.js';

import type { BookQueries } from '../db/queries/books.js';
import type { Browse } from '../db/queries/browse.js';
import type { SeriesQueries } from '../db/queries/series.js';
import type { BookAnalyzer } from '../library/book-analyzer.js';
import type { BookPages } from '../library/book-pages.js';
import type { BookHasher } from '../library/book-hasher.js';
import type { ReadProgressService } from '../reading/read-progress.js';
import type { KoreaderSync } from '../reading/koreader-sync.js';
import type { KoboSync } from '../reading/kobo-sync.js';
import type { KepubCache } from '../library/kepubify.js';
import type { ReferentialQueries } from '../db/queries/referential.js';
import type { VisibilityQueries } from '../db/queries/visibility.js';
import type { MetadataEditing } from '../metadata/metadata-editing.js';
import type { MetadataRefresh } from '../metadata/metadata-refresh.js';
import type { FileDeletion } from '../library/file-deletion.js';
import type { DuplicatePages } from '../library/duplicate-pages.js';
import type { History } from '../library/history.js';
import type { TransientBooks } from '../library/transient-books.js';
import type { BookImporter } from '../library/book-importer.js';
import type { MediaManagementQueries } from '../db/queries/media-management.js';
import type { MetricsQueries } from '../db/queries/metrics.js';
import type { TaskMetricsRepository } from '../domain/metrics.js';
import type { AnnouncementService } from '../updates/announcements.js';
import type { Release } from '../updates/releases.js';

/** What route plugins receive from the composition root (serve.ts / app.ts). */
export interface AppDeps {
  /** The actuator's metrics: gauges computed from SQL, task figures recorded by the runners. */
  metrics: { queries: MetricsQueries; taskMetrics: TaskMetricsRepository };
  /** Announcements (the configured feed's cached copy) and Quire's releases (its CHANGELOG.md). */
  updates: { announcements: AnnouncementService; releases: readonly Release[] };
  /** The import screen's books found outside the libraries. */
  transientBooks: TransientBooks;
  /** Queues the import of books from outside the libraries (ImportBook tasks). */
  importer: BookImporter;
  config: Config;
  db: Db;
  events: EventBus;
  settings: SettingsStore;
  accounts: Accounts;
  tasks: TaskEmitter & TaskCancellation & TaskInspection;
  clientSettings: ClientSettings;
  /** Server settings as the administrator sees and changes them. */
  serverSettings: ServerSettingsService;
  /** The EPUB reader's fonts (embedded and the data folder's). */
  fonts: Fonts;
  /** Book and series posters (library/thumbnails.ts). */
  thumbnails: Thumbnails;
  /** Collections of series and read lists of books, with their posters. */
  collections: Collections;
  /** Libraries: their use cases, and the simple reads the library routes need. */
  libraries: {
    repository: LibraryRepository;
    series: SeriesRepository;
    books: BookRepository;
    lifecycle: LibraryLifecycle;
    scanner: LibraryScanner;
    trash: Trash;
    /** The only way to a library's files on disk: resolved, and refused when links lead out of the root. */
    files: LibraryFiles;
  };
  /** Books and series: read models, analysis, pages and hashing. */
  books: {
    queries: BookQueries;
    series: SeriesQueries;
    media: MediaRepository;
    analyzer: BookAnalyzer;
    pages: BookPages;
    hasher: BookHasher;
  };
  /** Read progress: pages, series, Readium progression, Tachiyomi helpers. */
  reading: ReadProgressService;
  /** KOReader's progress sync (kosync). */
  koreader: KoreaderSync;
  /** Kobo library sync: sync points per API key and the sync token. */
  kobo: KoboSync;
  /** Kobo downloads converted by kepubify, kept 5 minutes under the data dir. */
  kepubs: KepubCache;
  /** Referential values (authors, genres, tags…) filtered for the caller. */
  referential: ReferentialQueries;
  /** Metadata edits (PATCH endpoints); refreshes are tasks. */
  metadata: { editing: MetadataEditing; refresh: MetadataRefresh };
  /** Deleting book and series files on disk (queued as tasks). */
  fileDeletion: FileDeletion;
  /** Duplicate pages: known and unknown page hashes, and the removals they ask for (queued as tasks). */
  duplicatePages: DuplicatePages;
  /** What happened to files on disk (conversions, deletions, imports, removed pages): recorded and listed. */
  history: History;
  /** The media management screens' lists beyond the book conditions (series without a poster). */
  mediaManagement: MediaManagementQueries;
  /** Series and book lists, conditions and full-text search. */
  browse: Browse;
  /** Which series, books, collections and read lists a user may see (live events are narrowed by it). */
  visibility: VisibilityQueries;
  logger: FastifyBaseLogger;
  /** Stops the process gracefully (POST /actuator/shutdown). */
  shutdown(): void;
}

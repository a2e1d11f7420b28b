import { AsyncLocalStorage } from 'node:async_hooks';
import type { Repositories, UnitOfWork } from '../domain/ports.js';
import type { Db } from './database.js';
import { KyselyApiKeyRepository } from './repositories/api-keys.js';
import { KyselyAuthenticationActivityRepository } from './repositories/authentication-activity.js';
import { KyselyBookRepository } from './repositories/books.js';
import { KyselyClientSettingsRepository } from './repositories/client-settings.js';
import { KyselyCollectionRepository, KyselyPosterRepository } from './repositories/collections.js';
import { KyselyLibraryRepository } from './repositories/libraries.js';
import { KyselyMediaRepository } from './repositories/media.js';
import { KyselyMetadataRepository } from './repositories/metadata.js';
import { KyselyReadProgressRepository } from './repositories/read-progress.js';
import { KyselyReadListRepository } from './repositories/readlists.js';
import { KyselyRememberMeTokenRepository } from './repositories/remember-me-tokens.js';
import { KyselySeriesRepository } from './repositories/series.js';
import { createServerSettingsRepository } from './repositories/server-settings.js';
import { KyselySessionRepository } from './repositories/sessions.js';
import { KyselySidecarRepository } from './repositories/sidecars.js';
import { KyselyThumbnailRepository } from './repositories/thumbnails.js';
import { KyselyUserRepository } from './repositories/users.js';
import { KyselyHistoryRepository } from './repositories/history.js';
import { KyselyTaskMetricsRepository } from './repositories/task-metrics.js';
import { KyselyPageHashRepository } from './repositories/page-hashes.js';
import { KyselyTransientBookRepository } from './repositories/transient-books.js';
import { KyselyBookImportJournal } from './repositories/book-imports.js';
import { KyselyOAuth2RequestRepository } from './repositories/oauth2-requests.js';
import { KyselyAnnouncementRepository } from './repositories/announcements.js';
import { KyselySyncPointRepository } from './repositories/sync-points.js';

/** Every repository on one connection: the database (each statement its own transaction) or one transaction. */
export function createRepositories(db: Db): Repositories {
  return {
    libraries: new KyselyLibraryRepository(db),
    series: new KyselySeriesRepository(db),
    books: new KyselyBookRepository(db),
    sidecars: new KyselySidecarRepository(db),
    media: new KyselyMediaRepository(db),
    metadata: new KyselyMetadataRepository(db),
    thumbnails: new KyselyThumbnailRepository(db),
    readProgress: new KyselyReadProgressRepository(db),
    collections: new KyselyCollectionRepository(db),
    readLists: new KyselyReadListRepository(db),
    posters: new KyselyPosterRepository(db),
    users: new KyselyUserRepository(db),
    sessions: new KyselySessionRepository(db),
    apiKeys: new KyselyApiKeyRepository(db),
    activity: new KyselyAuthenticationActivityRepository(db),
    rememberMeTokens: new KyselyRememberMeTokenRepository(db),
    clientSettings: new KyselyClientSettingsRepository(db),
    serverSettings: createServerSettingsRepository(db),
    history: new KyselyHistoryRepository(db),
    taskMetrics: new KyselyTaskMetricsRepository(db),
    pageHashes: new KyselyPageHashRepository(db),
    transientBooks: new KyselyTransientBookRepository(db),
    bookImports: new KyselyBookImportJournal(db),
    oauth2Requests: new KyselyOAuth2RequestRepository(db),
    announcements: new KyselyAnnouncementRepository(db),
    syncPoints: new KyselySyncPointRepository(db),
  };
}

/** The unit of work open in this async context, while it is open. */
interface Scope {
  repos: Repositories;
  open: boolean;
}

/**
 * The Kysely unit of work: one transaction per outermost `run`, whose repositories every nested `run` reuses.
 * Nesting is found through AsyncLocalStorage, so a service does not have to be told it is inside another's
 * transaction; a callback that outlives the transaction (a timer started inside it) finds the scope closed and
 * opens its own.
 */
export function createUnitOfWork(db: Db): UnitOfWork {
  const current = new AsyncLocalStorage<Scope>();
  /** Outermost units of work under way. */
  let open = 0;
  return {
    run(work) {
      const outer = current.getStore();
      if (outer?.open) return work(outer.repos);
      open++;
      const done = db.transaction().execute(async (tx) => {
        const scope: Scope = { repos: createRepositories(tx), open: true };
        try {
          return await current.run(scope, () => work(scope.repos));
        } finally {
          scope.open = false;
        }
      });
      // On Node 20 an enabled AsyncLocalStorage keeps V8's promise hooks on for the whole process: every promise
      // anywhere (each Kysely statement makes several) then calls into JavaScript when made, awaited and settled,
      // and leaves garbage behind (issue 18: 8 % of what an import allocated). With no unit of work under way
      // there is no scope to find, so the storage is switched off until the next one (`run` switches it on).
      const closed = () => {
        if (--open === 0) current.disable();
      };
      done.then(closed, closed);
      return done;
    },
  };
}

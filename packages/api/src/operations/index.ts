import { apiDocsOperations } from './api-docs.js';
import { libraryOperations } from './libraries.js';
import { bookOperations } from './books.js';
import { seriesOperations } from './series.js';
import { webPubOperations } from './webpub-manifest.js';
import { mihonOperations } from './mihon.js';
import { bookPageOperations } from './book-pages.js';
import { bookPosterOperations } from './book-poster.js';
import { seriesPosterOperations } from './series-poster.js';
import { userOperations } from './users.js';
import { currentUserOperations } from './current-user.js';
import { apiKeyOperations } from './api-keys.js';
import { syncPointOperations } from './sync-points.js';
import { userSessionOperations } from './user-session.js';
import { claimOperations } from './claim.js';
import { oauth2Operations } from './oauth2.js';
import { serverSettingsOperations } from './server-settings.js';
import { clientSettingsOperations } from './client-settings.js';
import { managementOperations } from './management.js';
import { sseOperations } from './sse.js';
import { taskOperations } from './tasks.js';
import { historyOperations } from './history.js';
import { mediaManagementOperations } from './media-management.js';
import { filesystemOperations } from './filesystem.js';
import { fontOperations } from './fonts.js';
import { announcementOperations } from './announcements.js';
import { releaseOperations } from './releases.js';
import { collectionOperations } from './collections.js';
import { collectionPosterOperations } from './collection-posters.js';
import { collectionSeriesOperations } from './collection-series.js';
import { readListOperations } from './readlists.js';
import { readListPosterOperations } from './readlist-posters.js';
import { readListBookOperations } from './readlist-books.js';
import { referentialOperations } from './referential.js';
import { pageHashOperations } from './page-hashes.js';
import { importOperations } from './import.js';
import type { Operation } from './operation.js';

export * from './operation.js';
export * from './api-docs.js';
export * from './libraries.js';
export * from './books.js';
export * from './series.js';
export * from './webpub-manifest.js';
export * from './mihon.js';
export * from './book-pages.js';
export * from './book-poster.js';
export * from './series-poster.js';
export * from './users.js';
export * from './current-user.js';
export * from './api-keys.js';
export * from './sync-points.js';
export * from './user-session.js';
export * from './claim.js';
export * from './oauth2.js';
export * from './server-settings.js';
export * from './client-settings.js';
export * from './management.js';
export * from './sse.js';
export * from './tasks.js';
export * from './history.js';
export * from './media-management.js';
export * from './filesystem.js';
export * from './fonts.js';
export * from './announcements.js';
export * from './releases.js';
export * from './collections.js';
export * from './collection-posters.js';
export * from './collection-series.js';
export * from './readlists.js';
export * from './readlist-posters.js';
export * from './readlist-books.js';
export * from './referential.js';
export * from './page-hashes.js';
export * from './import.js';

/**
 * Every operation of the HTTP API, keyed by operationId. The server registers exactly these routes (a handler
 * for each, nothing else), `/v3/api-docs` is emitted from them, and the web client's calls are typed by them.
 */
export const operations = {
  ...apiDocsOperations,
  ...libraryOperations,
  ...bookOperations,
  ...seriesOperations,
  ...webPubOperations,
  ...mihonOperations,
  ...bookPageOperations,
  ...bookPosterOperations,
  ...seriesPosterOperations,
  ...userOperations,
  ...currentUserOperations,
  ...apiKeyOperations,
  ...syncPointOperations,
  ...userSessionOperations,
  ...claimOperations,
  ...oauth2Operations,
  ...serverSettingsOperations,
  ...clientSettingsOperations,
  ...managementOperations,
  ...sseOperations,
  ...taskOperations,
  ...historyOperations,
  ...mediaManagementOperations,
  ...filesystemOperations,
  ...fontOperations,
  ...announcementOperations,
  ...releaseOperations,
  ...collectionOperations,
  ...collectionPosterOperations,
  ...collectionSeriesOperations,
  ...readListOperations,
  ...readListPosterOperations,
  ...readListBookOperations,
  ...referentialOperations,
  ...pageHashOperations,
  ...importOperations,
} satisfies Record<string, Operation>;

export type Operations = typeof operations;
export type OperationId = keyof Operations;

import { apiDocsOperations } from './api-docs.js';
import { libraryOperations } from './libraries.js';
import { bookOperations } from './books.js';
import { seriesOperations } from './series.js';
import { webPubOperations } from './webpub-manifest.js';
import { mihonOperations } from './mihon.js';
import { bookPageOperations } from './book-pages.js';
import { bookPosterOperations } from './book-poster.js';
import { seriesPosterOperations } from './series-poster.js';
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
} satisfies Record<string, Operation>;

export type Operations = typeof operations;
export type OperationId = keyof Operations;

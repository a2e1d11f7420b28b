import { apiDocsOperations } from './api-docs.js';
import { libraryOperations } from './libraries.js';
import { collectionOperations } from './collections.js';
import { collectionPosterOperations } from './collection-posters.js';
import { collectionSeriesOperations } from './collection-series.js';
import { readListOperations } from './readlists.js';
import { readListPosterOperations } from './readlist-posters.js';
import { readListBookOperations } from './readlist-books.js';
import { referentialOperations } from './referential.js';
import type { Operation } from './operation.js';

export * from './operation.js';
export * from './api-docs.js';
export * from './libraries.js';
export * from './collections.js';
export * from './collection-posters.js';
export * from './collection-series.js';
export * from './readlists.js';
export * from './readlist-posters.js';
export * from './readlist-books.js';
export * from './referential.js';

/**
 * Every operation of the HTTP API, keyed by operationId. The server registers exactly these routes (a handler
 * for each, nothing else), `/v3/api-docs` is emitted from them, and the web client's calls are typed by them.
 */
export const operations = {
  ...apiDocsOperations,
  ...libraryOperations,
  ...collectionOperations,
  ...collectionPosterOperations,
  ...collectionSeriesOperations,
  ...readListOperations,
  ...readListPosterOperations,
  ...readListBookOperations,
  ...referentialOperations,
} satisfies Record<string, Operation>;

export type Operations = typeof operations;
export type OperationId = keyof Operations;

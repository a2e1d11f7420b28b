import type { MediaAnalysis } from './media.js';

/**
 * Transient books (engine.md §9.1): books found in a folder outside every library, kept for the import screen
 * until they expire. Komga keeps them in process memory; they live in the database here so that every instance
 * behind the load balancer sees the ones another instance found (docs/architecture.md, scale-out). The store is
 * reached through {@link TransientBookRepository}; the Kysely implementation is in db/repositories.
 */

/** How long a transient book is kept after it was last read or written (Komga: 1 h after last access). */
export const TRANSIENT_BOOK_TTL_MS = 60 * 60 * 1000;

export interface TransientBook {
  id: string;
  name: string;
  /** `file:` URL. */
  url: string;
  /** Absolute, real path. */
  path: string;
  fileSize: number;
  /** Epoch milliseconds. */
  fileLastModified: number;
  /** Null until analysed; the guessed series and number come with it. */
  analysis: MediaAnalysis | null;
  seriesId: string | null;
  number: number | null;
}

export interface TransientBookRepository {
  /** Stores (or replaces) these books, expiring `ttlMs` after `now`; drops every expired one first. */
  save(books: readonly TransientBook[], now: Date, ttlMs: number): Promise<void>;
  /** The unexpired book, its expiry pushed to `ttlMs` after `now`; null when unknown or expired. */
  touch(id: string, now: Date, ttlMs: number): Promise<TransientBook | null>;
}

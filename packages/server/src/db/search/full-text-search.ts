import type { SearchEntity } from './fields.js';

/**
 * Full-text search over series and books (api.md §5.2, engine.md §14). One interface so that the SQLite FTS5
 * implementation can be swapped for PostgreSQL's full text later; callers only get ids.
 */
export interface FullTextSearch {
  /**
   * Ids of the entities matching `query`, most relevant first, at most `limit` (Komga considers 1000 hits).
   * `null` when the query is blank: no full-text constraint at all. A query that does not parse matches nothing.
   */
  search(entity: SearchEntity, query: string | null | undefined, limit?: number): Promise<string[] | null>;
  /** Brings documents (and the folded sort keys kept with them) up to date with every change written so far. */
  refresh(): Promise<void>;
  /** Refreshes soon, in the background (after a burst of changes). */
  scheduleRefresh(): void;
}

export const SEARCH_HIT_LIMIT = 1000;

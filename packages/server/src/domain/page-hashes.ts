import type { PageHashAction } from '@quire/api/constants';

/**
 * Duplicate pages (engine.md §5.4): a page hash an administrator decided on ("known", with its action), the
 * hashes several pages share that nobody decided on yet ("unknown"), and the pages holding a hash ("matches").
 * The store is reached through {@link PageHashRepository}; the Kysely implementation is in db/repositories.
 */

export type { PageHashAction };

export interface KnownPageHash {
  hash: string;
  /** Size in bytes of a page with this hash, when known. */
  size: number | null;
  action: PageHashAction;
  /** Pages removed because of this hash so far. */
  deleteCount: number;
  /** Pages holding the hash now (computed). */
  matchCount: number;
  /** ISO instants. */
  createdDate: string;
  lastModifiedDate: string;
}

export interface UnknownPageHash {
  hash: string;
  size: number | null;
  matchCount: number;
}

/** One page that holds a hash. */
export interface PageHashMatch {
  bookId: string;
  seriesId: string;
  /** The book file's `file:` URL. */
  url: string;
  /** 0-based. */
  number: number;
  fileName: string;
  fileSize: number | null;
  mediaType: string;
}

/** A page to remove from a book's archive, as the request named it (engine.md §11.3). */
export interface PageToRemove {
  hash: string;
  fileName: string;
  mediaType: string;
  /** 0-based, as it was when the removal was asked for. */
  number: number;
}

/** Sort properties of the three lists (api.md §1.4); unknown ones are ignored. */
export interface PageHashSort {
  property: string;
  descending: boolean;
}

/** A slice of a list; null: all of it. */
export type PageHashSlice = { offset: number; limit: number } | null;

export interface Found<T> {
  items: T[];
  total: number;
}

/** The page-hash store (known hashes, their thumbnails and delete counts) and the queries over page hashes. */
export interface PageHashRepository {
  findKnown(hash: string): Promise<KnownPageHash | undefined>;
  listKnown(
    actions: readonly PageHashAction[],
    sort: readonly PageHashSort[],
    slice: PageHashSlice,
  ): Promise<Found<KnownPageHash>>;
  listUnknown(sort: readonly PageHashSort[], slice: PageHashSlice): Promise<Found<UnknownPageHash>>;
  listMatches(hash: string, sort: readonly PageHashSort[], slice: PageHashSlice): Promise<Found<PageHashMatch>>;
  /** Creates a known hash (with its thumbnail, when one could be made). */
  create(
    known: { hash: string; size: number | null; action: PageHashAction; thumbnail: Uint8Array | null },
    now: string,
  ): Promise<void>;
  /** Changes the action of a known hash; the rest stays. */
  updateAction(hash: string, action: PageHashAction, now: string): Promise<void>;
  thumbnail(hash: string): Promise<Uint8Array | undefined>;
  /** Adds `count` to the delete count of a known hash (no-op for an unknown one). */
  addDeleted(hash: string, count: number, now: string): Promise<void>;
  /** Pages of a library's READY ZIP books whose hash is known with DELETE_AUTO, by book. */
  autoDeletePages(libraryId: string): Promise<Map<string, { seriesId: string; pages: PageToRemove[] }>>;
}

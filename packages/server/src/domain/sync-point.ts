import type { ContentViewer } from './restrictions.js';

/**
 * Kobo sync points (api.md §8.2): a snapshot of the EPUBs an API key's user could see at one sync. Comparing the
 * snapshot of this sync with the last completed one tells what the device must add, change or remove.
 */
export interface SyncPoint {
  id: string;
  userId: string;
  apiKeyId: string;
  createdDate: string;
}

/**
 * What one sync sends, in this order, each kind taken from the snapshots at most `limit` at a time:
 * - `all`: every book of the new snapshot (first sync, or after the sync points were deleted);
 * - `added`: in the new snapshot, not in the last;
 * - `changed`: in both, with another file, metadata or poster;
 * - `removed`: in the last snapshot, not in the new (deleted, hidden since, no longer READY);
 * - `readingState`: in both, unchanged but for the user's read progress.
 */
export type SyncPointChange = 'all' | 'added' | 'changed' | 'removed' | 'readingState' | ReadListChange;

/**
 * Read lists holding books of the snapshot, which the device shows as its collections ("tags"): all of them on a
 * first sync; else added, changed (name or books) and removed, as for books. Their `take` answers read list ids.
 * The user's On Deck list is one of them (`onDeck` of `create`), so it is sent and kept up to date the same way.
 */
export type ReadListChange = 'readListAll' | 'readListAdded' | 'readListChanged' | 'readListRemoved';

/** A read list as a snapshot holds it: only the snapshot's books, in list order. */
export interface SyncedReadList {
  id: string;
  name: string;
  createdDate: string;
  lastModifiedDate: string;
  bookIds: string[];
}

export interface SyncPointRepository {
  /**
   * Snapshots the READY, non-deleted EPUBs this viewer may see (the lists' visibility rules), the read lists
   * holding any of them, and the On Deck list when it holds any of them.
   */
  create(
    viewer: ContentViewer & { id: string },
    apiKeyId: string,
    opts: {
      id: string;
      now: Date;
      epubMediaType: string;
      /** A list snapshotted as a read list, holding those of these books (in this order) that are in the snapshot. */
      onDeck: { id: string; name: string; bookIds: readonly string[] };
    },
  ): Promise<SyncPoint>;
  find(id: string): Promise<SyncPoint | undefined>;
  /**
   * Book ids of one kind of change from `fromId` (null for `all`) to `toId` not sent yet in this sync, oldest book
   * first, at most `limit`; they are marked sent, so the next call of a continued sync goes on after them.
   */
  take(change: SyncPointChange, toId: string, fromId: string | null, limit: number): Promise<string[]>;
  /** These read lists as the snapshot holds them. */
  readLists(pointId: string, ids: readonly string[]): Promise<SyncedReadList[]>;
  /** Whether `take` would find any. */
  pending(change: SyncPointChange, toId: string, fromId: string | null): Promise<boolean>;
  delete(id: string): Promise<void>;
  /** The API key's sync points but these (a new sync began: any other ongoing one was abandoned). */
  deleteOthers(userId: string, apiKeyId: string, keep: readonly string[]): Promise<void>;
  /** The user's sync points, all or those of some API keys. */
  deleteForUser(userId: string, apiKeyIds: readonly string[] | null): Promise<void>;
}

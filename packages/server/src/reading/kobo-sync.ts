/**
 * Kobo library sync (api.md §8.2): which books a sync call sends, driven by sync points stored per API key, and
 * Komga's sync token that carries them between calls. Knows nothing of HTTP or of Kobo's JSON (http/routes/kobo).
 */
import { newId } from '../domain/ids.js';
import type { ReadProgressRepository } from '../domain/ports.js';
import type { StoredReadProgress } from '../domain/read-progress.js';
import type { SyncedReadList, SyncPoint, SyncPointChange, SyncPointRepository } from '../domain/sync-point.js';
import type { Reader } from './read-progress.js';

/**
 * The token a Kobo sends back in `x-kobo-synctoken` (Komga's format, `KOMGA.` + base64 JSON): the last completed
 * sync point, the one a continued sync is going through, and the Kobo store's own token when the store is proxied.
 */
export interface KoboSyncToken {
  version: number;
  rawKoboSyncToken: string;
  ongoingSyncPointId: string | null;
  lastSuccessfulSyncPointId: string | null;
}

const PREFIX = 'KOMGA.';

/**
 * The On Deck list as the device's collection. The reference names no id or title for it: a fixed id (never a read
 * list's, which are 26-character ULIDs) keeps it one collection across syncs, whatever its books.
 */
export const ON_DECK_TAG = { id: 'ondeck', name: 'On Deck' } as const;
const EMPTY_TOKEN: KoboSyncToken = {
  version: 1,
  rawKoboSyncToken: '',
  ongoingSyncPointId: null,
  lastSuccessfulSyncPointId: null,
};

export function encodeSyncToken(token: KoboSyncToken): string {
  return PREFIX + Buffer.from(JSON.stringify(token), 'utf8').toString('base64');
}

/**
 * Reads a token as Komga does: its own; a Kobo store token (`header.payload…`, kept to give back to the store);
 * Calibre-Web's (base64 JSON whose `data.raw_kobo_store_token` is the store's). Anything else starts afresh.
 */
export function decodeSyncToken(header: string | undefined): KoboSyncToken {
  if (!header) return { ...EMPTY_TOKEN };
  const json = (b64: string): unknown => {
    try {
      return JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  };
  if (header.startsWith(PREFIX)) {
    const t = json(header.slice(PREFIX.length)) as Partial<Record<keyof KoboSyncToken, unknown>> | undefined;
    if (!t || typeof t !== 'object') return { ...EMPTY_TOKEN };
    const id = (v: unknown) => (typeof v === 'string' && v ? v : null);
    return {
      version: 1,
      rawKoboSyncToken: typeof t.rawKoboSyncToken === 'string' ? t.rawKoboSyncToken : '',
      ongoingSyncPointId: id(t.ongoingSyncPointId),
      lastSuccessfulSyncPointId: id(t.lastSuccessfulSyncPointId),
    };
  }
  if (header.includes('.')) {
    const head = json(header.split('.')[0]!) as { typ?: unknown } | undefined;
    if (head && typeof head === 'object' && 'typ' in head) return { ...EMPTY_TOKEN, rawKoboSyncToken: header };
  }
  const cw = json(header) as { data?: { raw_kobo_store_token?: unknown } } | undefined;
  const raw = cw?.data?.raw_kobo_store_token;
  return { ...EMPTY_TOKEN, rawKoboSyncToken: typeof raw === 'string' ? raw : '' };
}

/** What one sync call sends: book ids per kind of change, whether more remain, and the token to answer with. */
export interface SyncBatch {
  added: string[];
  changed: string[];
  removed: string[];
  readingStates: string[];
  /** Read lists to send whole (new or changed: which is which in `newReadLists`), and removed ones' ids. */
  readLists: SyncedReadList[];
  newReadLists: ReadonlySet<string>;
  removedReadLists: string[];
  more: boolean;
  token: KoboSyncToken;
}

export interface KoboSyncDeps {
  syncPoints: SyncPointRepository;
  progress: Pick<ReadProgressRepository, 'findMany'>;
  /** Items per sync call (Komga's `komga.kobo.sync-item-limit`). */
  itemLimit: number;
  /** The media type of the books Kobo syncs. */
  epubMediaType: string;
  /** The reader's on-deck book ids, in order: the query of `GET /api/v1/books/ondeck`, with its visibility rules. */
  onDeck: (reader: Reader) => Promise<string[]>;
  now?: () => Date;
}

export class KoboSync {
  private readonly now: () => Date;

  constructor(private readonly d: KoboSyncDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /**
   * One call of `GET v1/library/sync`. The sync point of this sync is the token's ongoing one (a continued sync),
   * else a new snapshot; it is compared with the last completed one, or everything is sent when there is none.
   * When the batch is full the token keeps the ongoing point (`more`); otherwise it becomes the last completed one
   * and the previous is deleted.
   */
  async sync(reader: Reader, apiKeyId: string, token: KoboSyncToken): Promise<SyncBatch> {
    const own = async (id: string | null): Promise<SyncPoint | undefined> => {
      const point = id ? await this.d.syncPoints.find(id) : undefined;
      return point && point.userId === reader.id && point.apiKeyId === apiKeyId ? point : undefined;
    };
    const from = await own(token.lastSuccessfulSyncPointId);
    let to = await own(token.ongoingSyncPointId);
    if (!to) {
      // A new sync: snapshots of syncs this device left unfinished are dropped, or each would stay for ever.
      await this.d.syncPoints.deleteOthers(reader.id, apiKeyId, from ? [from.id] : []);
      to = await this.d.syncPoints.create(reader, apiKeyId, {
        id: newId(),
        now: this.now(),
        epubMediaType: this.d.epubMediaType,
        onDeck: { ...ON_DECK_TAG, bookIds: await this.d.onDeck(reader) },
      });
    }

    const kinds: SyncPointChange[] = from
      ? ['added', 'changed', 'removed', 'readingState', 'readListAdded', 'readListChanged', 'readListRemoved']
      : ['all', 'readListAll'];
    const found = Object.fromEntries(kinds.map((k) => [k, [] as string[]])) as Partial<
      Record<SyncPointChange, string[]>
    >;
    let remaining = this.d.itemLimit;
    let more = false;
    for (const kind of kinds) {
      if (remaining > 0) {
        const taken = await this.d.syncPoints.take(kind, to.id, from?.id ?? null, remaining);
        found[kind] = taken;
        remaining -= taken.length;
      }
      // A full batch: the device calls again (`x-kobo-sync: continue`) if anything is left to send.
      if (remaining === 0 && (await this.d.syncPoints.pending(kind, to.id, from?.id ?? null))) {
        more = true;
        break;
      }
    }

    let next: KoboSyncToken;
    if (more) next = { ...token, ongoingSyncPointId: to.id };
    else {
      if (from) await this.d.syncPoints.delete(from.id);
      next = { ...token, ongoingSyncPointId: null, lastSuccessfulSyncPointId: to.id };
    }
    const of = (...k: SyncPointChange[]) => k.flatMap((x) => found[x] ?? []);
    return {
      added: of('all', 'added'),
      changed: of('changed'),
      removed: of('removed'),
      readingStates: of('readingState'),
      readLists: await this.d.syncPoints.readLists(to.id, of('readListAll', 'readListAdded', 'readListChanged')),
      newReadLists: new Set(of('readListAll', 'readListAdded')),
      removedReadLists: of('readListRemoved'),
      more,
      token: next,
    };
  }

  /** The user's stored progress on these books (reading states). */
  async progress(userId: string, bookIds: readonly string[]): Promise<Map<string, StoredReadProgress>> {
    if (bookIds.length === 0) return new Map();
    const rows = await this.d.progress.findMany(bookIds, userId);
    return new Map(rows.map((r) => [r.bookId, r]));
  }

  /** `DELETE /api/v1/syncpoints/me`: the next sync of these keys (all when null) starts from scratch. */
  forget(userId: string, apiKeyIds: readonly string[] | null): Promise<void> {
    return this.d.syncPoints.deleteForUser(userId, apiKeyIds);
  }
}

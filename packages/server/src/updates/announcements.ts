import type { AnnouncementRepository, Feed, FeedItem } from '../domain/announcements.js';
import { FeedError, parseJsonFeed } from './feed.js';
import { fetchFeed, type FetchLimits } from './fetch-feed.js';

export interface AnnouncementsLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface AnnouncementsOptions extends FetchLimits {
  repository: AnnouncementRepository;
  /** Null: no feed configured; the announcements are empty and nothing is fetched. */
  feedUrl: string | null;
  /** One fetch per period, across every instance on the database. */
  refreshMs: number;
  logger: AnnouncementsLogger;
  now?: () => number;
}

/** A feed item as a user sees it: with whether he has read it (Komga's `_komga` extension). */
export type AnnouncementItem = FeedItem & { _komga: { read: boolean } };
export type Announcements = Omit<Feed, 'items'> & { items: AnnouncementItem[] };

/**
 * Announcements (api.md §9.2). Komga fetches its feed when asked; here the scheduler calls {@link refreshIfDue}
 * in the background and requests read the copy in the database, so no request waits on the network, and a feed
 * that is down, slow, huge or malformed only leaves the last good copy in place (the failure is logged).
 */
export class AnnouncementService {
  private readonly now: () => number;
  private readonly closing = new AbortController();
  private inFlight: Promise<void> | null = null;

  constructor(private readonly opts: AnnouncementsOptions) {
    this.now = opts.now ?? Date.now;
  }

  /**
   * Fetches the feed when this instance is the first to ask in the current period; otherwise does nothing.
   * A feed that cannot be fetched or read is logged and tried again next period; only a database failure throws.
   */
  refreshIfDue(): Promise<void> {
    // One fetch at a time in this process; the claim keeps other instances out.
    this.inFlight ??= this.refresh().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  /** Stops a fetch in progress (the server is closing) and waits for it to end. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.inFlight;
  }

  private async refresh(): Promise<void> {
    const { feedUrl: url, repository, logger } = this.opts;
    if (!url || this.closing.signal.aborted) return;
    if (!(await repository.claimFetch(url, this.now(), this.opts.refreshMs))) return;
    try {
      const feed = parseJsonFeed(await fetchFeed(url, this.opts, this.closing.signal));
      if (this.closing.signal.aborted) return;
      await repository.store(url, feed, this.now());
      logger.info({ url, items: feed.items.length }, 'Announcements fetched');
    } catch (err) {
      if (!(err instanceof FeedError)) throw err;
      logger.warn({ url, reason: err.message }, 'Announcements feed refused; the last copy stays');
    }
  }

  /** The cached feed with the user's read flags; an empty feed when none is configured or none was fetched yet. */
  async forUser(userId: string): Promise<Announcements> {
    const { feedUrl: url, repository } = this.opts;
    const feed = url ? await repository.cached(url) : null;
    if (!feed) return { title: 'Announcements', items: [] };
    const read = await repository.readBy(
      userId,
      feed.items.map((i) => i.id),
    );
    return { ...feed, items: feed.items.map((i) => ({ ...i, _komga: { read: read.has(i.id) } })) };
  }

  /** Marks these items read for the user; ids that the current feed does not hold are ignored. */
  async markRead(userId: string, itemIds: readonly string[]): Promise<void> {
    const { feedUrl: url, repository } = this.opts;
    const feed = url ? await repository.cached(url) : null;
    if (!feed) return;
    const wanted = new Set(itemIds);
    await repository.markRead(
      userId,
      feed.items.filter((i) => wanted.has(i.id)).map((i) => i.id),
    );
  }
}

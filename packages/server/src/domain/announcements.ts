/**
 * Announcements (api.md §9.2): a JSON Feed the operator points the server at, fetched in the background and kept
 * in the database, with each user's read items. Only what was checked on the way in is stored (updates/feed.ts),
 * so every answer is made from a bounded, well-formed copy.
 */

export interface FeedAuthor {
  name?: string;
  url?: string;
}

export interface FeedItem {
  id: string;
  /** Only http(s) URLs are kept: the screen links the title to it. */
  url?: string;
  title?: string;
  summary?: string;
  /** As the feed wrote it: the web client sanitises it before showing it. */
  content_html?: string;
  date_modified?: string;
  author?: FeedAuthor;
  tags: string[];
}

export interface Feed {
  title: string;
  home_page_url?: string;
  description?: string;
  items: FeedItem[];
}

export interface AnnouncementRepository {
  /**
   * Takes the fetch of `url` on the caller when nobody took it in the last `periodMs` before `now`: true for
   * exactly one caller per period, whichever instance it runs in.
   */
  claimFetch(url: string, now: number, periodMs: number): Promise<boolean>;
  /** Stores the feed fetched from `url`, and forgets the feeds of other URLs. */
  store(url: string, feed: Feed, now: number): Promise<void>;
  /** The last feed fetched from `url`, or null. */
  cached(url: string): Promise<Feed | null>;
  /** Which of `itemIds` the user has read. */
  readBy(userId: string, itemIds: readonly string[]): Promise<Set<string>>;
  markRead(userId: string, itemIds: readonly string[]): Promise<void>;
}

import type { Db } from '../database.js';
import type { AnnouncementRepository, Feed } from '../../domain/announcements.js';

/** The cached announcements feed and the items each user has read (migration 0015). */
export class KyselyAnnouncementRepository implements AnnouncementRepository {
  constructor(private readonly db: Db) {}

  async claimFetch(url: string, now: number, periodMs: number): Promise<boolean> {
    // One statement: SQLite (and PostgreSQL) apply it atomically, so two instances cannot both see the old claim.
    const result = await this.db
      .insertInto('announcement_feed')
      .values({ url, claimed_at: now })
      .onConflict((oc) =>
        oc
          .column('url')
          .doUpdateSet({ claimed_at: now })
          .where('announcement_feed.claimed_at', '<=', now - periodMs),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async store(url: string, feed: Feed, now: number): Promise<void> {
    await this.db
      .updateTable('announcement_feed')
      .set({ feed: JSON.stringify(feed), fetched_at: now })
      .where('url', '=', url)
      .execute();
    await this.db.deleteFrom('announcement_feed').where('url', '!=', url).execute();
  }

  async cached(url: string): Promise<Feed | null> {
    const row = await this.db.selectFrom('announcement_feed').select('feed').where('url', '=', url).executeTakeFirst();
    return row?.feed ? (JSON.parse(row.feed) as Feed) : null;
  }

  async readBy(userId: string, itemIds: readonly string[]): Promise<Set<string>> {
    if (itemIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('announcement_read')
      .select('item_id')
      .where('user_id', '=', userId)
      .where('item_id', 'in', itemIds)
      .execute();
    return new Set(rows.map((r) => r.item_id));
  }

  async markRead(userId: string, itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    await this.db
      .insertInto('announcement_read')
      .values(itemIds.map((item_id) => ({ user_id: userId, item_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/*
 * Announcements (api.md §9.2): the feed fetched from the configured URL, kept so that requests never wait on the
 * network and the last copy is served when the network is gone; and which items each user has read.
 *
 * One row per feed URL: `claimed_at` (epoch ms) is when an instance last took the fetch on itself. Taking it is one
 * conditional write, so with several instances on one database only one fetches per period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('announcement_feed')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('claimed_at', types.bigint, (c) => c.notNull())
    .addColumn('feed', 'text')
    .addColumn('fetched_at', types.bigint)
    .execute();
  await db.schema
    .createTable('announcement_read')
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('announcement_read_pk', ['user_id', 'item_id'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import { membershipRemovals } from './postgres.js';

/*
 * Hard-deleting a series or a book removes it from every collection / read list through ON DELETE CASCADE,
 * in code that knows nothing of collections (trash, library deletion). These triggers note which sets lost a
 * member, so that the collections module can announce CollectionChanged / ReadListChanged afterwards
 * (collections/index.ts drains the table when SeriesDeleted / BookDeleted / LibraryDeleted are published).
 * BEFORE DELETE: the membership rows still exist when the trigger runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('membership_removal')
    // 'collection' or 'readlist'
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('owner_id', 'varchar(26)', (c) => c.notNull())
    .addPrimaryKeyConstraint('membership_removal_pk', ['kind', 'owner_id'])
    .execute();
  if (isPostgres(db)) return membershipRemovals(db);
  await sql`
    CREATE TRIGGER series_removed_from_collections BEFORE DELETE ON series
    BEGIN
      INSERT OR IGNORE INTO membership_removal (kind, owner_id)
        SELECT 'collection', collection_id FROM collection_series WHERE series_id = OLD.id;
    END`.execute(db);
  await sql`
    CREATE TRIGGER book_removed_from_readlists BEFORE DELETE ON book
    BEGIN
      INSERT OR IGNORE INTO membership_removal (kind, owner_id)
        SELECT 'readlist', readlist_id FROM readlist_book WHERE book_id = OLD.id;
    END`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

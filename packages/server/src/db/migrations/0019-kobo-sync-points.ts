import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/*
 * Kobo sync points (api.md §8.2): a snapshot, per API key, of the EPUBs its user could see at one sync, with what
 * tells a change (file, metadata, poster, read progress dates). The next sync compares the new snapshot with the
 * last completed one to send only what was added, changed or removed. `synced` marks the rows already sent while a
 * sync runs over several calls (`x-kobo-sync: continue`); `sync_point_removed` does the same for the removals.
 * Rows go with their user and their API key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('sync_point')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('api_key_id', 'varchar(26)', (c) => c.notNull().references('api_key.id').onDelete('cascade'))
    .addColumn('created_date', types.dateText, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sync_point_user_key_idx').on('sync_point').columns(['user_id', 'api_key_id']).execute();
  await db.schema
    .createTable('sync_point_book')
    .addColumn('sync_point_id', 'varchar(26)', (c) => c.notNull().references('sync_point.id').onDelete('cascade'))
    .addColumn('book_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('book_created_date', types.dateText, (c) => c.notNull())
    .addColumn('file_last_modified', types.dateText, (c) => c.notNull())
    .addColumn('file_size', types.bigint, (c) => c.notNull())
    .addColumn('file_hash', 'text', (c) => c.notNull())
    .addColumn('metadata_last_modified_date', types.dateText, (c) => c.notNull())
    .addColumn('thumbnail_id', 'varchar(26)')
    .addColumn('read_progress_last_modified_date', types.dateText)
    .addColumn('synced', 'boolean', (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint('sync_point_book_pk', ['sync_point_id', 'book_id'])
    .execute();
  await db.schema
    .createTable('sync_point_removed')
    .addColumn('sync_point_id', 'varchar(26)', (c) => c.notNull().references('sync_point.id').onDelete('cascade'))
    .addColumn('book_id', 'varchar(26)', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_point_removed_pk', ['sync_point_id', 'book_id'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

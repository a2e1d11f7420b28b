import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/*
 * Read lists in Kobo sync points (api.md §8.2: read lists reach the device as its "tags", its collections): per
 * snapshot, each read list holding a book of the snapshot, with the ids of those books in list order (`book_ids`,
 * comma-separated: what the device's collection holds, compared whole between two snapshots). `synced` and
 * `sync_point_readlist_removed` keep a sync's place across calls, as for books (0019).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('sync_point_readlist')
    .addColumn('sync_point_id', 'varchar(26)', (c) => c.notNull().references('sync_point.id').onDelete('cascade'))
    .addColumn('readlist_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_date', types.dateText, (c) => c.notNull())
    .addColumn('last_modified_date', types.dateText, (c) => c.notNull())
    .addColumn('book_ids', 'text', (c) => c.notNull())
    .addColumn('synced', 'boolean', (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint('sync_point_readlist_pk', ['sync_point_id', 'readlist_id'])
    .execute();
  await db.schema
    .createTable('sync_point_readlist_removed')
    .addColumn('sync_point_id', 'varchar(26)', (c) => c.notNull().references('sync_point.id').onDelete('cascade'))
    .addColumn('readlist_id', 'varchar(26)', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_point_readlist_removed_pk', ['sync_point_id', 'readlist_id'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

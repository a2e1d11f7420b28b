import type { CreateTableBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';
import { columnTypes, createNocase, nocaseKey } from '../dialect.js';

/*
 * Collections (of series) and read lists (of books), with their posters (engine.md §6.10, §7.3, api.md §3.4-3.5).
 * Names are unique without regard to case. `number` is the 0-based position of a member.
 */
/** The dialect's column types, set by `up` (db/dialect.ts). */
let types: ReturnType<typeof columnTypes>;

const dates = <T extends string>(t: CreateTableBuilder<T>) =>
  t
    .addColumn('created_date', types.date, (c) => c.notNull())
    .addColumn('last_modified_date', types.date, (c) => c.notNull());

export async function up(db: Kysely<unknown>): Promise<void> {
  types = columnTypes(db);
  await createNocase(db);
  await dates(
    db.schema
      .createTable('collection')
      .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('ordered', 'boolean', (c) => c.notNull().defaultTo(false)),
  ).execute();
  await sql`CREATE UNIQUE INDEX collection_name_idx ON collection (${nocaseKey(db, 'name')})`.execute(db);
  await db.schema
    .createTable('collection_series')
    .addColumn('collection_id', 'varchar(26)', (c) => c.notNull().references('collection.id').onDelete('cascade'))
    .addColumn('series_id', 'varchar(26)', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_series_pk', ['collection_id', 'series_id'])
    .execute();
  await db.schema.createIndex('collection_series_series_idx').on('collection_series').column('series_id').execute();

  await dates(
    db.schema
      .createTable('readlist')
      .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('ordered', 'boolean', (c) => c.notNull().defaultTo(true)),
  ).execute();
  await sql`CREATE UNIQUE INDEX readlist_name_idx ON readlist (${nocaseKey(db, 'name')})`.execute(db);
  await db.schema
    .createTable('readlist_book')
    .addColumn('readlist_id', 'varchar(26)', (c) => c.notNull().references('readlist.id').onDelete('cascade'))
    .addColumn('book_id', 'varchar(26)', (c) => c.notNull().references('book.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('readlist_book_pk', ['readlist_id', 'book_id'])
    .execute();
  await db.schema.createIndex('readlist_book_book_idx').on('readlist_book').column('book_id').execute();

  for (const [table, owner, ownerTable] of [
    ['thumbnail_collection', 'collection_id', 'collection'],
    ['thumbnail_readlist', 'readlist_id', 'readlist'],
  ] as const) {
    await dates(
      db.schema
        .createTable(table)
        .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
        .addColumn(owner, 'varchar(26)', (c) => c.notNull().references(`${ownerTable}.id`).onDelete('cascade'))
        // USER_UPLOADED only: mosaics are generated on request, not stored.
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('selected', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('media_type', 'varchar(64)', (c) => c.notNull())
        .addColumn('file_size', types.bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0)),
    ).execute();
    await db.schema.createIndex(`${table}_owner_idx`).on(table).column(owner).execute();
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

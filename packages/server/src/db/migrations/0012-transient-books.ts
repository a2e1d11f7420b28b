import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/*
 * Transient books (engine.md §9.1): the import screen's books found outside every library, in the database so that
 * a second instance sees them, each with its expiry (epoch ms). The analysis is kept as JSON: it is only read back
 * whole, for the transient-book answers and pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('transient_book')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('file_size', types.bigint, (c) => c.notNull())
    .addColumn('file_last_modified', types.bigint, (c) => c.notNull())
    .addColumn('analysis', 'text')
    .addColumn('series_id', 'varchar(26)')
    .addColumn('number', types.real)
    .addColumn('expires_at', types.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transient_book_expires_idx').on('transient_book').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/*
 * Historical events (engine.md §11.5). No foreign keys: an event outlives its book and series. `properties` is a
 * JSON object of strings (Komga keeps them in a side table; they are only ever read with their event).
 * `library_id` lets a restricted user's history be narrowed by library sharing after the series is gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('historical_event')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('book_id', 'varchar(26)')
    .addColumn('series_id', 'varchar(26)')
    .addColumn('library_id', 'varchar(26)')
    .addColumn('timestamp', types.date, (c) => c.notNull())
    .addColumn('properties', 'text', (c) => c.notNull())
    .execute();
  // The list's default order (newest first), and the series a restricted user's history joins on.
  await db.schema.createIndex('historical_event_timestamp_idx').on('historical_event').column('timestamp').execute();
  await db.schema.createIndex('historical_event_series_idx').on('historical_event').column('series_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

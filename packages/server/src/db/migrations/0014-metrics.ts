import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/*
 * Metrics (api.md §9.1). `task_metric` keeps the figures of finished tasks per type and per hour, so that
 * `komga.tasks.execution` / `komga.tasks.failure` survive a restart and add up the work of every instance sharing
 * the database; hourly rows let the answer cover the last 24 hours (the reference's 24 h step) and keep the table
 * small (older hours are deleted by the daily housekeeping).
 * The per-library gauges are counts and sums grouped by library: the sidecar table gets an index on its library,
 * and the book table's library index also holds the file size, so the disk-space sum reads the index alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('task_metric')
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    // Hours since the Unix epoch (UTC).
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('total_ms', types.real, (c) => c.notNull())
    .addColumn('max_ms', types.real, (c) => c.notNull())
    .addPrimaryKeyConstraint('task_metric_pk', ['type', 'hour'])
    .execute();
  await db.schema.createIndex('task_metric_hour_idx').on('task_metric').column('hour').execute();
  await db.schema.createIndex('sidecar_library_idx').on('sidecar').column('library_id').execute();
  await db.schema.createIndex('book_library_file_size_idx').on('book').columns(['library_id', 'file_size']).execute();
  // Its leading column answers every lookup the old one did.
  await db.schema.dropIndex('book_library_idx').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

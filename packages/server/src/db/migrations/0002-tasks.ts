import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * The persistent task queue (engine.md §8.1). Komga keeps it in a second SQLite file; Quire keeps it in
 * the main database so that a PostgreSQL deployment needs one database only. Queue churn is small rows
 * deleted at once, which SQLite's free-page reuse absorbs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('task')
    // The dedup key (engine.md appendix B): submitting the same unique id again updates the row.
    .addColumn('unique_id', 'varchar(1024)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    // Tasks of one group (a series id) never run concurrently.
    .addColumn('group_id', 'varchar(64)')
    .addColumn('payload', 'text', (c) => c.notNull())
    // The runner that took the task; null while queued.
    .addColumn('owner', 'varchar(128)')
    // 1 when the task was submitted again while running: it is queued again instead of deleted when done.
    .addColumn('run_again', 'integer', (c) => c.notNull().defaultTo(0))
    // Submission order, raised on every re-submit: the tie-break inside a priority (Komga's LAST_MODIFIED_DATE).
    .addColumn('seq', types.bigint, (c) => c.notNull())
    .addColumn('created_date', types.date, (c) => c.notNull())
    .addColumn('last_modified_date', types.date, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_take_idx').on('task').columns(['owner', 'priority desc', 'seq']).execute();
  await db.schema.createIndex('task_group_idx').on('task').columns(['group_id', 'owner']).execute();
  await db.schema.createIndex('task_seq_idx').on('task').column('seq').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

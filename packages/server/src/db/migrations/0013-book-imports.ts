import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/*
 * The journal of book imports in progress (engine.md §9.2; docs/architecture.md, imports): one row per ImportBook
 * task from just before its file takes its name in the series folder until everything after the book row is done,
 * so that the task's run after a crash knows which of the files it finds are its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('book_import')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text', (c) => c.notNull())
    .addColumn('book_id', 'varchar(26)')
    .addColumn('upgraded_url', 'text')
    .addColumn('created_date', types.dateText, (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

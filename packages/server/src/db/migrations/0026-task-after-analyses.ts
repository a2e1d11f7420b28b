import type { Kysely } from 'kysely';

/*
 * 1 for a task the queue holds back while any AnalyzeBook is queued or running (tasks/definitions.ts,
 * waitsForAnalyses): an import's metadata refreshes with a barcode search, kept from running beside the last
 * analyses (issue 18). A column, so that the take can test it without reading the payload.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('task')
    .addColumn('after_analyses', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

import type { Kysely } from 'kysely';

/*
 * The queue's per-kind counts (the TaskQueueStatus event, sent up to once a second while tasks run) read the
 * whole task table. A scan of 100,000 books queues 300,000 tasks: without an index on kind that read took
 * ~55 ms of the event loop each time (a covering index: ~9 ms).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('task_kind_idx').on('task').column('kind').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

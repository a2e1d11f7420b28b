import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/*
 * Browsing a library of 1,000,000 books (issue 18, `npm run bench:api -- --books 1000000`).
 * - Series of a library that are not deleted (the web client's grid, counted on every full page): an index on
 *   both columns answers the count from the index alone instead of reading 25,000 series rows. It replaces the
 *   index on library_id alone, which it starts with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('series_library_deleted_idx')
    .on('series')
    .columns(['library_id', 'deleted_date'])
    .execute();
  await sql`DROP INDEX series_library_idx`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
import { searchSerialScans } from './postgres.js';

/*
 * PostgreSQL only (issue 20): a search reads the first thousand hits of a condition planned for all of them
 * (search/postgres-fts.ts), which a parallel scan of the search tables would return in no fixed order. FTS5 reads
 * its own index on SQLite: nothing to change there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await searchSerialScans(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { columnTypes, isPostgres } from '../dialect.js';
import { pageHashCounts } from './postgres.js';

/*
 * Duplicate pages (engine.md §5.4).
 *
 * `page_hash`: the hashes an administrator decided on (Komga's PAGE_HASH), with the thumbnail stored when one
 * became known in `page_hash_thumbnail` (a 500 px JPEG of the first matching page).
 *
 * `page_hash_count`: how many pages hold each non-blank hash, kept by triggers on media_page. The list of unknown
 * duplicates is then read from an index of the hashes held more than once, by total size, instead of grouping
 * every page row of the library on each request (bench/page-hashes.mjs: 10,000 books × 6 hashed pages).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  const types = columnTypes(db);
  await db.schema
    .createTable('page_hash')
    .addColumn('hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('size', types.bigint)
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('delete_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_date', types.dateText, (c) => c.notNull())
    .addColumn('last_modified_date', types.dateText, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('page_hash_action_idx').on('page_hash').column('action').execute();
  await db.schema
    .createTable('page_hash_thumbnail')
    .addColumn('hash', 'varchar(64)', (c) => c.primaryKey().references('page_hash.hash').onDelete('cascade'))
    .addColumn('thumbnail', types.blob, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('page_hash_count')
    .addColumn('hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('file_size', types.bigint)
    .addColumn('match_count', 'integer', (c) => c.notNull())
    .execute();
  if (isPostgres(db)) return pageHashCounts(db);
  // The unknown list's default order (largest saving first), only over hashes held more than once.
  await run(`CREATE INDEX page_hash_count_total_idx ON page_hash_count
    (match_count * coalesce(file_size, 0) DESC, hash) WHERE match_count > 1`);
  await run(`INSERT INTO page_hash_count (hash, file_size, match_count)
    SELECT file_hash, max(file_size), count(*) FROM media_page WHERE file_hash != '' GROUP BY file_hash`);

  const add = (hash: string, size: string) => `
    INSERT OR IGNORE INTO page_hash_count (hash, file_size, match_count) VALUES (${hash}, ${size}, 0);
    UPDATE page_hash_count SET match_count = match_count + 1, file_size = coalesce(file_size, ${size})
      WHERE hash = ${hash};`;
  const remove = (hash: string) => `
    UPDATE page_hash_count SET match_count = match_count - 1 WHERE hash = ${hash};
    DELETE FROM page_hash_count WHERE hash = ${hash} AND match_count <= 0;`;
  await run(`CREATE TRIGGER page_hash_count_ins AFTER INSERT ON media_page WHEN NEW.file_hash != '' BEGIN
    ${add('NEW.file_hash', 'NEW.file_size')} END`);
  await run(`CREATE TRIGGER page_hash_count_del AFTER DELETE ON media_page WHEN OLD.file_hash != '' BEGIN
    ${remove('OLD.file_hash')} END`);
  await run(`CREATE TRIGGER page_hash_count_upd_old AFTER UPDATE OF file_hash ON media_page
    WHEN OLD.file_hash != '' AND OLD.file_hash != NEW.file_hash BEGIN ${remove('OLD.file_hash')} END`);
  await run(`CREATE TRIGGER page_hash_count_upd_new AFTER UPDATE OF file_hash ON media_page
    WHEN NEW.file_hash != '' AND OLD.file_hash != NEW.file_hash BEGIN ${add('NEW.file_hash', 'NEW.file_size')} END`);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

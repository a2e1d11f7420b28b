import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import type { Db } from '../database.js';
import { fillSeriesTitles } from '../search/sqlite-fts.js';
import { seriesTitleSearch } from './postgres.js';

/*
 * Series search at 1,000,000 books (issue 18): a search ranks series whose titles hold the words first, and asks
 * the index for them with a condition on the title column. An FTS5 index has no list per column: that condition
 * walks every document holding the words' trigrams in any column, and a series document carries its books'
 * authors, tags and summaries (277 MB of index for 50,000 series, mostly beyond the memory map). An author's name
 * that no title holds walked thousands of documents for no hit (up to ~100 ms a search). The titles now also go
 * into a table of their own (same document ids, 3 MB at 1M), which the title tiers read when their expression
 * names the title alone (search/sqlite-fts.ts). It is filled here from the indexed series, by the indexer's code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await seriesTitleSearch(db);
  else
    await sql`CREATE VIRTUAL TABLE series_title_fts USING fts5(title, content='', contentless_delete=1,
      tokenize='trigram remove_diacritics 1')`.execute(db);
  await fillSeriesTitles(db as unknown as Db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/*
 * Browsing a library of 1,000,000 books (issue 18): a filter on a tag, genre, sharing label or author reads the ids
 * of the series or books holding the value. The value indexes of migration 0006 held the value alone, so each of
 * the ~5,000 books of a tag cost a read of its table row to find its book id, on every page and again to count.
 * Each index now carries the owner's id (and an author's role, which the author filter also compares): the
 * filter reads the index alone.
 */
const INDEXES: [name: string, table: string, columns: string][] = [
  ['series_metadata_tag_value_idx', 'series_metadata_tag', 'tag COLLATE NOCASE, series_id'],
  ['series_metadata_genre_value_idx', 'series_metadata_genre', 'genre COLLATE NOCASE, series_id'],
  ['series_metadata_sharing_value_idx', 'series_metadata_sharing', 'label COLLATE NOCASE, series_id'],
  ['book_metadata_tag_value_idx', 'book_metadata_tag', 'tag COLLATE NOCASE, book_id'],
  ['book_metadata_author_value_idx', 'book_metadata_author', 'name COLLATE NOCASE, role COLLATE NOCASE, book_id'],
  ['book_metadata_aggregation_tag_value_idx', 'book_metadata_aggregation_tag', 'tag COLLATE NOCASE, series_id'],
  [
    'book_metadata_aggregation_author_value_idx',
    'book_metadata_aggregation_author',
    'name COLLATE NOCASE, role COLLATE NOCASE, series_id',
  ],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, columns] of INDEXES) {
    await sql`DROP INDEX ${sql.ref(name)}`.execute(db);
    await sql`CREATE INDEX ${sql.ref(name)} ON ${sql.table(table)} (${sql.raw(columns)})`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

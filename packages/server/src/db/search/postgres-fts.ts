import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database.js';
import { lockUntilCommit } from '../dialect.js';
import type { MatchLanguage } from './match.js';
import { SqliteFullTextSearch } from './sqlite-fts.js';

/**
 * FullTextSearch on PostgreSQL: the same documents as on SQLite (text.ts lays them out, the same indexer writes
 * them into `series_fts` / `book_fts`, plain tables there: migrations/postgres.ts), searched with `LIKE '%needle%'`
 * over the columns, which a trigram (pg_trgm) GIN index answers. A needle is what FTS5's trigram tokenizer matches
 * on SQLite (a word's part of 3+ characters, or a short word between its spaces), so both find the same hits.
 */

/** `needle` as a LIKE pattern literal: anywhere in the column, `\`, `%`, `_` and quotes escaped. */
const pattern = (needle: string) => `'%${needle.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll("'", "''")}%'`;

const group = (c: string) => `(${c})`;

/** The tables the indexer reads documents from (sqlite-fts.ts's indexSeries and indexBooks). */
const DOCUMENT_SOURCES = [
  'series',
  'series_metadata',
  'series_metadata_alternate_title',
  'series_metadata_tag',
  'series_metadata_genre',
  'series_metadata_sharing',
  'book_metadata_aggregation',
  'book_metadata_aggregation_author',
  'book_metadata_aggregation_tag',
  'book',
  'book_metadata',
  'book_metadata_author',
  'book_metadata_tag',
  'media',
];

export const POSTGRES_MATCH: MatchLanguage = {
  match: (columns, needle) => group(columns.map((c) => `${c} LIKE ${pattern(needle)}`).join(' OR ')),
  and: (parts) => parts.join(' AND '),
  or: (parts) => parts.join(' OR '),
  not: (inner) => group(`NOT ${group(inner)}`),
  andNot: (base, excluded) => `${group(base)} AND NOT ${group(excluded)}`,
  all: 'TRUE',
};

export class PostgresFullTextSearch extends SqliteFullTextSearch {
  protected override readonly language = POSTGRES_MATCH;

  protected override matching(_table: RawBuilder<unknown>, match: string): RawBuilder<unknown> {
    // Built by POSTGRES_MATCH from column names and escaped literals only.
    return sql.raw(match);
  }

  /**
   * Instances sharing the database index one batch at a time: two could otherwise rebuild one document at once (a
   * one-shot book is rebuilt with its series) and collide on its unique row.
   */
  protected override async lockIndexer(tx: Db): Promise<void> {
    await lockUntilCommit(tx, 'quire.search-index');
  }

  /**
   * Batches of a large backlog take turns with other instances' writes already: no thread of its own. They are
   * indexed here, after fresh statistics of the tables the documents are read from: a large backlog follows a bulk
   * write (a first start on a large library, a large scan), and until autovacuum has analysed those tables the
   * planner reads a batch's authors and tags by sequential scans (~100 ms a batch at 100,000 books, bench:api).
   */
  protected override async indexOffThread(): Promise<boolean> {
    await sql`ANALYZE ${sql.join(DOCUMENT_SOURCES.map((t) => sql.table(t)))}`.execute(this.db);
    return false;
  }

  protected override async analyse(): Promise<void> {
    await sql`ANALYZE series_search, book_search, series_fts, series_title_fts, book_fts`.execute(this.db);
  }
}

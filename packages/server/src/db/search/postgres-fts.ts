import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database.js';
import { lockUntilCommit } from '../dialect.js';
import type { SearchEntity } from './fields.js';
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
   * The condition is planned for all its hits, then read until the first `limit`: asked for the first 1,000 at
   * once, the planner scans the table until it has them whenever it expects a few thousand hits, and the scan
   * evaluates LIKE on six columns of tens of thousands of rows (~30 ms for a summary word with 2,900 hits at
   * 100,000 books) where the trigram index finds them in ~4 ms. When the hits are so many that the planner scans
   * anyway, reading stops at the `limit`-th as before; either way the hits come in the table's order, as before
   * (no parallel scan of the search tables, migration 0024, whose workers would return them in any order).
   */
  protected override firstHits(from: RawBuilder<unknown>, match: string, limit: number): RawBuilder<{ r: number }> {
    return sql<{ r: number }>`WITH hit AS MATERIALIZED (SELECT rowid FROM ${from} WHERE ${this.matching(from, match)})
      SELECT rowid AS r FROM hit LIMIT ${limit}`;
  }

  /**
   * One statement with the document ids as one array, where SQLite's reads them 500 at a time: up to 2,000 hits
   * a search, and on PostgreSQL each statement is a round trip, and each of its parameters is bound one by one.
   */
  protected override async hitsOf(
    entity: SearchEntity,
    docids: number[],
  ): Promise<{ docid: number; id: string; length: number }[]> {
    if (docids.length === 0) return [];
    const [table, id] = entity === 'series' ? ['series_search', 'series_id'] : ['book_search', 'book_id'];
    const found = sql<{ docid: number; id: string; length: number }>`
      SELECT docid, ${sql.ref(id)} AS id, length(title_fold) AS length FROM ${sql.table(table)}
      WHERE docid = ANY(${docids}::bigint[])`;
    return (await found.execute(this.db)).rows;
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
    await sql`ANALYZE series_search, book_search, series_fts, series_title_fts, book_fts, book_title_fts`.execute(
      this.db,
    );
  }
}

import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import { searchAndReadProgress } from './postgres.js';

/*
 * Browsing and search (api.md §1.4, §5; engine.md §13.3, §14).
 *
 * Full text: one FTS5 table per entity (trigram tokenizer: case- and accent-insensitive substring matching, the
 * user-visible effect of Komga's 3–10 n-grams), contentless, fed by the indexer in db/search/. Writers never call
 * the indexer: triggers on every table a search document reads note the entity in `search_pending`, and the
 * indexer rebuilds those documents before the next list or search. The `*_search` tables map entities to FTS
 * rows and hold folded (lower-case, accent-free) copies of titles and names for sorting and string conditions.
 *
 * Read status per series: `read_progress_series` (Komga's READ_PROGRESS_SERIES) kept by triggers on read_progress,
 * so that series read counts, read-status filters, the `readDate` sort and on deck read one row per series.
 */

const SERIES_FTS_COLUMNS = [
  'title',
  'publisher',
  'status',
  'reading_direction',
  'age_rating',
  'language',
  'series_tag',
  'book_tag',
  'genre',
  'sharing_label',
  'total_book_count',
  'book_count',
  'author',
  'writer',
  'penciller',
  'inker',
  'colorist',
  'letterer',
  'cover',
  'editor',
  'translator',
  'release_date',
  'deleted',
  'oneshot',
  'complete',
  'summary',
  'everything',
];

const BOOK_FTS_COLUMNS = [
  'title',
  'isbn',
  'tag',
  'author',
  'writer',
  'penciller',
  'inker',
  'colorist',
  'letterer',
  'cover',
  'editor',
  'translator',
  'release_date',
  'status',
  'deleted',
  'oneshot',
  'summary',
  'publisher',
  'reading_direction',
  'age_rating',
  'language',
  'genre',
  'sharing_label',
  'complete',
  'everything',
];

/**
 * Notes one pending entity, for trigger bodies. Not `INSERT OR IGNORE`: the conflict clause of the statement that
 * fires a trigger (an upsert, `INSERT OR REPLACE`…) overrides the ones inside it.
 */
const pending = (kind: 'series' | 'book', id: string) =>
  `INSERT INTO search_pending (kind, id) SELECT '${kind}', ${id}
    WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE kind = '${kind}' AND id = ${id});`;

/** Triggers noting `kind` as pending whenever a row of `table` is inserted, updated (these columns) or deleted. */
function pendingTriggers(table: string, kind: 'series' | 'book', idColumn: string, updateOf?: string[]): string[] {
  const of = updateOf ? ` OF ${updateOf.join(', ')}` : '';
  return [
    `CREATE TRIGGER ${table}_search_ins AFTER INSERT ON ${table} BEGIN ${pending(kind, `NEW.${idColumn}`)} END`,
    `CREATE TRIGGER ${table}_search_upd AFTER UPDATE${of} ON ${table} BEGIN ${pending(kind, `NEW.${idColumn}`)} ${
      updateOf?.includes(idColumn) || !updateOf ? pending(kind, `OLD.${idColumn}`) : ''
    } END`,
    `CREATE TRIGGER ${table}_search_del AFTER DELETE ON ${table} BEGIN ${pending(kind, `OLD.${idColumn}`)} END`,
  ];
}

/**
 * Recomputes the aggregate of one (series, user) from read_progress. The EXISTS guards keep a row from being
 * written for a series or user that is being deleted (their cascades delete read_progress rows one by one).
 */
const recompute = (series: string, user: string) => `
  DELETE FROM read_progress_series WHERE series_id = ${series} AND user_id = ${user};
  INSERT INTO read_progress_series (series_id, user_id, read_count, in_progress_count, most_recent_read_date)
    SELECT b.series_id, r.user_id, sum(r.completed = 1), sum(r.completed = 0), max(r.read_date)
    FROM read_progress r JOIN book b ON b.id = r.book_id
    WHERE b.series_id = ${series} AND r.user_id = ${user}
      AND EXISTS (SELECT 1 FROM series WHERE id = ${series})
      AND EXISTS (SELECT 1 FROM user WHERE id = ${user})
    GROUP BY b.series_id, r.user_id;`;

const seriesOf = (bookId: string) => `(SELECT series_id FROM book WHERE id = ${bookId})`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return searchAndReadProgress(db, { series: SERIES_FTS_COLUMNS, book: BOOK_FTS_COLUMNS });
  const run = (statement: string) => sql.raw(statement).execute(db);

  // ---- full text ----
  await run(`CREATE TABLE search_pending (kind TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID`);
  await run(`CREATE TABLE series_search (
    docid INTEGER PRIMARY KEY,
    series_id TEXT NOT NULL UNIQUE,
    title_fold TEXT NOT NULL,
    title_sort_fold TEXT NOT NULL,
    name_fold TEXT NOT NULL)`);
  await run(`CREATE INDEX series_search_title_sort_idx ON series_search (title_sort_fold)`);
  await run(`CREATE INDEX series_search_name_idx ON series_search (name_fold)`);
  await run(`CREATE TABLE book_search (
    docid INTEGER PRIMARY KEY,
    book_id TEXT NOT NULL UNIQUE,
    title_fold TEXT NOT NULL,
    name_fold TEXT NOT NULL)`);
  await run(`CREATE INDEX book_search_title_idx ON book_search (title_fold)`);
  await run(`CREATE INDEX book_search_name_idx ON book_search (name_fold)`);
  const fts = (name: string, columns: string[]) =>
    `CREATE VIRTUAL TABLE ${name} USING fts5(${columns.join(', ')}, content='', contentless_delete=1, ` +
    `tokenize='trigram remove_diacritics 1')`;
  await run(fts('series_fts', SERIES_FTS_COLUMNS));
  await run(fts('book_fts', BOOK_FTS_COLUMNS));

  const triggers = [
    ...pendingTriggers('series', 'series', 'id', ['name', 'deleted_date', 'oneshot', 'book_count']),
    ...pendingTriggers('series_metadata', 'series', 'series_id'),
    ...pendingTriggers('series_metadata_tag', 'series', 'series_id'),
    ...pendingTriggers('series_metadata_genre', 'series', 'series_id'),
    ...pendingTriggers('series_metadata_sharing', 'series', 'series_id'),
    ...pendingTriggers('series_metadata_alternate_title', 'series', 'series_id'),
    ...pendingTriggers('book_metadata_aggregation', 'series', 'series_id'),
    ...pendingTriggers('book_metadata_aggregation_author', 'series', 'series_id'),
    ...pendingTriggers('book_metadata_aggregation_tag', 'series', 'series_id'),
    ...pendingTriggers('book', 'book', 'id', ['name', 'deleted_date', 'oneshot', 'series_id']),
    ...pendingTriggers('book_metadata', 'book', 'book_id'),
    ...pendingTriggers('book_metadata_author', 'book', 'book_id'),
    ...pendingTriggers('book_metadata_tag', 'book', 'book_id'),
    ...pendingTriggers('media', 'book', 'book_id', ['status']),
  ];
  for (const t of triggers) await run(t);
  // Everything that exists now gets a document.
  await run(`INSERT OR IGNORE INTO search_pending (kind, id) SELECT 'series', id FROM series`);
  await run(`INSERT OR IGNORE INTO search_pending (kind, id) SELECT 'book', id FROM book`);

  // ---- read progress per series ----
  await run(`CREATE TABLE read_progress_series (
    series_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    read_count INTEGER NOT NULL,
    in_progress_count INTEGER NOT NULL,
    most_recent_read_date TEXT NOT NULL,
    PRIMARY KEY (series_id, user_id)) WITHOUT ROWID`);
  await run(`CREATE INDEX read_progress_series_user_idx ON read_progress_series (user_id, most_recent_read_date)`);
  await run(`CREATE TRIGGER read_progress_series_ins AFTER INSERT ON read_progress BEGIN
    ${recompute(seriesOf('NEW.book_id'), 'NEW.user_id')} END`);
  await run(`CREATE TRIGGER read_progress_series_upd AFTER UPDATE ON read_progress BEGIN
    ${recompute(seriesOf('NEW.book_id'), 'NEW.user_id')} END`);
  await run(`CREATE TRIGGER read_progress_series_upd_old AFTER UPDATE OF book_id, user_id ON read_progress
    WHEN OLD.book_id != NEW.book_id OR OLD.user_id != NEW.user_id BEGIN
    ${recompute(seriesOf('OLD.book_id'), 'OLD.user_id')} END`);
  await run(`CREATE TRIGGER read_progress_series_del AFTER DELETE ON read_progress BEGIN
    ${recompute(seriesOf('OLD.book_id'), 'OLD.user_id')} END`);
  // A book's progress rows go before the book does, while the book still tells its series.
  await run(`CREATE TRIGGER read_progress_series_book_del BEFORE DELETE ON book BEGIN
    DELETE FROM read_progress WHERE book_id = OLD.id; END`);
  await run(`CREATE TRIGGER read_progress_series_book_move AFTER UPDATE OF series_id ON book
    WHEN OLD.series_id != NEW.series_id BEGIN
    DELETE FROM read_progress_series WHERE series_id IN (OLD.series_id, NEW.series_id)
      AND user_id IN (SELECT user_id FROM read_progress WHERE book_id = NEW.id);
    INSERT INTO read_progress_series (series_id, user_id, read_count, in_progress_count, most_recent_read_date)
      SELECT b.series_id, r.user_id, sum(r.completed = 1), sum(r.completed = 0), max(r.read_date)
      FROM read_progress r JOIN book b ON b.id = r.book_id
      WHERE b.series_id IN (OLD.series_id, NEW.series_id)
        AND r.user_id IN (SELECT user_id FROM read_progress WHERE book_id = NEW.id)
      GROUP BY b.series_id, r.user_id; END`);
  await run(`CREATE TRIGGER read_progress_series_series_del AFTER DELETE ON series BEGIN
    DELETE FROM read_progress_series WHERE series_id = OLD.id; END`);
  await run(`CREATE TRIGGER read_progress_series_user_del AFTER DELETE ON user BEGIN
    DELETE FROM read_progress_series WHERE user_id = OLD.id; END`);
  await run(`INSERT INTO read_progress_series (series_id, user_id, read_count, in_progress_count, most_recent_read_date)
    SELECT b.series_id, r.user_id, sum(r.completed = 1), sum(r.completed = 0), max(r.read_date)
    FROM read_progress r JOIN book b ON b.id = r.book_id GROUP BY b.series_id, r.user_id`);

  // ---- indexes for filters and sorts ----
  const indexes = [
    `CREATE INDEX series_created_idx ON series (created_date)`,
    `CREATE INDEX series_last_modified_idx ON series (last_modified_date)`,
    `CREATE INDEX book_created_idx ON book (created_date)`,
    `CREATE INDEX book_last_modified_idx ON book (last_modified_date)`,
    `CREATE INDEX book_metadata_release_date_idx ON book_metadata (release_date)`,
    `CREATE INDEX media_status_idx ON media (status)`,
    `CREATE INDEX series_metadata_tag_value_idx ON series_metadata_tag (tag COLLATE NOCASE)`,
    `CREATE INDEX series_metadata_genre_value_idx ON series_metadata_genre (genre COLLATE NOCASE)`,
    `CREATE INDEX series_metadata_sharing_value_idx ON series_metadata_sharing (label COLLATE NOCASE)`,
    `CREATE INDEX book_metadata_tag_value_idx ON book_metadata_tag (tag COLLATE NOCASE)`,
    `CREATE INDEX book_metadata_author_value_idx ON book_metadata_author (name COLLATE NOCASE)`,
    `CREATE INDEX book_metadata_aggregation_tag_value_idx ON book_metadata_aggregation_tag (tag COLLATE NOCASE)`,
    `CREATE INDEX book_metadata_aggregation_author_value_idx ON book_metadata_aggregation_author (name COLLATE NOCASE)`,
  ];
  for (const i of indexes) await run(i);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import { bookSortTitles } from './postgres.js';

/*
 * A book list sorted by title at 1,000,000 books (issue 18): a filtered list (a library, a tag, unread) reads the
 * ~5,000 books of the tag to count them and sorts the ~2,500 that match by their folded title (`book_search`,
 * written by the search indexer) then their title (`book_metadata`): each book cost a look-up in three tables
 * (two B-tree descents each), ~32 ms of CPU a page. The two sort keys are now copied onto the book row by
 * triggers (`sort_title_fold` mirrors book_search.title_fold, NULL while the book is not indexed yet, as the LEFT
 * JOIN read it; `sort_title` mirrors book_metadata.title), and one index holds, by book id, the columns a list
 * filters and sorts such books by: the list reads that index alone, one descent a book.
 */
export const BOOK_LIST_INDEX_COLUMNS = [
  'id',
  'library_id',
  'series_id',
  'deleted_date',
  'sort_title_fold',
  'sort_title',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('book').addColumn('sort_title_fold', 'text').execute();
  await db.schema.alterTable('book').addColumn('sort_title', 'text').execute();
  if (isPostgres(db)) return bookSortTitles(db, BOOK_LIST_INDEX_COLUMNS);
  const run = (statement: string) => sql.raw(statement).execute(db);
  await run(`UPDATE book SET
    sort_title_fold = (SELECT title_fold FROM book_search WHERE book_id = book.id),
    sort_title = (SELECT title FROM book_metadata WHERE book_id = book.id)`);
  await run(`CREATE INDEX book_list_idx ON book (${BOOK_LIST_INDEX_COLUMNS.join(', ')})`);
  // The indexer replaces a document by deleting its row and inserting a new one; an update is mirrored all the same.
  await run(`CREATE TRIGGER book_sort_title_fold_ins AFTER INSERT ON book_search BEGIN
    UPDATE book SET sort_title_fold = NEW.title_fold WHERE id = NEW.book_id; END`);
  await run(`CREATE TRIGGER book_sort_title_fold_upd AFTER UPDATE OF book_id, title_fold ON book_search BEGIN
    UPDATE book SET sort_title_fold = NULL WHERE id = OLD.book_id;
    UPDATE book SET sort_title_fold = NEW.title_fold WHERE id = NEW.book_id; END`);
  await run(`CREATE TRIGGER book_sort_title_fold_del AFTER DELETE ON book_search BEGIN
    UPDATE book SET sort_title_fold = NULL WHERE id = OLD.book_id; END`);
  await run(`CREATE TRIGGER book_sort_title_ins AFTER INSERT ON book_metadata BEGIN
    UPDATE book SET sort_title = NEW.title WHERE id = NEW.book_id; END`);
  await run(`CREATE TRIGGER book_sort_title_upd AFTER UPDATE OF book_id, title ON book_metadata BEGIN
    UPDATE book SET sort_title = NULL WHERE id = OLD.book_id;
    UPDATE book SET sort_title = NEW.title WHERE id = NEW.book_id; END`);
  await run(`CREATE TRIGGER book_sort_title_del AFTER DELETE ON book_metadata BEGIN
    UPDATE book SET sort_title = NULL WHERE id = OLD.book_id; END`);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

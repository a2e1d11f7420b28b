import type { Db } from '../database.js';
import type { FullTextSearch } from '../search/full-text-search.js';
import { SqliteFullTextSearch } from '../search/sqlite-fts.js';
import { PostgresFullTextSearch } from '../search/postgres-fts.js';
import { isPostgres } from '../dialect.js';
import { BookListQueries } from './book-list.js';
import { SeriesListQueries } from './series-list.js';

/** Browsing: series and book lists over one full-text search. */
export interface Browse {
  search: FullTextSearch;
  series: SeriesListQueries;
  books: BookListQueries;
}

export function createBrowse(db: Db): Browse {
  const search = isPostgres(db) ? new PostgresFullTextSearch(db) : new SqliteFullTextSearch(db);
  return { search, series: new SeriesListQueries(db, search), books: new BookListQueries(db, search) };
}

/**
 * The fields of the series and book search documents (engine.md §14.1), as FTS5 columns, with the columns a bare
 * query word searches and the title columns whose matches rank first.
 *
 * Komga's default fields are the titles (and ISBN for books); Quire's bare words also reach authors, tags,
 * publisher and summary; title matches rank first.
 */

export const AUTHOR_ROLES = [
  'writer',
  'penciller',
  'inker',
  'colorist',
  'letterer',
  'cover',
  'editor',
  'translator',
] as const;

export type SearchEntity = 'series' | 'book';

export interface EntityFields {
  table: 'series_fts' | 'book_fts';
  /** Every FTS column, in table order. */
  columns: readonly string[];
  /** Columns a word without `field:` searches. */
  defaults: readonly string[];
  /** The title columns among them: matches there rank first. */
  titles: readonly string[];
  /**
   * A table of the title columns alone (same document ids), where the title tiers of a search are answered when
   * their expression reads no other column: in the whole table a title condition walks the doclists of every
   * column (a series document carries its books' authors, tags and summaries: 277 MB at 1,000,000 books against
   * 3 MB of titles; a book document its authors, tags and summary).
   */
  titleTable?: 'series_title_fts' | 'book_title_fts';
  /** Query field name → columns. */
  fields: Readonly<Record<string, readonly string[]>>;
  /** Numeric fields: the values a `*` bound of a range stands for. */
  numeric: Readonly<Record<string, readonly [number, number]>>;
}

/** Always " all ": the column `*:*` and purely negative queries match against. */
export const EVERYTHING = 'everything';

const own = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, [n]]));

const SERIES_COLUMNS = [
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
  ...AUTHOR_ROLES,
  'release_date',
  'deleted',
  'oneshot',
  'complete',
  'summary',
  EVERYTHING,
] as const;

const BOOK_COLUMNS = [
  'title',
  'isbn',
  'tag',
  'author',
  ...AUTHOR_ROLES,
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
  EVERYTHING,
] as const;

export const SERIES_FIELDS: EntityFields = {
  table: 'series_fts',
  columns: SERIES_COLUMNS,
  defaults: ['title', 'author', 'series_tag', 'book_tag', 'publisher', 'summary'],
  titles: ['title'],
  titleTable: 'series_title_fts',
  fields: {
    ...own(SERIES_COLUMNS.filter((c) => c !== EVERYTHING)),
    tag: ['series_tag', 'book_tag'],
  },
  numeric: { age_rating: [0, 99], release_date: [1900, 2100], total_book_count: [0, 999], book_count: [0, 999] },
};

export const BOOK_FIELDS: EntityFields = {
  table: 'book_fts',
  columns: BOOK_COLUMNS,
  defaults: ['title', 'isbn', 'author', 'tag', 'publisher', 'summary'],
  titles: ['title', 'isbn'],
  titleTable: 'book_title_fts',
  fields: own(BOOK_COLUMNS.filter((c) => c !== EVERYTHING)),
  numeric: { age_rating: [0, 99], release_date: [1900, 2100] },
};

export const FIELDS: Record<SearchEntity, EntityFields> = { series: SERIES_FIELDS, book: BOOK_FIELDS };

/**
 * Book naming and positional numbering (engine.md §3.1, §3.2). Pure; imports nothing of ours but the
 * natural comparator.
 */
import { bookSortKey, naturalCompare } from './natural-sort.js';

/**
 * Book name from its file name (§2.2, §3.1): the file name without its last extension
 * (Kotlin `nameWithoutExtension`): `Vol. 1.cbz` → `Vol. 1`, `a.tar.cbz` → `a.tar`, `noext` → `noext`.
 * No number, volume or title is parsed out of it.
 */
export function bookNameFromFileName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? fileName : fileName.slice(0, dot);
}

/** Book metadata created with a new book (§2.4 `addBooks`); real numbers come from {@link numberBooks}. */
export function initialBookMetadata(bookName: string): { title: string; number: string; numberSort: number } {
  return { title: bookName.trim(), number: '0', numberSort: 0 };
}

/**
 * The order of `sortBooks` (§3.2 step 2): natural, case-insensitive, on
 * trim → strip accents → collapse whitespace; stable (ties keep input order, i.e. DB order).
 * Returns a new array.
 */
export function sortBooks<T extends { name: string }>(books: readonly T[]): T[] {
  const keyed = books.map((b, i) => ({ b, i, key: bookSortKey(b.name) }));
  keyed.sort((x, y) => naturalCompare(x.key, y.key) || x.i - y.i);
  return keyed.map((k) => k.b);
}

export interface NumberingInput {
  id: string;
  name: string;
  /** `book.number` (1-based position) as stored. */
  number: number;
  metadata: { number: string; numberSort: number; numberLock: boolean; numberSortLock: boolean };
}

export interface NumberedBook {
  id: string;
  /** New `book.number` = position + 1. */
  number: number;
  /** New metadata values (unchanged when locked). */
  metadataNumber: string;
  metadataNumberSort: number;
  /** Metadata number or numberSort actually changed: enqueue RefreshBookMetadata {NUMBER, NUMBER_SORT}. */
  refreshNumbers: boolean;
  /** Anything of this book changed (book.number or metadata): the row needs writing. */
  changed: boolean;
}

/**
 * `sortBooks(series)` (§3.2): give every book of the series (soft-deleted ones included) its
 * position, and positional metadata numbers unless locked. `bookCount` counts every book.
 */
export function numberBooks(books: readonly NumberingInput[]): { books: NumberedBook[]; bookCount: number } {
  const sorted = sortBooks(books);
  const out = sorted.map((b, index): NumberedBook => {
    const position = index + 1;
    const metadataNumber = b.metadata.numberLock ? b.metadata.number : String(position);
    const metadataNumberSort = b.metadata.numberSortLock ? b.metadata.numberSort : position;
    const refreshNumbers = metadataNumber !== b.metadata.number || metadataNumberSort !== b.metadata.numberSort;
    return {
      id: b.id,
      number: position,
      metadataNumber,
      metadataNumberSort,
      refreshNumbers,
      changed: refreshNumbers || b.number !== position,
    };
  });
  return { books: out, bookCount: books.length };
}

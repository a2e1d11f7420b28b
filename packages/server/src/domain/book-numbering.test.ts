import { describe, expect, it } from 'vitest';
import {
  bookNameFromFileName,
  initialBookMetadata,
  numberBooks,
  sortBooks,
  type NumberingInput,
} from './book-numbering.js';

describe('bookNameFromFileName (engine.md §2.2, §3.1)', () => {
  it.each([
    ['Vol. 1.cbz', 'Vol. 1'],
    ['Batman 001 (2016).CBR', 'Batman 001 (2016)'],
    ['archive.tar.cbz', 'archive.tar'],
    ['no extension', 'no extension'],
    ['一拳超人 第01卷.epub', '一拳超人 第01卷'],
    ['  spaced  .pdf', '  spaced  '],
    ['trailing.', 'trailing'],
  ])('%j → %j', (file, name) => {
    expect(bookNameFromFileName(file)).toBe(name);
  });

  it('new books get number "0" and the name as title (§2.4 addBooks)', () => {
    expect(initialBookMetadata('Book 1')).toEqual({ title: 'Book 1', number: '0', numberSort: 0 });
  });
});

describe('sortBooks (engine.md §3.2)', () => {
  it('is stable for equal keys (ties keep DB order)', () => {
    const books = [
      { id: 'a', name: 'Book 01' },
      { id: 'b', name: 'book 1' },
      { id: 'c', name: 'BOOK  1 ' },
      { id: 'd', name: 'Book 0' },
    ];
    expect(sortBooks(books).map((b) => b.id)).toEqual(['d', 'a', 'b', 'c']);
  });
});

const book = (
  id: string,
  name: string,
  meta: Partial<NumberingInput['metadata']> = {},
  number = 0,
): NumberingInput => ({
  id,
  name,
  number,
  metadata: { number: '0', numberSort: 0, numberLock: false, numberSortLock: false, ...meta },
});

describe('numberBooks (engine.md §3.2)', () => {
  it('PIN: positional numbers in natural order of the normalised names', () => {
    const names = ['book 1', 'boôk 05', '  book 3', 'book   4   ', 'book  6', 'book  002'];
    const { books, bookCount } = numberBooks(names.map((n, i) => book(`id${i}`, n)));
    expect(bookCount).toBe(6);
    expect(books.map((b) => [names[Number(b.id.slice(2))], b.number, b.metadataNumber, b.metadataNumberSort])).toEqual([
      ['book 1', 1, '1', 1],
      ['book  002', 2, '2', 2],
      ['  book 3', 3, '3', 3],
      ['book   4   ', 4, '4', 4],
      ['boôk 05', 5, '5', 5],
      ['book  6', 6, '6', 6],
    ]);
    expect(books.every((b) => b.refreshNumbers && b.changed)).toBe(true);
  });

  it.each([
    // [metadata before, expected number, expected numberSort, refreshNumbers]
    [{ number: '1', numberSort: 1 }, '1', 1, false],
    [{ number: '010', numberSort: 10, numberLock: true }, '010', 1, true],
    [{ number: '010', numberSort: 10, numberLock: true, numberSortLock: true }, '010', 10, false],
    [{ number: '7', numberSort: 1, numberLock: false, numberSortLock: true }, '1', 1, true],
    [{ number: '1', numberSort: 2.5, numberSortLock: false }, '1', 1, true],
  ])('locks: %j → number %j, numberSort %d, refresh %s', (meta, number, numberSort, refresh) => {
    const { books } = numberBooks([book('x', 'only', meta, 1)]);
    expect(books[0]).toMatchObject({
      number: 1,
      metadataNumber: number,
      metadataNumberSort: numberSort,
      refreshNumbers: refresh,
    });
  });

  it('a book whose position moved but numbers are locked still needs its row written', () => {
    const { books } = numberBooks([
      book('b', 'B', { number: 'x', numberSort: 9, numberLock: true, numberSortLock: true }, 1),
      book('a', 'A', { number: '1', numberSort: 1 }, 2),
    ]);
    expect(books.map((b) => [b.id, b.number, b.changed, b.refreshNumbers])).toEqual([
      ['a', 1, true, false],
      ['b', 2, true, false],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { bookSortKey, collatorCompare, compareBookNames, naturalCompare, stripAccents } from './natural-sort.js';

const sign = (n: number) => Math.sign(n);

describe('naturalCompare (engine.md §3.3)', () => {
  it.each([
    // numbers compare numerically
    ['page2.jpg', 'page10.jpg', -1],
    ['page10.jpg', 'page2.jpg', 1],
    ['1', '2', -1],
    ['9', '10', -1],
    ['vol 100', 'vol 99', 1],
    // leading zeros are ignored: z010 == z10
    ['z010', 'z10', 0],
    ['book 002', 'book 2', 0],
    ['001', '1', 0],
    // a digit sorts before any non-digit at the same position
    ['a1', 'a b', -1],
    ['a1', 'a 1', -1],
    ['1a', 'a', -1],
    ['a', '1', 1],
    ['_1', '1', 1],
    // case-insensitive per UTF-16 unit
    ['ABC', 'abc', 0],
    ['Book', 'book', 0],
    ['a', 'B', -1],
    ['B', 'a', 1],
    ['Σ', 'σ', 0],
    ['İ', 'i', 0], // Java's simple mapping, not the two-unit full mapping
    // no accent folding, no collation: é (U+00E9) > f
    ['é', 'e', 1],
    ['é', 'f', 1],
    ['Z', 'é', -1],
    // the string with characters left is greater
    ['a', 'a1', -1],
    ['abc', 'ab', 1],
    ['', '', 0],
    ['', 'a', -1],
    ['a1', 'a01b', -1],
    // 64-bit unsigned with wrap-around
    ['x18446744073709551616', 'x0', 0],
    ['x18446744073709551617', 'x1', 0],
    ['x9223372036854775808', 'x9223372036854775807', 1],
    ['x18446744073709551615', 'x1', 1],
    ['x12345678901234567890', 'x12345678901234567891', -1],
    // paths: full entry names
    ['folder/10.jpg', 'folder/9.jpg', 1],
    ['a/1.jpg', 'a1/1.jpg', 1],
  ])('%j vs %j → %i', (a, b, expected) => {
    expect(sign(naturalCompare(a, b))).toBe(expected);
    expect(sign(naturalCompare(b, a))).toBe(-expected || 0);
  });

  it('sorts pages naturally', () => {
    const pages = ['p10.jpg', 'p2.jpg', 'P1.jpg', 'p02b.jpg', 'cover.jpg', 'p1a.jpg'];
    expect([...pages].sort(naturalCompare)).toEqual([
      'cover.jpg',
      'P1.jpg',
      'p1a.jpg',
      'p2.jpg',
      'p02b.jpg',
      'p10.jpg',
    ]);
  });
});

describe('book sort key (engine.md §3.2)', () => {
  it.each([
    ['  book 3', 'book 3'],
    ['book   4   ', 'book 4'],
    ['boôk 05', 'book 05'],
    ['Ünïcödé', 'Unicode'],
    ['Łódź', 'Lodz'],
    ['a\t\tb', 'a b'],
  ])('%j → %j', (name, key) => {
    expect(bookSortKey(name)).toBe(key);
  });

  it('strips only combining diacritical marks', () => {
    expect(stripAccents('crème brûlée')).toBe('creme brulee');
    expect(stripAccents('日本語')).toBe('日本語');
  });

  it('PIN SeriesLifecycleTest order', () => {
    const names = ['book 1', 'boôk 05', '  book 3', 'book   4   ', 'book  6', 'book  002'];
    expect([...names].sort(compareBookNames)).toEqual([
      'book 1',
      'book  002',
      '  book 3',
      'book   4   ',
      'boôk 05',
      'book  6',
    ]);
  });
});

describe('collatorCompare', () => {
  it.each([
    ['apple', 'Banana', -1],
    ['Émile', 'emile', 1], // equal at base strength, then code units decide ('É' < 'e')
    ['éa', 'eb', -1],
    ['zebra', 'Äpfel', 1],
  ])('%j vs %j → %i', (a, b, expected) => {
    expect(sign(collatorCompare(a, b))).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { moveRow, rowsFromMatch, rowStatuses, sameName, sameNumber, summarize, type ImportRow } from './rows';

const series = (id: string) => ({ seriesId: id, title: id });
const book = (id: string) => ({ bookId: id, number: '1', title: id });
const request = (books: string[][]) => ({
  request: { series: ['S'], number: '1' },
  matches: books.map((ids, i) => ({ series: series(`s${i}`), books: ids.map(book) })),
});

describe('read list import rows', () => {
  it('start on the first series and book the server offers, or on nothing', () => {
    const rows = rowsFromMatch({
      readListMatch: { name: 'L', errorCode: '' },
      requests: [request([['a', 'b'], ['c']]), request([]), request([[]])],
      errorCode: '',
    });
    expect(rows.map((r) => [r.position, r.series?.seriesId ?? null, r.book?.bookId ?? null])).toEqual([
      [1, 's0', 'a'],
      [2, null, null],
      [3, 's0', null],
    ]);
    expect(rowStatuses(rows)).toEqual(['ok', 'noSeries', 'noBook']);
  });

  it('mark a book chosen by an earlier row as a duplicate and send each book once, in the rows order', () => {
    const row = (position: number, bookId: string | null): ImportRow => ({
      position,
      request: { series: ['S'], number: String(position) },
      series: series('s'),
      book: bookId ? book(bookId) : null,
      candidates: [],
    });
    const rows = [row(1, 'x'), row(2, 'y'), row(3, 'x'), row(4, null)];
    expect(rowStatuses(rows)).toEqual(['ok', 'ok', 'duplicate', 'noBook']);
    expect(summarize(rows)).toEqual({ bookIds: ['x', 'y'], unmatched: 1, duplicates: 1, total: 4 });
    // Moving the repeat first makes the other one the duplicate.
    const moved = moveRow(rows, 2, 0);
    expect(moved.map((r) => r.position)).toEqual([3, 1, 2, 4]);
    expect(rowStatuses(moved)).toEqual(['ok', 'duplicate', 'ok', 'noBook']);
    expect(moveRow(rows, 0, -1).map((r) => r.position)).toEqual([1, 2, 3, 4]);
  });

  it('compare numbers without leading zeros and names without letter case, as the server does', () => {
    expect(sameNumber('002', '2')).toBe(true);
    expect(sameNumber('0', '000')).toBe(true);
    expect(sameNumber('1.0', '1')).toBe(false);
    expect(sameName(' Secret Empire', 'SECRET EMPIRE ')).toBe(true);
    expect(sameName('Secret Émpire', 'Secret Empire')).toBe(false);
    expect(sameName('ÉMPIRE', 'émpire')).toBe(false);
  });
});

import type { ReadListRequestMatchDto } from '@quire/api';

/**
 * The rows of the read-list import (ui.md §13.9): one per book the ComicRack list asks for, with the series and
 * book the administrator chose. Pure, so the screen only renders and the rules are tested on their own.
 */
export type MatchedSeries = ReadListRequestMatchDto['requests'][number]['matches'][number]['series'];
export interface ChosenBook {
  bookId: string;
  number: string;
  title: string;
}

export interface ImportRow {
  /** Position in the .cbl, from 1: stays with the row when it is moved. */
  position: number;
  /** The series names the server tried (`Series (Volume)` first) and the number asked for. */
  request: { series: string[]; number: string };
  series: MatchedSeries | null;
  book: ChosenBook | null;
  /** The books the server found for each candidate series, offered again when that series is picked. */
  candidates: ReadListRequestMatchDto['requests'][number]['matches'];
}

export type RowStatus = 'ok' | 'noSeries' | 'noBook' | 'duplicate';
export type RowFilter = 'ok' | 'error' | 'duplicate';
export const ROW_FILTERS: readonly RowFilter[] = ['ok', 'error', 'duplicate'];

/** Each request starts on its first matching series and that series' first book (ui.md §13.9). */
export function rowsFromMatch(answer: ReadListRequestMatchDto): ImportRow[] {
  return answer.requests.map((r, i) => {
    const first = r.matches[0];
    return {
      position: i + 1,
      request: r.request,
      series: first?.series ?? null,
      book: first?.books[0] ?? null,
      candidates: r.matches,
    };
  });
}

/** A row's state: a series and a book are needed, and a book chosen by an earlier row too is a duplicate. */
export function rowStatuses(rows: readonly ImportRow[]): RowStatus[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    if (!row.series) return 'noSeries';
    if (!row.book) return 'noBook';
    if (seen.has(row.book.bookId)) return 'duplicate';
    seen.add(row.book.bookId);
    return 'ok';
  });
}

export const filterOf = (status: RowStatus): RowFilter =>
  status === 'ok' ? 'ok' : status === 'duplicate' ? 'duplicate' : 'error';

/** What the create step sends and confirms: the chosen books once each, in the rows' order. */
export function summarize(rows: readonly ImportRow[]) {
  const statuses = rowStatuses(rows);
  return {
    bookIds: rows.flatMap((row, i) => (statuses[i] === 'ok' ? [row.book!.bookId] : [])),
    unmatched: statuses.filter((s) => s === 'noSeries' || s === 'noBook').length,
    duplicates: statuses.filter((s) => s === 'duplicate').length,
    total: rows.length,
  };
}

/** Leading zeros do not count, as the server matches numbers (engine.md §10): `02` is `2`. */
export const sameNumber = (a: string, b: string) => a.trim().replace(/^0+/, '') === b.trim().replace(/^0+/, '');

/** The rows with the one at `from` moved to `to` (both indexes in the full list). */
export function moveRow(rows: readonly ImportRow[], from: number, to: number): ImportRow[] {
  if (to < 0 || to >= rows.length || from === to) return [...rows];
  const next = [...rows];
  const [row] = next.splice(from, 1);
  next.splice(to, 0, row!);
  return next;
}

/** Read list names are unique regardless of ASCII letter case, as the server's SQLite `NOCASE` compares them. */
const asciiLower = (s: string) => s.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
export const sameName = (a: string, b: string) => asciiLower(a) === asciiLower(b);

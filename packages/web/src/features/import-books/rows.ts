import type { BookDto, SeriesDto } from '@quire/api';
import type { TransientBookDto } from '../../api/transient-books';

/** Copy modes offered by the screen (spec §3): hardlink (or copy where linking fails) and move. */
export const COPY_MODES = ['HARDLINK', 'MOVE'] as const;
export type CopyMode = (typeof COPY_MODES)[number];

/** One scanned file on the import screen: what the server said of it and what the user chose. */
export interface ImportRow {
  book: TransientBookDto;
  /** `pending` until its analysis answers; `failed` when the analysis call itself failed (the reason in `error`). */
  analysis: 'pending' | 'done' | 'failed';
  error?: string;
  selected: boolean;
  seriesId?: string;
  /** The number to import the book as; it picks the book to upgrade. */
  number?: number;
  /** File name in the series folder, without extension; empty keeps the source name. */
  destinationName: string;
}

export const newRow = (book: TransientBookDto): ImportRow => ({
  book,
  analysis: 'pending',
  selected: true,
  destinationName: book.name,
});

/** What the server's analysis brings: the analysed book and the guesses, kept unless the user already chose. */
export const withAnalysis = (row: ImportRow, analysed: TransientBookDto): ImportRow => ({
  ...row,
  book: analysed,
  analysis: 'done',
  seriesId: row.seriesId ?? analysed.seriesId,
  number: row.number ?? analysed.number,
});

/**
 * The existing book the row would replace (ui.md §13.8): a one-shot series' only book, else the series' book whose
 * sort number equals the row's number.
 */
export function upgradeTarget(
  series: SeriesDto | undefined,
  seriesBooks: readonly BookDto[] | undefined,
  number: number | undefined,
): BookDto | undefined {
  if (!series || !seriesBooks) return undefined;
  if (series.oneshot) return seriesBooks[0];
  if (number === undefined) return undefined;
  return seriesBooks.find((b) => b.metadata.numberSort === number);
}

/** Why a row cannot be imported (red), or the notice that it upgrades a book (orange). */
export type RowProblem = 'analyzeFirst' | 'onlyWithoutErrors' | 'chooseSeries' | 'upgrade';

export function rowProblem(row: ImportRow, upgrade: BookDto | undefined): RowProblem | undefined {
  if (row.analysis !== 'done') return 'analyzeFirst';
  if (row.book.status !== 'READY') return 'onlyWithoutErrors';
  if (!row.seriesId) return 'chooseSeries';
  if (upgrade) return 'upgrade';
  return undefined;
}

export const canImport = (problem: RowProblem | undefined) => problem === undefined || problem === 'upgrade';

export interface BookImportRequest {
  seriesId: string;
  sourceFile: string;
  upgradeBookId?: string;
  destinationName?: string;
}

/** The request of one importable row (`books/import`), or undefined when it cannot be imported. */
export function importRequest(row: ImportRow, upgrade: BookDto | undefined): BookImportRequest | undefined {
  if (!row.selected || !row.seriesId || !canImport(rowProblem(row, upgrade))) return undefined;
  const destinationName = row.destinationName.trim();
  return {
    seriesId: row.seriesId,
    sourceFile: row.book.url,
    ...(upgrade ? { upgradeBookId: upgrade.id } : {}),
    ...(destinationName ? { destinationName } : {}),
  };
}

/** The last path segment of a file URL or path (names of the series' existing files). */
export const fileName = (url: string) => url.split(/[\\/]/).pop() ?? url;

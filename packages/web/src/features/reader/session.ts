import { useQuery } from '@tanstack/react-query';
import type { BookDto, ReadListDto, SeriesDto } from '@quire/api';
import { bookQueries } from '../../api/books';
import { readListQueries } from '../../api/readlists';
import { seriesQueries } from '../../api/series';
import { readerPath } from '../items';

/** How a book was opened: within a read list or not, incognito or not (the reader's query string). */
export interface ReadingContext {
  readListId: string | null;
  incognito: boolean;
}

export function readingContext(params: URLSearchParams): ReadingContext {
  const inReadList = params.get('context')?.toLowerCase() === 'readlist';
  return {
    readListId: inReadList ? params.get('contextId') || null : null,
    incognito: params.get('incognito') === 'true',
  };
}

/** A valid `?page=` (1 to the page count), else null. */
export function pageParam(params: URLSearchParams, pagesCount: number): number | null {
  const raw = params.get('page');
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const page = Number(raw);
  return page >= 1 && page <= pagesCount ? page : null;
}

/** Where the reader opens (ui.md §11.4): `?page=`, else the page of a book in progress, else the first page. */
export function startPage(params: URLSearchParams, book: Pick<BookDto, 'readProgress'>, pagesCount: number): number {
  const fromUrl = pageParam(params, pagesCount);
  if (fromUrl !== null) return fromUrl;
  const progress = book.readProgress;
  if (progress && !progress.completed && progress.page >= 1 && progress.page <= pagesCount) return progress.page;
  return 1;
}

/** Another book's reader, keeping the read-list context and incognito, from that book's own progress. */
export function bookReaderPath(book: BookDto, ctx: ReadingContext, page?: number): string {
  return readerPath(book, {
    page,
    incognito: ctx.incognito || undefined,
    context: ctx.readListId ? { type: 'readlist', id: ctx.readListId } : undefined,
  });
}

/** The page the reader closes to: the book's (or one-shot's) detail page, with the read-list context. */
export function exitPath(book: Pick<BookDto, 'id' | 'seriesId' | 'oneshot'>, ctx: ReadingContext): string {
  const path = book.oneshot ? `/oneshot/${encodeURIComponent(book.seriesId)}` : `/book/${encodeURIComponent(book.id)}`;
  return ctx.readListId ? `${path}?context=readlist&contextId=${encodeURIComponent(ctx.readListId)}` : path;
}

/** "Series – 3 – Title", or the title alone for a one-shot or when the title already names the series. */
export function compactTitle(book: BookDto): string {
  const title = book.metadata.title;
  if (book.oneshot || !book.seriesTitle || title === book.seriesTitle) return title;
  return `${book.seriesTitle} – ${book.metadata.number} – ${title}`;
}

export interface ReaderBook {
  book: BookDto;
  series: SeriesDto | undefined;
  readList: ReadListDto | undefined;
  /** undefined while loading, null when there is none. */
  next: BookDto | null | undefined;
  previous: BookDto | null | undefined;
}

/**
 * What both readers load around the book: the book itself, always fetched afresh so that its read progress is the
 * server's (the start page depends on it), its series (reading direction), the read list of the context, and the
 * neighbours in the read list or the series.
 */
export function useReaderBook(bookId: string, ctx: ReadingContext) {
  const book = useQuery({ ...bookQueries.detail(bookId), refetchOnMount: 'always' });
  const loaded = book.isFetchedAfterMount && book.data ? book.data : undefined;
  const series = useQuery({ ...seriesQueries.detail(loaded?.seriesId ?? ''), enabled: !!loaded });
  const readList = useQuery({ ...readListQueries.detail(ctx.readListId ?? ''), enabled: !!ctx.readListId });
  const readListId = ctx.readListId ?? undefined;
  const next = useQuery({ ...bookQueries.readerSibling(bookId, 'next', readListId), enabled: !!loaded });
  const previous = useQuery({ ...bookQueries.readerSibling(bookId, 'previous', readListId), enabled: !!loaded });
  return {
    /** The freshly fetched book, once there. */
    book: loaded,
    error: book.error,
    isError: book.isError,
    refetch: book.refetch,
    series: series.data,
    /** The series has been asked for (its reading direction is known or unavailable). */
    seriesSettled: !!loaded && !series.isPending,
    readList: readList.data,
    next: next.isPending ? undefined : (next.data ?? null),
    previous: previous.isPending ? undefined : (previous.data ?? null),
  };
}

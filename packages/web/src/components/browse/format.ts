import { useTranslation } from 'react-i18next';
import type { BookDto, SeriesDto } from '@quire/api';

/** Dates of cards and lists in the interface language. */
export function useBrowseFormat() {
  const { i18n } = useTranslation();
  return browseFormatFor(i18n.language || undefined);
}

type BrowseFormat = ReturnType<typeof makeBrowseFormat>;
/**
 * One set of formatters per language, shared by every card: building an `Intl.DateTimeFormat` costs about a
 * millisecond, and a screen has dozens of cards (issue 18, the first screen's render).
 */
const formats = new Map<string | undefined, BrowseFormat>();

function browseFormatFor(lang: string | undefined): BrowseFormat {
  let format = formats.get(lang);
  if (!format) formats.set(lang, (format = makeBrowseFormat(lang)));
  return format;
}

function makeBrowseFormat(lang: string | undefined) {
  // Release dates are plain days: read and shown in UTC so no time zone moves them to the day before.
  const day = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
  const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' });
  const dateTime = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short' });
  const safe = (f: Intl.DateTimeFormat, iso: string) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? iso : f.format(d);
  };
  return {
    releaseDate: (iso: string) => safe(day, iso),
    date: (iso: string) => safe(date, iso),
    dateTime: (iso: string) => safe(dateTime, iso),
    year: (iso: string | null | undefined) => (iso ? iso.slice(0, 4) : ''),
  };
}

/** Where a series leads: its one-shot page when it is one. */
export const seriesPath = (series: Pick<SeriesDto, 'id' | 'oneshot'>) =>
  series.oneshot ? `/oneshot/${encodeURIComponent(series.id)}` : `/series/${encodeURIComponent(series.id)}`;

/** Where a book leads, carrying the read list it was opened from. */
export function bookPath(book: Pick<BookDto, 'id' | 'seriesId' | 'oneshot'>, readListId?: string): string {
  const path = book.oneshot ? `/oneshot/${encodeURIComponent(book.seriesId)}` : `/book/${encodeURIComponent(book.id)}`;
  return readListId ? `${path}?${new URLSearchParams({ context: 'readlist', contextId: readListId })}` : path;
}

export const collectionPath = (id: string) => `/collections/${encodeURIComponent(id)}`;
export const readListPath = (id: string) => `/readlists/${encodeURIComponent(id)}`;

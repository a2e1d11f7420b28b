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
  /** A formatter made on its first use: a screen often needs one of the three (the first one made costs the most). */
  const formatter = (options: Intl.DateTimeFormatOptions) => {
    let made: Intl.DateTimeFormat | undefined;
    return (iso: string) => {
      const d = new Date(iso);
      if (Number.isNaN(d.getTime())) return iso;
      made ??= new Intl.DateTimeFormat(lang, options);
      return made.format(d);
    };
  };
  return {
    // Release dates are plain days: read and shown in UTC so no time zone moves them to the day before.
    releaseDate: formatter({ dateStyle: 'medium', timeZone: 'UTC' }),
    date: formatter({ dateStyle: 'medium' }),
    dateTime: formatter({ dateStyle: 'long', timeStyle: 'short' }),
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

import type { BookDto } from '@quire/api';

/** The file format as readers know it (ui.md §6 FORMAT), from the analysed media type; the raw type otherwise. */
export function bookFormat(media: BookDto['media']): string {
  const type = media.mediaType;
  if (type === 'application/zip') return 'CBZ';
  if (type === 'application/x-rar-compressed; version=5') return 'RAR5';
  if (type.startsWith('application/x-rar-compressed')) return 'CBR';
  if (type === 'application/x-7z-compressed') return 'CB7';
  if (type === 'application/x-tar') return 'CBT';
  if (type === 'application/pdf') return 'PDF';
  if (type === 'application/epub+zip') return media.epubIsKepub ? 'KEPUB' : 'EPUB';
  return type;
}

/** A language tag's name in the interface language ("fr" → "French" / "francuski"), the tag itself if unknown. */
export function languageName(tag: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** A plain `yyyy-MM-dd` date, long, read as UTC so it never shifts a day. */
export function formatReleaseDate(date: string, locale: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(d);
}

/** A timestamp as a long date with a short time. */
export function formatDateTime(iso: string, locale: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(d);
}

/** A timestamp as a date. */
export function formatDate(iso: string, locale: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(d);
}

/** The standard author roles, in the order the pages list them; other roles follow alphabetically. */
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

/** Authors grouped by role, standard roles first, names in their given order without repeats. */
export function authorsByRole(authors: readonly { name: string; role: string }[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const { name, role } of authors) {
    const names = groups.get(role) ?? [];
    if (!names.includes(name)) names.push(name);
    groups.set(role, names);
  }
  const rank = (role: string) => {
    const i = (AUTHOR_ROLES as readonly string[]).indexOf(role);
    return i === -1 ? AUTHOR_ROLES.length : i;
  };
  return [...groups.entries()].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * A book's title for the window and breadcrumbs (ui.md §6): the title alone when it already names the series,
 * else "series - number - title".
 */
export function compactBookTitle(book: Pick<BookDto, 'seriesTitle' | 'metadata'>): string {
  const { title, number } = book.metadata;
  if (title.toLowerCase().includes(book.seriesTitle.toLowerCase())) return title;
  return `${book.seriesTitle} - ${number} - ${title}`;
}

import {
  attr,
  descendants,
  firstDescendant,
  normalizedText,
  parseMarkup,
  textContent,
  type XNode,
} from '../media/markup.js';
import type { Author } from '../domain/metadata.js';
import {
  emptyBookPatch,
  emptySeriesPatch,
  type BookMetadataPatch,
  type SeriesMetadataPatch,
  type Skipped,
} from './patch.js';
import { htmlToText, nonBlank } from './text.js';
import { calendarDate, canonicalLanguage, isbnFromText } from './validation.js';

/**
 * The package document of an EPUB (OPF, EPUB 2 and 3) mapped to book and series patches (engine.md §6.5).
 * Names are matched without their namespace prefix, so `dc:title`, `mydc:title` and `title` are the same.
 *
 * Beyond Komga: contributors with a known role count as authors (`trl` → translator, `edt` → editor…); the
 * series also comes from calibre's EPUB 2 `calibre:series` / `calibre:series_index` when the package has no
 * `belongs-to-collection`; a `belongs-to-collection` typed `series` is preferred to an untyped one; a date
 * that is only a year (or year and month) counts as its first day, and calibre's "no date" (0101-01-01) as
 * none; the description keeps its paragraphs.
 */

export interface OpfMetadata {
  book: BookMetadataPatch;
  series: SeriesMetadataPatch;
  skipped: Skipped[];
}

/** MARC relator codes (engine.md §6.5) to author roles. */
const ROLES: Record<string, string> = {
  aut: 'writer',
  clr: 'colorist',
  cov: 'cover',
  edt: 'editor',
  art: 'penciller',
  ill: 'penciller',
  trl: 'translator',
};

/** Calibre's placeholder for an unknown date. */
const CALIBRE_NO_DATE = '0101-01-01';

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:T.*)?$/;

export function parseOpf(opf: XNode | string): OpfMetadata {
  const root = typeof opf === 'string' ? parseMarkup(opf) : opf;
  const book = emptyBookPatch();
  const series = emptySeriesPatch();
  const skipped: Skipped[] = [];
  const skip = (field: string, value: string, reason: string) => skipped.push({ field, value, reason });

  const spine = firstDescendant(root, 'spine');
  const direction = spine ? attr(spine, 'page-progression-direction') : undefined;
  if (direction === 'rtl') series.readingDirection = 'RIGHT_TO_LEFT';
  else if (direction === 'ltr') series.readingDirection = 'LEFT_TO_RIGHT';

  const metadata = firstDescendant(root, 'metadata');
  if (!metadata) return { book, series, skipped };

  const metas = descendants(metadata, 'meta');
  const refinements = (el: XNode, property: string) => {
    const id = attr(el, 'id');
    if (!id) return [];
    return metas.filter((m) => attr(m, 'refines') === `#${id}` && attr(m, 'property') === property);
  };
  const metaNamed = (name: string) => {
    const m = metas.find((x) => attr(x, 'name') === name || attr(x, 'property') === name);
    return m ? nonBlank(attr(m, 'content') ?? normalizedText(m)) : null;
  };

  const titles = descendants(metadata, 'title').filter((t) => nonBlank(normalizedText(t)) !== null);
  const main = titles.find((t) => refinements(t, 'title-type').some((m) => normalizedText(m) === 'main'));
  const title = main ?? titles[0];
  book.title = title ? nonBlank(normalizedText(title)) : null;

  const description = firstDescendant(metadata, 'description');
  if (description) book.summary = nonBlank(htmlToText(textContent(description)));

  book.releaseDate = releaseDate(descendants(metadata, 'date'), skip);

  const authors: Author[] = [];
  for (const el of [...descendants(metadata, 'creator'), ...descendants(metadata, 'contributor')]) {
    const name = nonBlank(normalizedText(el));
    if (!name) continue;
    const roleMeta = refinements(el, 'role').find(isMarcRelator);
    const code = (attr(el, 'role') ?? (roleMeta ? normalizedText(roleMeta) : '')).trim().toLowerCase();
    const role = ROLES[code];
    if (role) authors.push({ name, role });
    else if (el.local.toLowerCase() === 'creator') authors.push({ name, role: 'writer' });
  }
  book.authors = authors.length > 0 ? authors : null;

  for (const el of descendants(metadata, 'identifier')) {
    const value = normalizedText(el);
    const isbn = isbnFromText(value);
    if (isbn) {
      book.isbn = isbn;
      break;
    }
    if ((attr(el, 'scheme') ?? '').toLowerCase() === 'isbn' || /^(?:urn:)?isbn:/i.test(value))
      skip('identifier', value, 'not a valid ISBN');
  }

  const collections = metas.filter(
    (m) => attr(m, 'property') === 'belongs-to-collection' && nonBlank(normalizedText(m)),
  );
  const collection =
    collections.find((c) => refinements(c, 'collection-type').some((m) => normalizedText(m) === 'series')) ??
    collections[0];
  if (collection) {
    series.title = nonBlank(normalizedText(collection));
    const position = refinements(collection, 'group-position')[0];
    if (position) setNumber(book, normalizedText(position), false, skip);
  } else {
    series.title = metaNamed('calibre:series');
    const index = metaNamed('calibre:series_index');
    if (series.title && index) setNumber(book, index, true, skip);
  }
  series.titleSort = series.title;

  const publisher = firstDescendant(metadata, 'publisher');
  series.publisher = publisher ? nonBlank(normalizedText(publisher)) : null;

  for (const el of descendants(metadata, 'language')) {
    const value = normalizedText(el);
    const language = canonicalLanguage(value);
    if (language) {
      series.language = language;
      break;
    }
    if (value) skip('language', value, 'not a language tag');
  }

  const genres = descendants(metadata, 'subject')
    .map((s) => nonBlank(normalizedText(s)))
    .filter((s): s is string => s !== null);
  series.genres = genres.length > 0 ? genres : null;

  return { book, series, skipped };
}

const isMarcRelator = (m: XNode) => {
  const scheme = attr(m, 'scheme');
  return scheme === undefined || scheme === 'marc:relators';
};

/**
 * A series position: `number` as written, `numberSort` its value. Calibre writes indexes as floats (`1.0`),
 * shown as `1`.
 */
function setNumber(
  book: BookMetadataPatch,
  raw: string,
  calibre: boolean,
  skip: (field: string, value: string, reason: string) => void,
) {
  const text = raw.trim();
  if (!text) return;
  const value = Number(text);
  if (!Number.isFinite(value)) {
    if (calibre) skip('calibre:series_index', text, 'not a number');
    else book.number = text;
    return;
  }
  book.number = calibre && Number.isInteger(value) ? String(value) : text;
  book.numberSort = value;
}

/**
 * The release date: the first `dc:date` that is a publication date (no `opf:event`, or `publication`,
 * `original-publication`, `issued`), else the first one; its date part, no time-zone conversion.
 */
function releaseDate(dates: XNode[], skip: (field: string, value: string, reason: string) => void): string | null {
  const published = dates.find((d) => {
    const event = attr(d, 'event')?.toLowerCase();
    return event === undefined || event === 'publication' || event === 'original-publication' || event === 'issued';
  });
  const el = published ?? dates[0];
  if (!el) return null;
  const text = normalizedText(el);
  const m = DATE.exec(text);
  const date = m ? calendarDate(Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1)) : null;
  if (!date) {
    if (text) skip('date', text, 'not a date');
    return null;
  }
  if (date === CALIBRE_NO_DATE) {
    skip('date', text, 'calibre placeholder for an unknown date');
    return null;
  }
  return date;
}

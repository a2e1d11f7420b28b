import { seriesWithVolume } from '../domain/series-title.js';
import { parseMarkup, textContent, type XNode } from '../media/markup.js';
import type { Author, WebLink } from '../domain/metadata.js';
import {
  emptyBookPatch,
  emptySeriesPatch,
  type BookMetadataPatch,
  type ReadListEntry,
  type SeriesMetadataPatch,
  type Skipped,
} from './patch.js';
import { htmlToText, nonBlank, splitList, tidyText } from './text.js';
import { calendarDate, canonicalLanguage, isbnFromText, linkUrlProblem } from './validation.js';

/**
 * ComicInfo.xml (ComicRack's format: schema v1, v2 and the v2.1 draft) mapped to book and series patches as
 * engine.md §6.3 describes. Unlike Komga, which drops the whole file when one element does not parse (a
 * `Volume` of "2011a", a 30th of February), each element stands on its own: a bad one is left out and
 * reported in `skipped`, the others are kept.
 */

export interface ComicInfo {
  book: BookMetadataPatch;
  /** Per book; a series gets the aggregation of its books' patches (engine.md §6.8). */
  series: SeriesMetadataPatch;
  skipped: Skipped[];
}

export interface ComicInfoOptions {
  /** Library option `importComicInfoSeriesAppendVolume`: `Series (Volume)` as the series title. */
  appendVolume: boolean;
}

/** The ComicInfo entry Komga looks for: exactly this name, at the archive root. */
export const COMICINFO_ENTRY = 'ComicInfo.xml';

const COMICINFO_LOWER = COMICINFO_ENTRY.toLowerCase();

/** Whether an archive entry is named ComicInfo.xml in any letter case, at the root or in a folder. */
export function isComicInfoCandidate(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === COMICINFO_LOWER || lower.endsWith(`/${COMICINFO_LOWER}`);
}

/**
 * The ComicInfo entry of an archive among its entries that are not pages: `ComicInfo.xml` at the root (any letter
 * case, exact name first), or the only one in a sub-folder when the root has none (some tools nest everything in
 * one folder).
 */
export function comicInfoEntryOf(names: readonly string[]): string | null {
  if (names.includes(COMICINFO_ENTRY)) return COMICINFO_ENTRY;
  const candidates = names.filter(isComicInfoCandidate);
  const atRoot = candidates.find((n) => !n.includes('/'));
  if (atRoot) return atRoot;
  return candidates.length === 1 ? candidates[0]! : null;
}

/**
 * Elements of the schemas (v1, v2, v2.1 draft) that say nothing a book or series stores (engine.md §6.3);
 * every other element of the schemas is mapped.
 */
export const IGNORED_ELEMENTS = [
  'Notes',
  'Imprint',
  'AlternateCount',
  'PageCount',
  'Characters',
  'Teams',
  'Locations',
  'ScanInformation',
  'BlackAndWhite',
  'Format',
  'Pages',
  'CommunityRating',
  'MainCharacterOrTeam',
  'Review',
] as const;

/** ComicInfo `AgeRating` (engine.md §6.4), keyed lower-cased without spaces. */
const AGE_RATINGS: Record<string, number | null> = {
  unknown: null,
  'adultsonly18+': 18,
  earlychildhood: 3,
  everyone: 0,
  'everyone10+': 10,
  g: 0,
  kidstoadults: 6,
  m: 17,
  'ma15+': 15,
  'mature17+': 17,
  pg: 8,
  'r18+': 18,
  ratingpending: null,
  teen: 13,
  'x18+': 18,
};

/** Credit elements and the author role each gives (engine.md §6.3), in Komga's order. */
const CREDITS = [
  ['Writer', 'writer'],
  ['Penciller', 'penciller'],
  ['Inker', 'inker'],
  ['Colorist', 'colorist'],
  ['Letterer', 'letterer'],
  ['CoverArtist', 'cover'],
  ['Editor', 'editor'],
  ['Translator', 'translator'],
] as const;

/** Java's float grammar as Kotlin's `toFloatOrNull` accepts it, minus NaN and the infinities (not sortable). */
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?$/;
const INTEGER = /^[+-]?\d+$/;

/** The document element of a parse, ignoring the XML declaration, comments and stray text. */
export function documentElement(root: XNode): XNode | undefined {
  return root.children.find((c): c is XNode => typeof c !== 'string');
}

/**
 * Parses ComicInfo.xml. Returns null when the text is not a ComicInfo document (no `<ComicInfo>` root: CoMet,
 * MetronInfo, garbage). Element names are matched exactly first, then ignoring case; when an element is
 * repeated, the first one counts.
 */
export function parseComicInfo(xml: string, opts: ComicInfoOptions): ComicInfo | null {
  const root = documentElement(parseMarkup(xml));
  if (!root || root.local.toLowerCase() !== 'comicinfo') return null;

  const exact = new Map<string, XNode>();
  const folded = new Map<string, XNode>();
  for (const c of root.children) {
    if (typeof c === 'string') continue;
    if (!exact.has(c.local)) exact.set(c.local, c);
    if (!folded.has(c.local.toLowerCase())) folded.set(c.local.toLowerCase(), c);
  }
  const skipped: Skipped[] = [];
  const skip = (field: string, value: string, reason: string) => skipped.push({ field, value, reason });
  /** Trimmed text of an element; null when absent or blank. */
  const text = (name: string): string | null => {
    const el = exact.get(name) ?? folded.get(name.toLowerCase());
    return el ? nonBlank(textContent(el)) : null;
  };
  const integer = (name: string): number | null => {
    const value = text(name);
    if (value === null) return null;
    if (INTEGER.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
    skip(name, value, 'not an integer');
    return null;
  };

  const book = emptyBookPatch();
  const series = emptySeriesPatch();

  book.title = text('Title');
  const summary = text('Summary');
  // Scrapers copy ComicVine's HTML descriptions into Summary; clients show summaries as text, so markup goes.
  if (summary !== null)
    book.summary = nonBlank(/<[a-z][^>]*>/i.test(summary) ? htmlToText(summary) : tidyText(summary));

  book.number = text('Number');
  if (book.number !== null) {
    const n = book.number.replace(/[fFdD]$/, '');
    if (FLOAT.test(book.number) && Number.isFinite(Number(n))) book.numberSort = Number(n);
    else skip('Number', book.number, 'not a number: the sort number is left as it is');
  }

  const year = integer('Year');
  const month = integer('Month');
  const day = integer('Day');
  if (year !== null) {
    const date = calendarDate(year, month ?? 1, day ?? 1);
    if (date) book.releaseDate = date;
    else skip('Year', `${year}-${month ?? 1}-${day ?? 1}`, 'not a calendar date');
  }

  const authors: Author[] = [];
  for (const [element, role] of CREDITS) for (const name of splitList(text(element))) authors.push({ name, role });
  book.authors = authors.length > 0 ? authors : null;

  const tags = splitList(text('Tags')).map((t) => t.toLowerCase());
  book.tags = tags.length > 0 ? [...new Set(tags)] : null;

  const links: WebLink[] = [];
  for (const url of splitList(text('Web'), /\s+/)) {
    const problem = linkUrlProblem(url);
    if (problem) skip('Web', url, problem === 'scheme' ? 'not an http(s) link' : 'not a URL');
    else if (!links.some((l) => l.url === url)) links.push({ label: new URL(url).hostname, url });
  }
  book.links = links.length > 0 ? links : null;

  const gtin = text('GTIN');
  if (gtin !== null) {
    book.isbn = isbnFromText(gtin);
    if (book.isbn === null) skip('GTIN', gtin, 'not an ISBN');
  }

  book.readLists = readLists(text, skip);

  const seriesName = text('Series');
  const volume = integer('Volume');
  series.title = opts.appendVolume ? seriesWithVolume(seriesName, volume) : seriesName;
  series.titleSort = series.title;

  const manga = text('Manga');
  if (manga === 'No') series.readingDirection = 'LEFT_TO_RIGHT';
  else if (manga === 'YesAndRightToLeft') series.readingDirection = 'RIGHT_TO_LEFT';
  else if (manga !== null && manga !== 'Yes' && manga !== 'Unknown') skip('Manga', manga, 'unknown value');

  series.publisher = text('Publisher');

  const ageRating = text('AgeRating');
  if (ageRating !== null) {
    const key = ageRating.replace(/\s+/g, '').toLowerCase();
    if (key in AGE_RATINGS) series.ageRating = AGE_RATINGS[key] ?? null;
    else skip('AgeRating', ageRating, 'unknown value');
  }

  const language = text('LanguageISO');
  if (language !== null) {
    series.language = canonicalLanguage(language);
    if (series.language === null) skip('LanguageISO', language, 'not a language tag');
  }

  const genres = splitList(text('Genre'));
  series.genres = genres.length > 0 ? genres : null;

  // ComicRack writes -1 for "unknown": only a positive count is a count.
  const count = integer('Count');
  series.totalBookCount = count !== null && count > 0 ? count : null;

  series.collections = splitList(text('SeriesGroup'));

  return { book, series, skipped };
}

/**
 * Read lists of a book (engine.md §6.3): `AlternateSeries` (+ `AlternateNumber`), and the story arcs. With
 * `StoryArcNumber`, arcs and numbers are paired by position, keeping pairs where both are valid
 * (`"one, , three"` + `"6, 7, 8"` → one/6, three/8); without it, every arc without a number.
 */
function readLists(
  text: (name: string) => string | null,
  skip: (field: string, value: string, reason: string) => void,
): ReadListEntry[] {
  const entries: ReadListEntry[] = [];
  const toInt = (s: string | undefined) => (s !== undefined && INTEGER.test(s.trim()) ? Number(s.trim()) : null);
  const alternate = text('AlternateSeries');
  if (alternate !== null) {
    const raw = text('AlternateNumber');
    const number = raw === null ? null : toInt(raw);
    if (raw !== null && number === null) skip('AlternateNumber', raw, 'not an integer');
    entries.push({ name: alternate, number });
  }
  const arcs = (text('StoryArc') ?? '').split(',').map((a) => a.trim());
  const numbers = text('StoryArcNumber');
  if (numbers === null) {
    for (const name of arcs) if (name) entries.push({ name, number: null });
  } else {
    const parsed = numbers.split(',').map(toInt);
    for (let i = 0; i < Math.min(arcs.length, parsed.length); i++) {
      const name = arcs[i]!;
      const number = parsed[i] ?? null;
      if (name && number !== null) entries.push({ name, number });
    }
  }
  return entries;
}

import type { CblCandidate, ExportedBook } from '../domain/collection.js';
import { badRequest } from '../domain/errors.js';
import { xmlCharacters } from '../domain/text.js';
import { MediaLimitError } from '../media/limits.js';
import {
  attr as xmlAttr,
  childrenNamed,
  elements,
  firstChild,
  parseMarkup,
  textContent,
  type XNode,
} from '../media/markup.js';

/*
 * ComicRack reading lists (.cbl), read for import and written for export. The shape is the one ComicRack and list sites publish
 * and the one the importer reads back (engine.md §10): a `ReadingList` root with `Name`, `NumIssues`,
 * `Books/Book` whose attributes are `Series`, `Number`, `Volume`, `Year`, an optional
 * `<Database Name="cv" Series=".." Issue=".."/>` child carrying ComicVine ids, and an empty `Matchers`.
 */

export interface CblBook {
  series: string;
  number: string;
  volume?: string;
  year?: string;
  /** ComicVine ids, when the book's (or its series') web links point to ComicVine. */
  comicVine?: { series?: string; issue: string };
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

const clean = xmlCharacters;

const attr = (name: string, value: string | undefined) =>
  value === undefined ? '' : ` ${name}="${escapeXml(clean(value))}"`;

/** The .cbl document for a list named `name` holding `books` in reading order. */
export function writeCbl(name: string, books: readonly CblBook[]): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<ReadingList xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    `  <Name>${escapeXml(clean(name))}</Name>`,
    `  <NumIssues>${books.length}</NumIssues>`,
  ];
  if (books.length === 0) {
    lines.push('  <Books />');
  } else {
    lines.push('  <Books>');
    for (const b of books) {
      const head = `    <Book${attr('Series', b.series)}${attr('Number', b.number)}${attr('Volume', b.volume)}${attr('Year', b.year)}`;
      if (b.comicVine) {
        lines.push(
          `${head}>`,
          `      <Database Name="cv"${attr('Series', b.comicVine.series)}${attr('Issue', b.comicVine.issue)} />`,
          '    </Book>',
        );
      } else {
        lines.push(`${head} />`);
      }
    }
    lines.push('  </Books>');
  }
  lines.push('  <Matchers />', '</ReadingList>', '');
  return lines.join('\n');
}

/** A title ending in ` (YYYY)`, as the "append volume" import option writes it (engine.md §3.5). */
const VOLUME_SUFFIX = /^(.*\S)\s+\((\d{4})\)$/;
/** ComicVine resource ids in URLs: `4000-<id>` issues, `4050-<id>` volumes (series). */
const COMICVINE_ID = /comicvine\.gamespot\.com\/.*\b(4000|4050)-(\d+)/i;

/**
 * A book as a .cbl entry. A series title with a year suffix is split into Series and Volume, so that importing
 * the file (which tries `Series (Volume)` and `Series`) finds the series again.
 */
export function toCblBook(book: ExportedBook): CblBook {
  const volume = VOLUME_SUFFIX.exec(book.seriesTitle);
  const year = book.releaseDate?.slice(0, 4);
  let issue: string | undefined;
  let series: string | undefined;
  for (const link of book.links) {
    const m = COMICVINE_ID.exec(link.url);
    if (!m) continue;
    if (m[1] === '4000') issue ??= m[2];
    else series ??= m[2];
  }
  return {
    series: volume ? volume[1]! : book.seriesTitle,
    number: book.number,
    ...(volume ? { volume: volume[2]! } : {}),
    ...(year ? { year } : {}),
    ...(issue ? { comicVine: { issue, ...(series ? { series } : {}) } } : {}),
  };
}

/** One book a .cbl asks for, as read (engine.md §10). */
export interface CblRequest {
  series: string;
  /** Trimmed. */
  number: string;
  volume?: string;
}

export interface ParsedCbl {
  name: string;
  books: CblRequest[];
}

/**
 * The text of a .cbl file. ComicRack writes UTF-8 (some lists carry a BOM); a UTF-16 BOM is honoured too. Bytes
 * that are not text make the file malformed rather than being read as replacement characters.
 */
function decodeCbl(bytes: Uint8Array): string {
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : null;
  try {
    return new TextDecoder(utf16 ?? 'utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest('ERR_1015');
  }
}

/** A value given as an attribute (`<Book Series="..">`, what ComicRack writes) or as a child element. */
const field = (node: XNode, name: string): string | undefined => {
  const a = xmlAttr(node, name);
  if (a !== undefined) return a;
  const child = firstChild(node, name);
  return child ? textContent(child) : undefined;
};

/**
 * Reads a .cbl file: its list name and the books it asks for, in order. Throws a 400 whose message is the code:
 * ERR_1015 when it is not a document (not text, no root element, nested past the markup limit), ERR_1030 when
 * `Name` is missing or blank, ERR_1029 when there is no `Book` (a smart list has only `Matchers`), ERR_1031 when
 * one book lacks its series or its number (the whole list is refused, as the reference does).
 *
 * The markup reader is the tolerant one of the whole server (`media/markup.ts`): the reference's Jackson reader
 * would refuse some broken XML that this one reads, but a list whose elements can be found is more use read.
 */
export function parseCbl(bytes: Uint8Array): ParsedCbl {
  const text = decodeCbl(bytes);
  let doc: XNode;
  try {
    doc = parseMarkup(text);
  } catch (e) {
    if (e instanceof MediaLimitError) throw badRequest('ERR_1015');
    throw e;
  }
  const root = elements(doc)[0];
  if (!root) throw badRequest('ERR_1015');
  const nameNode = firstChild(root, 'Name');
  const name = nameNode ? textContent(nameNode).trim() : '';
  if (!name) throw badRequest('ERR_1030');
  const books = firstChild(root, 'Books');
  const entries = books ? childrenNamed(books, 'Book') : [];
  if (entries.length === 0) throw badRequest('ERR_1029');
  return {
    name,
    books: entries.map((b) => {
      const series = field(b, 'Series')?.trim();
      const number = field(b, 'Number');
      if (!series || number === undefined) throw badRequest('ERR_1031');
      const volume = field(b, 'Volume')?.trim();
      return { series, number: number.trim(), ...(volume ? { volume } : {}) };
    }),
  };
}

/** The series names a request is looked up under, most specific first: `Series (Volume)` unless Volume is 1. */
export function candidateSeriesNames(book: CblRequest): string[] {
  return book.volume && book.volume !== '1' ? [`${book.series} (${book.volume})`, book.series] : [book.series];
}

/** SQLite's NOCASE: ASCII letters only, everything else compared exactly (no accent or Unicode case folding). */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** Numbers compare without their leading zeros (`02` is `2`, `0` and `00` are both empty; `1.0` stays `1.0`). */
const withoutLeadingZeros = (n: string) => n.replace(/^0+/, '');
const key = (title: string, number: string) => `${asciiLower(title)}\u0000${withoutLeadingZeros(number)}`;

export interface CblSeriesMatch {
  series: { seriesId: string; title: string; releaseDate: string | null };
  books: { bookId: string; number: string; title: string }[];
}

export interface CblRequestMatches {
  request: { series: string[]; number: string };
  matches: CblSeriesMatch[];
}

/**
 * Each request of the list with the books that answer it (engine.md §10): a series whose title is one of the
 * request's names, case-insensitively, and a number equal once leading zeros are dropped. Series are in the order
 * of the names tried, then as `candidates` come (by title); a request can have none, or several series and books.
 */
export function matchCblRequests(
  books: readonly CblRequest[],
  candidates: readonly CblCandidate[],
): CblRequestMatches[] {
  const byKey = new Map<string, CblCandidate[]>();
  for (const c of candidates) {
    const k = key(c.seriesTitle, c.bookNumber);
    const found = byKey.get(k);
    if (found) found.push(c);
    else byKey.set(k, [c]);
  }
  return books.map((book) => {
    const names = candidateSeriesNames(book);
    const series = new Map<string, CblSeriesMatch>();
    for (const name of names) {
      for (const c of byKey.get(key(name, book.number)) ?? []) {
        let match = series.get(c.seriesId);
        if (!match) {
          match = {
            series: { seriesId: c.seriesId, title: c.seriesTitle, releaseDate: c.seriesReleaseDate },
            books: [],
          };
          series.set(c.seriesId, match);
        }
        if (!match.books.some((b) => b.bookId === c.bookId)) {
          match.books.push({ bookId: c.bookId, number: c.bookNumber, title: c.bookTitle });
        }
      }
    }
    return { request: { series: names, number: book.number }, matches: [...series.values()] };
  });
}

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withEpub } from '../../src/media/epub/package.js';
import { parseOpf, type OpfMetadata } from '../../src/metadata/opf.js';
import { emptyBookPatch, emptySeriesPatch } from '../../src/metadata/patch.js';
import { fixture } from '../support/fixtures.js';

type Expected = { book: Partial<OpfMetadata['book']>; series: Partial<OpfMetadata['series']>; skipped?: object[] };
const writer = (...names: string[]) => names.map((name) => ({ name, role: 'writer' }));

/** Compares every field: the ones not listed must be empty. */
function expectMetadata(actual: OpfMetadata, expected: Expected) {
  const book = { ...emptyBookPatch(), ...expected.book };
  const series = { ...emptySeriesPatch(), ...expected.series };
  for (const [field, value] of Object.entries(book))
    expect({ field, value: actual.book[field as keyof typeof actual.book] }).toEqual({ field, value });
  for (const [field, value] of Object.entries(series))
    expect({ field, value: actual.series[field as keyof typeof actual.series] }).toEqual({ field, value });
  expect(actual.skipped).toEqual(expected.skipped ?? []);
}

/** The package documents of the corpus (engine.md §6.5), field by field. */
const PACKAGES: Record<string, Expected> = {
  // calibre EPUB 2: opf:role, escaped HTML description, calibre's "no date" placeholder.
  '1979.opf': {
    book: {
      title: '1979',
      summary: expect.stringMatching(
        /^Auf dem Weg nach Teheran sah ich aus dem Autofenster, .* Ich schlief\.\n\nSpäter hielten wir an, .*\n\nFOTO: ECKHART NICKEL$/s,
      ),
      authors: [
        { name: 'Kracht, Christian', role: 'writer' },
        { name: 'The Editor', role: 'editor' },
      ],
    },
    series: { language: 'de' },
    skipped: [{ field: 'date', value: '0101-01-01T00:00:00+00:00', reason: 'calibre placeholder for an unknown date' }],
  },
  'Die Drei 3.opf': {
    book: {
      title: 'Die Drei Fragezeichen-Kids, Bd.3, Invasion Der Fliegen',
      summary: expect.stringMatching(/^Hunderte von Fliegen tummeln sich .* bis in einen düsteren Kanalschacht\.\.\.$/),
      number: '3',
      numberSort: 3,
      releaseDate: '1999-07-31',
      authors: writer('Ulf Blanck', 'Stefanie Wegner'),
      isbn: '9783440077931',
    },
    series: {
      title: 'Die drei ??? Kids',
      titleSort: 'Die drei ??? Kids',
      publisher: 'Franckh-Kosmos Verlag',
      language: 'de',
      genres: ['Juvenile Fiction', 'Mysteries & Detective Stories', 'Kinder- und Jugendbücher'],
    },
  },
  // Every element namespace-prefixed with unusual prefixes.
  'Panik im Paradies - namespace.opf': {
    book: {
      title: 'Panik im Paradies',
      summary: expect.stringMatching(
        /^Bereits im ersten Band "Panik im Paradies" .* ein düsteres Geheimnis hütet\.\.\.$/,
      ),
      number: '1.5',
      numberSort: 1.5,
      releaseDate: '1999-07-31',
      authors: [
        { name: 'Ulf Blanck', role: 'writer' },
        { name: 'The Editor', role: 'editor' },
      ],
      isbn: '9783440077894',
    },
    series: {
      title: 'Die drei ??? Kids',
      titleSort: 'Die drei ??? Kids',
      readingDirection: 'RIGHT_TO_LEFT',
      publisher: 'Kosmos',
      language: 'de',
      genres: ['Kinder- und Jugendbücher'],
    },
  },
  'clash.opf': {
    // The description is an empty paragraph.
    book: {
      title: 'A Clash of Kings',
      releaseDate: '2011-03-22',
      authors: writer('George R. R. Martin'),
      isbn: '9780553897845',
    },
    series: { publisher: 'Random House Publishing Group', language: 'en' },
  },
  // The first collection typed "series", its name trimmed.
  'collections-epub3.opf': {
    book: { title: "Alice's Adventures in Wonderland", number: '2', numberSort: 2 },
    series: { title: 'Series A', titleSort: 'Series A' },
  },
  // Creators are writers unless a role says otherwise; contributors count with a known role only.
  'contributors-epub3.opf': {
    book: {
      title: "Alice's Adventures in Wonderland",
      authors: [
        { name: 'Author 1', role: 'writer' },
        { name: 'Cameleon', role: 'writer' },
        { name: 'Author 2', role: 'writer' },
        { name: 'Translator', role: 'translator' },
        { name: 'Editor', role: 'editor' },
        { name: 'Artist', role: 'penciller' },
        { name: 'Illustrator', role: 'penciller' },
        { name: 'Colorist', role: 'colorist' },
      ],
    },
    series: { publisher: 'Publisher 1' },
  },
  'cover-mix.opf': { book: { title: "Alice's Adventures in Wonderland" }, series: {} },
  'progression-rtl.opf': {
    book: { title: "Alice's Adventures in Wonderland" },
    series: { readingDirection: 'RIGHT_TO_LEFT' },
  },
  // Not package documents: nothing to read.
  'nav.xhtml': { book: {}, series: {} },
  'ncx-complex.ncx': { book: {}, series: {} },
  'toc.ncx': { book: {}, series: {} },
};

/** The OPF inside each EPUB of the corpus. */
const EPUBS: Record<string, Expected | 'not an EPUB'> = {
  'SmokeTest-EPUB2.epub': {
    book: { title: 'SmokeTest - EPUB 2', releaseDate: '2014-02-27', authors: writer('Ric Wright') },
    series: { language: 'en', genres: ['testfile'] },
  },
  'The Golden Harpoon; Or, Lost Among the Floes A Story of the Whaling Grounds.epub': {
    book: {
      title: 'The Golden Harpoon / Lost Among the Floes',
      summary: 'Book Description',
      releaseDate: '2021-04-05',
      authors: writer('Roger Starbuck', 'Junya Inoue'),
    },
    series: { language: 'en', genres: ['Genre1, Genre2'] },
  },
  'The Incomplete Theft - Ralph Burke.epub': {
    book: { title: 'The Incomplete Theft', releaseDate: '2021-06-20', authors: writer('Ralph Burke') },
    series: { language: 'en' },
  },
  // calibre's EPUB 2 series (Komga does not read it).
  'TitleWithVolume.epub': {
    book: {
      title: 'Accel World, Vol 1',
      summary: 'Book Description',
      number: '1',
      numberSort: 1,
      releaseDate: '2021-04-05',
      authors: writer('Roger Starbuck', 'Junya Inoue'),
    },
    series: { title: 'Accel World', titleSort: 'Accel World', language: 'en', genres: ['Genre1, Genre2'] },
  },
  'book.epub': {
    book: { title: "Alice's Adventures in Wonderland", releaseDate: '2008-06-27', authors: writer('Lewis Carroll') },
    series: {
      language: 'en',
      genres: [
        'Fantasy fiction',
        "Children's stories",
        'Imaginary places -- Juvenile fiction',
        'Alice (Fictitious character from Carroll) -- Juvenile fiction',
      ],
    },
  },
  'cole-voyage-of-life.epub': {
    book: { title: 'Thomas Cole - The Voyage of Life', authors: writer('Jesse Dylan') },
    series: { language: 'en-US' },
  },
  'epub3.epub': {
    book: { title: 'zip', authors: writer('Unknown') },
    series: { language: 'en' },
    skipped: [{ field: 'date', value: '0101-01-01T00:00:00+00:00', reason: 'calibre placeholder for an unknown date' }],
  },
  'epub30-test-0101.epub': {
    book: {
      title: 'EPUBTEST 0101 - Styling Tests',
      summary: 'Tests for Styling',
      authors: writer(
        'Markus Gylling',
        'Vincent Gros',
        'Toshiaki Koike',
        'Marisa DeMeglio',
        'Matt Garrish',
        'Ori Idan',
      ),
    },
    series: { language: 'en' },
  },
  'epub30-test-0103.epub': {
    book: {
      title: 'EPUBTEST 0103 - Font Embedding and Obfuscation Tests',
      summary: 'Tests for Font Embedding and Obfuscation',
      authors: writer(
        'Markus Gylling',
        'Vincent Gros',
        'Toshiaki Koike',
        'Marisa DeMeglio',
        'Matt Garrish',
        'Ori Idan',
      ),
    },
    series: { language: 'en' },
  },
  'epub30-test-0202.epub': {
    book: {
      title: 'EPUBTEST 0202 - FXL Spreads (both) Tests',
      summary: 'Tests for synthetic spreads in both device modes [UNDER CONSTRUCTION]',
      authors: writer('Markus Gylling', 'Joel Strickland'),
    },
    series: { language: 'en' },
  },
  'epub30-test-0211.epub': {
    book: {
      title: 'EPUBTEST 0211 - FXL Page Progression Direction Tests',
      summary: 'Tests for fixed layout page progression direction [UNDER CONSTRUCTION]',
      authors: writer('Markus Gylling', 'Joel Strickland'),
    },
    series: { readingDirection: 'RIGHT_TO_LEFT', language: 'en' },
  },
  // The ISBN in a comment does not count; contributors with roles outside the mapping are left out.
  'kusamakura-japanese-vertical-writing.epub': {
    book: { title: '草枕', authors: writer('夏目 漱石') },
    series: { readingDirection: 'RIGHT_TO_LEFT', language: 'ja-JP' },
  },
  'large-tables.epub': {
    book: {
      title: 'Large tables - Rare epubs',
      summary: 'Test suite for large tables in EPUB',
      releaseDate: '2025-07-30',
      authors: writer('EDRLab'),
    },
    series: { publisher: 'EDRLab', language: 'en' },
  },
  'moby-dick.epub': {
    book: { title: 'Moby-Dick', authors: writer('Herman Melville') },
    series: { publisher: 'Harper & Brothers, Publishers', language: 'en-US' },
  },
  'page-blanche.epub': {
    book: {
      title: 'Page Blanche',
      releaseDate: '2012-01-18',
      authors: [
        { name: 'Boulet', role: 'writer' },
        { name: 'Bagieu Pénélope', role: 'penciller' },
      ],
    },
    series: { publisher: 'éditions Delcourt', language: 'fr' },
  },
  'pub-cmt-gif.epub': {
    book: {
      title: 'pub-cmt-gif',
      summary: 'A GIF image is displayed as part of the XHTML content.',
      releaseDate: '2021-04-01',
      authors: writer('Dan Lazin'),
    },
    series: { publisher: 'W3C', language: 'en' },
  },
  'pub-cmt-webp.epub': {
    book: {
      title: 'pub-cmt-webp',
      summary: 'A WEBP image is displayed as part of the XHTML content.',
      releaseDate: '2021-04-01',
      authors: writer('Dan Lazin'),
    },
    series: { publisher: 'W3C', language: 'en' },
  },
  'zip-as-epub.epub': 'not an EPUB',
};

describe('OPF package documents of the corpus', () => {
  const files = readdirSync(fixture('epub/opf'));
  it('covers every file of epub/opf', () => {
    expect(Object.keys(PACKAGES).sort()).toEqual([...files].sort());
  });
  for (const file of files) {
    it(file, () => {
      expectMetadata(parseOpf(readFileSync(fixture(`epub/opf/${file}`), 'utf8')), PACKAGES[file]!);
    });
  }
});

describe('OPF inside the EPUBs of the corpus', () => {
  const files = readdirSync(fixture('epub')).filter((f) => f.endsWith('.epub'));
  it('covers every EPUB', () => {
    expect(Object.keys(EPUBS).sort()).toEqual([...files].sort());
  });
  for (const file of files) {
    it(file, async () => {
      const expected = EPUBS[file]!;
      const read = withEpub(fixture(`epub/${file}`), async (epub) => parseOpf(epub.opf));
      if (expected === 'not an EPUB') await expect(read).rejects.toMatchObject({ code: 'ERR_1032' });
      else expectMetadata(await read, expected);
    });
  }
});

describe('OPF mapping rules', () => {
  const opf = (metadata: string, spine = '<spine/>') =>
    `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">${metadata}</metadata>${spine}</package>`;

  it('reads dates as dates, years and months as their first day, and refuses the rest', () => {
    const date = (d: string, event = '') => parseOpf(opf(`<dc:date${event}>${d}</dc:date>`)).book.releaseDate;
    expect(date('2020-05-06T23:30:00-05:00')).toBe('2020-05-06');
    expect(date('2020')).toBe('2020-01-01');
    expect(date('2020-07')).toBe('2020-07-01');
    expect(date('2020-02-30')).toBeNull();
    expect(date('May 2020')).toBeNull();
    expect(
      parseOpf(
        opf(
          '<dc:date opf:event="modification">2022-01-01</dc:date><dc:date opf:event="publication">1990-03-04</dc:date>',
        ),
      ).book.releaseDate,
    ).toBe('1990-03-04');
  });

  it('takes the first valid ISBN among the identifiers, urn:isbn included, and says which ones were not', () => {
    const r = parseOpf(
      opf(
        '<dc:identifier opf:scheme="ISBN">978-0-00-000000-1</dc:identifier><dc:identifier>uuid:1</dc:identifier><dc:identifier>urn:isbn:9780553897845</dc:identifier>',
      ),
    );
    expect(r.book.isbn).toBe('9780553897845');
    expect(r.skipped).toEqual([{ field: 'identifier', value: '978-0-00-000000-1', reason: 'not a valid ISBN' }]);
  });

  it('prefers the main title and ignores unknown languages', () => {
    const r = parseOpf(
      opf(
        '<dc:title id="s">Subtitle</dc:title><dc:title id="m">Main</dc:title><meta refines="#m" property="title-type">main</meta>' +
          '<dc:language>klingonish</dc:language><dc:language>FR-be</dc:language>',
      ),
    );
    expect(r.book.title).toBe('Main');
    expect(r.series.language).toBe('fr-BE');
    expect(r.skipped).toEqual([{ field: 'language', value: 'klingonish', reason: 'not a language tag' }]);
  });

  it('keeps the paragraphs of an HTML description as text', () => {
    const r = parseOpf(
      opf(
        '<dc:description>&lt;p&gt;One &amp;amp; two&lt;br/&gt;three&lt;/p&gt;&lt;p&gt;  Four  &lt;/p&gt;</dc:description>',
      ),
    );
    expect(r.book.summary).toBe('One & two\nthree\n\nFour');
  });

  it('reads the direction of the spine', () => {
    expect(parseOpf(opf('', '<spine page-progression-direction="ltr"/>')).series.readingDirection).toBe(
      'LEFT_TO_RIGHT',
    );
    expect(parseOpf(opf('', '<spine page-progression-direction="default"/>')).series.readingDirection).toBeNull();
  });
});

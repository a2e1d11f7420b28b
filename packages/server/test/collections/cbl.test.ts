import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCbl, toCblBook, writeCbl } from '../../src/collections/cbl.js';
import type { ExportedBook } from '../../src/domain/collection.js';
import { fixture } from '../support/fixtures.js';

const book = (over: Partial<ExportedBook> = {}): ExportedBook => ({
  id: 'b',
  name: 'b',
  libraryId: 'l',
  url: 'file:///b.cbz',
  seriesTitle: 'Fables',
  number: '1',
  releaseDate: null,
  links: [],
  ...over,
});

describe('ComicRack reading list writer', () => {
  it('writes the layout of the published lists: Name, NumIssues, Books/Book attributes, Database ids, Matchers', () => {
    const xml = writeCbl('Fables', [
      toCblBook(book({ seriesTitle: 'Fables (2002)', number: '1', releaseDate: '2002-07-01' })),
      toCblBook(
        book({
          seriesTitle: "Jupiter's Circle",
          number: '2',
          releaseDate: '2015-06-03',
          links: [
            { label: 'cv', url: 'https://comicvine.gamespot.com/jupiters-circle-2/4000-487863/' },
            { label: 'cv', url: 'https://comicvine.gamespot.com/jupiters-circle/4050-81244/' },
          ],
        }),
      ),
    ]);
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<ReadingList xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
        '  <Name>Fables</Name>',
        '  <NumIssues>2</NumIssues>',
        '  <Books>',
        '    <Book Series="Fables" Number="1" Volume="2002" Year="2002" />',
        '    <Book Series="Jupiter&apos;s Circle" Number="2" Year="2015">',
        '      <Database Name="cv" Series="81244" Issue="487863" />',
        '    </Book>',
        '  </Books>',
        '  <Matchers />',
        '</ReadingList>',
        '',
      ].join('\n'),
    );
  });

  it('matches the shape of a real list from the fixtures', () => {
    const real = readFileSync(fixture("cbl/[Image] [2013-2024] Jupiter's Legacy.cbl"), 'utf8');
    for (const element of ['<ReadingList', '<Name>', '<NumIssues>', '<Books>', '<Book Series=', '<Database Name="cv"'])
      expect(real).toContain(element);
  });

  it('escapes markup and drops characters XML cannot carry', () => {
    const xml = writeCbl('A & B <"x">', [toCblBook(book({ seriesTitle: 'Tom & Jerry\u0001', number: '<1>' }))]);
    expect(xml).toContain('<Name>A &amp; B &lt;&quot;x&quot;&gt;</Name>');
    expect(xml).toContain('<Book Series="Tom &amp; Jerry" Number="&lt;1&gt;" />');
  });

  it('writes an empty list', () => {
    expect(writeCbl('Nothing', [])).toContain('<NumIssues>0</NumIssues>\n  <Books />');
  });
});

/** The code a parse fails with, or undefined when it parses. */
const failure = (bytes: Uint8Array): string | undefined => {
  try {
    parseCbl(bytes);
    return undefined;
  } catch (e) {
    expect(e).toMatchObject({ status: 400 });
    return (e as Error).message;
  }
};
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('ComicRack reading list reader', () => {
  type Expected =
    { name: string; books: number; first: { series: string; number: string; volume?: string } } | { code: string };
  /** Every file of shared/fixtures/real/cbl, read in place; a new file there fails the test until it is listed. */
  const expected: Record<string, Expected> = {
    'Fables.cbl': { name: 'Fables', books: 20, first: { series: 'Fables', number: '1', volume: '2002' } },
    'ReadingList.xml': { name: 'Civil War', books: 3, first: { series: 'Civil War', number: '1', volume: '2006' } },
    // a smart list: Matchers only, no Book
    'ReadingList_SmartList.xml': { code: 'ERR_1029' },
    '[DC Comics] [1998-1999] The Kingdom - TPB Order.cbl': {
      name: '[DC Comics] [1998-1999] The Kingdom - TPB Order',
      books: 8,
      first: { series: 'Gog (Villains)', number: '1', volume: '1998' },
    },
    "[Image] [2013-2024] Jupiter's Legacy.cbl": {
      name: "Jupiter's Legacy",
      books: 28,
      first: { series: "Jupiter's Circle", number: '1', volume: '2015' }, // written `Jupiter&#39;s Circle`
    },
    '[Marvel] 1961-1970 Part 2.4 Avengers AssembleÔÇªAgain! (MG).cbl': {
      name: '[Marvel] 1961-1970 Part 2.4 Avengers Assemble…Again! (MG)',
      books: 26,
      first: { series: 'Tales to Astonish', number: '60', volume: '1959' },
    },
    '[Marvel] 1971 Kree-Skrull War (WEB-CBRO).cbl': {
      name: '[Marvel] Kree-Skrull War (WEB-CBRO)',
      books: 9,
      first: { series: 'The Avengers', number: '89', volume: '1963' },
    },
    '[Marvel] 2004-2012 Part 13.2 Asgard’s Sin (MG).cbl': {
      name: '[Marvel] 2004-2012 Part 13.2 Asgard’s Sin (MG)',
      books: 26,
      first: { series: 'Fear Itself', number: '1', volume: '2011' },
    },
    '[Marvel] 2021-2023 Part 6.1 Missing Moment (MG).cbl': {
      name: '[Marvel] 2021-2024 Part 6.1 Missing Moment (MG)',
      books: 1,
      first: { series: 'Timeless', number: '1', volume: '2022' },
    },
    '[Marvel] CMRO Western Reading Order.cbl': {
      name: '[Marvel] CMRO Western Reading Order',
      books: 820,
      first: { series: 'Marvel Comics', number: '1', volume: '1939' },
    },
    "[Marvel] Reed Richards and Sue Storm's Wedding (WEB-CBRO).cbl": {
      name: "[Marvel] Reed Richards and Sue Storm's Wedding (WEB-CBRO)",
      books: 1,
      first: { series: 'Fantastic Four Annual', number: '3', volume: '1963' },
    },
    '[Marvel] Spider-Man Original Clone Saga (WEB-CBRO).cbl': {
      name: '[Marvel] Spider-Man Original Clone Saga (WEB-CBRO)',
      books: 13,
      first: { series: 'The Amazing Spider-Man', number: '139', volume: '1963' },
    },
    '[Marvel] X-Men no events (WEB-CBRO).cbl': {
      name: '[Marvel] X-Men no events (WEB-CBRO)',
      books: 1154,
      first: { series: 'The X-Men', number: '1', volume: '1963' },
    },
    '[Spider-Man] 69 - Secret Empire.cbl': {
      name: '[Spider-Man] 69 - Secret Empire',
      books: 15,
      first: { series: 'Secret Empire', number: '0', volume: '2017' },
    },
  };

  it('knows every file of the real lists', () => {
    expect(readdirSync(fixture('cbl')).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s', (file, want) => {
    const bytes = readFileSync(fixture(`cbl/${file}`));
    if ('code' in want) {
      expect(failure(bytes)).toBe(want.code);
      return;
    }
    const list = parseCbl(bytes);
    expect(list.name).toBe(want.name);
    expect(list.books).toHaveLength(want.books);
    expect(list.books[0]).toEqual(want.first);
    // every book of a list that parses has its series and number
    for (const b of list.books) expect(b.series && typeof b.number === 'string').toBeTruthy();
  });

  it('reads values given as elements as well as attributes, trims them, and keeps the order', () => {
    const list = parseCbl(
      utf8(`<ReadingList><Name> Mixed </Name><Books>
        <Book><Series> Saga </Series><Number> 002 </Number><Volume>2012</Volume></Book>
        <Book Series="Saga" Number="1" /></Books></ReadingList>`),
    );
    expect(list).toEqual({
      name: 'Mixed',
      books: [
        { series: 'Saga', number: '002', volume: '2012' },
        { series: 'Saga', number: '1' },
      ],
    });
  });

  it('reads a list written in UTF-16 with its byte-order mark', () => {
    const text = '<ReadingList><Name>Éte</Name><Books><Book Series="Été" Number="1"/></Books></ReadingList>';
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(parseCbl(bytes).books[0]!.series).toBe('Été');
  });

  it.each([
    ['bytes that are not text', Uint8Array.from([0x3c, 0x52, 0xff, 0xfe, 0x00, 0xc3])],
    ['text without any element', utf8('{"Name": "json, not xml"}')],
    ['elements nested past the markup limit', utf8('<ReadingList>' + '<a>'.repeat(2000))],
  ])('refuses %s as malformed (ERR_1015)', (_what, bytes) => {
    expect(failure(bytes)).toBe('ERR_1015');
  });

  it.each([
    ['no Name', '<ReadingList><Books><Book Series="A" Number="1"/></Books></ReadingList>', 'ERR_1030'],
    [
      'a blank Name',
      '<ReadingList><Name>  </Name><Books><Book Series="A" Number="1"/></Books></ReadingList>',
      'ERR_1030',
    ],
    ['no Books', '<ReadingList><Name>L</Name></ReadingList>', 'ERR_1029'],
    ['an empty Books', '<ReadingList><Name>L</Name><Books></Books></ReadingList>', 'ERR_1029'],
    [
      'a book without series',
      '<ReadingList><Name>L</Name><Books><Book Series="A" Number="1"/><Book Number="2"/></Books></ReadingList>',
      'ERR_1031',
    ],
    [
      'a book with a blank series',
      '<ReadingList><Name>L</Name><Books><Book Series=" " Number="2"/></Books></ReadingList>',
      'ERR_1031',
    ],
    [
      'a book without number',
      '<ReadingList><Name>L</Name><Books><Book Series="A" Volume="2000"/></Books></ReadingList>',
      'ERR_1031',
    ],
  ])('refuses a list with %s', (_what, xml, code) => {
    expect(failure(utf8(xml))).toBe(code);
  });
});

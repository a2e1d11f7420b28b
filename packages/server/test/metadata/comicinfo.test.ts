import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  comicInfoEntryOf,
  IGNORED_ELEMENTS,
  isComicInfoCandidate,
  parseComicInfo,
  type ComicInfo,
} from '../../src/metadata/comicinfo.js';
import { emptyBookPatch, emptySeriesPatch } from '../../src/metadata/patch.js';
import { fixture } from '../support/fixtures.js';

const read = (name: string) => readFileSync(fixture(`comicinfo/${name}`), 'utf8');
const parse = (xml: string, appendVolume = true) => parseComicInfo(xml, { appendVolume });
const doc = (body: string) => `<?xml version="1.0"?><ComicInfo>${body}</ComicInfo>`;

const credits = (role: string, ...names: string[]) => names.map((name) => ({ name, role }));

/** Every ComicInfo document of the corpus, what it gives, field by field (engine.md §6.3). */
const EXPECTED: Record<string, Omit<ComicInfo, 'book' | 'series'> & { book: object; series: object }> = {
  'ComicInfo-ComicSlider-MarvelZombies4.xml': {
    book: {
      title: 'Night Shift',
      summary: expect.stringMatching(/^Straight from the Dark Reign comes…The Hood! .* if he comes with her\.$/s),
      number: '2',
      numberSort: 2,
      releaseDate: '2009-07-01',
      authors: [
        ...credits('writer', 'Fred Van Lente'),
        ...credits('penciller', 'Kevin Walker'),
        ...credits('inker', 'Kevin Walker'),
        ...credits('colorist', 'Jean-Francois Beaulieu'),
        ...credits('letterer', 'Rus Wooton'),
        ...credits('cover', 'Greg Land', 'Justin Ponsor'),
        ...credits('editor', 'Bill Rosemann', 'Joe Quesada', 'Michael Horwitz', 'Ralph Macchio'),
      ],
      tags: null,
      isbn: null,
      links: [{ label: 'www.comicvine.com', url: 'http://www.comicvine.com/' }],
      readLists: [{ name: 'Dark Reign', number: null }],
    },
    series: {
      title: 'Marvel Zombies 4 (2009)',
      titleSort: 'Marvel Zombies 4 (2009)',
      status: null,
      summary: null,
      readingDirection: null,
      publisher: 'Marvel',
      ageRating: null,
      language: null,
      genres: null,
      totalBookCount: 4,
      collections: [],
    },
    skipped: [],
  },
  'ComicInfo-complete.xml': {
    book: {
      title: 'Test Title',
      // Escaped HTML in Summary is shown as text, not as tags.
      summary: 'Test summary inner tag',
      number: '24',
      numberSort: 24,
      releaseDate: '2013-12-01',
      authors: [
        ...credits('writer', 'Test Writer1', 'Test Writer2'),
        ...credits('penciller', 'Test Penciller1', 'Test Penciller2'),
        ...credits('inker', 'Test Inker1', 'Test Inker2'),
        ...credits('colorist', 'Test Colorist1', 'Test Colorist2'),
        ...credits('letterer', 'Test Letterer1', 'Test Letterer2'),
        ...credits('cover', 'Test CoverArtist1', 'Test CoverArtist2'),
        ...credits('editor', 'Test Editor1', 'Test Editor2'),
      ],
      tags: null,
      isbn: null,
      links: [{ label: 'comicvine.gamespot.com', url: 'http://comicvine.gamespot.com/foo/71765-12971/' }],
      readLists: [{ name: 'Test Alternate Series', number: null }],
    },
    series: {
      ...emptySeriesPatch(),
      title: 'Test Series (2011)',
      titleSort: 'Test Series (2011)',
      publisher: 'Test Publisher',
    },
    skipped: [],
  },
  'ComicInfo-kavita.xml': {
    book: {
      ...emptyBookPatch(),
      title: 'v01',
      summary: expect.stringMatching(/^By all counts, Ryouta Sakamoto is a loser .* playing for his life!\?$/),
      links: [{ label: 'www.comixology.com', url: 'https://www.comixology.com/BTOOOM/digital-comic/450184' }],
    },
    series: {
      ...emptySeriesPatch(),
      title: 'BTOOOM!',
      titleSort: 'BTOOOM!',
      publisher: 'Yen Press',
      language: 'en',
      genres: ['Manga', 'Movies & TV'],
    },
    skipped: [],
  },
  'ComicInfo-komga-sandman.xml': {
    book: {
      ...emptyBookPatch(),
      title: 'v01 - Preludes & Nocturnes - 30th Anniversary Edition',
      // The pretty-printing indentation goes; paragraphs stay.
      summary: expect.stringMatching(
        /^Neil Gaiman's seminal series, THE SANDMAN, celebrates .* THE\nSANDMAN VOL\. 1: PRELUDES & NOCTURNES!\n\nNew York Times .*\n\nCollects THE SANDMAN #1-8\.$/s,
      ),
      authors: credits('translator', 'The translator'),
      tags: ['dark', 'occult'],
      links: [{ label: 'www.comixology.com', url: 'https://www.comixology.com/Sandman/digital-comic/727888' }],
    },
    series: {
      ...emptySeriesPatch(),
      title: 'Sandman',
      titleSort: 'Sandman',
      readingDirection: 'LEFT_TO_RIGHT',
      publisher: 'DC',
      ageRating: 17,
      language: 'en',
      genres: ['Fantasy', 'Supernatural/Occult', 'Horror', 'Mature', 'Superhero', 'Mythology', 'Drama'],
      totalBookCount: 10,
      collections: ['Sandman'],
    },
    skipped: [],
  },
  'ComicInfo_StoryArc.xml': {
    book: { ...emptyBookPatch(), readLists: [{ name: 'Arc', number: 2 }] },
    series: emptySeriesPatch(),
    skipped: [],
  },
  'InvalidEnumValues.xml': {
    book: emptyBookPatch(),
    series: emptySeriesPatch(),
    skipped: [
      { field: 'Manga', value: 'Non existent', reason: 'unknown value' },
      { field: 'AgeRating', value: 'Non existent', reason: 'unknown value' },
    ],
  },
  // Repeated elements: the first one counts. A Day without a Year is no date.
  'comicinfo-bad-multiple.xml': {
    book: emptyBookPatch(),
    series: {
      ...emptySeriesPatch(),
      publisher: 'Youthful Adventure Stories',
      genres: ['Science Fiction', 'Fantasy'],
      totalBookCount: 7,
    },
    skipped: [],
  },
};

describe('ComicInfo.xml files of the corpus', () => {
  const files = readdirSync(fixture('comicinfo')).filter((f) => f.endsWith('.xml'));

  it('covers every ComicInfo document of the corpus', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...files].sort());
  });

  for (const file of files) {
    it(file, () => {
      const expected = EXPECTED[file]!;
      const result = parse(read(file))!;
      expect(result).not.toBeNull();
      for (const [field, value] of Object.entries(expected.book))
        expect({ field, value: result.book[field as keyof typeof result.book] }).toEqual({ field, value });
      for (const [field, value] of Object.entries(expected.series))
        expect({ field, value: result.series[field as keyof typeof result.series] }).toEqual({ field, value });
      expect(result.skipped).toEqual(expected.skipped);
    });
  }

  it.each(['related/CoMet.xml', 'related/metroninfo.xml'])('%s is not a ComicInfo document', (file) => {
    expect(parse(read(file))).toBeNull();
  });

  it('the series title is the raw Series when appending the volume is off', () => {
    expect(parse(read('ComicInfo-ComicSlider-MarvelZombies4.xml'), false)!.series.title).toBe('Marvel Zombies 4');
  });
});

describe('ComicInfo schemas (v1, v2, v2.1 draft)', () => {
  const schemaElements = (xsd: string) => {
    const type = /<xs:complexType name="ComicInfo">([\s\S]*?)<\/xs:complexType>/.exec(xsd)![1]!;
    return [...type.matchAll(/<xs:element [^>]*name="([^"]+)"[^>]*type="([^"]+)"/g)].map((m) => ({
      name: m[1]!,
      type: m[2]!,
    }));
  };
  const sample = (type: string) =>
    ({
      'xs:int': '3',
      'xs:string': 'Sample One, Sample Two',
      YesNo: 'No',
      Manga: 'YesAndRightToLeft',
      AgeRating: 'Teen',
      Rating: '4',
      ArrayOfComicPageInfo: '<Page Image="0" Type="FrontCover"/>',
    })[type];
  // Elements that only mean something next to another one get their partner in the base document.
  const base = { Series: 'Base', Year: '2000', AlternateSeries: 'Alternate', StoryArc: 'Arc' };
  const build = (extra: Record<string, string>) =>
    doc(
      Object.entries({ ...base, ...extra })
        .map(([k, v]) => `<${k}>${v}</${k}>`)
        .join(''),
    );
  const baseline = JSON.stringify(parse(build({})));

  for (const xsd of ['ComicInfo-v1.0.xsd', 'ComicInfo-v2.0.xsd', 'ComicInfo-v2.1-draft.xsd']) {
    it(`${xsd}: every element is either mapped or deliberately ignored`, () => {
      const elements = schemaElements(read(xsd));
      expect(elements.length).toBeGreaterThan(25);
      for (const { name, type } of elements) {
        const value = sample(type);
        expect({ name, type, value }).toEqual({ name, type, value: expect.any(String) });
        const changed = JSON.stringify(parse(build({ [name]: value! }))) !== baseline;
        const ignored = (IGNORED_ELEMENTS as readonly string[]).includes(name);
        expect({ name, changesTheResult: changed }).toEqual({ name, changesTheResult: !ignored });
      }
    });
  }

  it('every AgeRating of the v2 schemas has an age (or none for Unknown and Rating Pending)', () => {
    const ages = {
      Unknown: null,
      'Adults Only 18+': 18,
      'Early Childhood': 3,
      Everyone: 0,
      'Everyone 10+': 10,
      G: 0,
      'Kids to Adults': 6,
      M: 17,
      'MA15+': 15,
      'Mature 17+': 17,
      PG: 8,
      'R18+': 18,
      'Rating Pending': null,
      Teen: 13,
      'X18+': 18,
    };
    const enumeration = /<xs:simpleType name="AgeRating">([\s\S]*?)<\/xs:simpleType>/.exec(
      read('ComicInfo-v2.1-draft.xsd'),
    )![1]!;
    const values = [...enumeration.matchAll(/value="([^"]*)"/g)].map((m) => m[1]!);
    expect(values.sort()).toEqual(Object.keys(ages).sort());
    for (const [value, age] of Object.entries(ages)) {
      const r = parse(doc(`<AgeRating>${value}</AgeRating>`))!;
      expect({ value, age: r.series.ageRating, skipped: r.skipped }).toEqual({ value, age, skipped: [] });
    }
    // Matched ignoring case and spaces.
    expect(parse(doc('<AgeRating> ma 15+ </AgeRating>'))!.series.ageRating).toBe(15);
  });
});

describe('ComicInfo mapping rules', () => {
  it('keeps the elements that parse when one does not, and says what it left out', () => {
    const r = parse(
      doc(
        '<Title>Kept</Title><Series>S</Series><Volume>2011a</Volume><Year>2021</Year><Month>2</Month><Day>30</Day>' +
          '<Count>many</Count><Publisher>P</Publisher><LanguageISO>japanese</LanguageISO><GTIN>4006381333931</GTIN>' +
          '<Web>ftp://example.org/x https://example.org/ok not-a-url</Web><Number>1a</Number>',
      ),
    )!;
    expect(r.book.title).toBe('Kept');
    expect(r.book.number).toBe('1a');
    expect(r.book.numberSort).toBeNull();
    expect(r.book.releaseDate).toBeNull();
    expect(r.book.isbn).toBeNull();
    expect(r.book.links).toEqual([{ label: 'example.org', url: 'https://example.org/ok' }]);
    expect(r.series).toMatchObject({ title: 'S', publisher: 'P', totalBookCount: null, language: null });
    expect(r.skipped).toEqual([
      { field: 'Number', value: '1a', reason: 'not a number: the sort number is left as it is' },
      { field: 'Year', value: '2021-2-30', reason: 'not a calendar date' },
      { field: 'Web', value: 'ftp://example.org/x', reason: 'not an http(s) link' },
      { field: 'Web', value: 'not-a-url', reason: 'not a URL' },
      { field: 'GTIN', value: '4006381333931', reason: 'not an ISBN' },
      { field: 'Volume', value: '2011a', reason: 'not an integer' },
      { field: 'LanguageISO', value: 'japanese', reason: 'not a language tag' },
      { field: 'Count', value: 'many', reason: 'not an integer' },
    ]);
  });

  it('reads the release date from Year, Month and Day, defaulting to the first', () => {
    expect(parse(doc('<Year>1999</Year>'))!.book.releaseDate).toBe('1999-01-01');
    expect(parse(doc('<Year>2020</Year><Month>2</Month><Day>29</Day>'))!.book.releaseDate).toBe('2020-02-29');
    expect(parse(doc('<Month>2</Month><Day>3</Day>'))!.book.releaseDate).toBeNull();
  });

  it('sorts by Number the way Java reads floats', () => {
    const sort = (n: string) => parse(doc(`<Number>${n}</Number>`))!.book.numberSort;
    expect(sort('1.5')).toBe(1.5);
    expect(sort(' 12 ')).toBe(12);
    expect(sort('1e2')).toBe(100);
    expect(sort('3f')).toBe(3);
    expect(sort('-1')).toBe(-1);
    expect(sort('NaN')).toBeNull();
    expect(sort('½')).toBeNull();
  });

  it('pairs story arcs with their numbers by position', () => {
    const lists = (arc: string, numbers?: string) =>
      parse(
        doc(`<StoryArc>${arc}</StoryArc>${numbers === undefined ? '' : `<StoryArcNumber>${numbers}</StoryArcNumber>`}`),
      )!.book.readLists;
    expect(lists('one, , three', '6, 7, 8')).toEqual([
      { name: 'one', number: 6 },
      { name: 'three', number: 8 },
    ]);
    expect(lists('one, , three', '6, x, 8')).toEqual([
      { name: 'one', number: 6 },
      { name: 'three', number: 8 },
    ]);
    expect(lists('one, two', '6')).toEqual([{ name: 'one', number: 6 }]);
    expect(lists('one, , two')).toEqual([
      { name: 'one', number: null },
      { name: 'two', number: null },
    ]);
    expect(
      parse(doc('<AlternateSeries>Alt</AlternateSeries><AlternateNumber>4</AlternateNumber>'))!.book.readLists,
    ).toEqual([{ name: 'Alt', number: 4 }]);
  });

  it('maps Manga exactly: No and YesAndRightToLeft give a direction, Yes and Unknown none', () => {
    const direction = (v: string) => parse(doc(`<Manga>${v}</Manga>`))!.series.readingDirection;
    expect(direction('No')).toBe('LEFT_TO_RIGHT');
    expect(direction('YesAndRightToLeft')).toBe('RIGHT_TO_LEFT');
    expect(direction('Yes')).toBeNull();
    expect(direction('Unknown')).toBeNull();
    expect(direction('yes')).toBeNull();
  });

  it('turns GTIN ISBNs, ISBN-10 included, into 13 digits', () => {
    const isbn = (v: string) => parse(doc(`<GTIN>${v}</GTIN>`))!.book.isbn;
    expect(isbn('978-0-553-89784-5')).toBe('9780553897845');
    expect(isbn('0-553-89784-5')).toBe('9780553897845');
    expect(isbn('ISBN 9780553897845')).toBe('9780553897845');
    expect(isbn('9780553897846')).toBeNull();
  });

  it('splits credits, tags, genres and series groups on commas; tags are lower-cased', () => {
    const r = parse(
      doc(
        '<Writer>A , B,,</Writer><Tags>Dark, OCCULT, dark</Tags><Genre>Horror, ,Drama</Genre><SeriesGroup>G1, G2</SeriesGroup>',
      ),
    )!;
    expect(r.book.authors).toEqual([
      { name: 'A', role: 'writer' },
      { name: 'B', role: 'writer' },
    ]);
    expect(r.book.tags).toEqual(['dark', 'occult']);
    expect(r.series.genres).toEqual(['Horror', 'Drama']);
    expect(r.series.collections).toEqual(['G1', 'G2']);
  });

  it('normalises the language to BCP 47 and ignores counts that are not counts', () => {
    expect(parse(doc('<LanguageISO>en-us</LanguageISO>'))!.series.language).toBe('en-US');
    expect(parse(doc('<LanguageISO>fra</LanguageISO>'))!.series.language).toBe('fr');
    expect(parse(doc('<Count>-1</Count>'))!.series.totalBookCount).toBeNull();
  });

  it('reads element names ignoring case, exact names first; blank elements say nothing', () => {
    expect(parse(doc('<title>lower</title>'))!.book.title).toBe('lower');
    expect(parse(doc('<title>lower</title><Title>Exact</Title>'))!.book.title).toBe('Exact');
    expect(parse(doc('<Series/><Title>  </Title>'))!.series.title).toBeNull();
    expect(parse(doc('<Series/>'), false)!.series.title).toBeNull();
    expect(parse(doc('<Title>T</Title>'))!.book.title).toBe('T');
  });

  it('refuses documents that are not ComicInfo', () => {
    expect(parse('')).toBeNull();
    expect(parse('not xml at all')).toBeNull();
    expect(parse('<comet><title>x</title></comet>')).toBeNull();
  });
});

describe('the ComicInfo entry of an archive', () => {
  it('takes the exact name at the root first, then another letter case at the root', () => {
    expect(comicInfoEntryOf(['comicinfo.xml', 'ComicInfo.xml', 'x/ComicInfo.xml'])).toBe('ComicInfo.xml');
    expect(comicInfoEntryOf(['x/ComicInfo.xml', 'COMICINFO.XML'])).toBe('COMICINFO.XML');
  });

  it('takes the only one in a folder when the root has none, and none of several', () => {
    expect(comicInfoEntryOf(['Vol 1/comicinfo.xml', 'notes.txt'])).toBe('Vol 1/comicinfo.xml');
    expect(comicInfoEntryOf(['a/ComicInfo.xml', 'b/ComicInfo.xml'])).toBeNull();
    expect(comicInfoEntryOf(['MyComicInfo.xml', 'ComicInfo.xml.bak'])).toBeNull();
  });

  it('keeps, while the analysis reads, every entry the choice can fall on', () => {
    for (const name of ['ComicInfo.xml', 'comicinfo.XML', 'a/b/ComicInfo.xml'])
      expect(isComicInfoCandidate(name)).toBe(true);
    for (const name of ['MyComicInfo.xml', 'a/MyComicInfo.xml', 'ComicInfo.xml.bak'])
      expect(isComicInfoCandidate(name)).toBe(false);
  });
});

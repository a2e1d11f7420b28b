import { describe, expect, it } from 'vitest';
import type { BookMetadata, SeriesMetadata } from '../../src/domain/metadata.js';
import { aggregateBooks, aggregateSeriesPatches } from '../../src/metadata/aggregation.js';
import { bookUpdate, seriesUpdate } from '../../src/metadata/metadata-editing.js';
import {
  bookChanges,
  emptyBookPatch,
  emptySeriesPatch,
  fieldsOf,
  mergeBookPatches,
  seriesChanges,
} from '../../src/metadata/patch.js';
import {
  calendarDate,
  canonicalLanguage,
  isbn13FromInput,
  isbnFromText,
  isCalendarDate,
  linkUrlProblem,
} from '../../src/metadata/validation.js';

const ALL = fieldsOf(['TITLE', 'SUMMARY', 'NUMBER', 'NUMBER_SORT', 'RELEASE_DATE', 'AUTHORS', 'TAGS', 'ISBN', 'LINKS']);

const book = (over: Partial<BookMetadata> = {}): BookMetadata => ({
  title: 'Old',
  titleLock: false,
  summary: '',
  summaryLock: false,
  number: '1',
  numberLock: false,
  numberSort: 1,
  numberSortLock: false,
  releaseDate: null,
  releaseDateLock: false,
  authors: [],
  authorsLock: false,
  tags: [],
  tagsLock: false,
  isbn: '',
  isbnLock: false,
  links: [],
  linksLock: false,
  ...over,
});

const series = (over: Partial<SeriesMetadata> = {}): SeriesMetadata => ({
  status: 'ONGOING',
  statusLock: false,
  title: 'Folder',
  titleLock: false,
  titleSort: 'Folder',
  titleSortLock: false,
  summary: '',
  summaryLock: false,
  readingDirection: null,
  readingDirectionLock: false,
  publisher: '',
  publisherLock: false,
  ageRating: null,
  ageRatingLock: false,
  language: '',
  languageLock: false,
  genres: [],
  genresLock: false,
  tags: [],
  tagsLock: false,
  totalBookCount: null,
  totalBookCountLock: false,
  sharingLabels: [],
  sharingLabelsLock: false,
  links: [],
  linksLock: false,
  alternateTitles: [],
  alternateTitlesLock: false,
  ...over,
});

describe('validation helpers (spec.md §5)', () => {
  it('checks ISBN-13 check digits and converts ISBN-10 found in files', () => {
    expect(isbn13FromInput('978-0-553-89784-5')).toBe('9780553897845');
    expect(isbn13FromInput('9780553897846')).toBeNull();
    expect(isbn13FromInput('0553897845')).toBeNull();
    expect(isbn13FromInput('4006381333931')).toBeNull();
    expect(isbnFromText('0-553-89784-5')).toBe('9780553897845');
    expect(isbnFromText('080442957X')).toBe('9780804429573');
    expect(isbnFromText('ISBN-13: 978 0 553 89784 5')).toBe('9780553897845');
    expect(isbnFromText('urn:isbn:9780553897845')).toBe('9780553897845');
    expect(isbnFromText('12345')).toBeNull();
  });

  it('canonicalises BCP 47 tags and refuses what is not an ISO 639 language', () => {
    expect(canonicalLanguage('en-us')).toBe('en-US');
    expect(canonicalLanguage('fra-be')).toBe('fr-BE');
    expect(canonicalLanguage('JA')).toBe('ja');
    expect(canonicalLanguage('zh-Hant-TW')).toBe('zh-Hant-TW');
    for (const bad of ['japanese', 'xx', 'und', 'en_US', '123', '', '  '])
      expect({ bad, tag: canonicalLanguage(bad) }).toEqual({ bad, tag: null });
  });

  it('accepts absolute http(s) links only', () => {
    expect(linkUrlProblem('https://example.org/a?b')).toBeNull();
    expect(linkUrlProblem('http://localhost:8080')).toBeNull();
    expect(linkUrlProblem('ftp://example.org')).toBe('scheme');
    expect(linkUrlProblem('javascript:alert(1)')).toBe('scheme');
    expect(linkUrlProblem('example.org')).toBe('invalid');
    expect(linkUrlProblem('')).toBe('invalid');
  });

  it('accepts real calendar days in YYYY-MM-DD only', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2023-13-01')).toBe(false);
    expect(isCalendarDate('2023-1-01')).toBe(false);
    expect(isCalendarDate('20230101')).toBe(false);
    expect(calendarDate(1900, 2, 29)).toBeNull();
    expect(calendarDate(2000, 2, 29)).toBe('2000-02-29');
    expect(calendarDate(101, 1, 1)).toBe('0101-01-01');
  });
});

describe('applying a patch (engine.md §6.2)', () => {
  it('sets what the patch says, except locked fields; null says nothing', () => {
    const patch = {
      ...emptyBookPatch(),
      title: ' New ',
      summary: 'Sum',
      authors: [{ name: ' A ', role: 'Writer' }],
      tags: ['B', 'a', 'b'],
      isbn: '9780553897845',
    };
    const current = book({ summaryLock: true, tags: ['x'], releaseDate: '2000-01-01' });
    expect(bookChanges(current, patch, ALL)).toEqual({
      title: 'New',
      authors: [{ name: 'A', role: 'writer' }],
      tags: ['b', 'a'],
      isbn: '9780553897845',
    });
  });

  it('applies only the fields of the capabilities asked for', () => {
    const patch = { ...emptyBookPatch(), title: 'T', number: '7', numberSort: 7 };
    expect(bookChanges(book(), patch, fieldsOf(['NUMBER', 'NUMBER_SORT']))).toEqual({ number: '7', numberSort: 7 });
    expect(bookChanges(book(), patch, fieldsOf([]))).toEqual({});
  });

  it('leaves out what would not change', () => {
    const patch = { ...emptyBookPatch(), title: 'Old', tags: ['b', 'a'] };
    expect(bookChanges(book({ tags: ['a', 'b'] }), patch, ALL)).toEqual({});
  });

  it('later patches win where they say something', () => {
    const merged = mergeBookPatches([
      { ...emptyBookPatch(), isbn: '9780553897845', title: 'first', readLists: [{ name: 'a', number: 1 }] },
      { ...emptyBookPatch(), title: 'second', readLists: [{ name: 'b', number: null }] },
    ]);
    expect(merged).toMatchObject({
      isbn: '9780553897845',
      title: 'second',
      readLists: [
        { name: 'a', number: 1 },
        { name: 'b', number: null },
      ],
    });
  });

  it('series: locks hold, genres are lower-cased, tags and lists are not imported', () => {
    const patch = {
      ...emptySeriesPatch(),
      title: 'T',
      titleSort: 'T',
      publisher: 'P',
      genres: ['Horror', 'horror', 'Drama'],
      ageRating: 0,
      readingDirection: 'RIGHT_TO_LEFT' as const,
    };
    expect(seriesChanges(series({ titleSortLock: true, publisherLock: true }), patch)).toEqual({
      title: 'T',
      genres: ['horror', 'drama'],
      ageRating: 0,
      readingDirection: 'RIGHT_TO_LEFT',
    });
  });
});

describe('aggregation', () => {
  it('of series patches: most frequent value (first on ties), union of genres, largest age and count', () => {
    const p = (over: object) => ({ ...emptySeriesPatch(), ...over });
    const agg = aggregateSeriesPatches([
      p({ title: 'A', publisher: 'X', genres: ['g1'], ageRating: 12, totalBookCount: 3, collections: ['c1'] }),
      p({ title: 'B', publisher: 'Y', genres: ['G2'], ageRating: 16, collections: ['c1', 'c2'] }),
      p({ title: 'B', genres: ['g1'], totalBookCount: 5, summary: 'ignored' }),
      p({}),
    ]);
    expect(agg).toEqual({
      ...emptySeriesPatch(),
      title: 'B',
      publisher: 'X',
      genres: ['g1', 'g2'],
      ageRating: 16,
      totalBookCount: 5,
      collections: ['c1', 'c2'],
    });
    expect(aggregateSeriesPatches([])).toEqual(emptySeriesPatch());
  });

  it('of books: distinct authors in order, tags, earliest date, summary of the first book that has one', () => {
    const b = (number: string, over: object) => ({
      bookId: number,
      number,
      numberSort: Number(number),
      summary: '',
      releaseDate: null,
      authors: [],
      tags: [],
      ...over,
    });
    expect(
      aggregateBooks([
        b('1', { authors: [{ name: 'W', role: 'writer' }], tags: ['z'], releaseDate: '2001-05-01' }),
        b('2', {
          summary: 'Second',
          authors: [
            { name: 'W', role: 'writer' },
            { name: 'W', role: 'cover' },
          ],
        }),
        b('3', { summary: 'Third', tags: ['a', 'z'], releaseDate: '1999-12-31' }),
      ]),
    ).toEqual({
      authors: [
        { name: 'W', role: 'writer' },
        { name: 'W', role: 'cover' },
      ],
      tags: ['a', 'z'],
      releaseDate: '1999-12-31',
      summary: 'Second',
      summaryNumber: '2',
    });
  });
});

describe('edit bodies (api.md §4.1-4.2)', () => {
  it('book: null clears summary, date, lists and isbn, and leaves title and number alone', () => {
    const { changes, violations } = bookUpdate({
      title: null,
      number: null,
      numberSort: null,
      summary: null,
      releaseDate: null,
      authors: null,
      tags: null,
      isbn: null,
      links: null,
      titleLock: null,
      summaryLock: true,
    });
    expect(violations).toEqual([]);
    expect(changes).toEqual({
      summary: '',
      releaseDate: null,
      authors: [],
      tags: [],
      isbn: '',
      links: [],
      summaryLock: true,
    });
  });

  it('book: values are tidied; setting a value does not lock it', () => {
    const { changes } = bookUpdate({
      title: ' T ',
      isbn: '978-0-553-89784-5',
      tags: ['A', ' a ', 'B'],
      authors: [{ name: ' N ', role: ' Writer ' }],
      links: [{ label: ' Site ', url: ' https://example.org ' }],
    });
    expect(changes).toEqual({
      title: 'T',
      isbn: '9780553897845',
      tags: ['a', 'b'],
      authors: [{ name: 'N', role: 'writer' }],
      links: [{ label: 'Site', url: 'https://example.org' }],
    });
  });

  it('series: null clears direction, age, count and lists, and leaves the rest alone; language canonical', () => {
    const { changes, violations } = seriesUpdate({
      status: null,
      title: null,
      summary: null,
      publisher: null,
      language: 'en-gb',
      readingDirection: null,
      ageRating: null,
      totalBookCount: null,
      genres: null,
      tags: null,
      sharingLabels: null,
      links: null,
      alternateTitles: null,
    });
    expect(violations).toEqual([]);
    expect(changes).toEqual({
      language: 'en-GB',
      readingDirection: null,
      ageRating: null,
      totalBookCount: null,
      genres: [],
      tags: [],
      sharingLabels: [],
      links: [],
      alternateTitles: [],
    });
    expect(seriesUpdate({ status: 'HIATUS', readingDirection: 'WEBTOON', language: '' }).changes).toEqual({
      status: 'HIATUS',
      readingDirection: 'WEBTOON',
      language: '',
    });
  });
});

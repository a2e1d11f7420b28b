import { describe, expect, it } from 'vitest';
import { authorsByRole, bookFormat, compactBookTitle } from './detail/format';
import { libraryBrowsePath, seriesBooksPath } from './detail/links';
import { collectionSeriesParams, readListBooksParams } from './listFilters';
import { seriesBooksCondition } from './bookFilters';
import { buildBook } from './test-fixtures';

describe('series books filter', () => {
  it('is the series alone without filters', () => {
    expect(seriesBooksCondition('s1', {})).toEqual({ seriesId: { operator: 'is', value: 's1' } });
  });

  it('ORs values within a group, ANDs groups, and honours all-of and exclusions', () => {
    const condition = seriesBooksCondition('s1', {
      readStatus: ['is:UNREAD', 'is:IN_PROGRESS'],
      deleted: ['isTrue'],
      tag: ['is:a', 'isNot:b'],
      allOf: ['tag'],
      writer: ['is:Jane', 'is:John'],
      mediaProfile: ['is:EPUB'],
    });
    expect(condition).toEqual({
      allOf: [
        { seriesId: { operator: 'is', value: 's1' } },
        {
          anyOf: [
            { readStatus: { operator: 'is', value: 'UNREAD' } },
            { readStatus: { operator: 'is', value: 'IN_PROGRESS' } },
          ],
        },
        { deleted: { operator: 'isTrue' } },
        { mediaProfile: { operator: 'is', value: 'EPUB' } },
        { allOf: [{ tag: { operator: 'is', value: 'a' } }, { tag: { operator: 'isNot', value: 'b' } }] },
        {
          anyOf: [
            { author: { operator: 'is', value: { name: 'Jane', role: 'writer' } } },
            { author: { operator: 'is', value: { name: 'John', role: 'writer' } } },
          ],
        },
      ],
    });
  });

  it('reads "any" and "none" of a role or tag', () => {
    expect(seriesBooksCondition('s1', { penciller: ['isNull'], tag: ['isNotNull'] })).toEqual({
      allOf: [
        { seriesId: { operator: 'is', value: 's1' } },
        { tag: { operator: 'isNotNull' } },
        { author: { operator: 'isNot', value: { role: 'penciller' } } },
      ],
    });
  });
});

describe('list filters as query parameters', () => {
  it('maps a collection filter to the series endpoint parameters', () => {
    expect(
      collectionSeriesParams({
        readStatus: ['is:READ'],
        complete: ['isFalse'],
        library: ['is:lib-1'],
        genre: ['is:Drama'],
        ageRating: ['is:16'],
        releaseYear: ['is:2012'],
        writer: ['is:Jane, Jr.'],
      }),
    ).toEqual({
      read_status: ['READ'],
      complete: false,
      library_id: ['lib-1'],
      status: undefined,
      genre: ['Drama'],
      tag: undefined,
      publisher: undefined,
      language: undefined,
      age_rating: ['16'],
      release_year: ['2012'],
      author: ['Jane, Jr.,writer'],
    });
  });

  it('maps a read list filter to the books endpoint parameters', () => {
    expect(readListBooksParams({ tag: ['is:x'], colorist: ['is:Ann'] })).toEqual({
      read_status: undefined,
      library_id: undefined,
      tag: ['x'],
      author: ['Ann,colorist'],
    });
  });
});

describe('links', () => {
  it('links chips to the filtered library browse', () => {
    expect(libraryBrowsePath('lib 1')).toBe('/libraries/lib%201/series');
    expect(
      libraryBrowsePath('lib-1', {
        genre: ['Sci-Fi'],
        author: [
          { name: 'Jane', role: 'writer' },
          { name: 'X', role: 'custom' },
        ],
      }),
    ).toBe('/libraries/lib-1/series?genre=is%3ASci-Fi&writer=is%3AJane');
  });

  it('links book chips to the series filtered by them', () => {
    expect(seriesBooksPath('s1', { tag: ['a b'], author: [{ name: 'Jane', role: 'inker' }] })).toBe(
      '/series/s1?tag=is%3Aa+b&inker=is%3AJane',
    );
  });
});

describe('formatting', () => {
  it('names the file format', () => {
    const media = buildBook().media;
    expect(bookFormat(media)).toBe('CBZ');
    expect(bookFormat({ ...media, mediaType: 'application/x-rar-compressed; version=4' })).toBe('CBR');
    expect(bookFormat({ ...media, mediaType: 'application/x-rar-compressed; version=5' })).toBe('RAR5');
    expect(bookFormat({ ...media, mediaType: 'application/epub+zip', epubIsKepub: true })).toBe('KEPUB');
    expect(bookFormat({ ...media, mediaType: 'image/x-unknown' })).toBe('image/x-unknown');
  });

  it('groups authors by role, standard roles first', () => {
    expect(
      authorsByRole([
        { name: 'Zed', role: 'zine' },
        { name: 'Ann', role: 'penciller' },
        { name: 'Bob', role: 'writer' },
        { name: 'Bob', role: 'writer' },
        { name: 'Cy', role: 'writer' },
      ]),
    ).toEqual([
      ['writer', ['Bob', 'Cy']],
      ['penciller', ['Ann']],
      ['zine', ['Zed']],
    ]);
  });

  it("keeps a book's title alone when it names the series", () => {
    expect(compactBookTitle(buildBook({}, { title: 'Saga Volume 1' }))).toBe('Saga Volume 1');
    expect(compactBookTitle(buildBook())).toBe('Saga - 1 - Chapter One');
  });
});

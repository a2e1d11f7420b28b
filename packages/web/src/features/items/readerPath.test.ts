import { describe, expect, it } from 'vitest';
import { readerPath, usesEpubReader } from './readerPath';
import { buildBook } from './test-fixtures';

const epub = (divina: boolean) =>
  buildBook({
    id: 'b 2',
    media: {
      ...buildBook().media,
      mediaType: 'application/epub+zip',
      mediaProfile: 'EPUB',
      epubDivinaCompatible: divina,
    },
  });

describe('readerPath', () => {
  it('opens comics and PDFs in the paged reader', () => {
    expect(readerPath(buildBook())).toBe('/book/book-1/read');
    const pdf = buildBook({ media: { ...buildBook().media, mediaType: 'application/pdf', mediaProfile: 'PDF' } });
    expect(readerPath(pdf)).toBe('/book/book-1/read');
  });

  it('opens an EPUB in the EPUB reader unless it is made of images', () => {
    expect(usesEpubReader(epub(false))).toBe(true);
    expect(readerPath(epub(false))).toBe('/book/b%202/read-epub');
    expect(readerPath(epub(true))).toBe('/book/b%202/read');
  });

  it('carries the page, incognito and read-list context', () => {
    expect(readerPath(buildBook(), { page: 5 })).toBe('/book/book-1/read?page=5');
    expect(readerPath(buildBook(), { incognito: true })).toBe('/book/book-1/read?incognito=true');
    expect(readerPath(buildBook(), { page: 1, incognito: true, context: { type: 'readlist', id: 'rl 1' } })).toBe(
      '/book/book-1/read?page=1&incognito=true&context=readlist&contextId=rl+1',
    );
  });

  it('leaves incognito out when false', () => {
    expect(readerPath(buildBook(), { incognito: false })).toBe('/book/book-1/read');
  });
});

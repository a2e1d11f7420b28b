import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import type { BookDto, BookPageDto, SeriesDto } from '@quire/api';
import { resetPreferences } from '../../app/preferences';
import { renderScreen } from '../../test/render';
import { buildLibrary, buildUser } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';

afterEach(() => {
  vi.unstubAllGlobals();
  resetPreferences();
});

const DATE = '2026-01-01T00:00:00Z';

function buildBook(overrides: Partial<BookDto> = {}): BookDto {
  return {
    id: 'b1',
    seriesId: 's1',
    seriesTitle: 'Alpha',
    libraryId: 'lib-1',
    name: 'Alpha 001',
    url: 'Alpha 001.cbz',
    number: 1,
    created: DATE,
    lastModified: DATE,
    fileLastModified: DATE,
    sizeBytes: 1000,
    size: '1 KiB',
    media: {
      status: 'READY',
      mediaType: 'application/zip',
      pagesCount: 4,
      comment: '',
      epubDivinaCompatible: false,
      epubIsKepub: false,
      mediaProfile: 'DIVINA',
    },
    metadata: {
      title: 'Alpha 001',
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
      created: DATE,
      lastModified: DATE,
    },
    readProgress: null,
    deleted: false,
    fileHash: '',
    oneshot: false,
    ...overrides,
  };
}

function buildSeries(readingDirection = ''): SeriesDto {
  return {
    id: 's1',
    libraryId: 'lib-1',
    name: 'Alpha',
    url: '',
    created: DATE,
    lastModified: DATE,
    fileLastModified: DATE,
    booksCount: 2,
    booksReadCount: 0,
    booksUnreadCount: 2,
    booksInProgressCount: 0,
    metadata: {
      status: 'ONGOING',
      statusLock: false,
      title: 'Alpha',
      titleLock: false,
      titleSort: 'Alpha',
      titleSortLock: false,
      summary: '',
      summaryLock: false,
      readingDirection,
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
      created: DATE,
      lastModified: DATE,
    },
    booksMetadata: {
      authors: [],
      tags: [],
      releaseDate: null,
      summary: '',
      summaryNumber: '',
      created: DATE,
      lastModified: DATE,
    },
    deleted: false,
    oneshot: false,
  };
}

const pages: BookPageDto[] = [1, 2, 3, 4].map((number) => ({
  number,
  fileName: `${number}.jpg`,
  mediaType: 'image/jpeg',
  width: 800,
  height: 1200,
  sizeBytes: 100,
  size: '100 B',
}));

function open(route: string, { series = buildSeries(), book = buildBook() } = {}) {
  const stub = stubFetch({
    'GET /api/v1/books/b1': { json: book },
    'GET /api/v1/series/s1': { json: series },
    'GET /api/v1/books/b1/pages': { json: pages },
    'GET /api/v1/books/b1/next': { json: buildBook({ id: 'b2', name: 'Alpha 002' }) },
    'PATCH /api/v1/books/b1/read-progress': { status: 204 },
  });
  const view = renderScreen(null, { route, user: buildUser(), libraries: [buildLibrary()] });
  return { ...stub, ...view };
}

/** The page numbers of the slide on screen. */
const shown = () =>
  [...document.querySelectorAll('[data-current] img')].map((img) => Number(/\d+/.exec(img.getAttribute('alt')!)![0]));

const press = (key: string) =>
  act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));

describe('DivinaReader', () => {
  it('turns pages with the arrows, keeps ?page= and saves the page the reader settles on', async () => {
    const { requests, location } = open('/book/b1/read');
    await waitFor(() => expect(shown()).toEqual([1]));
    press('ArrowRight');
    press('ArrowRight');
    expect(shown()).toEqual([3]);
    press('ArrowLeft');
    expect(shown()).toEqual([2]);
    await waitFor(() => expect(location()).toBe('/book/b1/read?page=2'));
    await waitFor(() =>
      expect(requests.filter((r) => r.method === 'PATCH')).toEqual([
        expect.objectContaining({ path: '/api/v1/books/b1/read-progress', body: { page: 2 } }),
      ]),
    );
  });

  it("follows the series' right-to-left direction and says so", async () => {
    open('/book/b1/read', { series: buildSeries('RIGHT_TO_LEFT') });
    await waitFor(() => expect(shown()).toEqual([1]));
    expect(await screen.findByText('Reading direction: Right to left (from the series)')).toBeInTheDocument();
    press('ArrowLeft');
    expect(shown()).toEqual([2]);
    press('ArrowRight');
    expect(shown()).toEqual([1]);
  });

  it('resumes a book in progress, and at the end asks once before moving to the next book', async () => {
    const book = buildBook({
      readProgress: {
        page: 4,
        completed: false,
        readDate: DATE,
        created: DATE,
        lastModified: DATE,
        deviceId: '',
        deviceName: '',
      },
    });
    const { location } = open('/book/b1/read', { book });
    await waitFor(() => expect(shown()).toEqual([4]));
    press('ArrowRight');
    expect(await screen.findByText(/You've reached the end of the book\./)).toBeInTheDocument();
    expect(location()).toMatch(/^\/book\/b1\/read/);
    press('ArrowRight');
    await waitFor(() => expect(location()).toBe('/book/b2/read'));
  });

  it('saves nothing when incognito, and carries incognito to the next book', async () => {
    const { requests, location } = open('/book/b1/read?incognito=true');
    await waitFor(() => expect(shown()).toEqual([1]));
    press('End');
    expect(shown()).toEqual([4]);
    press('ArrowRight');
    press('ArrowRight');
    await waitFor(() => expect(location()).toBe('/book/b2/read?incognito=true'));
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BookPageDto, R2PositionsDto, R2ProgressionDto, WPPublicationDto } from '@quire/api';
import { ApiError, client, operationUrl } from './client';

/**
 * What the readers fetch and write (api.md §3.3): a book's pages and their image URLs, page progress
 * (`PATCH read-progress`), the Readium manifest, positions and progression of EPUBs, and the server's fonts.
 */
export type { BookPageDto, R2PositionsDto, R2ProgressionDto, WPPublicationDto };

export const readerKeys = {
  all: ['reader'] as const,
  pages: (bookId: string) => [...readerKeys.all, 'pages', bookId] as const,
  epub: (bookId: string) => [...readerKeys.all, 'epub', bookId] as const,
  fonts: () => [...readerKeys.all, 'fonts'] as const,
};

/** Image types every browser the client supports shows; pages of any other type are asked for as JPEG. */
const SHOWN_AS_IS = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/svg+xml',
]);

export const browserShows = (mediaType: string) => SHOWN_AS_IS.has(mediaType.toLowerCase());

/**
 * The image of page `n` (1-based); `convert` asks the server for a JPEG; `width` (device pixels, Quire's own
 * parameter) has a PDF page rendered no wider than it is drawn.
 */
export function pageUrl(
  bookId: string,
  n: number,
  opts: { convert?: boolean; download?: boolean; width?: number } = {},
): string {
  return operationUrl('/api/v1/books/{bookId}/pages/{pageNumber}', {
    params: { bookId, pageNumber: n },
    query: {
      convert: opts.convert ? 'jpeg' : undefined,
      width: opts.width,
      // A download must get the page's own bytes, never a PDF page cut out of a PDF book.
      contentNegotiation: opts.download ? false : undefined,
    },
  });
}

/** The URL a page is shown from: as stored when the browser can show its type, else converted. */
export const pageImageUrl = (bookId: string, page: Pick<BookPageDto, 'number' | 'mediaType'>) =>
  pageUrl(bookId, page.number, { convert: !browserShows(page.mediaType) });

export const pageThumbnailUrl = (bookId: string, n: number) =>
  operationUrl('/api/v1/books/{bookId}/pages/{pageNumber}/thumbnail', { params: { bookId, pageNumber: n } });

export const readerQueries = {
  pages: (bookId: string) =>
    queryOptions({
      queryKey: readerKeys.pages(bookId),
      queryFn: () => client.get('/api/v1/books/{bookId}/pages', { params: { bookId } }),
      // Pages change only when the book is analysed again, which remounts the reader anyway.
      staleTime: 5 * 60_000,
    }),
  fonts: () =>
    queryOptions({
      queryKey: readerKeys.fonts(),
      queryFn: async () => {
        try {
          return await client.get('/api/v1/fonts/families');
        } catch (e) {
          // A server without font families answers 404: the reader then offers the browser's generic families.
          if (e instanceof ApiError && e.status === 404) return [];
          throw e;
        }
      },
      staleTime: Infinity,
    }),
};

export const useBookPages = (bookId: string) => useQuery(readerQueries.pages(bookId));
export const useFontFamilies = (enabled = true) => useQuery({ ...readerQueries.fonts(), enabled });

/** The stylesheet declaring a server font family's faces. */
export const fontCssUrl = (family: string) =>
  operationUrl('/api/v1/fonts/resource/{fontFamily}/css', { params: { fontFamily: family } });

/**
 * `PATCH /books/{id}/read-progress {page}`; the server marks the book read when `page` is the last one.
 * `keepalive` lets the request finish while the page unloads.
 */
export const patchReadProgress = (bookId: string, page: number, opts: { keepalive?: boolean } = {}) =>
  client.patch('/api/v1/books/{bookId}/read-progress', {
    params: { bookId },
    body: { page },
    keepalive: opts.keepalive,
  });

/** `GET /books/{id}/progression`: the Readium progression, null when there is none (204). */
export async function fetchProgression(bookId: string): Promise<R2ProgressionDto | null> {
  // 204 (no progression yet) comes back as undefined.
  const body: R2ProgressionDto | undefined = await client.get('/api/v1/books/{bookId}/progression', {
    params: { bookId },
  });
  return body && typeof body === 'object' ? body : null;
}

/** `PUT /books/{id}/progression`. */
export const putProgression = (bookId: string, progression: R2ProgressionDto, opts: { keepalive?: boolean } = {}) =>
  client.put('/api/v1/books/{bookId}/progression', {
    params: { bookId },
    body: progression,
    keepalive: opts.keepalive,
  });

export const fetchManifest = (bookId: string) => client.get('/api/v1/books/{bookId}/manifest', { params: { bookId } });
export const fetchPositions = (bookId: string) =>
  client.get('/api/v1/books/{bookId}/positions', { params: { bookId } });

/** The base URL of an EPUB's resources, as the manifest's hrefs start (a prefix, not one resource). */
export const resourceBaseUrl = (bookId: string) =>
  new URL(
    operationUrl('/api/v1/books/{bookId}/resource/{resource}', { params: { bookId, resource: '' } }),
    window.location.origin,
  ).href;

/** The bytes of a page as shown (for making a poster of it). */
export async function fetchPageImage(bookId: string, page: Pick<BookPageDto, 'number' | 'mediaType'>): Promise<Blob> {
  const res = await fetch(pageImageUrl(bookId, page), {
    credentials: 'include',
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  if (!res.ok) throw new ApiError(res.status, res.statusText);
  return res.blob();
}

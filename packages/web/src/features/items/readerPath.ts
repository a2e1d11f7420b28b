import type { BookDto } from '@quire/api';

export interface ReaderPathOptions {
  /** 1-based page to open at; left out, the reader resumes from the saved progress. */
  page?: number;
  /** Read without saving progress. */
  incognito?: boolean;
  /** Read within a read list: previous/next book follow the list instead of the series. */
  context?: { type: 'readlist'; id: string };
}

/** An EPUB that cannot be shown as images (not DIVINA-compatible) goes to the EPUB reader; everything else pages. */
export function usesEpubReader(book: Pick<BookDto, 'media'>): boolean {
  return book.media.mediaProfile === 'EPUB' && !book.media.epubDivinaCompatible;
}

/** The reader route for a book: `/book/:id/read` or `/book/:id/read-epub`, with the reader's query parameters. */
export function readerPath(book: Pick<BookDto, 'id' | 'media'>, opts: ReaderPathOptions = {}): string {
  const params = new URLSearchParams();
  if (opts.page !== undefined) params.set('page', String(opts.page));
  if (opts.incognito) params.set('incognito', 'true');
  if (opts.context) {
    params.set('context', opts.context.type);
    params.set('contextId', opts.context.id);
  }
  const qs = params.toString();
  const path = `/book/${encodeURIComponent(book.id)}/${usesEpubReader(book) ? 'read-epub' : 'read'}`;
  return qs ? `${path}?${qs}` : path;
}

/*
 * The first screen's requests, started by their own small script while the app's code is still on its way (issue
 * 18): that code is about a megabyte to fetch, compile and run, a few hundred milliseconds of a cold start that the
 * requests no longer wait for. The session check first; once it answers (signed in), the libraries and, when the app
 * opens on the dashboard, its seven rows, or when it opens on a reader, the book, its pages and its series.
 * `api/client.ts` takes an answer from here when the app asks for exactly the same request (method, URL and body),
 * once, instead of asking again. Then the posters of the dashboard's first row that has items, as soon as it and the
 * rows above it have answered: the cards' images find them in the browser's cache instead of asking only once the
 * rows are laid out.
 *
 * Built as its own entry (`main.ts`, importing nothing of the app's), so this script does not wait for the app's
 * chunks. The rows' requests are the ones `features/dashboard/sections.ts` sends for the dashboard over all
 * libraries, first page, and the reader's those of `features/reader/session.ts` (`requests.test.ts` checks that they
 * stay the same).
 */

export interface EarlyRequest {
  method: 'GET' | 'POST';
  /** What the answer lists, when it is a page of books or series (their posters are under `api/v1/<kind>/<id>`). */
  kind?: 'books' | 'series';
  /** Relative to the page's `<base>`: `api/v1/libraries`. */
  path: string;
  /** The JSON body, as the app's client serialises it. */
  body?: string;
}

/** A month back from today, at the start of the day (UTC), as the recently released books' row asks. */
function aMonthAgo(now = new Date()): string {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return `${d.toISOString().slice(0, 10)}T00:00:00Z`;
}

const FIRST_PAGE = 'page=0&size=20';
const bookList = (sort: string, condition?: object): EarlyRequest => ({
  method: 'POST',
  kind: 'books',
  path: `api/v1/books/list?${FIRST_PAGE}&sort=${encodeURIComponent(sort)}`,
  body: JSON.stringify(condition ? { condition } : {}),
});

/** The dashboard's rows over all libraries, first page, in the dashboard's order. */
export const dashboardRowRequests = (now = new Date()): EarlyRequest[] => [
  bookList('readProgress.readDate,desc', { readStatus: { operator: 'is', value: 'IN_PROGRESS' } }),
  { method: 'GET', kind: 'books', path: `api/v1/books/ondeck?${FIRST_PAGE}` },
  bookList('metadata.releaseDate,desc', { releaseDate: { operator: 'after', dateTime: aMonthAgo(now) } }),
  bookList('createdDate,desc'),
  { method: 'GET', kind: 'series', path: `api/v1/series/new?oneshot=false&${FIRST_PAGE}` },
  { method: 'GET', kind: 'series', path: `api/v1/series/updated?oneshot=false&${FIRST_PAGE}` },
  bookList('readProgress.readDate,desc', { readStatus: { operator: 'is', value: 'READ' } }),
];

/**
 * What this script leaves on `window` for the app (which reads it through a type-only import, so that the app's
 * chunk does not import this one): the answer to a request it started, taken once, when the app asks for exactly the
 * same request (a later one asks the server again). `url` is absolute.
 */
export interface EarlyAnswers {
  quireTakeEarlyAnswer?: (method: string, url: string, body: string | undefined) => Promise<Response> | undefined;
}

/**
 * The book a reader opens on: `book/:bookId/read` (comics, PDFs) or `book/:bookId/read-epub` under the page's
 * `<base>` (`base`, its path), with whether it is the comic reader, which lists the book's pages first.
 */
export function readerOpened(pathname: string, base: string): { bookId: string; pages: boolean } | null {
  if (!pathname.startsWith(base)) return null;
  const match = /^book\/([^/]+)\/read(-epub)?$/.exec(pathname.slice(base.length));
  if (!match) return null;
  try {
    return { bookId: decodeURIComponent(match[1]!), pages: !match[2] };
  } catch {
    return null; // a malformed escape: the app shows its own error for it
  }
}

const bookPath = (bookId: string) => `api/v1/books/${encodeURIComponent(bookId)}`;

// What a reader asks for before it can ask for a page (`useReaderBook` and `useBookPages`): the book and, for the
// comic reader, its pages; then the series, for its reading direction, once the book's answer names it.
const readerBook = (bookId: string): EarlyRequest => ({ method: 'GET', path: bookPath(bookId) });
const readerPages = (bookId: string): EarlyRequest => ({ method: 'GET', path: `${bookPath(bookId)}/pages` });
const readerSeries = (seriesId: string): EarlyRequest => ({
  method: 'GET',
  path: `api/v1/series/${encodeURIComponent(seriesId)}`,
});

/** Whether the page opens on the dashboard (`/` or `/dashboard` under any context path). */
const opensOnDashboard = (pathname: string): boolean => /\/(dashboard)?$/.test(pathname);

export function startEarlyRequests(): void {
  const answers = new Map<string, Promise<Response>>();
  const key = (method: string, url: string, body: string | undefined) => `${method} ${url} ${body ?? ''}`;
  (window as EarlyAnswers).quireTakeEarlyAnswer = (method, url, body) => {
    const answer = answers.get(key(method, url, body));
    answers.delete(key(method, url, body));
    return answer;
  };
  const ask = ({ method, path, body }: EarlyRequest): Promise<Response> => {
    const url = new URL(path, document.baseURI).href;
    const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const answer = fetch(url, { method, credentials: 'include', headers, body });
    // The app reads a copy, made now: whichever reads first, the other still has a body to read.
    const forApp = answer.then((res) => res.clone());
    forApp.catch(() => undefined); // the app sees a failure when it takes the answer
    answers.set(key(method, url, body), forApp);
    return answer;
  };
  const dashboard = opensOnDashboard(window.location.pathname);
  const reader = readerOpened(window.location.pathname, new URL(document.baseURI).pathname);
  void ask({ method: 'GET', path: 'api/v2/users/me' })
    .then((me) => {
      if (!me.ok) return; // not signed in: the app shows the login screen
      ask({ method: 'GET', path: 'api/v1/libraries' });
      if (dashboard) void preloadFirstPosters(dashboardRowRequests().map((r) => ({ kind: r.kind, answer: ask(r) })));
      if (reader) void askReaderSeries(ask(readerBook(reader.bookId)), ask);
      if (reader?.pages) ask(readerPages(reader.bookId)).catch(() => undefined);
    })
    .catch(() => undefined);
}

/** The reader's series, asked for as soon as the book's answer names it, not once the reader's code has run. */
async function askReaderSeries(book: Promise<Response>, ask: (r: EarlyRequest) => Promise<Response>): Promise<void> {
  const answer = (await book.then((res) => (res.ok ? res.json() : undefined)).catch(() => undefined)) as
    { seriesId?: string } | undefined;
  if (typeof answer?.seriesId === 'string') ask(readerSeries(answer.seriesId)).catch(() => undefined);
}

/** Posters of the first row asked for ahead of its cards: what a wide screen shows of it. */
const FIRST_ROW_POSTERS = 10;
/** Held until loaded: an image nothing refers to may be collected, and its request with it. */
const postersAhead = new Set<HTMLImageElement>();

async function preloadFirstPosters(rows: { kind?: 'books' | 'series'; answer: Promise<Response> }[]): Promise<void> {
  for (const { kind, answer } of rows) {
    const page = (await answer.then((res) => (res.ok ? res.json() : undefined)).catch(() => undefined)) as
      { content?: { id: string }[] } | undefined;
    const items = page?.content ?? [];
    if (!kind || items.length === 0) continue;
    for (const { id } of items.slice(0, FIRST_ROW_POSTERS)) {
      const image = new Image();
      postersAhead.add(image);
      image.onload = image.onerror = () => postersAhead.delete(image);
      image.src = new URL(`api/v1/${kind}/${encodeURIComponent(id)}/thumbnail`, document.baseURI).href;
    }
    return;
  }
}

import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bookQueries, SCROLLER_PAGE_SIZE } from '../api/books';
import { client } from '../api/client';
import { readerQueries } from '../api/reader';
import { seriesQueries } from '../api/series';
import { SECTION_IDS, sectionDef } from '../features/dashboard/sections';
import { dashboardRowRequests, readerOpened, startEarlyRequests, type EarlyAnswers } from './requests';

interface Sent {
  method: string;
  url: string;
  body: unknown;
}

/**
 * Stubs `fetch` with an empty page (or `meStatus` for the session check, `recentBooks` for the recently added books'
 * row), recording every request.
 */
function recordRequests(meStatus = 200, recentBooks: string[] = []): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit = {}) => {
      const href = new URL(url, window.location.origin).href;
      sent.push({ method: init.method ?? 'GET', url: href, body: init.body });
      const status = href.endsWith('/api/v2/users/me') ? meStatus : 200;
      const content = href.includes('sort=createdDate') ? recentBooks.map((id) => ({ id })) : [];
      const book = /\/api\/v1\/books\/([^/?]+)$/.exec(href)?.[1];
      const body =
        status !== 200
          ? { message: 'Unauthorized' }
          : book
            ? { id: decodeURIComponent(book), seriesId: `series of ${decodeURIComponent(book)}` }
            : { content, number: 0, last: true };
      const response = new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      // the first row answers last, as a slower query would
      const delay = href.includes('IN_PROGRESS') || init.body?.toString().includes('IN_PROGRESS') ? 30 : 0;
      return new Promise<Response>((resolve) => setTimeout(() => resolve(response), delay));
    }),
  );
  return sent;
}

const firstPageOfEveryRow = async () => {
  for (const id of SECTION_IDS) await sectionDef(id).fetch(undefined, { page: 0, size: SCROLLER_PAGE_SIZE });
};

afterEach(() => {
  vi.unstubAllGlobals();
  delete (window as EarlyAnswers).quireTakeEarlyAnswer;
  document.querySelector('base')?.remove();
  window.history.replaceState(null, '', '/');
});

/** The app opened at `path` under the context path `base`, as the server serves it (with its `<base>`). */
function openAt(path: string, base = '/') {
  const tag = document.createElement('base');
  tag.href = base;
  document.head.prepend(tag);
  window.history.replaceState(null, '', path);
}

describe("the first screen's requests, started before the app's code", () => {
  it("are exactly the requests the dashboard's rows send", async () => {
    const sent = recordRequests();
    await firstPageOfEveryRow();
    const early = dashboardRowRequests().map(({ method, path, body }) => ({
      method,
      url: new URL(path, document.baseURI).href,
      body,
    }));
    expect(early).toHaveLength(SECTION_IDS.length);
    expect(sent).toEqual(early);
  });

  it('are taken by the app instead of being asked for again, once each', async () => {
    const sent = recordRequests();
    startEarlyRequests();
    // the session check, then the libraries and the seven rows
    await vi.waitFor(() => expect(sent).toHaveLength(2 + SECTION_IDS.length));
    expect(await client.get('/api/v2/users/me')).toEqual({ content: [], number: 0, last: true });
    await client.get('/api/v1/libraries');
    await firstPageOfEveryRow();
    expect(sent).toHaveLength(2 + SECTION_IDS.length);
    // taken once: the same request later asks the server
    await firstPageOfEveryRow();
    expect(sent).toHaveLength(2 + 2 * SECTION_IDS.length);
  });

  it("ask for the first row's posters, also when the app has read the rows' answers first", async () => {
    recordRequests(200, ['b1', 'b2']);
    const posters: string[] = [];
    vi.stubGlobal(
      'Image',
      class {
        set src(url: string) {
          posters.push(url);
        }
      },
    );
    startEarlyRequests();
    await client.get('/api/v2/users/me');
    await vi.waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalledTimes(2 + SECTION_IDS.length));
    // the app reads every row as it arrives, the recently added books before the first row has answered
    await Promise.all(SECTION_IDS.map((id) => sectionDef(id).fetch(undefined, { page: 0, size: SCROLLER_PAGE_SIZE })));
    await vi.waitFor(() =>
      expect(posters).toEqual(['b1', 'b2'].map((id) => new URL(`api/v1/books/${id}/thumbnail`, document.baseURI).href)),
    );
  });

  it('stop at the session check when nobody is signed in', async () => {
    const sent = recordRequests(401);
    startEarlyRequests();
    await expect(client.get('/api/v2/users/me')).rejects.toMatchObject({ status: 401 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent.map((s) => s.url)).toEqual([new URL('api/v2/users/me', document.baseURI).href]);
  });
});

describe("a reader's requests, started before the app's code", () => {
  const urlOf = (path: string) => new URL(path, window.location.origin).href;

  it("are the book, its pages and its series, taken by the reader's own queries", async () => {
    openAt('/book/b%201/read');
    const sent = recordRequests();
    startEarlyRequests();
    await vi.waitFor(() => expect(sent).toHaveLength(5));
    expect(sent.slice(2).map((s) => s.url)).toEqual([
      urlOf('/api/v1/books/b%201'),
      urlOf('/api/v1/books/b%201/pages'),
      urlOf('/api/v1/series/series%20of%20b%201'),
    ]);
    const queries = new QueryClient();
    await queries.fetchQuery(bookQueries.detail('b 1'));
    await queries.fetchQuery(readerQueries.pages('b 1'));
    await queries.fetchQuery(seriesQueries.detail('series of b 1'));
    expect(sent).toHaveLength(5);
  });

  it("leave the pages to the EPUB reader, and follow the server's context path", async () => {
    openAt('/komga/book/b1/read-epub', '/komga/');
    const sent = recordRequests();
    startEarlyRequests();
    await vi.waitFor(() => expect(sent).toHaveLength(4));
    expect(sent.map((s) => s.url)).toEqual(
      ['users/me', 'libraries', 'books/b1', 'series/series%20of%20b1'].map((p) =>
        urlOf(`/komga/api/v${p === 'users/me' ? 2 : 1}/${p}`),
      ),
    );
  });

  it('are asked for on the readers only', () => {
    expect(readerOpened('/book/b1/read', '/')).toEqual({ bookId: 'b1', pages: true });
    expect(readerOpened('/ctx/book/b1/read-epub', '/ctx/')).toEqual({ bookId: 'b1', pages: false });
    expect(readerOpened('/book/b1', '/')).toBeNull();
    expect(readerOpened('/book/b1/read/extra', '/')).toBeNull();
    expect(readerOpened('/other/book/b1/read', '/ctx/')).toBeNull();
    expect(readerOpened('/book/%E0%A4%A/read', '/')).toBeNull();
  });
});

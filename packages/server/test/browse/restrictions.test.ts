import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '../opds/feeds.js';
import { bookKeys, buildFixture, client, seriesKeys, SERIES, type Fixture, type SeriesSpec } from './support.js';

/**
 * Content restrictions everywhere (api.md §2.10, engine.md §15): shared libraries, age rating (allow only under /
 * exclude over) and sharing labels (allow only / exclude) filter every list, count and search; a hidden series or
 * book asked for by id is a 403, an unknown one a 404; a collection or read list with nothing visible is a 404; a
 * book KOReader names by its hash is unknown (404) to a user who may not see it.
 *
 * Series: batman (A, 12), elodie (A, none, kids), titan (B, 16, gore), xmen (A, 18, gore), acrobat (B, 6, kids),
 * zombie (A, none, deleted).
 */

type User = keyof Fixture['users'];
const VISIBLE: Record<User, string[]> = {
  admin: ['acrobat', 'batman', 'elodie', 'titan', 'xmen', 'zombie'],
  libA: ['batman', 'elodie', 'xmen', 'zombie'],
  allowUnder12: ['acrobat', 'batman'],
  excludeOver16: ['acrobat', 'batman', 'elodie', 'zombie'],
  allowKids: ['acrobat', 'elodie'],
  excludeGore: ['acrobat', 'batman', 'elodie', 'zombie'],
};
const USERS = Object.keys(VISIBLE) as User[];
const booksOf = (keys: string[]) =>
  SERIES.filter((s) => keys.includes(s.key))
    .flatMap((s) => s.books.map((b) => `${s.key}/${b.name}`))
    .sort();
const ON_DECK: Record<User, string[]> = {
  admin: ['titan/Titan 2', 'batman/Batman 03'],
  libA: ['batman/Batman 02'],
  allowUnder12: ['batman/Batman 02'],
  excludeOver16: ['batman/Batman 02'],
  allowKids: [],
  excludeGore: ['batman/Batman 02'],
};

let f: Fixture;
let c: ReturnType<typeof client>;
/** Each user's API key, for the Kobo routes (`/kobo/{apiKey}/…`); every user is given KOBO_SYNC. */
const koboKeys = {} as Record<User, string>;

beforeAll(async () => {
  f = await buildFixture();
  c = client(f);
  const users = (await c.call(f.users.admin, 'GET', '/api/v2/users')).body as { id: string; email: string }[];
  for (const user of USERS) {
    if (user !== 'admin') {
      const id = users.find((u) => u.email === `${user.toLowerCase()}@example.org`)!.id;
      const res = await f.s.fetch(`/api/v2/users/${id}`, {
        method: 'PATCH',
        headers: { authorization: f.users.admin },
        json: { roles: ['FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC'] },
      });
      expect(res.status).toBe(204);
    }
    const key = await c.call(f.users[user], 'POST', '/api/v2/users/me/api-keys', { comment: 'Kobo' });
    expect(key.status).toBe(200);
    koboKeys[user] = (key.body as { key: string }).key;
  }
}, 60_000);
afterAll(() => f.s.close());

describe.each(USERS)('%s', (user) => {
  const visible = VISIBLE[user];
  const books = booksOf(visible);
  const auth = () => f.users[user];
  const sortedSeries = async (path: string, json?: unknown) =>
    seriesKeys(f, await c.seriesPage(auth(), path, json)).sort();
  const sortedBooks = async (path: string, json?: unknown) => bookKeys(f, await c.bookPage(auth(), path, json)).sort();
  const total = async (kind: 'series' | 'book', path: string, json?: unknown) =>
    (kind === 'series' ? await c.seriesPage(auth(), path, json) : await c.bookPage(auth(), path, json)).totalElements;

  it('series lists, counts, groups and searches show only visible series', async () => {
    expect(await sortedSeries('/api/v1/series?unpaged=true')).toEqual(visible);
    expect(await total('series', '/api/v1/series?size=1')).toBe(visible.length);
    expect(await sortedSeries('/api/v1/series/list?unpaged=true', {})).toEqual(visible);
    expect(await total('series', '/api/v1/series/list?size=1&sort=name', {})).toBe(visible.length);
    expect(await sortedSeries('/api/v1/series/list?unpaged=true', { fullTextSearch: '*:*' })).toEqual(visible);
    expect(await sortedSeries('/api/v1/series?search=marvel')).toEqual(
      visible.filter((k) => k === 'xmen' || k === 'acrobat'),
    );
    expect(await sortedSeries(`/api/v1/series?library_id=${f.libraries.B}&unpaged=true`)).toEqual(
      visible.filter((k) => k === 'titan' || k === 'acrobat'),
    );
    expect(await sortedSeries('/api/v1/series/latest?unpaged=true')).toEqual(visible);
    expect(await total('series', '/api/v1/series/new?size=1')).toBe(visible.length);
    expect(await sortedSeries('/api/v1/series/updated')).toEqual(visible.filter((k) => k === 'batman' || k === 'xmen'));
    for (const path of ['/api/v1/series/alphabetical-groups', '/api/v1/series/list/alphabetical-groups']) {
      const groups = await c.call(
        auth(),
        path.includes('/list/') ? 'POST' : 'GET',
        path,
        path.includes('/list/') ? {} : undefined,
      );
      expect((groups.body as { count: number }[]).reduce((n, g) => n + g.count, 0)).toBe(visible.length);
    }
  });

  it('book lists, counts, searches and on deck show only books of visible series', async () => {
    expect(await sortedBooks('/api/v1/books?unpaged=true')).toEqual(books);
    expect(await total('book', '/api/v1/books?size=2')).toBe(books.length);
    expect(await sortedBooks('/api/v1/books/list?unpaged=true', {})).toEqual(books);
    expect(await total('book', '/api/v1/books/list?size=2&sort=name', {})).toBe(books.length);
    expect(await total('book', '/api/v1/books/latest?size=1')).toBe(books.length);
    expect(await sortedBooks('/api/v1/books/list?unpaged=true', { fullTextSearch: 'titan OR batman' })).toEqual(
      // Batman 04 is titled "Finale": book documents do not carry the series title.
      books.filter((b) => (b.startsWith('titan/') || b.startsWith('batman/')) && b !== 'batman/Batman 04'),
    );
    expect(await sortedBooks('/api/v1/books?search=noir&unpaged=true')).toEqual(
      books.filter((b) => b === 'batman/Batman 01' || b === 'batman/Batman 02'),
    );
    expect(bookKeys(f, await c.bookPage(auth(), '/api/v1/books/ondeck'))).toEqual(ON_DECK[user]);
    expect(await total('book', '/api/v1/books/ondeck?size=1')).toBe(ON_DECK[user].length);
  });

  it('a hidden series or book asked for by id is a 403, an unknown one a 404', async () => {
    for (const spec of SERIES) {
      const expected = visible.includes(spec.key) ? 200 : 403;
      const id = f.series[spec.key]!;
      expect((await c.call(auth(), 'GET', `/api/v1/series/${id}`)).status, spec.key).toBe(expected);
      expect((await c.call(auth(), 'GET', `/api/v1/series/${id}/books`)).status, spec.key).toBe(expected);
      const book = f.books[`${spec.key}/${spec.books[0]!.name}`]!;
      expect((await c.call(auth(), 'GET', `/api/v1/books/${book}`)).status, spec.key).toBe(expected);
      const sibling = await c.call(auth(), 'GET', `/api/v1/books/${book}/next`);
      expect(sibling.status, spec.key).toBe(expected === 403 ? 403 : spec.books.length > 1 ? 200 : 404);
      expect((await c.call(auth(), 'GET', `/api/v1/books/${book}/previous`)).status, spec.key).toBe(
        expected === 403 ? 403 : 404,
      );
    }
    for (const path of [
      '/api/v1/series/NOPE',
      '/api/v1/series/NOPE/books',
      '/api/v1/books/NOPE',
      '/api/v1/books/NOPE/next',
    ]) {
      expect((await c.call(auth(), 'GET', path)).status, path).toBe(404);
    }
  });

  it('collections and read lists list only visible members; one with none is a 404', async () => {
    const ordered = ['xmen', 'titan', 'batman', 'elodie'].filter((k) => visible.includes(k));
    const members = seriesKeys(f, await c.seriesPage(auth(), `/api/v1/collections/${f.collections.ordered}/series`));
    expect(members).toEqual(ordered);
    const gore = ['xmen', 'titan'].filter((k) => visible.includes(k));
    const hidden = await c.call(auth(), 'GET', `/api/v1/collections/${f.collections.hidden}/series`);
    expect(hidden.status).toBe(gore.length ? 200 : 404);
    const listBooks = [
      'xmen/X-Men 2',
      'batman/Batman 01',
      'titan/Titan 1',
      'elodie/Élodie 1',
      'batman/Batman 04',
    ].filter((k) => visible.includes(k.split('/')[0]!));
    const readList = await c.bookPage(auth(), `/api/v1/readlists/${f.readLists.ordered}/books`);
    expect(bookKeys(f, readList)).toEqual(listBooks);
    expect(readList.totalElements).toBe(listBooks.length);
  });

  it('Kobo sync sends only visible EPUBs and read lists of them, and refuses every hidden book by id', async () => {
    const kobo = (path: string, init: RequestInit & { json?: unknown } = {}) =>
      f.s.fetch(`/kobo/${koboKeys[user]}${path}`, init);
    const res = await kobo('/v1/library/sync');
    expect(res.status).toBe(200);
    const items = (await res.json()) as {
      NewEntitlement?: { BookEntitlement: { Id: string } };
      NewTag?: { Tag: { Name: string; Items: { RevisionId: string }[] } };
    }[];
    const keyOf = (id: string) => Object.entries(f.books).find(([, b]) => b === id)?.[0] ?? id;
    const synced = items.flatMap((i) => (i.NewEntitlement ? [keyOf(i.NewEntitlement.BookEntitlement.Id)] : []));
    // Élodie's books are the fixture's only EPUBs.
    const epubs = books.filter((b) => b.startsWith('elodie/'));
    expect(synced.sort()).toEqual(epubs);
    // Both read lists hold Élodie 1: they are the device's collections when it is synced, holding it alone.
    const tags = items.flatMap((i) => (i.NewTag ? [i.NewTag.Tag] : []));
    expect(tags.map((t) => t.Name).sort()).toEqual(epubs.length ? ['By date', 'Crossover'] : []);
    for (const t of tags) expect(t.Items.map((x) => keyOf(x.RevisionId))).toEqual(['elodie/Élodie 1']);
    for (const spec of SERIES) {
      for (const book of spec.books) {
        const id = f.books[`${spec.key}/${book.name}`]!;
        const statuses = [
          (await kobo(`/v1/library/${id}/metadata`)).status,
          (await kobo(`/v1/library/${id}/state`)).status,
          (await kobo(`/v1/books/${id}/file/epub`)).status,
          (await kobo(`/v1/books/${id}/thumbnail/100/150/false/image.jpg`)).status,
          (
            await kobo(`/v1/library/${id}/state`, {
              method: 'PUT',
              json: { ReadingStates: [{ StatusInfo: { Status: 'Reading' } }] },
            })
          ).status,
        ];
        if (visible.includes(spec.key)) expect(statuses, `${spec.key}/${book.name}`).not.toContain(403);
        else expect(statuses, `${spec.key}/${book.name}`).toEqual([403, 403, 403, 403, 403]);
      }
    }
  });
});

/** OPDS 1.2 (api.md §7.1): the same rules in every feed; feeds leave deleted series and books not READY out. */
describe.each(USERS)('%s in OPDS 1.2', (user) => {
  const visible = VISIBLE[user];
  const auth = () => f.users[user];
  const live = SERIES.filter((sp) => visible.includes(sp.key) && !sp.deleted);
  const keyOfSeries = (id: string) => Object.entries(f.series).find(([, v]) => v === id)?.[0] ?? id;
  const keyOfBook = (id: string) => Object.entries(f.books).find(([, v]) => v === id)?.[0] ?? id;
  const opds = async (path: string) => {
    const res = await f.s.fetch(`/opds/v1.2/${path}`, { headers: { authorization: auth() } });
    const body = await res.text();
    expect(res.status, `${path}: ${body}`).toBe(200);
    return parseFeed(body);
  };
  const fold = (t: string) =>
    t
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase();

  it('lists, searches, counts and pages only visible series and books', async () => {
    const series = await opds('series?size=100');
    expect(series.entries.map((e) => keyOfSeries(e.id)).sort()).toEqual(live.map((sp) => sp.key).sort());
    const search = await opds('series?search=T&size=100');
    expect(search.entries.map((e) => keyOfSeries(e.id)).sort()).toEqual(
      live
        .filter((sp) => fold(sp.title).includes('t'))
        .map((sp) => sp.key)
        .sort(),
    );
    // The count is the visible one: one page of size 1 per visible series, then no next link.
    const last = await opds(`series?size=1&page=${live.length - 1}`);
    expect(last.entries).toHaveLength(live.length ? 1 : 0);
    expect(last.links.some((l) => l.rel === 'next')).toBe(false);
    const latest = await opds('series/latest?size=100');
    expect(latest.entries).toHaveLength(live.length);
    const ready = live
      .flatMap((sp) =>
        sp.books.filter((b) => !b.deleted && (b.status ?? 'READY') === 'READY').map((b) => `${sp.key}/${b.name}`),
      )
      .sort();
    expect((await opds('books/latest?size=100')).entries.map((e) => keyOfBook(e.id)).sort()).toEqual(ready);
    const restPublishers = await f.s.fetch('/api/v1/publishers', { headers: { authorization: auth() } });
    expect((await opds('publishers?size=100')).entries.map((e) => e.title)).toEqual(await restPublishers.json());
    expect((await opds('ondeck')).entries.map((e) => keyOfBook(e.id))).toEqual(ON_DECK[user]);
  });

  it('shows libraries, collections and read lists narrowed to what is visible', async () => {
    const libraries = (await opds('libraries')).entries.map((e) => e.id).sort();
    expect(libraries).toEqual(user === 'libA' ? [f.libraries.A] : [f.libraries.A, f.libraries.B].sort());
    const inB = await f.s.fetch(`/opds/v1.2/libraries/${f.libraries.B}`, { headers: { authorization: auth() } });
    expect(inB.status).toBe(user === 'libA' ? 403 : 200);
    const members = await opds(`collections/${f.collections.ordered}`);
    expect(members.entries.map((e) => keyOfSeries(e.id))).toEqual(
      ['xmen', 'titan', 'batman', 'elodie'].filter((k) => visible.includes(k)),
    );
    const hidden = await f.s.fetch(`/opds/v1.2/collections/${f.collections.hidden}`, {
      headers: { authorization: auth() },
    });
    expect(hidden.status).toBe(['xmen', 'titan'].some((k) => visible.includes(k)) ? 200 : 404);
    const list = await opds(`readlists/${f.readLists.ordered}`);
    expect(list.entries.map((e) => keyOfBook(e.id))).toEqual(
      ['xmen/X-Men 2', 'batman/Batman 01', 'titan/Titan 1', 'elodie/Élodie 1'].filter((k) =>
        visible.includes(k.split('/')[0]!),
      ),
    );
  });

  it('answers 403 for a hidden series, its books and their covers, pages and files', async () => {
    for (const spec of SERIES) {
      const expected = visible.includes(spec.key) ? 200 : 403;
      const call = (path: string) =>
        f.s.fetch(`/opds/v1.2/${path}`, { headers: { authorization: auth() } }).then((r) => r.status);
      expect(await call(`series/${f.series[spec.key]}`), spec.key).toBe(expected);
      if (expected === 403) {
        const book = f.books[`${spec.key}/${spec.books[0]!.name}`]!;
        for (const path of [
          `books/${book}/thumbnail`,
          `books/${book}/thumbnail/small`,
          `books/${book}/pages/0`,
          `books/${book}/file/x.cbz`,
        ]) {
          expect(await call(path), `${spec.key} ${path}`).toBe(403);
        }
      }
    }
  });
});

interface Opds2Feed {
  metadata: { numberOfItems?: number };
  navigation?: { title: string; href: string }[];
  groups?: { metadata: { title: string }; navigation?: { title: string }[]; publications?: unknown[] }[];
  publications?: { links: { href: string }[] }[];
}

describe.each(USERS)('%s through OPDS 2', (user) => {
  const visible = VISIBLE[user];
  const auth = () => f.users[user];
  const hiddenIds = () =>
    SERIES.filter((sp) => !visible.includes(sp.key)).flatMap((sp) => [
      f.series[sp.key]!,
      ...sp.books.map((b) => f.books[`${sp.key}/${b.name}`]!),
    ]);
  const keyOfTitle = (title: string) => SERIES.find((sp) => sp.title === title)?.key ?? title;
  const opds = async (path: string) => {
    const res = await f.s.fetch(path, { headers: { authorization: auth() } });
    expect(res.status, path).toBe(200);
    const text = await res.text();
    // Nothing of a hidden series anywhere in the document: entries, links, covers, facets.
    for (const id of hiddenIds()) expect(text, path).not.toContain(id);
    return JSON.parse(text) as Opds2Feed;
  };
  const listed = (s: SeriesSpec) => !s.deleted;

  it('feeds, facets, searches and counts show only visible series', async () => {
    const browse = await opds('/opds/v2/libraries/browse?size=100');
    const shown = SERIES.filter((sp) => visible.includes(sp.key) && listed(sp)).map((sp) => sp.key);
    expect(browse.groups![0]!.navigation!.map((l) => keyOfTitle(l.title)).sort()).toEqual(shown.sort());
    expect(browse.metadata.numberOfItems).toBe(shown.length);
    const publishers = new Set(
      SERIES.filter((sp) => visible.includes(sp.key) && sp.publisher).map((sp) => sp.publisher!),
    );
    const facet = browse.groups!.find((g) => g.metadata.title === 'Publisher')?.navigation ?? [];
    expect(facet.map((l) => l.title).sort()).toEqual([...publishers].sort());
    const latest = await opds('/opds/v2/libraries/series/latest?size=100');
    expect(latest.metadata.numberOfItems).toBe(SERIES.filter((sp) => shown.includes(sp.key) && !sp.oneshot).length);
    for (const path of [
      '/opds/v2/catalog',
      '/opds/v2/libraries/books/latest?size=100',
      '/opds/v2/libraries/keep-reading?size=100',
      '/opds/v2/libraries/on-deck?size=100',
      '/opds/v2/libraries/collections',
      '/opds/v2/libraries/readlists',
      '/opds/v2/search?query=a',
      '/opds/v2/search?query=men',
      `/opds/v2/libraries/${f.libraries.A}/browse?publisher=Marvel`,
    ]) {
      await opds(path);
    }
    const books = await opds('/opds/v2/libraries/books/latest?size=1');
    expect(books.metadata.numberOfItems).toBe(
      SERIES.filter((sp) => visible.includes(sp.key)).flatMap((sp) =>
        sp.books.filter((b) => !b.deleted && (b.status ?? 'READY') === 'READY'),
      ).length,
    );
  });

  it('collections and read lists list only visible members; series, covers and libraries hidden by id are refused', async () => {
    const ordered = await opds(`/opds/v2/collections/${f.collections.ordered}`);
    expect(ordered.navigation!.map((l) => keyOfTitle(l.title))).toEqual(
      ['xmen', 'titan', 'batman', 'elodie'].filter((k) => visible.includes(k)),
    );
    const gore = ['xmen', 'titan'].filter((k) => visible.includes(k));
    const hidden = await f.s.fetch(`/opds/v2/collections/${f.collections.hidden}`, {
      headers: { authorization: auth() },
    });
    expect(hidden.status).toBe(gore.length ? 200 : 404);
    const readList = await opds(`/opds/v2/readlists/${f.readLists.ordered}`);
    const expected = ['xmen/X-Men 2', 'batman/Batman 01', 'titan/Titan 1', 'elodie/Élodie 1'].filter((k) =>
      visible.includes(k.split('/')[0]!),
    );
    expect(readList.publications!.map((p) => p.links[0]!.href.split('/books/')[1]!.split('/')[0])).toEqual(
      expected.map((k) => f.books[k]),
    );
    for (const spec of SERIES) {
      const status = visible.includes(spec.key) ? 200 : 403;
      const series = await f.s.fetch(`/opds/v2/series/${f.series[spec.key]}`, { headers: { authorization: auth() } });
      expect(series.status, spec.key).toBe(status);
      const book = f.books[`${spec.key}/${spec.books[0]!.name}`]!;
      const cover = await f.s.fetch(`/opds/v2/books/${book}/thumbnail`, { headers: { authorization: auth() } });
      if (status === 403) expect(cover.status, spec.key).toBe(403);
    }
    const libraryB = await f.s.fetch(`/opds/v2/libraries/${f.libraries.B}`, { headers: { authorization: auth() } });
    expect(libraryB.status).toBe(user === 'libA' ? 403 : 200);
  });
});

describe('a user with no visible member', () => {
  it('gets 404 for the read list and its neighbours', async () => {
    const db = f.db;
    const now = new Date().toISOString();
    await db
      .insertInto('readlist')
      .values({ id: 'GOREONLY', name: 'Gore', created_date: now, last_modified_date: now })
      .execute();
    await db
      .insertInto('readlist_book')
      .values({ readlist_id: 'GOREONLY', book_id: f.books['xmen/X-Men 1']!, number: 0 })
      .execute();
    await db
      .insertInto('readlist_book')
      .values({ readlist_id: 'GOREONLY', book_id: f.books['titan/Titan 1']!, number: 1 })
      .execute();
    expect((await c.call(f.users.excludeGore, 'GET', '/api/v1/readlists/GOREONLY/books')).status).toBe(404);
    expect(
      (await c.call(f.users.excludeGore, 'GET', `/api/v1/readlists/GOREONLY/books/${f.books['xmen/X-Men 1']}/next`))
        .status,
    ).toBe(404);
    expect((await c.call(f.users.admin, 'GET', '/api/v1/readlists/GOREONLY/books')).status).toBe(200);
  });
});

describe('KOReader sync (api.md §8.1): a book the user may not see is unknown to his device', () => {
  // Each user's API key, with the KOREADER_SYNC role granted; each book's KOReader hash is written straight into the
  // rows (the fixture has no files), Batman 01 and Titan 1 sharing one.
  const keys = {} as Record<User, string>;
  const hashOf = (bookKey: string) =>
    bookKey === 'batman/Batman 01' || bookKey === 'titan/Titan 1' ? 'shared'.padEnd(32, '0') : f.books[bookKey]!;
  const kosync = (user: User, method: 'GET' | 'PUT', path: string, json?: unknown) =>
    f.s.fetch(`/koreader${path}`, {
      method,
      headers: { 'x-auth-user': keys[user], accept: 'application/vnd.koreader.v1+json' },
      ...(json === undefined ? {} : { json }),
    });

  beforeAll(async () => {
    for (const [bookKey, id] of Object.entries(f.books))
      await f.db
        .updateTable('book')
        .set({ file_hash_koreader: hashOf(bookKey) })
        .where('id', '=', id)
        .execute();
    const users = (await c.call(f.users.admin, 'GET', '/api/v2/users')).body as { id: string; email: string }[];
    for (const user of USERS) {
      const email = user === 'admin' ? 'admin@example.org' : `${user.toLowerCase()}@example.org`;
      const id = users.find((u) => u.email === email)!.id;
      if (user !== 'admin') {
        const res = await f.s.fetch(`/api/v2/users/${id}`, {
          method: 'PATCH',
          headers: { authorization: f.users.admin },
          json: { roles: ['FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOREADER_SYNC'] },
        });
        expect(res.status).toBe(204);
      }
      const res = await f.s.fetch('/api/v2/users/me/api-keys', {
        method: 'POST',
        headers: { authorization: f.users[user] },
        json: { comment: 'KOReader' },
      });
      keys[user] = ((await res.json()) as { key: string }).key;
    }
  });

  it.each(USERS)(
    '%s: pull and push find only the books he may see; a shared hash is a 409 only when both are',
    async (user) => {
      const visible = VISIBLE[user];
      for (const spec of SERIES) {
        for (const book of spec.books) {
          const bookKey = `${spec.key}/${book.name}`;
          if (hashOf(bookKey) !== f.books[bookKey]) continue;
          const known = visible.includes(spec.key) && !book.deleted;
          const pulled = await kosync(user, 'GET', `/syncs/progress/${hashOf(bookKey)}`);
          expect(pulled.status, bookKey).toBe(known ? 200 : 404);
          // Rows without files: only the paged ones (ZIP, PDF) are readable enough to take a page.
          const paged = book.status !== 'UNKNOWN' && !book.mediaType?.includes('epub');
          if (known && !paged) continue;
          const pushed = await kosync(user, 'PUT', '/syncs/progress', {
            document: hashOf(bookKey),
            progress: '1',
            percentage: 0.05,
            device: 'Kobo_io',
            device_id: '0F1E2D3C4B5A69788796A5B4C3D2E1F0',
          });
          expect(pushed.status, bookKey).toBe(known ? 200 : 404);
        }
      }
      const sharing = ['batman', 'titan'].filter((k) => visible.includes(k)).length;
      const shared = await kosync(user, 'GET', `/syncs/progress/${'shared'.padEnd(32, '0')}`);
      expect(shared.status).toBe(sharing === 2 ? 409 : sharing === 1 ? 200 : 404);
    },
  );
});

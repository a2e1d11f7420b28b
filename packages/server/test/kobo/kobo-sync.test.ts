import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim, startServer, type TestServer } from '../support/server.js';
import { copyFixture } from '../support/fixtures.js';
import { makeLibrary, makeSeriesWithBooks } from '../support/factories.js';
import { makeImage, writeCbz, zipBuffer } from '../support/library-builder.js';
import { call, createUser } from '../reading/helpers.js';
import { KepubCache } from '../../src/library/kepubify.js';

/**
 * Kobo sync (api.md §8.2) as a Kobo e-reader performs it against a real server: initialization, device auth,
 * library sync in two batches (item limit 2), reading state both ways, the EPUB download and the cover; content
 * restrictions; `DELETE /api/v1/syncpoints/me`; and the Kobo store, which is called only when `koboProxy` is on (a
 * local stand-in for it records every call).
 */

interface StoreCall {
  method: string;
  url: string;
  token?: string | string[];
}
let store: Server;
let storeUrl: string;
const storeCalls: StoreCall[] = [];

let s: TestServer;
let dir: string;
let admin: string;
let reader: { id: string; authorization: string };
let key: string;
/** The reader's visible EPUBs, oldest first; `hidden` and `hiddenNext` are age-rated 18, `comic` a CBZ. */
let epubs: string[];
let epubFiles: string[];
let hidden: string;
let hiddenNext: string;
let comic: string;

const kobo = (path: string, init: RequestInit & { json?: unknown } = {}) => s.fetch(`/kobo/${key}${path}`, init);

interface SyncItem {
  NewEntitlement?: Entitlement;
  ChangedEntitlement?: Entitlement;
  ChangedReadingState?: { ReadingState: ReadingState };
}
interface Entitlement {
  BookEntitlement: { Id: string; IsRemoved: boolean };
  BookMetadata?: {
    Title: string;
    CoverImageId: string;
    DownloadUrls: { Format: string; Url: string; Size: number }[];
  };
  ReadingState?: ReadingState;
}
interface ReadingState {
  EntitlementId: string;
  CurrentBookmark: { ProgressPercent?: number; Location?: { Source: string; Value: string } };
  StatusInfo: { Status: string };
}

/** One `GET v1/library/sync` with the device's token; answers the items, whether to continue and the new token. */
async function sync(token?: string) {
  const res = await kobo('/v1/library/sync', { headers: token ? { 'x-kobo-synctoken': token } : {} });
  expect(res.status).toBe(200);
  const items = (await res.json()) as SyncItem[];
  const next = res.headers.get('x-kobo-synctoken');
  expect(next).toMatch(/^KOMGA\./);
  return { items, more: res.headers.get('x-kobo-sync') === 'continue', token: next! };
}

/** A whole sync as the device runs it: calls again while told to continue. */
async function syncAll(token?: string) {
  const items: SyncItem[] = [];
  let calls = 0;
  for (;;) {
    const r = await sync(token);
    calls++;
    items.push(...r.items);
    token = r.token;
    if (!r.more) return { items, calls, token };
  }
}

beforeAll(async () => {
  store = createServer((req, res) => {
    storeCalls.push({ method: req.method ?? '', url: req.url ?? '', token: req.headers['x-kobo-synctoken'] });
    res.setHeader('content-type', 'application/json');
    if (req.url === '/v1/library/sync') {
      res.setHeader('x-kobo-synctoken', `store-token-${storeCalls.length}`);
      // A store with one book, sent to a device that has none of its token yet.
      const fresh = req.headers['x-kobo-synctoken'] === undefined;
      res.end(JSON.stringify(fresh ? [{ NewEntitlement: { BookEntitlement: { Id: 'store-book' } } }] : []));
    } else res.end(JSON.stringify({ FromStore: true }));
  });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  storeUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;

  s = await startServer({ QUIRE_KOBO_SYNC_ITEM_LIMIT: '2', QUIRE_KOBO_STORE_URL: storeUrl });
  admin = (await claim(s)).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-kobo-'));
  const db = s.app.deps.db;
  const library = await makeLibrary(db, { name: 'Books', root: join(dir, 'Books') });
  const open = join(dir, 'Books', 'Open');
  epubFiles = [
    await copyFixture('epub/The Incomplete Theft - Ralph Burke.epub', open),
    await copyFixture('epub/epub3.epub', open),
    await copyFixture('epub/book.epub', open),
  ];
  const comicFile = join(open, 'Comic.cbz');
  await writeCbz(comicFile);
  const openSeries = await makeSeriesWithBooks(db, library, [...epubFiles, comicFile], { title: 'Open' });
  epubs = openSeries.bookIds.slice(0, 3);
  comic = openSeries.bookIds[3]!;
  const adult = [
    await copyFixture('epub/TitleWithVolume.epub', join(dir, 'Books', 'Adult')),
    await copyFixture('epub/book.epub', join(dir, 'Books', 'Adult')),
  ];
  [hidden, hiddenNext] = (await makeSeriesWithBooks(db, library, adult, { title: 'Adult', ageRating: 18 })).bookIds as [
    string,
    string,
  ];
  // Creation dates one second apart (the sync sends the oldest first), and the sizes a scan records.
  const files = [...epubFiles, comicFile, ...adult];
  for (const [i, id] of [...epubs, comic, hidden, hiddenNext].entries()) {
    await db
      .updateTable('book')
      .set({
        created_date: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
        file_size: (await readFile(files[i]!)).length,
      })
      .where('id', '=', id)
      .execute();
    await s.app.deps.books.analyzer.analyzeAndPersist(id);
  }

  reader = await createUser(s, admin, 'kobo@example.org', {
    roles: ['FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC'],
    ageRestriction: { age: 16, restriction: 'EXCLUDE' },
  });
  const created = await call(s, reader.authorization, 'POST', '/api/v2/users/me/api-keys', { comment: 'Libra 2' });
  expect(created.status).toBe(200);
  key = (created.body as { key: string }).key;
}, 60_000);

afterAll(async () => {
  await s?.close();
  await new Promise((resolve) => store?.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a Kobo sets itself up', () => {
  it('answers ping, and initialization with covers and services on this server', async () => {
    const ping = await kobo('/ping');
    expect(ping.status).toBe(200);
    expect(await ping.text()).toBe('pong');

    const res = await kobo('/v1/initialization');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-kobo-apitoken')).toBe('e30=');
    const { Resources } = (await res.json()) as { Resources: Record<string, string> };
    const base = `${s.url}/kobo/${key}`;
    expect(Resources.image_host).toBe(s.url);
    expect(Resources.image_url_template).toBe(`${base}/v1/books/{ImageId}/thumbnail/{Width}/{Height}/false/image.jpg`);
    expect(Resources.image_url_quality_template).toBe(
      `${base}/v1/books/{ImageId}/thumbnail/{Width}/{Height}/{Quality}/{IsGreyscale}/image.jpg`,
    );
    expect(Resources.library_sync).toBe(`${base}/v1/library/sync`);
    for (const url of Object.values(Resources).filter((v) => v.startsWith('http')))
      expect(url.startsWith(s.url), url).toBe(true);
  });

  it('builds its addresses with the koboPort setting, unless a proxy says where the device reaches it', async () => {
    expect((await call(s, admin, 'PATCH', '/api/v1/settings', { koboPort: 8443 })).status).toBe(204);
    try {
      const resources = async (headers: Record<string, string> = {}) =>
        ((await (await kobo('/v1/initialization', { headers })).json()) as { Resources: Record<string, string> })
          .Resources;
      // Kobo devices drop the port of their endpoint: the administrator's port is written instead.
      expect((await resources()).image_host).toBe('http://127.0.0.1:8443');
      // Behind a (trusted, here loopback) reverse proxy, its forwarded address wins.
      const proxied = await resources({ 'x-forwarded-host': 'books.example.org', 'x-forwarded-proto': 'https' });
      expect(proxied.image_host).toBe('https://books.example.org');
      expect(proxied.library_sync).toBe(`https://books.example.org/kobo/${key}/v1/library/sync`);
    } finally {
      await call(s, admin, 'PATCH', '/api/v1/settings', { koboPort: null });
    }
  });

  it('authenticates the device locally, and answers unknown calls with {} without calling the store', async () => {
    const res = await kobo('/v1/auth/device', { method: 'POST', json: { UserKey: 'device-user', DeviceId: 'd1' } });
    expect(res.status).toBe(200);
    const auth = (await res.json()) as Record<string, string>;
    expect(auth.AccessToken).toMatch(/\S{16,}/);
    expect(auth.TokenType).toBe('Bearer');
    expect(auth.UserKey).toBe('device-user');

    for (const [method, path] of [
      ['GET', '/v1/user/profile'],
      ['POST', '/v1/analytics/event'],
      ['DELETE', '/v1/library/tags/x'],
    ] as const) {
      const r = await kobo(path, { method, ...(method === 'POST' ? { json: { Events: [] } } : {}) });
      expect(r.status, path).toBe(200);
      expect(await r.json()).toEqual({});
    }
    expect(storeCalls).toEqual([]);
  });
});

describe('library sync', () => {
  let token: string;

  it('sends every visible EPUB in batches of the item limit, with continuation', async () => {
    const first = await sync();
    expect(first.more).toBe(true);
    expect(first.items.map((i) => i.NewEntitlement?.BookEntitlement.Id)).toEqual(epubs.slice(0, 2));
    const second = await sync(first.token);
    expect(second.more).toBe(false);
    expect(second.items.map((i) => i.NewEntitlement?.BookEntitlement.Id)).toEqual(epubs.slice(2));
    token = second.token;

    const entitlement = first.items[0]!.NewEntitlement!;
    expect(entitlement.BookMetadata!.CoverImageId).toBe(epubs[0]);
    expect(entitlement.BookMetadata!.DownloadUrls).toEqual([
      {
        Format: 'EPUB3',
        Size: (await readFile(epubFiles[0]!)).length,
        Url: `${s.url}/kobo/${key}/v1/books/${epubs[0]}/file/epub?convert_kepub=false`,
        Platform: 'Generic',
      },
    ]);
    expect(entitlement.ReadingState!.StatusInfo.Status).toBe('ReadyToRead');
    // Nothing changed since: nothing to send.
    const again = await sync(token);
    expect(again.items).toEqual([]);
    expect(again.more).toBe(false);
    token = again.token;
  });

  it("applies a reading state the Kobo puts to Quire's read progress", async () => {
    const positions = await call(s, reader.authorization, 'GET', `/api/v1/books/${epubs[0]}/positions`);
    const list = (positions.body as { positions: { href: string; locations: { progression: number } }[] }).positions;
    const target = list[Math.floor(list.length / 2)]!;
    const res = await kobo(`/v1/library/${epubs[0]}/state`, {
      method: 'PUT',
      json: {
        ReadingStates: [
          {
            EntitlementId: epubs[0],
            CurrentBookmark: {
              LastModified: new Date().toISOString(),
              ProgressPercent: 50,
              ContentSourceProgressPercent: target.locations.progression * 100,
              Location: { Source: target.href, Type: 'KoboSpan', Value: 'kobo.7.1' },
            },
            StatusInfo: { Status: 'Reading', LastModified: new Date().toISOString() },
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    const result = (await res.json()) as {
      RequestResult: string;
      UpdateResults: { CurrentBookmarkResult: { Result: string } }[];
    };
    expect(result.RequestResult).toBe('Success');
    expect(result.UpdateResults[0]!.CurrentBookmarkResult.Result).toBe('Success');

    const book = await call(s, reader.authorization, 'GET', `/api/v1/books/${epubs[0]}`);
    expect((book.body as { readProgress: { completed: boolean } | null }).readProgress?.completed).toBe(false);
    const progression = await call(s, reader.authorization, 'GET', `/api/v1/books/${epubs[0]}/progression`);
    expect(progression.status).toBe(200);
    const p = progression.body as { device: { name: string }; locator: { href: string; koboSpan: string } };
    expect(p.locator.href).toBe(target.href);
    expect(p.locator.koboSpan).toBe('kobo.7.1');
    expect(p.device.name).toBe('Libra 2');

    const state = await kobo(`/v1/library/${epubs[0]}/state`);
    const [read] = (await state.json()) as ReadingState[];
    expect(read!.StatusInfo.Status).toBe('Reading');
    expect(read!.CurrentBookmark.Location).toEqual({ Source: target.href, Type: 'KoboSpan', Value: 'kobo.7.1' });
  });

  it('sends progress made in Quire as changed reading states in the next sync', async () => {
    const marked = await call(s, reader.authorization, 'PATCH', `/api/v1/books/${epubs[1]}/read-progress`, {
      completed: true,
    });
    expect(marked.status).toBe(204);
    const next = await syncAll(token);
    token = next.token;
    const states = next.items.map((i) => i.ChangedReadingState?.ReadingState);
    const byId = new Map(states.map((r) => [r?.EntitlementId, r]));
    expect([...byId.keys()].sort()).toEqual([epubs[0], epubs[1]].sort());
    expect(byId.get(epubs[1])!.StatusInfo.Status).toBe('Finished');
    expect(byId.get(epubs[1])!.CurrentBookmark.ProgressPercent).toBe(100);
    expect(byId.get(epubs[0])!.CurrentBookmark.Location?.Value).toBe('kobo.7.1');
  });

  it('sends changed metadata, and drops the snapshot of a sync the device left unfinished', async () => {
    const points = () => s.app.deps.db.selectFrom('sync_point').select('id').execute();
    expect(await points()).toHaveLength(1);
    await s.app.deps.db
      .updateTable('book_metadata')
      .set({ last_modified_date: new Date().toISOString() })
      .where('book_id', 'in', epubs)
      .execute();
    const started = await sync(token); // three changes: a first batch of two, then the device gives up
    expect(started.more).toBe(true);
    expect(started.items.map((i) => i.ChangedEntitlement?.BookEntitlement.Id)).toEqual(epubs.slice(0, 2));
    expect(await points()).toHaveLength(2);
    // Its next sync starts again from its last completed one, and the unfinished snapshot goes.
    const next = await syncAll(token);
    token = next.token;
    expect(next.items.map((i) => i.ChangedEntitlement?.BookEntitlement.Id)).toEqual(epubs);
    expect(await points()).toHaveLength(1);
  });

  it('removes a book that is gone', async () => {
    await s.app.deps.db
      .updateTable('book')
      .set({ deleted_date: new Date().toISOString() })
      .where('id', '=', epubs[2]!)
      .execute();
    const next = await syncAll(token);
    token = next.token;
    expect(next.items).toEqual([
      { ChangedEntitlement: { BookEntitlement: expect.objectContaining({ Id: epubs[2], IsRemoved: true }) } },
    ]);
    await s.app.deps.db.updateTable('book').set({ deleted_date: null }).where('id', '=', epubs[2]!).execute();
    const back = await syncAll(token);
    token = back.token;
    expect(back.items.map((i) => i.NewEntitlement?.BookEntitlement.Id)).toEqual([epubs[2]]);
  });

  it('starts from scratch after DELETE /api/v1/syncpoints/me', async () => {
    const other = await call(s, reader.authorization, 'DELETE', '/api/v1/syncpoints/me?key_id=SOMEOTHERKEY');
    expect(other.status).toBe(204);
    expect((await syncAll(token)).items).toEqual([]);

    const res = await call(s, reader.authorization, 'DELETE', '/api/v1/syncpoints/me');
    expect(res.status).toBe(204);
    const full = await syncAll(token);
    expect(full.calls).toBe(2);
    expect(full.items.map((i) => i.NewEntitlement?.BookEntitlement.Id)).toEqual(epubs);
    expect(await s.app.deps.db.selectFrom('sync_point').select('id').execute()).toHaveLength(1);
    token = full.token;
  });

  it('offers a fixed-layout EPUB as EPUB3FL', async () => {
    const folder = join(dir, 'Books', 'Pictures');
    await mkdir(folder, { recursive: true });
    const file = join(folder, 'Fixed.epub');
    await writeFile(file, fixedLayoutEpub());
    const db = s.app.deps.db;
    const library = (await db.selectFrom('library').select('id').executeTakeFirstOrThrow()).id;
    const [id] = (await makeSeriesWithBooks(db, library, [file], { title: 'Pictures' })).bookIds;
    await s.app.deps.books.analyzer.analyzeAndPersist(id!);
    try {
      const next = await syncAll(token);
      token = next.token;
      expect(next.items).toHaveLength(1);
      expect(next.items[0]!.NewEntitlement!.BookMetadata!.DownloadUrls[0]).toMatchObject({
        Format: 'EPUB3FL',
        Url: `${s.url}/kobo/${key}/v1/books/${id}/file/epub?convert_kepub=false`,
      });
    } finally {
      await db.updateTable('book').set({ deleted_date: new Date().toISOString() }).where('id', '=', id!).execute();
      token = (await syncAll(token)).token;
    }
  });

  it('sends read lists as the Kobo collections of their synced books, changed and deleted', async () => {
    const created = await call(s, admin, 'POST', '/api/v1/readlists', {
      name: 'Voyage',
      summary: '',
      ordered: true,
      bookIds: [epubs[2], hidden, comic, epubs[0]],
    });
    expect(created.status).toBe(200);
    const id = (created.body as { id: string }).id;
    const added = await syncAll(token);
    token = added.token;
    expect(added.items).toEqual([
      {
        NewTag: {
          Tag: expect.objectContaining({
            Id: id,
            Name: 'Voyage',
            Type: 'UserTag',
            // The hidden book and the comic are not on the device.
            Items: [
              { RevisionId: epubs[2], Type: 'ProductRevisionTagItem' },
              { RevisionId: epubs[0], Type: 'ProductRevisionTagItem' },
            ],
          }),
        },
      },
    ]);
    expect((await call(s, admin, 'PATCH', `/api/v1/readlists/${id}`, { name: 'Voyage 2' })).status).toBe(204);
    const changed = await syncAll(token);
    token = changed.token;
    expect(changed.items).toEqual([{ ChangedTag: { Tag: expect.objectContaining({ Id: id, Name: 'Voyage 2' }) } }]);
    expect((await call(s, admin, 'DELETE', `/api/v1/readlists/${id}`)).status).toBe(204);
    const deleted = await syncAll(token);
    token = deleted.token;
    expect(deleted.items).toEqual([{ DeletedTag: { Tag: { Id: id, LastModified: expect.any(String) } } }]);
  });

  it("sends the reader's On Deck books that are on the device as a collection, kept up to date", async () => {
    const onDeck = async () =>
      (
        (await call(s, reader.authorization, 'GET', '/api/v1/books/ondeck')).body as { content: { id: string }[] }
      ).content.map((b) => b.id);
    const complete = (id: string) =>
      call(s, reader.authorization, 'PATCH', `/api/v1/books/${id}/read-progress`, { completed: true });
    // Nothing in progress in "Open" any more: its first unread book is on deck.
    expect((await complete(epubs[0]!)).status).toBe(204);
    expect(await onDeck()).toEqual([epubs[2]]);
    const added = await syncAll(token);
    token = added.token;
    const deckTag = { Id: 'ondeck', Name: 'On Deck', Type: 'UserTag' };
    expect(added.items).toContainEqual({
      NewTag: {
        Tag: expect.objectContaining({ ...deckTag, Items: [{ RevisionId: epubs[2], Type: 'ProductRevisionTagItem' }] }),
      },
    });

    const items = (...ids: string[]) => ids.map((id) => ({ RevisionId: id, Type: 'ProductRevisionTagItem' }));
    const changedTo = async (...ids: string[]) => {
      const next = await syncAll(token);
      token = next.token;
      expect(next.items).toContainEqual({
        ChangedTag: { Tag: expect.objectContaining({ ...deckTag, Items: items(...ids) }) },
      });
    };
    // Marked unread, then read again: the collection follows.
    expect((await call(s, reader.authorization, 'DELETE', `/api/v1/books/${epubs[1]}/read-progress`)).status).toBe(204);
    await changedTo(epubs[1]!);
    expect((await complete(epubs[1]!)).status).toBe(204);
    await changedTo(epubs[2]!);

    // Reading the last EPUB puts the comic on deck, which is not on the device; the reader also finished the first
    // book of a series hidden from him (written as if he had been allowed): its next book is on deck for nobody here.
    expect((await complete(epubs[2]!)).status).toBe(204);
    const unrestricted = {
      id: reader.id,
      roles: new Set(['FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC'] as const),
      sharedAllLibraries: true,
      sharedLibraryIds: [],
      ageRestriction: null,
      labelsAllow: [],
      labelsExclude: [],
    };
    await s.app.deps.reading.update(unrestricted, hidden, { completed: true });
    expect(await onDeck()).toEqual([comic]);
    const emptied = await syncAll(token);
    token = emptied.token;
    expect(emptied.items).toContainEqual({ DeletedTag: { Tag: { Id: 'ondeck', LastModified: expect.any(String) } } });
    expect(JSON.stringify(emptied.items)).not.toContain(hiddenNext);
  });
});

describe('books by id', () => {
  it('downloads the EPUB as it is when kepubify is not configured', async () => {
    const res = await kobo(`/v1/books/${epubs[0]}/file/epub?convert_kepub=false`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/epub+zip');
    expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(epubFiles[0]!))).toBe(true);
  });

  it('converts with kepubify when its path is configured, once per file for 5 minutes', async () => {
    const script = join(dir, 'fake-kepubify.sh');
    const runs = join(dir, 'kepubify-runs');
    // Stands in for kepubify: `--output DIR FILE` writes DIR/<name>.kepub.epub, and counts its runs.
    await writeFile(
      script,
      `#!/bin/sh\necho run >> '${runs}'\nsleep 0.2\nb=$(basename "$3" .epub)\n{ printf KEPUB; cat "$3"; } > "$2/$b.kepub.epub"\n`,
    );
    await chmod(script, 0o755);
    const runCount = async () => (await readFile(runs, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    expect((await call(s, admin, 'PATCH', '/api/v1/settings', { kepubifyPath: script })).status).toBe(204);
    const download = async (id: string) => {
      const res = await kobo(`/v1/books/${id}/file/epub?convert_kepub=true`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain('.kepub.epub');
      return Buffer.from(await res.arrayBuffer());
    };
    try {
      const { items } = await syncAll();
      expect(items[0]!.NewEntitlement!.BookMetadata!.DownloadUrls[0]).toMatchObject({
        Format: 'KEPUB',
        Url: `${s.url}/kobo/${key}/v1/books/${epubs[0]}/file/epub?convert_kepub=true`,
      });
      const bytes = await download(epubs[0]!);
      expect(bytes.subarray(0, 5).toString()).toBe('KEPUB');
      expect(bytes.subarray(5).equals(await readFile(epubFiles[0]!))).toBe(true);
      expect(await runCount()).toBe(1);
      // Downloaded again: the conversion on disk is reused.
      expect((await download(epubs[0]!)).equals(bytes)).toBe(true);
      expect(await runCount()).toBe(1);
      // Two devices at once: one conversion.
      const [a, b] = await Promise.all([download(epubs[2]!), download(epubs[2]!)]);
      expect(a.equals(b)).toBe(true);
      expect(await runCount()).toBe(2);

      // The file changed (its modification date): converted again.
      const later = new Date(Date.now() + 60_000);
      await utimes(epubFiles[0]!, later, later);
      expect((await download(epubs[0]!)).equals(bytes)).toBe(true);
      expect(await runCount()).toBe(3);

      // The cache is files under the data dir: another instance on it reuses them for 5 minutes, then converts again
      // and sweeps what expired.
      const cacheDir = join(s.dataDir, 'cache', 'kepub');
      expect((await readdir(cacheDir)).filter((f) => f.endsWith('.kepub.epub'))).toHaveLength(3);
      const other = await new KepubCache(cacheDir).open(script, epubFiles[2]!);
      await other.handle.close();
      expect(await runCount()).toBe(3);
      // Its clock five minutes after the last conversion.
      const times = await Promise.all(
        (await readdir(cacheDir)).map(async (f) => (await stat(join(cacheDir, f))).mtimeMs),
      );
      const expired = new KepubCache(cacheDir, { now: () => Math.max(...times) + 5 * 60_000 });
      await (await expired.open(script, epubFiles[2]!)).handle.close();
      expect(await runCount()).toBe(4);
      await expired.sweep();
      expect(await readdir(cacheDir)).toHaveLength(1);
    } finally {
      await call(s, admin, 'PATCH', '/api/v1/settings', { kepubifyPath: null });
    }
  });

  it('serves the cover at the URL of the initialization template', async () => {
    const poster = await makeImage('jpeg', 7, 120, 180);
    await s.app.deps.thumbnails.upload('book', epubs[0]!, poster, true);
    const res = await kobo(`/v1/books/${epubs[0]}/thumbnail/355/530/false/image.jpg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const expected = await s.app.deps.thumbnails.bookPoster(epubs[0]!);
    expect(Buffer.from(await res.arrayBuffer()).equals(expected!)).toBe(true);
    expect((await kobo(`/v1/books/${epubs[0]}/thumbnail/355/530/85/true/image.jpg`)).status).toBe(200);
  });

  it('answers metadata as Kobo reads it', async () => {
    const res = await kobo(`/v1/library/${epubs[0]}/metadata`);
    expect(res.status).toBe(200);
    const [metadata] = (await res.json()) as { EntitlementId: string; Series: { Name: string } }[];
    expect(metadata!.EntitlementId).toBe(epubs[0]);
    expect(metadata!.Series.Name).toBe('Open');
  });

  it('refuses a malformed reading state with 400', async () => {
    for (const body of [
      {},
      { ReadingStates: [] },
      { ReadingStates: [{ CurrentBookmark: { ProgressPercent: 'x' } }] },
    ]) {
      const res = await kobo(`/v1/library/${epubs[0]}/state`, { method: 'PUT', json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const res = await kobo(`/v1/library/${epubs[0]}/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"ReadingStates": [',
    });
    expect(res.status).toBe(400);
  });
});

describe('content restrictions and credentials', () => {
  it('never syncs a hidden book or a comic, and refuses them by id', async () => {
    const { items } = await syncAll();
    const ids = items.map((i) => i.NewEntitlement?.BookEntitlement.Id);
    expect(ids).not.toContain(hidden);
    expect(ids).not.toContain(comic);
    for (const path of [
      `/v1/library/${hidden}/metadata`,
      `/v1/library/${hidden}/state`,
      `/v1/books/${hidden}/file/epub`,
      `/v1/books/${hidden}/thumbnail/100/100/false/image.jpg`,
    ])
      expect((await kobo(path)).status, path).toBe(403);
    const put = await kobo(`/v1/library/${hidden}/state`, {
      method: 'PUT',
      json: { ReadingStates: [{ StatusInfo: { Status: 'Finished' } }] },
    });
    expect(put.status).toBe(403);
    expect((await call(s, admin, 'GET', `/api/v1/books/${hidden}`)).body).toMatchObject({ readProgress: null });
    expect((await kobo('/v1/library/NOPE/metadata')).status).toBe(404);
  });

  it('refuses unknown keys, users without KOBO_SYNC or FILE_DOWNLOAD, and keys of deleted users with 403', async () => {
    for (const bad of ['0123456789abcdef0123456789abcdef', 'x']) {
      const res = await s.fetch(`/kobo/${bad}/v1/library/sync`);
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
    const plain = await createUser(s, admin, 'plain@example.org', { roles: ['PAGE_STREAMING'] });
    const plainKey = (
      (await call(s, plain.authorization, 'POST', '/api/v2/users/me/api-keys', { comment: 'k' })).body as {
        key: string;
      }
    ).key;
    expect((await s.fetch(`/kobo/${plainKey}/v1/library/sync`)).status).toBe(403);

    const noDownload = await createUser(s, admin, 'nodl@example.org', { roles: ['KOBO_SYNC'] });
    const noDownloadKey = (
      (await call(s, noDownload.authorization, 'POST', '/api/v2/users/me/api-keys', { comment: 'k' })).body as {
        key: string;
      }
    ).key;
    expect((await s.fetch(`/kobo/${noDownloadKey}/v1/library/sync`)).status).toBe(200);
    expect((await s.fetch(`/kobo/${noDownloadKey}/v1/books/${epubs[0]}/file/epub`)).status).toBe(403);

    expect((await call(s, admin, 'DELETE', `/api/v2/users/${noDownload.id}`)).status).toBe(204);
    expect((await s.fetch(`/kobo/${noDownloadKey}/v1/library/sync`)).status).toBe(403);
  });
});

describe('the Kobo store', () => {
  it('is called only once the administrator turns koboProxy on', async () => {
    expect(storeCalls).toEqual([]);
    expect((await call(s, admin, 'PATCH', '/api/v1/settings', { koboProxy: true })).status).toBe(204);
    try {
      const res = await kobo('/v1/user/profile?x=1');
      expect(await res.json()).toEqual({ FromStore: true });
      expect(storeCalls).toEqual([{ method: 'GET', url: '/v1/user/profile?x=1' }]);

      // The store's books follow Quire's in a sync, and the store's token travels inside Quire's.
      const first = await syncAll();
      expect(first.items.map((i) => i.NewEntitlement?.BookEntitlement.Id)).toEqual([
        ...epubs.slice(0, 2),
        'store-book',
        epubs[2],
      ]);
      expect((await sync(first.token)).items).toEqual([]);
      const syncs = storeCalls.filter((c) => c.url === '/v1/library/sync');
      expect(syncs.map((c) => c.token)).toEqual([undefined, 'store-token-2', 'store-token-3']);
      const cover = await kobo('/v1/books/store-book/thumbnail/100/150/false/image.jpg', { redirect: 'manual' });
      expect(cover.status).toBe(307);
      expect(cover.headers.get('location')).toBe('https://cdn.kobo.com/book-images/store-book/100/150/false/image.jpg');
    } finally {
      await call(s, admin, 'PATCH', '/api/v1/settings', { koboProxy: false });
    }
    storeCalls.length = 0;
    expect(await (await kobo('/v1/user/profile')).json()).toEqual({});
    expect(storeCalls).toEqual([]);
  });
});

/** A one-page fixed-layout EPUB 3 (`rendition:layout` pre-paginated). */
function fixedLayoutEpub(): Buffer {
  const file = (name: string, text: string) => ({ name, data: Buffer.from(text), deflate: name !== 'mimetype' });
  return zipBuffer([
    file('mimetype', 'application/epub+zip'),
    file(
      'META-INF/container.xml',
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">' +
        '<rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    file(
      'content.opf',
      '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">' +
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">fixed</dc:identifier>' +
        '<dc:title>Fixed</dc:title><dc:language>en</dc:language>' +
        '<meta property="rendition:layout">pre-paginated</meta></metadata>' +
        '<manifest><item id="p1" href="page1.xhtml" media-type="application/xhtml+xml"/>' +
        '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/></manifest>' +
        '<spine><itemref idref="p1"/></spine></package>',
    ),
    file(
      'nav.xhtml',
      '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>' +
        '<nav epub:type="toc"><ol><li><a href="page1.xhtml">Page</a></li></ol></nav></body></html>',
    ),
    file('page1.xhtml', '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>A picture book page.</p></body></html>'),
  ]);
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBook, makeLibrary, makeSeries } from '../support/factories.js';
import { onPostgres } from '../support/postgres.js';
import { claim, startServer, type TestServer } from '../support/server.js';

/*
 * The same data on SQLite and on PostgreSQL gives the same lists, in the same order: title sorts (folded and
 * natural: "2" before "10"), accents, case, punctuation, CJK; and the same collection and read list names are
 * refused as duplicates (ASCII case only). Runs when the tests run on PostgreSQL (npm run test:server:pg), which is
 * when both databases are at hand.
 */

const TITLES = [
  'batman',
  'Batman 2',
  'Batman 10',
  'batman 1',
  'Batman: Year One',
  'Zorro',
  'zebra',
  'Élodie',
  'elodie',
  'Elodie',
  '_underscore',
  '123 Go',
  '12 Go',
  'Ärger',
  '東京',
  'The Boys',
  'a-ha',
  'a ha',
  'ABC',
  'abc',
  'Ω omega',
  '',
];

interface Side {
  s: TestServer;
  auth: string;
  ids: Map<string, string>;
}

async function side(env: Record<string, string>): Promise<Side> {
  const s = await startServer(env);
  const { authorization } = await claim(s);
  const db = s.app.deps.db;
  const libraryId = await makeLibrary(db);
  const ids = new Map<string, string>();
  // Inserted in the same (scrambled) order on both sides, so that ties would show too.
  for (const [i, title] of [...TITLES].reverse().entries()) {
    const seriesId = await makeSeries(db, libraryId, { title, folder: `/tmp/same-order/${i}-${title || 'blank'}` });
    ids.set(seriesId, title);
    const bookId = await makeBook(db, { libraryId, seriesId }, `/tmp/same-order/${i}/${title || 'blank'}.cbz`);
    await db.updateTable('book_metadata').set({ title }).where('book_id', '=', bookId).execute();
    ids.set(bookId, title);
  }
  return { s, auth: authorization, ids };
}

const json = async (x: Side, path: string, init: RequestInit & { json?: unknown } = {}) => {
  const res = await x.s.fetch(path, { ...init, headers: { Authorization: x.auth, ...init.headers } });
  return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as unknown) };
};

const titlesOf = (x: Side, body: unknown) =>
  (body as { content: { id: string }[] }).content.map((e) => x.ids.get(e.id));

describe.runIf(onPostgres())('SQLite and PostgreSQL', () => {
  let sqlite: Side;
  let postgres: Side;
  beforeAll(async () => {
    // An empty QUIRE_DATABASE_URL is SQLite in the data dir.
    sqlite = await side({ QUIRE_DATABASE_URL: '' });
    postgres = await side({});
    expect(sqlite.s.app.deps.db.getExecutor().adapter.constructor.name).toBe('SqliteAdapter');
    expect(postgres.s.app.deps.db.getExecutor().adapter.constructor.name).toBe('PostgresAdapter');
  }, 60_000);
  afterAll(async () => {
    await sqlite?.s.close();
    await postgres?.s.close();
  });

  it.each([
    '/api/v1/series?unpaged=true&sort=metadata.titleSort,asc',
    '/api/v1/series?unpaged=true&sort=metadata.titleSort,desc',
    '/api/v1/series?unpaged=true&sort=name,asc',
    '/api/v1/books?unpaged=true&sort=metadata.title,asc',
    '/api/v1/books?unpaged=true&sort=name,desc',
    '/api/v1/books?unpaged=true&sort=url,asc',
    '/api/v1/series?unpaged=true&sort=metadata.titleSort,asc&search=batman',
    '/api/v1/books?unpaged=true&sort=metadata.title,asc&search=elo',
  ])('list %s in the same order', async (path) => {
    const a = await json(sqlite, path);
    const b = await json(postgres, path);
    expect(a.status).toBe(200);
    expect(titlesOf(postgres, b.body)).toEqual(titlesOf(sqlite, a.body));
    expect(titlesOf(sqlite, a.body).length).toBeGreaterThan(0);
  });

  it('refuse the same collection and read list names, and only those', async () => {
    const outcome = async (x: Side) => {
      const [seriesId] = [...x.ids.keys()];
      const books = (await json(x, '/api/v1/books?unpaged=true')).body as { content: { id: string }[] };
      const statuses: number[] = [];
      for (const name of ['Heroes', 'heroes', 'HEROES', 'Élan', 'élan', 'ÉLAN', 'Straße', 'STRASSE']) {
        statuses.push(
          (
            await json(x, '/api/v1/collections', {
              method: 'POST',
              json: { name, ordered: false, seriesIds: [seriesId] },
            })
          ).status,
        );
        statuses.push(
          (
            await json(x, '/api/v1/readlists', {
              method: 'POST',
              json: { name, ordered: true, bookIds: [books.content[0]!.id] },
            })
          ).status,
        );
      }
      const names = async (path: string) =>
        ((await json(x, `${path}?unpaged=true`)).body as { content: { name: string }[] }).content.map((c) => c.name);
      return { statuses, collections: await names('/api/v1/collections'), readlists: await names('/api/v1/readlists') };
    };
    const a = await outcome(sqlite);
    expect(await outcome(postgres)).toEqual(a);
    expect(a.statuses.filter((s) => s === 200)).not.toHaveLength(a.statuses.length);
  });
});

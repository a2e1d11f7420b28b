import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../support/fixtures.js';
import { writeCbz } from '../support/library-builder.js';
import { claim, startServer, type TestServer } from '../support/server.js';
import { call, createUser, eventually } from '../reading/helpers.js';

/*
 * GET /api/v1/history (api.md §9.7) with events recorded by the real use cases: a RAR book converted to CBZ
 * (BookFileDeleted + BookConverted), book and series files deleted by request (BookFileDeleted, and
 * SeriesFolderDeleted when a folder is left empty), seen by an admin and by restricted users.
 */

type Event = {
  id: string;
  type: string;
  bookId?: string;
  seriesId?: string;
  timestamp: string;
  properties: Record<string, string>;
};
type PageOf<T> = { content: T[]; totalElements: number; totalPages: number; number: number; size: number };

let s: TestServer;
let dir: string;
let admin: string;
let mainId: string;
let otherId: string;
const ids: Record<string, string> = {};

const idle = async () => {
  let quiet = 0;
  for (let i = 0; i < 1200 && quiet < 3; i++) {
    quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
    await new Promise((r) => setTimeout(r, 50));
  }
};

async function createLibrary(name: string, root: string, extra: Record<string, unknown> = {}) {
  const res = await call(s, admin, 'POST', '/api/v1/libraries', { name, root, ...extra });
  expect(res.status).toBe(200);
  return (res.body as { id: string }).id;
}

async function bookId(name: string) {
  const row = await s.app.deps.db
    .selectFrom('book')
    .select(['id', 'series_id'])
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return { bookId: row.id, seriesId: row.series_id };
}

const history = async (authorization: string, query = '') => {
  const res = await call(s, authorization, 'GET', `/api/v1/history${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as PageOf<Event>;
};

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-history-'));
  const main = join(dir, 'Main');
  const other = join(dir, 'Other');
  await mkdir(join(main, 'Rars'), { recursive: true });
  await copyFile(fixture('archives/Captain Science #001-cbi.cbr'), join(main, 'Rars', 'Rar Book.cbr'));
  await writeCbz(join(main, 'Saga', 'Saga 1.cbz'), { pages: 2, seed: 1 });
  await writeCbz(join(main, 'Saga', 'Saga 2.cbz'), { pages: 2, seed: 2 });
  await writeCbz(join(other, 'Secret', 'Secret 1.cbz'), { pages: 2, seed: 3 });
  await writeCbz(join(other, 'Open', 'Open 1.cbz'), { pages: 2, seed: 4 });
  mainId = await createLibrary('Main', main, { convertToCbz: true });
  otherId = await createLibrary('Other', other);
  await idle();
  Object.assign(ids, {
    rar: (await bookId('Rar Book')).bookId,
    saga1: (await bookId('Saga 1')).bookId,
    secret: (await bookId('Secret 1')).seriesId,
    open: (await bookId('Open 1')).seriesId,
  });
  const label = await call(s, admin, 'PATCH', `/api/v1/series/${ids.secret}/metadata`, { sharingLabels: ['secret'] });
  expect(label.status).toBe(204);
  // In order, one at a time, so that their times are in this order too.
  for (const path of [
    `/api/v1/books/${ids.saga1}/file`,
    `/api/v1/series/${ids.secret}/file`,
    `/api/v1/series/${ids.open}/file`,
  ]) {
    expect((await call(s, admin, 'DELETE', path)).status).toBe(202);
    await idle();
  }
}, 180_000);

afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('GET /api/v1/history', () => {
  it('lists every recorded event, newest first, with the details the reference records', async () => {
    const page = await history(admin);
    const main = join(dir, 'Main');
    const other = join(dir, 'Other');
    expect(page.totalElements).toBe(7);
    expect(page.content.map((e) => [e.type, e.properties.name])).toEqual([
      ['SeriesFolderDeleted', join(other, 'Open')],
      ['BookFileDeleted', join(other, 'Open', 'Open 1.cbz')],
      ['SeriesFolderDeleted', join(other, 'Secret')],
      ['BookFileDeleted', join(other, 'Secret', 'Secret 1.cbz')],
      ['BookFileDeleted', join(main, 'Saga', 'Saga 1.cbz')],
      ['BookConverted', join(main, 'Rars', 'Rar Book.cbz')],
      ['BookFileDeleted', join(main, 'Rars', 'Rar Book.cbr')],
    ]);
    const [openFolder, , , , saga, converted, rarDeleted] = page.content;
    expect(converted).toMatchObject({
      bookId: ids.rar,
      properties: { name: join(main, 'Rars', 'Rar Book.cbz'), 'former file': join(main, 'Rars', 'Rar Book.cbr') },
    });
    expect(rarDeleted!.properties).toEqual({
      reason: 'File was deleted after conversion to CBZ',
      name: join(main, 'Rars', 'Rar Book.cbr'),
    });
    expect(saga).toMatchObject({ bookId: ids.saga1, properties: { reason: 'File was deleted by user request' } });
    expect(openFolder).toMatchObject({
      seriesId: ids.open,
      properties: { reason: 'Folder was deleted because it was empty' },
    });
    expect(openFolder!.bookId).toBeUndefined();
    // Komga's LocalDateTime: no zone.
    for (const e of page.content) expect(e.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    expect(new Set(page.content.map((e) => e.id)).size).toBe(7);
  });

  it('pages and sorts as Spring does, and filters by type', async () => {
    const second = await history(admin, '?size=2&page=1&sort=timestamp,asc');
    expect(second).toMatchObject({ totalElements: 7, totalPages: 4, number: 1, size: 2 });
    expect(second.content.map((e) => e.properties.name)).toEqual([
      join(dir, 'Main', 'Saga', 'Saga 1.cbz'),
      join(dir, 'Other', 'Secret', 'Secret 1.cbz'),
    ]);
    const byType = await history(admin, '?sort=type&sort=unknownProperty');
    expect(byType.content.map((e) => e.type)).toEqual([
      'BookConverted',
      'BookFileDeleted',
      'BookFileDeleted',
      'BookFileDeleted',
      'BookFileDeleted',
      'SeriesFolderDeleted',
      'SeriesFolderDeleted',
    ]);
    const folders = await history(admin, '?type=SeriesFolderDeleted&type=BookConverted');
    expect(folders.content.map((e) => e.type)).toEqual(['SeriesFolderDeleted', 'SeriesFolderDeleted', 'BookConverted']);
  });

  it('refuses a malformed query with the violations body, and anonymous callers', async () => {
    const bad = await call(s, admin, 'GET', '/api/v1/history?type=Nonsense');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      violations: [expect.objectContaining({ fieldName: expect.stringContaining('type') })],
    });
    expect((await call(s, admin, 'GET', '/api/v1/history?page=first')).status).toBe(400);
    expect((await s.fetch('/api/v1/history', { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).status).toBe(401);
  });

  it('shows any user only the events of the libraries and content he may see', async () => {
    const everything = await createUser(s, admin, 'reader@example.org');
    expect((await history(everything.authorization)).totalElements).toBe(7);

    const otherOnly = await createUser(s, admin, 'other@example.org', {
      sharedLibraries: { all: false, libraryIds: [otherId] },
    });
    const seen = await history(otherOnly.authorization);
    expect(seen.content.every((e) => e.properties.name!.startsWith(join(dir, 'Other')))).toBe(true);
    expect(seen.totalElements).toBe(4);

    const noSecret = await createUser(s, admin, 'nosecret@example.org', { labelsExclude: ['secret'] });
    const filtered = await history(noSecret.authorization);
    expect(filtered.content.map((e) => e.seriesId)).not.toContain(ids.secret);
    expect(filtered.totalElements).toBe(5);

    const mainOnly = await createUser(s, admin, 'main@example.org', {
      sharedLibraries: { all: false, libraryIds: [mainId] },
    });
    expect((await history(mainOnly.authorization, '?type=SeriesFolderDeleted')).totalElements).toBe(0);
  });

  it('keeps events once their series is emptied from the trash', async () => {
    expect((await call(s, admin, 'POST', `/api/v1/libraries/${otherId}/empty-trash`)).status).toBe(202);
    await eventually(async () => {
      const rows = await s.app.deps.db.selectFrom('series').select('id').where('library_id', '=', otherId).execute();
      expect(rows).toEqual([]);
    });
    expect((await history(admin, '?type=SeriesFolderDeleted')).totalElements).toBe(2);
    // Library sharing still narrows them; age and label rules can no longer be checked, so nothing shows.
    const otherOnly = basicOf('other@example.org');
    expect((await history(otherOnly)).totalElements).toBe(4);
    expect((await history(basicOf('nosecret@example.org'))).totalElements).toBe(3);
  });
});

const basicOf = (email: string) => `Basic ${Buffer.from(`${email}:reader-secret`).toString('base64')}`;

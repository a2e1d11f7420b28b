import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCbz } from '../support/library-builder.js';
import { onPostgres } from '../support/postgres.js';
import { claim, startServer, type TestServer } from '../support/server.js';
import { call, createUser } from '../reading/helpers.js';

/*
 * What the media management screens call beyond the book lists: duplicate files found by file hash on real files,
 * deleting one of them (it leaves the group and the history records it), and the task overview (Quire).
 */

let s: TestServer;
let dir: string;
let admin: string;
let reader: string;
let libraryId: string;

const idle = async () => {
  let quiet = 0;
  for (let i = 0; i < 1200 && quiet < 3; i++) {
    quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
    await new Promise((r) => setTimeout(r, 50));
  }
};

type Book = { id: string; name: string; fileHash: string; sizeBytes: number; libraryId: string; url: string };

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  reader = (await createUser(s, admin, 'reader@example.org')).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-media-management-'));
  // The same bytes three times (same seed), in two series; and one different book.
  await writeCbz(join(dir, 'Alpha', 'Alpha 1.cbz'), { pages: 3, seed: 7 });
  await writeCbz(join(dir, 'Alpha', 'Alpha 2.cbz'), { pages: 3, seed: 7 });
  await writeCbz(join(dir, 'Beta', 'Beta 1.cbz'), { pages: 3, seed: 7 });
  await writeCbz(join(dir, 'Beta', 'Beta 2.cbz'), { pages: 4, seed: 8 });
  const res = await call(s, admin, 'POST', '/api/v1/libraries', { name: 'Dups', root: dir, hashFiles: true });
  expect(res.status).toBe(200);
  libraryId = (res.body as { id: string }).id;
  await idle();
}, 120_000);

afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('duplicate files', () => {
  it('groups the books whose files have the same hash and size', async () => {
    const res = await call(s, admin, 'GET', '/api/v1/books/duplicates?sort=fileHash&sort=name');
    expect(res.status).toBe(200);
    const page = res.body as { content: Book[]; totalElements: number };
    expect(page.content.map((b) => b.name).sort()).toEqual(['Alpha 1', 'Alpha 2', 'Beta 1']);
    expect(new Set(page.content.map((b) => b.fileHash)).size).toBe(1);
    expect(page.content[0]!.fileHash).not.toBe('');
    expect(page.content.every((b) => b.libraryId === libraryId)).toBe(true);
  });

  it('forgets a duplicate once its file is deleted, and the history says so', async () => {
    const page = (await call(s, admin, 'GET', '/api/v1/books/duplicates')).body as { content: Book[] };
    const victim = page.content.find((b) => b.name === 'Alpha 2')!;
    expect((await call(s, admin, 'DELETE', `/api/v1/books/${victim.id}/file`)).status).toBe(202);
    await idle();
    expect(existsSync(join(dir, 'Alpha', 'Alpha 2.cbz'))).toBe(false);
    const after = (await call(s, admin, 'GET', '/api/v1/books/duplicates')).body as { content: Book[] };
    expect(after.content.map((b) => b.name).sort()).toEqual(['Alpha 1', 'Beta 1']);
    const history = (await call(s, admin, 'GET', '/api/v1/history')).body as {
      content: { type: string; bookId?: string; properties: Record<string, string> }[];
    };
    expect(history.content).toEqual([
      expect.objectContaining({
        type: 'BookFileDeleted',
        bookId: victim.id,
        properties: { reason: 'File was deleted by user request', name: join(dir, 'Alpha', 'Alpha 2.cbz') },
      }),
    ]);
  });

  it('is for administrators only', async () => {
    expect((await call(s, reader, 'GET', '/api/v1/books/duplicates')).status).toBe(403);
  });
});

describe('GET /api/v1/tasks/overview', () => {
  // Writes the SQLite queue's rows; PostgreSQL mode's counts: test/tasks/pg-queue-and-bus.test.ts.
  it.skipIf(onPostgres())('counts queued and running tasks per type, for administrators only', async () => {
    expect((await call(s, reader, 'GET', '/api/v1/tasks/overview')).status).toBe(403);
    expect((await s.fetch('/api/v1/tasks/overview')).status).toBe(401);
    expect((await call(s, admin, 'GET', '/api/v1/tasks/overview')).body).toEqual({ queued: 0, running: 0, byType: [] });

    // Queued work that no runner holds yet, and tasks a runner holds (as a worker does when it takes one). All in one
    // group, so that the server's own runners leave the queued ones alone while one of the group runs.
    const db = s.app.deps.db;
    const now = new Date().toISOString();
    const row = (uniqueId: string, kind: string, owner: string | null) => ({
      unique_id: uniqueId,
      kind,
      priority: 0,
      group_id: 'probe-group',
      payload: JSON.stringify({ kind, libraryId: `L-${uniqueId}` }),
      owner,
      seq: Date.now(),
      created_date: now,
      last_modified_date: now,
    });
    await db
      .insertInto('task')
      .values([
        row('probe-1', 'EmptyTrash', null),
        row('probe-2', 'EmptyTrash', null),
        row('probe-3', 'EmptyTrash', 'someone-else'),
        row('probe-4', 'ScanLibrary', 'someone-else'),
      ])
      .execute();
    try {
      expect((await call(s, admin, 'GET', '/api/v1/tasks/overview')).body).toEqual({
        queued: 2,
        running: 2,
        byType: [
          { type: 'EmptyTrash', queued: 2, running: 1 },
          { type: 'ScanLibrary', queued: 0, running: 1 },
        ],
      });
    } finally {
      await db.deleteFrom('task').where('unique_id', 'like', 'probe-%').execute();
    }
  });
});

describe('GET /api/v1/media-management/series-without-poster', () => {
  it('lists the series that neither have a poster nor any book with one, for administrators only', async () => {
    expect((await call(s, reader, 'GET', '/api/v1/media-management/series-without-poster')).status).toBe(403);
    const titles = async () =>
      (
        (await call(s, admin, 'GET', '/api/v1/media-management/series-without-poster')).body as {
          content: { metadata: { title: string } }[];
        }
      ).content.map((x) => x.metadata.title);
    // Every book got its poster from the scan.
    expect(await titles()).toEqual([]);

    const db = s.app.deps.db;
    const beta = await db.selectFrom('series').select('id').where('name', '=', 'Beta').executeTakeFirstOrThrow();
    const betaBooks = db.selectFrom('book').select('id').where('series_id', '=', beta.id);
    await db.updateTable('thumbnail_book').set({ selected: 0 }).where('book_id', 'in', betaBooks).execute();
    expect(await titles()).toEqual(['Beta']);

    // Analysing the series again makes its books' posters again.
    expect((await call(s, admin, 'POST', `/api/v1/series/${beta.id}/analyze`)).status).toBe(202);
    await idle();
    expect(await titles()).toEqual([]);
  });
});

import { mkdir, mkdtemp, readFile, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipReader } from '../../src/media/archives/index.js';
import { makeImage, zipBuffer } from '../support/library-builder.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

/*
 * Duplicate pages end to end (issue 14; engine.md §5.3-5.4, §11.3; api.md §3.10): 20 generated CBZs share a
 * credits page (their last) and 3 of them a scanner's note (their first). Page hashing finds both as unknown
 * duplicates; marking the credits DELETE_AUTO removes them at the next scan; the note is removed by hand, one
 * match, then all. The archives are rewritten on disk, the books keep their ids and progress.
 */

const BOOKS = 20;
const NOTED = 3;

type Page<T> = { content: T[]; totalElements: number; size: number; number: number };
type Unknown = { hash: string; size?: number; matchCount: number };
type Known = {
  hash: string;
  size?: number;
  action: string;
  deleteCount: number;
  matchCount: number;
  created: string;
  lastModified: string;
};
type Match = { bookId: string; url: string; pageNumber: number; fileName: string; fileSize: number; mediaType: string };
type Book = {
  id: string;
  name: string;
  media: { status: string; pagesCount: number };
  readProgress: { page: number } | null;
};

describe('duplicate pages', () => {
  let s: TestServer;
  let dir: string;
  let admin: Record<string, string>;
  let reader: Record<string, string>;
  let libraryId: string;
  let credits: Buffer;
  let note: Buffer;
  const bookIds = new Map<string, string>();

  const call = (path: string, init: RequestInit & { json?: unknown } = {}, headers = admin) =>
    s.fetch(path, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  const get = async <T>(path: string): Promise<T> => {
    const res = await call(path);
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    return (await res.json()) as T;
  };
  const idle = async () => {
    let quiet = 0;
    for (let i = 0; i < 1200 && quiet < 3; i++) {
      quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const book = (name: string) => get<Book>(`/api/v1/books/${bookIds.get(name)}`);
  const entriesOf = async (name: string) =>
    (await zipReader.entries(join(dir, 'Series', `${name}.cbz`), { dimensions: false })).map((e) => e.name);
  const unknown = () => get<Page<Unknown>>('/api/v1/page-hashes/unknown');
  let creditsHash: string;
  let noteHash: string;

  beforeAll(async () => {
    s = await startServer();
    admin = { authorization: (await claim(s)).authorization };
    const created = await call('/api/v2/users', {
      method: 'POST',
      json: { email: 'reader@example.org', password: 'reader-secret', roles: [] },
    });
    expect(created.status).toBe(201);
    reader = { authorization: basic('reader@example.org', 'reader-secret') };

    dir = await mkdtemp(join(tmpdir(), 'quire-duplicate-pages-'));
    await mkdir(join(dir, 'Series'), { recursive: true });
    credits = await makeImage('png', 7, 120, 180);
    note = await makeImage('png', 9, 40, 40);
    for (let b = 1; b <= BOOKS; b++) {
      const entries = [];
      if (b <= NOTED) entries.push({ name: '000-note.png', data: note });
      for (let p = 1; p <= 4; p++) entries.push({ name: `00${p}.jpg`, data: await makeImage('jpeg', b * 10 + p) });
      entries.push({ name: 'zz-credits.png', data: credits });
      entries.push({ name: 'ComicInfo.xml', data: Buffer.from('<ComicInfo></ComicInfo>') });
      await writeFile(join(dir, 'Series', `Book ${String(b).padStart(2, '0')}.cbz`), zipBuffer(entries));
    }
    const res = await call('/api/v1/libraries', {
      method: 'POST',
      json: { name: 'Duplicates', root: dir, hashPages: true },
    });
    expect(res.status).toBe(200);
    libraryId = ((await res.json()) as { id: string }).id;
    await idle();
    const rows = await s.app.deps.db.selectFrom('book').select(['id', 'name']).execute();
    for (const r of rows) bookIds.set(r.name, r.id);
    expect(bookIds.size).toBe(BOOKS);
  }, 240_000);

  afterAll(async () => {
    await s?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists the shared pages as unknown duplicates, largest saving first, 10 to a page by default', async () => {
    const list = await unknown();
    expect(list.size).toBe(10);
    expect(list.totalElements).toBe(2);
    const [first, second] = list.content;
    expect(first).toMatchObject({ size: credits.length, matchCount: BOOKS });
    expect(second).toMatchObject({ size: note.length, matchCount: NOTED });
    creditsHash = first!.hash;
    noteHash = second!.hash;
    expect(creditsHash).toMatch(/^[0-9a-f]{32}$/);
    const bySize = await get<Page<Unknown>>('/api/v1/page-hashes/unknown?sort=size,asc&size=1');
    expect(bySize.content.map((u) => u.hash)).toEqual([noteHash]);
    expect(bySize.totalElements).toBe(2);
  });

  it('lists the pages holding a hash: book, file path, 1-based page number, entry', async () => {
    const matches = await get<Page<Match>>(`/api/v1/page-hashes/${noteHash}?sort=url`);
    expect(matches.totalElements).toBe(NOTED);
    expect(matches.content[0]).toEqual({
      bookId: bookIds.get('Book 01'),
      url: join(dir, 'Series', 'Book 01.cbz'),
      pageNumber: 1,
      fileName: '000-note.png',
      fileSize: note.length,
      mediaType: 'image/png',
    });
    const credit = await get<Page<Match>>(`/api/v1/page-hashes/${creditsHash}?size=50`);
    expect(credit.totalElements).toBe(BOOKS);
    expect(new Set(credit.content.map((m) => m.pageNumber))).toEqual(new Set([5, 6]));
  });

  it('renders an unknown hash from its first page, resized when asked', async () => {
    const res = await call(`/api/v1/page-hashes/unknown/${creditsHash}/thumbnail?resize=60`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(60);
    const raw = await call(`/api/v1/page-hashes/unknown/${creditsHash}/thumbnail`);
    expect(raw.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await raw.arrayBuffer()).equals(credits)).toBe(true);
  });

  it('answers 404 for a hash no page holds and nobody decided on', async () => {
    const none = '0'.repeat(32);
    for (const [method, path, json] of [
      ['GET', `/api/v1/page-hashes/${none}`],
      ['GET', `/api/v1/page-hashes/${none}/thumbnail`],
      ['GET', `/api/v1/page-hashes/unknown/${none}/thumbnail`],
      ['POST', `/api/v1/page-hashes/${none}/delete-all`],
      [
        'POST',
        `/api/v1/page-hashes/${none}/delete-match`,
        { bookId: 'x', url: '/x', pageNumber: 1, fileName: 'a.png', fileSize: 1, mediaType: 'image/png' },
      ],
    ] as const) {
      const res = await call(path, { method, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });

  it('refuses a bad action, a blank hash or no body with the violations body', async () => {
    for (const json of [
      { hash: creditsHash, action: 'DELETE_NOW' },
      { hash: ' ', action: 'IGNORE' },
      { action: 'IGNORE' },
    ]) {
      const res = await call('/api/v1/page-hashes', { method: 'PUT', json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      const body = (await res.json()) as { violations: { fieldName: string }[] };
      expect(body.violations.length, JSON.stringify(json)).toBeGreaterThan(0);
    }
    const empty = await call('/api/v1/page-hashes', { method: 'PUT', headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(400);
    const badFilter = await call('/api/v1/page-hashes?action=SOMETIMES');
    expect(badFilter.status).toBe(400);
    expect((await badFilter.json()) as object).toHaveProperty('violations');
  });

  it('is for administrators only: 403 for a user, 401 without credentials', async () => {
    const match = { bookId: 'x', url: '/x', pageNumber: 1, fileName: 'a', fileSize: 1, mediaType: 'image/png' };
    const all: [string, string, unknown?][] = [
      ['GET', '/api/v1/page-hashes'],
      ['PUT', '/api/v1/page-hashes', { hash: creditsHash, action: 'IGNORE' }],
      ['GET', '/api/v1/page-hashes/unknown'],
      ['GET', `/api/v1/page-hashes/unknown/${creditsHash}/thumbnail`],
      ['GET', `/api/v1/page-hashes/${creditsHash}`],
      ['GET', `/api/v1/page-hashes/${creditsHash}/thumbnail`],
      ['POST', `/api/v1/page-hashes/${creditsHash}/delete-all`],
      ['POST', `/api/v1/page-hashes/${creditsHash}/delete-match`, match],
    ];
    for (const [method, path, json] of all) {
      const init = { method, ...(json ? { json } : {}) };
      expect((await call(path, init, reader)).status, `${method} ${path}`).toBe(403);
      expect((await call(path, init, {})).status, `${method} ${path}`).toBe(401);
    }
    expect((await unknown()).totalElements).toBe(2);
  });

  it('removes the DELETE_AUTO pages at the next scan: archives rewritten, books READY with one page fewer', async () => {
    const progress = await call(`/api/v1/books/${bookIds.get('Book 05')}/read-progress`, {
      method: 'PATCH',
      json: { page: 3 },
    });
    expect(progress.status).toBe(204);
    const put = await call('/api/v1/page-hashes', {
      method: 'PUT',
      json: { hash: creditsHash, size: credits.length, action: 'DELETE_AUTO' },
    });
    expect(put.status).toBe(202);
    const known = await get<Page<Known>>('/api/v1/page-hashes?action=DELETE_AUTO');
    expect(known.content).toEqual([
      expect.objectContaining({ hash: creditsHash, size: credits.length, matchCount: BOOKS, deleteCount: 0 }),
    ]);
    expect(known.content[0]!.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/);
    expect((await get<Page<Known>>('/api/v1/page-hashes?action=IGNORE')).totalElements).toBe(0);
    expect((await unknown()).content.map((u) => u.hash)).toEqual([noteHash]);
    const thumbnail = await call(`/api/v1/page-hashes/${creditsHash}/thumbnail`);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).format).toBe('jpeg');

    expect((await call(`/api/v1/libraries/${libraryId}/scan`, { method: 'POST' })).status).toBe(202);
    await idle();

    for (let b = 1; b <= BOOKS; b++) {
      const name = `Book ${String(b).padStart(2, '0')}`;
      const after = await book(name);
      expect(after.id).toBe(bookIds.get(name));
      expect(after.media, name).toEqual(expect.objectContaining({ status: 'READY', pagesCount: b <= NOTED ? 5 : 4 }));
      const entries = await entriesOf(name);
      expect(entries, name).not.toContain('zz-credits.png');
      expect(entries, name).toContain('ComicInfo.xml');
    }
    expect((await book('Book 05')).readProgress).toMatchObject({ page: 3 });
    const done = await get<Page<Known>>('/api/v1/page-hashes');
    expect(done.content[0]).toMatchObject({ hash: creditsHash, deleteCount: BOOKS, matchCount: 0 });
    expect((await readdir(join(dir, 'Series'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const events = await s.app.deps.db
      .selectFrom('historical_event')
      .selectAll()
      .where('type', '=', 'DuplicatePageDeleted')
      .execute();
    expect(events).toHaveLength(BOOKS);
    const first = events.find((e) => e.book_id === bookIds.get('Book 01'))!;
    expect(JSON.parse(first.properties)).toEqual({
      name: join(dir, 'Series', 'Book 01.cbz'),
      'page number': '6',
      'page file name': 'zz-credits.png',
      'page file hash': creditsHash,
      'page file size': String(credits.length),
      'page media type': 'image/png',
    });
  }, 240_000);

  it('removes one match by hand, then every match, and draws a new poster when page 1 went', async () => {
    const put = await call('/api/v1/page-hashes', { method: 'PUT', json: { hash: noteHash, action: 'DELETE_MANUAL' } });
    expect(put.status).toBe(202);
    const poster = async (name: string) =>
      Buffer.from(await (await call(`/api/v1/books/${bookIds.get(name)}/thumbnail`)).arrayBuffer());
    const before = await poster('Book 01');
    const [match] = (await get<Page<Match>>(`/api/v1/page-hashes/${noteHash}?sort=url`)).content;
    const one = await call(`/api/v1/page-hashes/${noteHash}/delete-match`, { method: 'POST', json: match });
    expect(one.status).toBe(202);
    await idle();
    expect((await book('Book 01')).media.pagesCount).toBe(4);
    expect((await book('Book 02')).media.pagesCount).toBe(5);
    expect((await poster('Book 01')).equals(before)).toBe(false);
    expect((await get<Page<Match>>(`/api/v1/page-hashes/${noteHash}`)).totalElements).toBe(NOTED - 1);

    const all = await call(`/api/v1/page-hashes/${noteHash}/delete-all`, { method: 'POST' });
    expect(all.status).toBe(202);
    await idle();
    for (const name of ['Book 02', 'Book 03']) {
      expect((await book(name)).media).toMatchObject({ status: 'READY', pagesCount: 4 });
      expect(await entriesOf(name)).not.toContain('000-note.png');
    }
    const known = await get<Page<Known>>('/api/v1/page-hashes?action=DELETE_MANUAL');
    expect(known.content[0]).toMatchObject({ hash: noteHash, deleteCount: NOTED, matchCount: 0 });

    // Changing a known hash changes only its action.
    expect(
      (await call('/api/v1/page-hashes', { method: 'PUT', json: { hash: noteHash, size: 1, action: 'IGNORE' } }))
        .status,
    ).toBe(202);
    const changed = await get<Page<Known>>('/api/v1/page-hashes?action=IGNORE');
    expect(changed.content[0]).toMatchObject({ hash: noteHash, size: note.length, deleteCount: NOTED });
  }, 240_000);

  it('does not rewrite a book whose file changed since it was analysed: it analyses it again', async () => {
    // Book 04 gets its credits page back (and a new time), behind the server's back.
    const entries = [];
    for (let p = 1; p <= 4; p++) entries.push({ name: `00${p}.jpg`, data: await makeImage('jpeg', 40 + p) });
    entries.push({ name: 'zz-credits.png', data: credits });
    const file = join(dir, 'Series', 'Book 04.cbz');
    const bytes = zipBuffer(entries);
    await writeFile(file, bytes);
    const id = bookIds.get('Book 04')!;
    // A removal the book's analysis allows (its page 4, with the hash stored for it), asked for after the change.
    const db = s.app.deps.db;
    const page4 = await db
      .selectFrom('media_page')
      .innerJoin('book', 'book.id', 'media_page.book_id')
      .select(['media_page.file_hash', 'media_page.file_name', 'media_page.media_type', 'book.series_id'])
      .where('book_id', '=', id)
      .where('media_page.number', '=', 3)
      .executeTakeFirstOrThrow();
    expect(page4.file_hash).not.toBe('');
    await s.app.tasks.submit(
      [
        {
          kind: 'RemoveHashedPages',
          bookId: id,
          seriesId: page4.series_id,
          pages: [{ hash: page4.file_hash, fileName: page4.file_name, mediaType: page4.media_type, number: 3 }],
        },
      ],
      4,
    );
    await idle();
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect((await book('Book 04')).media).toMatchObject({ status: 'READY', pagesCount: 5 });
  }, 120_000);

  it('never writes outside the library: a book whose file became a link leading out is left alone', async () => {
    const inside = join(dir, 'Series', 'Book 06.cbz');
    const outsideDir = await mkdtemp(join(tmpdir(), 'quire-outside-'));
    const outside = join(outsideDir, 'Book 06.cbz');
    await rename(inside, outside); // keeps its bytes and time: only the link betrays it
    await symlink(outside, inside);
    const before = await readFile(outside);
    const id = bookIds.get('Book 06')!;
    const page1 = await s.app.deps.db
      .selectFrom('media_page')
      .innerJoin('book', 'book.id', 'media_page.book_id')
      .select(['media_page.file_hash', 'media_page.file_name', 'media_page.media_type', 'book.series_id'])
      .where('book_id', '=', id)
      .where('media_page.number', '=', 0)
      .executeTakeFirstOrThrow();
    await s.app.tasks.submit(
      [
        {
          kind: 'RemoveHashedPages',
          bookId: id,
          seriesId: page1.series_id,
          pages: [{ hash: page1.file_hash, fileName: page1.file_name, mediaType: page1.media_type, number: 0 }],
        },
      ],
      4,
    );
    await idle();
    expect((await readFile(outside)).equals(before)).toBe(true);
    expect((await readdir(outsideDir)).sort()).toEqual(['Book 06.cbz']);
    expect((await book('Book 06')).media.pagesCount).toBe(4);
    await rm(outsideDir, { recursive: true, force: true });
  });
});

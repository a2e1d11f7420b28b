import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { makeLibrary, makeSeriesWithBooks } from '../support/factories.js';
import { copyFixture, fixture } from '../support/fixtures.js';

/**
 * If-Modified-Since / If-None-Match on a book the caller may not see: Komga answers them before checking access
 * (api.md §1.7), which tells anyone that the book exists and when it changed. Quire checks access first.
 */
describe('conditional requests on a hidden book', () => {
  let s: TestServer;
  let dir: string;
  let admin: string;
  const users = { ageExcluded: '', notShared: '' };
  const ids = { cbz: '', epub: '' };
  let resource = '';

  beforeAll(async () => {
    s = await startServer();
    admin = (await claim(s)).authorization;
    dir = await mkdtemp(join(tmpdir(), 'quire-conditional-'));
    const folder = join(dir, 'Adults');
    await mkdir(folder, { recursive: true });
    await copyFile(fixture('archives/Captain Science #001.cbz'), join(folder, 'one.cbz'));
    const library = await makeLibrary(s.app.deps.db, { name: 'Adults', root: dir });
    const other = await makeLibrary(s.app.deps.db, { name: 'Other', root: join(dir, 'elsewhere') });
    [ids.cbz = ''] = (
      await makeSeriesWithBooks(s.app.deps.db, library, [join(folder, 'one.cbz')], { ageRating: 18 })
    ).bookIds;
    [ids.epub = ''] = (
      await makeSeriesWithBooks(
        s.app.deps.db,
        library,
        [await copyFixture('epub/The Incomplete Theft - Ralph Burke.epub', join(dir, 'Adult books'))],
        { ageRating: 18 },
      )
    ).bookIds;
    for (const id of Object.values(ids)) await s.app.deps.books.analyzer.analyzeAndPersist(id);
    const manifest = await (
      await s.fetch(`/api/v1/books/${ids.epub}/manifest`, { headers: { authorization: admin } })
    ).json();
    resource = (manifest as { readingOrder: { href: string }[] }).readingOrder[0]!.href.split('/resource/')[1]!;

    for (const [key, body] of [
      ['ageExcluded', { ageRestriction: { age: 18, restriction: 'EXCLUDE' } }],
      ['notShared', { sharedLibraries: { all: false, libraryIds: [other] } }],
    ] as const) {
      const email = `${key.toLowerCase()}@example.org`;
      const res = await s.fetch('/api/v2/users', {
        method: 'POST',
        headers: { authorization: admin },
        json: { email, password: 'reader-secret', ...body },
      });
      expect(res.status).toBe(201);
      users[key] = basic(email, 'reader-secret');
    }
  }, 60_000);

  afterAll(async () => {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  const paths = () => [
    `/api/v1/books/${ids.cbz}/pages/1`,
    `/api/v1/books/${ids.cbz}/pages/1/raw`,
    `/api/v1/books/${ids.cbz}/pages/1/thumbnail`,
    `/api/v1/books/${ids.epub}/positions`,
    `/api/v1/books/${ids.epub}/resource/${resource}`,
  ];

  it.each(['ageExcluded', 'notShared'] as const)('answers 403 without validators to %s', async (who) => {
    for (const path of paths()) {
      const first = await s.fetch(path, { headers: { authorization: admin } });
      expect(first.status, path).toBe(200);
      await first.arrayBuffer();
      const lastModified = first.headers.get('last-modified')!;
      const etag = first.headers.get('etag')!;
      expect(lastModified, path).toMatch(/GMT$/);
      expect(etag, path).toBeTruthy();

      const conditionals: Record<string, string>[] = [
        { 'if-modified-since': lastModified },
        { 'if-none-match': etag },
        {},
      ];
      for (const conditional of conditionals) {
        const res = await s.fetch(path, { headers: { authorization: users[who], ...conditional } });
        expect(res.status, `${path} ${JSON.stringify(conditional)}`).toBe(403);
        expect(res.headers.get('last-modified'), path).toBeNull();
        expect(res.headers.get('etag'), path).toBeNull();
        await res.arrayBuffer();
      }
    }
  });

  it('still answers 304 to whoever may see the book', async () => {
    for (const path of paths()) {
      const first = await s.fetch(path, { headers: { authorization: admin } });
      await first.arrayBuffer();
      const res = await s.fetch(path, {
        headers: { authorization: admin, 'if-modified-since': first.headers.get('last-modified')! },
      });
      expect(res.status, path).toBe(304);
      expect(res.headers.get('last-modified'), path).toBeTruthy();
    }
  });
});

import { copyFile, mkdtemp, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeImage, writeCbz } from '../support/library-builder.js';
import { copyFixture } from '../support/fixtures.js';
import { claim, startServer, type TestServer } from '../support/server.js';

/*
 * Issue 11 finding 6: a link inside a library to a file outside it (`passwd.cbz → /etc/passwd`) became a book
 * whose /file answered /etc/passwd. Links that lead out of the library root are skipped by the scan, and a link
 * swapped in after the scan is refused whenever the file is opened: download, pages, resources, posters,
 * analysis. Links that stay inside the root are followed.
 */

let s: TestServer;
let admin: string;
let dir: string;
let libraryId: string;
const outside = () => join(dir, 'outside');
const library = () => join(dir, 'library');

const get = (path: string) => s.fetch(path, { headers: { authorization: admin } });
const json = async <T>(path: string) => {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};
const status = async (path: string, init: RequestInit = {}) => {
  const res = await s.fetch(path, { ...init, headers: { authorization: admin } });
  await res.arrayBuffer();
  return res.status;
};

interface Book {
  id: string;
  name: string;
  seriesId: string;
  seriesTitle: string;
  media: { status: string; comment: string };
}
const books = async () =>
  (await json<{ content: Book[] }>(`/api/v1/books?library_id=${libraryId}&unpaged=true`)).content;
const bookNamed = async (name: string) => (await books()).find((b) => b.name === name)!;

/** Waits until every queued task (scan, analysis, posters, refreshes) has run. */
async function settled(timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < 3) {
    quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
    if (Date.now() > until) throw new Error('Timed out waiting for the task queue');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Replaces a file of the library by a link to `target`, as someone with write access could after a scan. */
async function swapForLink(path: string, target: string) {
  await unlink(path);
  await symlink(target, path);
}

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-symlinks-'));
  // Outside the library: a valid book, a folder of books, an image, and copies of the library's own files
  // (identical bytes: only the path tells them apart).
  await writeCbz(join(outside(), 'Outside.cbz'), { pages: 2, seed: 7 });
  await writeCbz(join(outside(), 'Outside Series', 'Outside 1.cbz'), { pages: 2, seed: 8 });
  await writeFile(join(outside(), 'private.jpg'), await makeImage('jpeg', 42, 200, 300));

  await writeCbz(join(library(), 'Series A', 'Book 1.cbz'), { pages: 3, seed: 1 });
  await copyFixture('epub/The Incomplete Theft - Ralph Burke.epub', join(library(), 'Series A'));
  await writeFile(join(library(), 'Series A', 'cover.jpg'), await makeImage('jpeg', 3, 200, 300));
  await writeCbz(join(library(), 'Series B', 'Book 2.cbz'), { pages: 2, seed: 2 });
  for (const f of ['Series A/Book 1.cbz', 'Series A/The Incomplete Theft - Ralph Burke.epub', 'Series A/cover.jpg'])
    await copyFile(join(library(), f), join(outside(), f.split('/')[1]!));

  // Links out of the root: skipped by the scan.
  await symlink('/etc/passwd', join(library(), 'Series A', 'passwd.cbz'));
  await symlink(join(outside(), 'Outside.cbz'), join(library(), 'Series A', 'secret.cbz'));
  await symlink(join(outside(), 'Outside Series'), join(library(), 'Linked Series'));
  await symlink(join(outside(), 'private.jpg'), join(library(), 'Series B', 'cover.jpg'));
  // Links inside the root: followed.
  await symlink(join(library(), 'Series B', 'Book 2.cbz'), join(library(), 'Series A', 'Shortcut.cbz'));
  await symlink(join(library(), 'Series B'), join(library(), 'Mirror'));

  const res = await s.fetch('/api/v1/libraries', {
    method: 'POST',
    headers: { authorization: admin },
    json: { name: 'Linked', root: library() },
  });
  expect(res.status).toBe(200);
  libraryId = ((await res.json()) as { id: string }).id;
  await settled();
}, 120_000);

afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

describe('symbolic links in a library', () => {
  it('skips links that lead out of the root, follows those that stay inside', async () => {
    const found = (await books()).map((b) => `${b.seriesTitle}/${b.name}`).sort();
    expect(found).toEqual([
      'Mirror/Book 2',
      'Series A/Book 1',
      'Series A/Shortcut',
      'Series A/The Incomplete Theft - Ralph Burke',
      'Series B/Book 2',
    ]);
    const passwd = await readFile('/etc/passwd');
    for (const b of await books()) {
      const res = await get(`/api/v1/books/${b.id}/file`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(passwd)).toBe(false);
    }
    const shortcut = await get(`/api/v1/books/${(await bookNamed('Shortcut')).id}/file`);
    expect(shortcut.headers.get('content-disposition')).toContain('filename="Shortcut.cbz"');
  });

  it('does not take a series poster from an image outside the root', async () => {
    const seriesB = (await books()).find((b) => b.seriesTitle === 'Series B')!.seriesId;
    const posters = await json<{ type: string }[]>(`/api/v1/series/${seriesB}/thumbnails`);
    expect(posters.map((p) => p.type)).not.toContain('SIDECAR');
  });

  it('refuses a book file swapped for a link out of the root after the scan: file, pages, resources, analysis', async () => {
    const cbz = await bookNamed('Book 1');
    const epub = await bookNamed('The Incomplete Theft - Ralph Burke');
    expect([cbz.media.status, epub.media.status]).toEqual(['READY', 'READY']);
    const resource = (await json<{ readingOrder: { href: string }[] }>(`/api/v1/books/${epub.id}/manifest`))
      .readingOrder[0]!.href;
    const resourcePath = new URL(resource).pathname.replace(/^.*?\/api\//, '/api/');
    // Before the swap everything reads.
    for (const path of [
      `/api/v1/books/${cbz.id}/file`,
      `/api/v1/books/${cbz.id}/pages/1`,
      `/api/v1/books/${cbz.id}/pages/1/raw`,
      `/api/v1/books/${cbz.id}/pages/1/thumbnail`,
      `/api/v1/books/${epub.id}/file`,
      resourcePath,
    ])
      expect(await status(path), path).toBe(200);

    await swapForLink(join(library(), 'Series A', 'Book 1.cbz'), join(outside(), 'Book 1.cbz'));
    await swapForLink(
      join(library(), 'Series A', 'The Incomplete Theft - Ralph Burke.epub'),
      join(outside(), 'The Incomplete Theft - Ralph Burke.epub'),
    );
    for (const path of [
      `/api/v1/books/${cbz.id}/file`,
      `/api/v1/books/${cbz.id}/pages/1`,
      `/api/v1/books/${cbz.id}/pages/1/raw`,
      `/api/v1/books/${cbz.id}/pages/1/thumbnail`,
      `/api/v1/books/${epub.id}/file`,
      resourcePath,
    ])
      expect(await status(path), path).toBe(404);

    // The series download leaves it out.
    const zip = await get(`/api/v1/series/${cbz.seriesId}/file`);
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.includes(Buffer.from('Book 1.cbz'))).toBe(false);
    expect(bytes.includes(Buffer.from('Shortcut.cbz'))).toBe(true);

    // A new analysis finds no file.
    expect(await status(`/api/v1/books/${cbz.id}/analyze`, { method: 'POST' })).toBe(202);
    await settled();
    expect((await json<Book>(`/api/v1/books/${cbz.id}`)).media).toMatchObject({ status: 'ERROR', comment: 'ERR_1018' });
  });

  it('drops a sidecar poster swapped for a link out of the root after the scan', async () => {
    const seriesA = (await bookNamed('Shortcut')).seriesId;
    const sidecar = (await json<{ id: string; type: string }[]>(`/api/v1/series/${seriesA}/thumbnails`)).find(
      (t) => t.type === 'SIDECAR',
    )!;
    expect(sidecar).toBeDefined();
    expect(await status(`/api/v1/series/${seriesA}/thumbnails/${sidecar.id}`)).toBe(200);
    await swapForLink(join(library(), 'Series A', 'cover.jpg'), join(outside(), 'cover.jpg'));
    expect(await status(`/api/v1/series/${seriesA}/thumbnails/${sidecar.id}`)).toBe(404);
  });
});

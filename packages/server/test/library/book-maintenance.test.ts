import { copyFile, mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updatedTime } from '../../src/library/file-system-scanner.js';
import { koreaderHash } from '../../src/media/hash.js';
import { setTime, writeCbz } from '../support/library-builder.js';
import { fixture } from '../support/fixtures.js';
import { claim, startServer, type TestServer } from '../support/server.js';

/*
 * The library options that maintain files after a scan (engine.md §5.2-5.3, §11.1-11.2): KOReader hashes,
 * page hashes, extension repair and conversion of RAR books to CBZ, through the real server and task queue.
 */

describe('koreaderHash', () => {
  // Reference values from KOReader's algorithm (MD5 of 1 KiB samples at 0, 1 KiB, 4 KiB, 16 KiB…).
  it.each([
    ['archives/zip.zip', '77aca71b6c0e4343d35c6317c1eeb0f8'],
    ['pdf/komga.pdf', '3a5e9b4f9a9b5422767ea04193a07093'],
    ['epub/moby-dick.epub', '8031e0f31ef309d0159223f455a42eaf'],
  ])('%s', async (file, expected) => {
    expect(await koreaderHash(fixture(file))).toBe(expected);
  });
});

describe('library maintenance options', () => {
  let s: TestServer;
  let dir: string;
  let auth: Record<string, string>;
  let libraryId: string;

  const get = async <T>(path: string): Promise<T> => {
    const res = await s.fetch(path, { headers: auth });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  type Book = {
    id: string;
    name: string;
    url: string;
    media: { status: string; mediaType: string; pagesCount: number };
  };
  const books = async () => {
    const rows = await s.app.deps.db.selectFrom('book').select('id').where('library_id', '=', libraryId).execute();
    return Promise.all(rows.map((r) => get<Book>(`/api/v1/books/${r.id}`)));
  };
  const idle = async () => {
    let quiet = 0;
    for (let i = 0; i < 600 && quiet < 3; i++) {
      quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    s = await startServer();
    auth = { authorization: (await claim(s)).authorization };
    dir = await mkdtemp(join(tmpdir(), 'quire-maintenance-'));
    const series = join(dir, 'Library', 'Series');
    await mkdir(series, { recursive: true });
    // A CBZ named .cbr, a real RAR5 book, and a plain CBZ.
    await writeCbz(join(series, 'Misnamed.cbr'), { pages: 3 });
    await copyFile(fixture('archives/Captain Science #001-cbi.cbr'), join(series, 'Rar Book.cbr'));
    await writeCbz(join(series, 'Plain.cbz'), { pages: 8 });
    const res = await s.fetch('/api/v1/libraries', {
      method: 'POST',
      headers: auth,
      json: {
        name: 'Maintenance',
        root: join(dir, 'Library'),
        hashKoreader: true,
        hashPages: true,
        repairExtensions: true,
        convertToCbz: true,
      },
    });
    expect(res.status).toBe(200);
    libraryId = ((await res.json()) as { id: string }).id;
    await idle();
  }, 120_000);

  afterAll(async () => {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('renames a ZIP with the wrong extension to .cbz, keeping the book', async () => {
    const files = await readdir(join(dir, 'Library', 'Series'));
    expect(files).toContain('Misnamed.cbz');
    expect(files).not.toContain('Misnamed.cbr');
    const book = (await books()).find((b) => b.name === 'Misnamed')!;
    expect(book.url).toBe(join(dir, 'Library', 'Series', 'Misnamed.cbz'));
    expect(book.media).toMatchObject({ status: 'READY', mediaType: 'application/zip', pagesCount: 3 });
  });

  it('converts a RAR book to a CBZ with the same pages and deletes the RAR file', async () => {
    const files = await readdir(join(dir, 'Library', 'Series'));
    expect(files).toContain('Rar Book.cbz');
    expect(files).not.toContain('Rar Book.cbr');
    const book = (await books()).find((b) => b.name === 'Rar Book')!;
    expect(book.media).toMatchObject({ status: 'READY', mediaType: 'application/zip' });
    expect(book.media.pagesCount).toBeGreaterThan(0);
    const page = await s.fetch(`/api/v1/books/${book.id}/pages/1`, { headers: auth });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^image\//);
  });

  it('stores KOReader hashes and the page hashes of the first and last three pages', async () => {
    const db = s.app.deps.db;
    const rows = await db
      .selectFrom('book')
      .select(['id', 'name', 'file_hash_koreader'])
      .where('library_id', '=', libraryId)
      .execute();
    for (const r of rows) expect(r.file_hash_koreader, r.name).toMatch(/^[0-9a-f]{32}$/);
    const plain = rows.find((r) => r.name === 'Plain')!;
    const pages = await db
      .selectFrom('media_page')
      .select(['number', 'file_hash'])
      .where('book_id', '=', plain.id)
      .orderBy('number')
      .execute();
    expect(pages.map((p) => p.file_hash !== '')).toEqual([true, true, true, false, false, true, true, true]);
  });

  it('does not rename a file that changed since the scan, and does once a scan has seen it', async () => {
    const series = join(dir, 'Library', 'Series');
    const file = join(series, 'Plain.cbr');
    const book = (await books()).find((b) => b.name === 'Plain')!;
    const db = s.app.deps.db;
    // As a scan would leave it: the book at Plain.cbr, with the file's time as the scan saw it.
    const scanned = async () =>
      db
        .updateTable('book')
        .set({
          url: pathToFileURL(file).href,
          file_last_modified: new Date(updatedTime(await stat(file), false)).toISOString(),
        })
        .where('id', '=', book.id)
        .execute();
    const repair = async () => {
      await s.app.tasks.submit([{ kind: 'RepairExtension', bookId: book.id, seriesId: '' }]);
      await idle();
    };
    await rename(join(series, 'Plain.cbz'), file);
    await scanned();
    await setTime(file, Date.now() + 60_000); // written again after the scan
    await repair();
    expect(await readdir(series)).toContain('Plain.cbr');
    await scanned();
    await repair();
    expect(await readdir(series)).toContain('Plain.cbz');
    expect((await get<Book>(`/api/v1/books/${book.id}`)).url).toBe(join(series, 'Plain.cbz'));
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipReader } from '../../src/media/archives/index.js';
import { api, claim, startChild, type Child } from '../support/child-server.js';
import { openDataDirDatabase } from '../support/postgres.js';
import { makeImage, zipBuffer } from '../support/library-builder.js';

/*
 * Issue 14: `kill -9` while a duplicate page is removed. A real server process rewrites a 300-page CBZ without its
 * credits page and is killed with SIGKILL as soon as the new archive starts to be written beside the book. The
 * book's file must be byte for byte what it was, the database sound and still describing that file; a second
 * process on the same data folder runs the interrupted removal again and finishes it, leaving no temporary file.
 */

const PAGES = 300;
let dataDir: string;
let root: string;
let original: Buffer;
const children: Child[] = [];
const series = () => join(root, 'Series');
const bookFile = () => join(series(), 'Big.cbz');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const until = async (what: string, child: Child, check: () => Promise<boolean>, ms = 180_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
type Book = { id: string; media: { status: string; pagesCount: number } };
type Page<T> = { content: T[]; totalElements: number };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'quire-kill-removal-data-'));
  root = await mkdtemp(join(tmpdir(), 'quire-kill-removal-library-'));
  mkdirSync(series(), { recursive: true });
  // Pages of noise (incompressible, ~120 KB each: a 36 MB archive takes a while to write), then a credits page.
  const noise = await sharp(randomBytes(200 * 200 * 3), { raw: { width: 200, height: 200, channels: 3 } })
    .png()
    .toBuffer();
  const entries: { name: string; data: Uint8Array }[] = Array.from({ length: PAGES - 1 }, (_, i) => ({
    name: `${String(i + 1).padStart(3, '0')}.png`,
    data: noise,
  }));
  entries.push({ name: 'zz-credits.png', data: await makeImage('png', 3, 100, 150) });
  original = zipBuffer(entries);
  writeFileSync(bookFile(), original);
}, 120_000);

afterAll(async () => {
  for (const c of children) await c.kill();
  await rm(dataDir, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

describe('kill -9 during a page removal', () => {
  it('leaves the original archive and a consistent database; the next process finishes the removal', async () => {
    const first = await startChild(dataDir);
    children.push(first);
    await claim(first);
    const { id: libraryId } = await api<{ id: string }>(first, '/api/v1/libraries', {
      method: 'POST',
      body: JSON.stringify({ name: 'Comics', root, hashPages: true }),
    });
    const books = () => api<Page<Book>>(first, `/api/v1/books?library_id=${libraryId}`);
    await until('analysis', first, async () => (await books()).content[0]?.media.status === 'READY');
    const bookId = (await books()).content[0]!.id;
    // The credits page is the last one, hashed with the first and last three.
    let credits: { hash: string } | undefined;
    await until('page hashing', first, async () => {
      const db = await openDataDirDatabase(dataDir, { readonly: true });
      try {
        [credits] = await db.rows<{ hash: string }>(
          `SELECT file_hash AS hash FROM media_page WHERE book_id = ? AND number = ? AND file_hash != ''`,
          bookId,
          PAGES - 1,
        );
      } finally {
        await db.close();
      }
      return credits !== undefined;
    });
    await api(first, '/api/v1/page-hashes', {
      method: 'PUT',
      body: JSON.stringify({ hash: credits!.hash, action: 'DELETE_MANUAL' }),
    });

    // Ask for the removal, and kill the process as soon as the new archive appears beside the book.
    await api(first, `/api/v1/page-hashes/${credits!.hash}/delete-all`, { method: 'POST', body: '{}' });
    const deadline = Date.now() + 60_000;
    let temp: string | undefined;
    while (!temp && Date.now() < deadline) {
      temp = (await readdir(series())).find((f) => f.endsWith('.tmp'));
      if (!temp) await new Promise((r) => setTimeout(r, 1));
    }
    await first.kill();
    expect(temp, 'the rewrite started').toBeDefined();

    // The book's file is the original, and the database still describes it, with the removal still queued.
    expect(sha(await readFile(bookFile()))).toBe(sha(original));
    const db = await openDataDirDatabase(dataDir);
    try {
      db.expectSound((integrity, foreignKeys) => {
        expect(integrity).toBe('ok');
        expect(foreignKeys).toEqual([]);
      });
      expect(await db.value('SELECT page_count FROM media WHERE book_id = ?', bookId)).toBe(PAGES);
      expect(await db.value('SELECT count(*) FROM media_page WHERE book_id = ?', bookId)).toBe(PAGES);
      expect(await db.value('SELECT file_size FROM book WHERE id = ?', bookId)).toBe(original.length);
      expect(await db.value(`SELECT count(*) FROM historical_event`)).toBe(0);
      expect(await db.tasksOf('RemoveHashedPages')).toHaveLength(1);
    } finally {
      await db.close();
    }

    // Second life: the interrupted removal runs again, to the end.
    const second = await startChild(dataDir);
    children.push(second);
    const book = () => api<Book>(second, `/api/v1/books/${bookId}`);
    await until('the removal', second, async () => (await book()).media.pagesCount === PAGES - 1);
    expect((await book()).media.status).toBe('READY');
    const entries = (await zipReader.entries(bookFile(), { dimensions: false })).map((e) => e.name);
    expect(entries).toHaveLength(PAGES - 1);
    expect(entries).not.toContain('zz-credits.png');
    expect((await readdir(series())).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const known = await api<Page<{ deleteCount: number }>>(second, '/api/v1/page-hashes');
    expect(known.content[0]?.deleteCount).toBe(1);
    await second.stop();
  }, 420_000);
});

import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { claim, startServer } from '../support/server.js';
import { copyFixture } from '../support/fixtures.js';

/**
 * The threads of this process that Node started: the main thread, V8's and libuv's, and one per worker thread.
 * libvips (sharp) names its own threads, which stay for the life of the process, so they are left out.
 */
async function nodeThreads(): Promise<number> {
  let count = 0;
  for (const id of await readdir('/proc/self/task')) {
    const name = await readFile(`/proc/self/task/${id}/comm`, 'utf8').catch(() => 'gone');
    if (name.trim() === 'node') count++;
  }
  return count;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

it('closing the app ends every worker thread: PDFium, 7-Zip, zxing and EPUB analysis pools', async () => {
  const root = await mkdtemp(join(tmpdir(), 'quire-pool-workers-'));
  dirs.push(root);
  await copyFixture('pdf/two_pages.pdf', join(root, 'Pdf'));
  await copyFixture('archives/Captain Science #001.cb7', join(root, 'SevenZip'));
  await copyFixture('epub/epub3.epub', join(root, 'Epub'));
  const s = await startServer();
  const admin = await claim(s);
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    s.fetch(path, { ...init, headers: { Authorization: admin.authorization } });
  const before = await nodeThreads();

  // Barcode reading on: zxing reads the first and last pages of each book.
  const created = await api('/api/v1/libraries', {
    method: 'POST',
    json: { name: 'Pools', root, importBarcodeIsbn: true },
  });
  expect(created.status).toBe(200);
  let busiest = before;
  const books = await until(async () => {
    busiest = Math.max(busiest, await nodeThreads());
    const page = (await (await api('/api/v1/books?unpaged=true')).json()) as {
      content: { id: string; name: string; media: { status: string; mediaType: string } }[];
    };
    return page.content.length === 3 && page.content.every((b) => b.media.status === 'READY')
      ? page.content
      : undefined;
  }, 'the three analysed books');
  const pdfBook = books.find((b) => b.media.mediaType === 'application/pdf')!;
  const poster = await until(async () => {
    busiest = Math.max(busiest, await nodeThreads());
    const res = await api(`/api/v1/books/${pdfBook.id}/thumbnail`);
    return res.status === 200 ? res : undefined;
  }, 'the rendered poster');
  expect(poster.headers.get('content-type')).toBe('image/jpeg');
  for (const b of books) {
    const page = await s.fetch(`/api/v1/books/${b.id}/pages/1`, { headers: { Authorization: admin.authorization } });
    expect(page.status, b.name).toBe(200);
  }
  busiest = Math.max(busiest, await nodeThreads());
  expect(busiest).toBeGreaterThan(before); // worker threads ran

  await s.close();
  // Ended threads leave /proc a moment after `terminate()` resolves; an idle one would stay for up to a minute.
  await until(
    async () => ((await nodeThreads()) === before ? true : undefined),
    'the worker threads to end',
    5_000,
  ).catch(() => undefined);
  expect(await nodeThreads()).toBe(before);
});

it('closing the app terminates every PDF worker: analysis, pages and posters share its one pool', async () => {
  const root = await mkdtemp(join(tmpdir(), 'quire-pdf-workers-'));
  dirs.push(root);
  await copyFixture('pdf/two_pages.pdf', join(root, 'Pdf'));
  const s = await startServer();
  const admin = await claim(s);
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    s.fetch(path, { ...init, headers: { Authorization: admin.authorization } });
  const before = await nodeThreads();

  // No barcode reading: its worker is not a PDF worker, and it idles out on its own.
  const created = await api('/api/v1/libraries', {
    method: 'POST',
    json: { name: 'PDF', root, importBarcodeIsbn: false },
  });
  expect(created.status).toBe(200);
  const bookId = await until(async () => {
    const page = (await (await api('/api/v1/books?unpaged=true')).json()) as {
      content: { id: string; media: { status: string } }[];
    };
    return page.content.find((b) => b.media.status === 'READY')?.id;
  }, 'the analysed book');
  const poster = await until(async () => {
    const res = await api(`/api/v1/books/${bookId}/thumbnail`);
    return res.status === 200 ? res : undefined;
  }, 'the rendered poster');
  expect(poster.headers.get('content-type')).toBe('image/jpeg');
  const page = await s.fetch(`/api/v1/books/${bookId}/pages/2`, {
    headers: { Authorization: admin.authorization, Accept: 'image/jpeg' },
  });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('image/jpeg');
  expect(await nodeThreads()).toBeGreaterThan(before); // PDF workers are running

  await s.close();
  // Terminated workers leave /proc a moment after `terminate()` resolves; an idle one would stay for a minute.
  await until(async () => ((await nodeThreads()) === before ? true : undefined), 'the PDF workers to end', 5_000).catch(
    () => undefined,
  );
  expect(await nodeThreads()).toBe(before);
});

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeWorkerPools } from '../../src/media/workers.js';
import { copyFixture } from '../support/fixtures.js';
import { claim, startServer, type TestServer } from '../support/server.js';

/**
 * A reader opening a PDF finds a PDF thread already started (issue 18: its first page paid ~1 s of PDFium's
 * start-up). The server starts one when it serves the reader's page (`/book/{id}/read`) or the book's page list.
 * Worker threads show as threads named `node` of this process (libvips names its own).
 */
async function nodeThreads(): Promise<number> {
  let count = 0;
  for (const id of await readdir('/proc/self/task')) {
    const name = await readFile(`/proc/self/task/${id}/comm`, 'utf8').catch(() => 'gone');
    if (name.trim() === 'node') count++;
  }
  return count;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}

let s: TestServer;
let authorization: string;
let root: string;
const ids: Record<'pdf' | 'cbz', string> = { pdf: '', cbz: '' };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'quire-pdf-warm-'));
  await copyFixture('pdf/two_pages.pdf', join(root, 'Pdf'));
  await copyFixture('archives/Captain Science #001.cbz', join(root, 'Comic'));
  s = await startServer();
  authorization = (await claim(s)).authorization;
  const created = await s.fetch('/api/v1/libraries', {
    method: 'POST',
    headers: { authorization },
    json: { name: 'Warm', root, importBarcodeIsbn: false },
  });
  expect(created.status).toBe(200);
  const books = await until(async () => {
    const page = (await (await s.fetch('/api/v1/books?unpaged=true', { headers: { authorization } })).json()) as {
      content: { id: string; media: { status: string; mediaType: string } }[];
    };
    return page.content.length === 2 && page.content.every((b) => b.media.status === 'READY')
      ? page.content
      : undefined;
  }, 'both books analysed');
  ids.pdf = books.find((b) => b.media.mediaType === 'application/pdf')!.id;
  ids.cbz = books.find((b) => b.media.mediaType !== 'application/pdf')!.id;
  // the PDF's poster is the last PDF work of the import
  await until(async () => {
    const res = await s.fetch(`/api/v1/books/${ids.pdf}/thumbnail`, { headers: { authorization } });
    return res.status === 200 ? true : undefined;
  }, "the PDF's poster");
}, 120_000);

afterAll(async () => {
  await s?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** Ends the threads the import left (they would idle out in a minute) and counts what is left. */
async function noWorkers(): Promise<number> {
  await closeWorkerPools();
  return until(async () => {
    const before = await nodeThreads();
    await sleep(200);
    return (await nodeThreads()) === before ? before : undefined;
  }, 'the ended threads to leave');
}

it("serving a PDF's reader page starts a PDF thread before any page is asked for; a comic's does not", async () => {
  const before = await noWorkers();
  const comic = await fetch(`${s.url}/book/${ids.cbz}/read?page=1`);
  expect(comic.status).toBe(200);
  expect(await comic.text()).toContain('<div id="root">');
  await sleep(500);
  expect(await nodeThreads()).toBe(before);

  const reader = await fetch(`${s.url}/book/${ids.pdf}/read?page=1&incognito=true`);
  expect(reader.status).toBe(200);
  await until(async () => ((await nodeThreads()) > before ? true : undefined), 'a PDF thread', 10_000);

  // the thread is the one the first page renders on: no second one starts for it
  const page = await s.fetch(`/api/v1/books/${ids.pdf}/pages/1?width=400`, { headers: { authorization } });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('image/jpeg');
});

it("asking for a PDF's page list (the reader opened within the app) starts a PDF thread", async () => {
  const before = await noWorkers();
  const list = await s.fetch(`/api/v1/books/${ids.pdf}/pages`, { headers: { authorization } });
  expect(list.status).toBe(200);
  expect(((await list.json()) as unknown[]).length).toBe(2);
  await until(async () => ((await nodeThreads()) > before ? true : undefined), 'a PDF thread', 10_000);
});

it('an unknown book or another id in a reader URL still serves the page and starts nothing', async () => {
  const before = await noWorkers();
  for (const path of ['/book/0NOSUCHBOOK/read', `/book/${ids.pdf}x/read`, '/book/../read']) {
    const res = await fetch(`${s.url}${path}`);
    expect(res.status, path).toBe(200);
  }
  await sleep(500);
  expect(await nodeThreads()).toBe(before);
});

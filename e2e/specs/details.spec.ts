import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { makeImage, zipBuffer } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, newPage, signIn } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'reader@example.org';
const PASSWORD = 'reader-secret';
const LIBRARY = 'E2E Details';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

/** Series folder → its books: Alpha is read and unread; Beta loses a book. */
const SERIES: Record<string, string[]> = {
  Alpha: ['Alpha 001.cbz', 'Alpha 002.cbz', 'Alpha 003.cbz'],
  Beta: ['Beta 001.cbz', 'Beta 002.cbz'],
};

async function buildLibrary(root: string) {
  let seed = 1;
  for (const [series, files] of Object.entries(SERIES)) {
    await mkdir(join(root, series), { recursive: true });
    for (const file of files) {
      const pages = [];
      for (let i = 0; i < 2; i++) {
        pages.push({ name: `${String(i + 1).padStart(3, '0')}.jpg`, data: await makeImage('jpeg', seed++, 90, 130) });
      }
      await writeFile(join(root, series, file), zipBuffer(pages));
    }
  }
}

interface Named {
  id: string;
  name: string;
}
interface BookJson extends Named {
  seriesId: string;
  url: string;
  media: { status: string };
  readProgress: { completed: boolean } | null;
  deleted: boolean;
}
interface SeriesJson extends Named {
  booksCount: number;
  booksReadCount: number;
  booksUnreadCount: number;
}

describe('details: mark a series read, a book unread, on deck follows; delete a book and its file', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let libraryRoot: string;
  let libraryId: string;

  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, { headers: { Authorization: basic } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const books = async () =>
    (await get<{ content: BookJson[] }>(`/api/v1/books?library_id=${libraryId}&unpaged=true&sort=name,asc`)).content;
  const seriesList = async () =>
    (await get<{ content: SeriesJson[] }>(`/api/v1/series?library_id=${libraryId}&unpaged=true`)).content;
  const seriesNamed = async (name: string) => (await seriesList()).find((s) => s.name === name)!;
  const bookNamed = async (name: string) => (await books()).find((b) => b.name === name)!;
  const onDeck = async () =>
    (await get<{ content: BookJson[] }>(`/api/v1/books/ondeck?library_id=${libraryId}`)).content.map((b) => b.name);
  const main = () => page.getByRole('main');
  const booksGrid = () => main().getByRole('list', { name: 'Books' });

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    libraryRoot = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-details-')));
    await buildLibrary(libraryRoot);
    const created = await fetch(`${server.url}/api/v1/libraries`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: LIBRARY, root: libraryRoot }),
    });
    expect(created.status).toBe(200);
    libraryId = ((await created.json()) as Named).id;
    const expected = Object.values(SERIES)
      .flat()
      .map((f) => `${f.replace(/\.cbz$/, '')}:READY`)
      .join(',');
    const deadline = Date.now() + 30_000;
    while ((await books()).map((b) => `${b.name}:${b.media.status}`).join(',') !== expected) {
      if (Date.now() > deadline) throw new Error(`library not analysed in 30 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
  });
  cleanUpAfterSpec('details', () => ({ browser, page, server, dirs: [libraryRoot] }));

  it('logs in', async () => {
    await signIn(page, server.url, EMAIL, PASSWORD);
  });

  it('opens a series from its library and marks it read: the series and every book show read', async () => {
    const alpha = await seriesNamed('Alpha');
    await page.goto(`${server.url}/libraries/${libraryId}/series`);
    await main().getByRole('link', { name: 'Alpha', exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === `/series/${alpha.id}`);
    await main().getByRole('heading', { level: 1, name: 'Alpha' }).waitFor();
    expect(await page.title()).toBe('Alpha - Quire');
    // Three unread books, each with its unread corner.
    await expect.poll(() => booksGrid().getByRole('listitem').count()).toBe(3);
    await expect.poll(() => booksGrid().getByRole('img', { name: 'Unread' }).count()).toBe(3);

    await main().getByRole('button', { name: 'Mark as read', exact: true }).click();
    // The action bar now offers the opposite, and no book is left unread.
    await main().getByRole('button', { name: 'Mark as unread', exact: true }).waitFor();
    await expect.poll(() => booksGrid().getByRole('img', { name: 'Unread' }).count()).toBe(0);
    const read = await seriesNamed('Alpha');
    expect(read).toMatchObject({ booksCount: 3, booksReadCount: 3, booksUnreadCount: 0 });
    expect((await books()).filter((b) => b.seriesId === alpha.id).map((b) => b.readProgress?.completed)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('marks one book unread from its menu; on deck now offers it', async () => {
    expect(await onDeck()).toEqual([]);
    await page.goto(`${server.url}/dashboard`);
    // The dashboard shows its sections once all have answered; the books were just added.
    await main().getByRole('region', { name: 'Recently added books' }).waitFor();
    expect(await main().getByRole('region', { name: 'On deck' }).count()).toBe(0);

    const alpha = await seriesNamed('Alpha');
    await page.goto(`${server.url}/series/${alpha.id}`);
    await expect.poll(() => booksGrid().getByRole('listitem').count()).toBe(3);
    await booksGrid().getByRole('button', { name: 'Actions for Alpha 002' }).click();
    await page.getByRole('menuitem', { name: 'Mark as unread', exact: true }).click();
    await expect.poll(() => booksGrid().getByRole('img', { name: 'Unread' }).count()).toBe(1);
    // Partly read now: both marks are on offer.
    await main().getByRole('button', { name: 'Mark as read', exact: true }).waitFor();
    expect(await seriesNamed('Alpha')).toMatchObject({ booksReadCount: 2, booksUnreadCount: 1 });
    expect(await onDeck()).toEqual(['Alpha 002']);

    await page.goto(`${server.url}/dashboard`);
    const section = main().getByRole('region', { name: 'On deck' });
    await section.waitFor();
    await expect.poll(() => section.getByRole('link', { name: /Alpha 002/ }).count()).toBeGreaterThan(0);
  });

  it('deletes a book from its page after the acknowledgement: back to the series, the file is gone', async () => {
    const book = await bookNamed('Beta 001');
    const file = join(libraryRoot, 'Beta', 'Beta 001.cbz');
    expect(existsSync(file)).toBe(true);
    await page.goto(`${server.url}/book/${book.id}`);
    await main().getByRole('heading', { level: 1, name: 'Beta 001' }).waitFor();
    await main().getByRole('button', { name: 'Actions for Beta 001' }).click();
    await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete book' });
    const confirm = dialog.getByRole('button', { name: 'Delete', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'Yes, delete the book "Beta 001" and its file' }).check();
    // The toast is watched for from the click on: it hides itself after 5 s, which a loaded machine (two specs at
    // once) can spend on the way to the series page. One toast: a second one would break the locator's strictness.
    const toast = page.getByText('Book Beta 001 deleted', { exact: true }).waitFor();
    await confirm.click();
    await Promise.all([toast, page.waitForURL((u) => u.pathname === `/series/${book.seriesId}`)]);
    await expect.poll(() => existsSync(file), { timeout: 15_000 }).toBe(false);
    expect(existsSync(join(libraryRoot, 'Beta', 'Beta 002.cbz'))).toBe(true);
    // The book stays in the trash (soft-deleted, engine.md §12.4) until the trash is emptied: its card says so.
    await expect.poll(async () => (await bookNamed('Beta 001')).deleted, { timeout: 15_000 }).toBe(true);
    const card = booksGrid().getByRole('listitem').filter({ hasText: 'Beta 001' });
    await expect.poll(() => card.getByText('Unavailable').count(), { timeout: 15_000 }).toBe(1);
    expect(
      await booksGrid().getByRole('listitem').filter({ hasText: 'Beta 002' }).getByText('Unavailable').count(),
    ).toBe(0);
  });
});

import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildLibrary } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, signIn, newPage } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'admin-secret';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

interface BookJson {
  id: string;
  name: string;
  url: string;
  metadata: { number: string; numberSort: number };
  media: { status: string };
  readProgress: { page: number; completed: boolean } | null;
}

/*
 * Issue 15 in the browser: a folder outside the library holds a new book for the series and a better copy of its
 * first book. The administrator scans it from /import/books, gives both rows the series and their numbers, compares
 * the upgrade with the book it replaces, imports, and sees the outcomes as toasts, the new book in the series and
 * the first book's reading progress kept on the new file.
 */
describe('import books: one new book and one upgrade through /import/books', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let root: string;
  let incoming: string;
  let seriesId: string;

  const api = async <T>(path: string, init: RequestInit = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { Authorization: basic, 'Content-Type': 'application/json', ...init.headers },
    });
    return (res.headers.get('Content-Type')?.includes('json') ? await res.json() : undefined) as T;
  };
  const seriesBooks = async () =>
    (await api<{ content: BookJson[] }>(`/api/v1/series/${seriesId}/books?unpaged=true&sort=metadata.numberSort,asc`))
      .content;
  const main = () => page.getByRole('main');

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    root = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-import-library-')));
    incoming = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-import-incoming-')));
    await buildLibrary(root, {
      'Alpha/Alpha 001.cbz': { pages: 2, seed: 1 },
      'Alpha/Alpha 002.cbz': { pages: 2, seed: 2 },
    });
    // The new book says its series and number in ComicInfo.xml; the better copy says nothing.
    await buildLibrary(incoming, {
      'Alpha/Alpha 003.cbz': {
        pages: 2,
        seed: 3,
        comicInfo: '<ComicInfo><Series>Alpha</Series><Number>3</Number></ComicInfo>',
      },
      'Scans/Alpha 001 HD.cbz': { pages: 3, seed: 4 },
    });
    const library = await api<{ id: string }>('/api/v1/libraries', {
      method: 'POST',
      body: JSON.stringify({ name: 'E2E Import', root }),
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const series = await api<{ content: { id: string; booksCount: number }[] }>(
        `/api/v1/series?library_id=${library.id}`,
      );
      const alpha = series.content[0];
      if (alpha && alpha.booksCount === 2) {
        seriesId = alpha.id;
        const books = await seriesBooks();
        // Analysed too: a progress on a book whose pages are not counted yet is refused (page out of range).
        if (books.every((b) => b.metadata.numberSort > 0 && b.media.status === 'READY')) break;
      }
      if (Date.now() > deadline) throw new Error(`library not scanned in 60 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // The reader stopped on page 1 of the first book: the upgrade must keep it.
    const [first] = await seriesBooks();
    const saved = await fetch(`${server.url}/api/v1/books/${first!.id}/read-progress`, {
      method: 'PATCH',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ page: 1 }),
    });
    expect(saved.status).toBe(204);
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
  });
  cleanUpAfterSpec('import-books', () => ({ browser, page, server, dirs: [root, incoming] }));

  it('logs in', async () => {
    await signIn(page, server.url, EMAIL, PASSWORD);
  });

  it('scans the folder from the drawer entry, analyses both files and shows the guessed series and number', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Books' }).click();
    await page.waitForURL((u) => u.pathname === '/import/books');
    await main().getByRole('textbox', { name: 'Import from folder' }).fill(incoming);
    await main().getByRole('button', { name: 'Scan' }).click();
    const table = main().getByRole('table', { name: 'Books to import' });
    for (const file of ['Alpha 001 HD', 'Alpha 003']) {
      await table
        .getByRole('row')
        .filter({ hasText: file })
        .getByRole('img', { name: 'Analyzed without errors' })
        .waitFor();
    }
    const guessed = table.getByRole('row').filter({ hasText: 'Alpha 003' });
    await guessed.getByRole('button', { name: 'Series of Alpha 003' }).filter({ hasText: 'Alpha' }).waitFor();
    expect(await guessed.getByRole('spinbutton', { name: 'Number of Alpha 003' }).inputValue()).toBe('3');
    const unknown = table.getByRole('row').filter({ hasText: 'Alpha 001 HD' });
    await unknown.getByRole('img', { name: 'Choose a series' }).waitFor();
    expect(await main().getByRole('button', { name: 'Import', exact: true }).isEnabled()).toBe(true);
    // The table scrolls inside its own box: the page never gets wider than the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('gives the other file the series and the number it replaces, which proposes an upgrade', async () => {
    const table = main().getByRole('table', { name: 'Books to import' });
    await table.getByRole('button', { name: 'Series of Alpha 001 HD' }).click();
    const picker = page.getByRole('dialog', { name: 'Select series' });
    await picker.getByRole('textbox', { name: 'Search series' }).fill('Alpha');
    await picker.getByRole('button', { name: /^Alpha/ }).click();
    await picker.waitFor({ state: 'hidden' });

    await table.getByRole('spinbutton', { name: 'Number of Alpha 001 HD' }).fill('1');
    const upgradeRow = table.getByRole('row').filter({ hasText: 'Alpha 001 HD' });
    await upgradeRow.getByRole('img', { name: 'Existing book will be upgraded' }).waitFor();
    expect(
      await table
        .getByRole('row')
        .filter({ hasText: 'Alpha 003' })
        .getByRole('img', { name: /upgraded/ })
        .count(),
    ).toBe(0);
  });

  it('compares the upgrade with the book it replaces, page by page', async () => {
    const upgradeRow = main().getByRole('row').filter({ hasText: 'Alpha 001 HD' });
    await upgradeRow.getByRole('button', { name: /Compare with the existing book/ }).click();
    const compare = page.getByRole('dialog', { name: 'Compare books' });
    const summary = compare.getByRole('table', { name: 'Books compared' });
    await summary.getByRole('row', { name: /Name Alpha 001 HD Alpha 001/ }).waitFor();
    await summary.getByRole('row', { name: /Pages 3 2/ }).waitFor();
    // Three candidate pages against two existing ones, each with its file name.
    const pages = compare.getByRole('table', { name: 'Pages' });
    await expect.poll(() => pages.getByRole('row').filter({ hasText: '001.jpg' }).count()).toBe(1);
    await expect.poll(() => pages.getByText('003.webp').count()).toBe(1);
    await compare.getByRole('button', { name: 'Close' }).click();
  });

  it('imports both: toasts tell the outcome, the new book is in the series and the upgrade kept the progress', async () => {
    await main().getByRole('button', { name: 'Import', exact: true }).click();
    await main().getByRole('button', { name: 'Import started' }).waitFor();
    await expect.poll(() => page.getByText('Import successful').count(), { timeout: 30_000 }).toBe(2);

    await expect
      .poll(async () => (await seriesBooks()).map((b) => b.url.split('/').pop()), { timeout: 30_000 })
      .toEqual(['Alpha 001 HD.cbz', 'Alpha 002.cbz', 'Alpha 003.cbz']);
    const [upgraded] = await seriesBooks();
    expect(upgraded!.metadata.number).toBe('1');
    expect(upgraded!.readProgress).toMatchObject({ page: 1, completed: false });

    await page.goto(`${server.url}/series/${seriesId}`);
    const card = (title: string) => main().getByTestId('item-card').filter({ hasText: title });
    await card('Alpha 003').waitFor();
    // The upgraded book keeps its title and still shows the reader's progress bar.
    await card('Alpha 001').getByRole('progressbar', { name: 'Reading progress' }).waitFor();
    expect(await card('Alpha 002').getByRole('progressbar').count()).toBe(0);
  });
});

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { makeImage, zipBuffer } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, newPage, logIn } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'admin-secret';
const LIBRARY = 'E2E Comics';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

/** Book file name → width of its first page, so the page served can be told apart from any other. */
const BOOKS: Record<string, { series: string; firstPageWidth: number }> = {
  'Alpha 001.cbz': { series: 'Alpha', firstPageWidth: 121 },
  'Alpha 002.cbz': { series: 'Alpha', firstPageWidth: 133 },
  'Beta 001.cbz': { series: 'Beta', firstPageWidth: 147 },
  'Beta 002.cbz': { series: 'Beta', firstPageWidth: 159 },
};

/** 2 series folders × 2 CBZ books of 3 real JPEG pages each. */
async function buildLibrary(root: string): Promise<string[]> {
  const files: string[] = [];
  let seed = 1;
  for (const [file, { series, firstPageWidth }] of Object.entries(BOOKS)) {
    const pages = [];
    for (let i = 0; i < 3; i++) {
      const width = i === 0 ? firstPageWidth : 80;
      pages.push({ name: `${String(i + 1).padStart(3, '0')}.jpg`, data: await makeImage('jpeg', seed++, width, 180) });
    }
    const path = join(root, series, file);
    await mkdir(join(root, series), { recursive: true });
    await writeFile(path, zipBuffer(pages));
    files.push(path);
  }
  return files;
}

interface BookRow {
  id: string;
  name: string;
  status: string;
  pageCount: number;
}

describe('libraries: add through the folder browser, scan, analysis, pages, actions menu, delete', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let libraryRoot: string;
  let bookFiles: string[];
  let libraryId: string;

  /** Reads the server's database read-only (there is no book list endpoint yet). */
  const query = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = new Database(join(server.dataDir, 'database.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };
  const books = () =>
    query<BookRow>(
      `SELECT b.id, b.name, m.status, m.page_count AS pageCount
         FROM book b JOIN media m ON m.book_id = b.id WHERE b.library_id = ? ORDER BY b.name`,
      libraryId,
    );
  const nav = () => page.getByRole('navigation', { name: 'Navigation' });

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    libraryRoot = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-library-')));
    bookFiles = await buildLibrary(libraryRoot);
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
  });
  cleanUpAfterSpec('library', () => ({ browser, page, server, dirs: [libraryRoot] }));

  it('logs in through the login page and lands on the welcome page', async () => {
    await logIn(page, server.url, EMAIL, PASSWORD);
    await page.getByRole('main').getByRole('button', { name: 'Add library' }).waitFor();
  });

  it('adds a library whose root is picked in the folder browser; it shows in the drawer and gets analysed', async () => {
    await page.getByRole('main').getByRole('button', { name: 'Add library' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add library' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(LIBRARY);
    await dialog.getByRole('button', { name: 'Browse' }).click();

    const browserDialog = page.getByRole('dialog', { name: "Library's root folder" });
    await browserDialog.waitFor();
    // Top level lists the root "/", then each segment of the library's path.
    const segments = ['/', ...libraryRoot.split(sep).filter(Boolean)];
    for (const segment of segments) {
      await browserDialog.getByRole('button', { name: segment, exact: true }).click();
    }
    // The series folders of the library show, so the browser is in the library's root.
    await browserDialog.getByRole('button', { name: 'Alpha', exact: true }).waitFor();
    await browserDialog.getByRole('button', { name: 'Choose' }).click();
    await expect.poll(() => browserDialog.count()).toBe(0);
    expect(await dialog.getByRole('textbox', { name: 'Root folder' }).inputValue()).toBe(libraryRoot);

    // The pending-tasks indicator may come and go between two polls: a MutationObserver notes any appearance.
    await page.evaluate(() => {
      const w = window as unknown as { indicatorSeen?: boolean };
      w.indicatorSeen = false;
      const look = () => {
        if ([...document.querySelectorAll('button[aria-label]')].some((b) => / pending tasks?$/.test(b.ariaLabel!)))
          w.indicatorSeen = true;
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const indicatorSeen = () => page.evaluate(() => (window as unknown as { indicatorSeen?: boolean }).indicatorSeen);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect
      .poll(() => page.getByText(`Library ${LIBRARY} added; its first scan is queued`, { exact: true }).count())
      .toBe(1);
    // The drawer gets the library live.
    await expect.poll(() => nav().getByRole('link', { name: LIBRARY, exact: true }).count()).toBe(1);

    const [row] = query<{ id: string }>('SELECT id FROM library WHERE name = ?', LIBRARY);
    expect(row).toBeDefined();
    libraryId = row!.id;
    const library = (await fetch(`${server.url}/api/v1/libraries/${libraryId}`, {
      headers: { Authorization: basic },
    }).then((r) => r.json())) as { name: string; root: string };
    expect(library).toMatchObject({ name: LIBRARY, root: libraryRoot });

    // Scan then analysis: the admin sees "N pending tasks" at some point, or the work is done before the first
    // queue status reaches the browser (it is debounced by 1 s; four small books take ~150 ms).
    const expected = Object.keys(BOOKS).map((f) => `${f.replace(/\.cbz$/, '')}:READY:3`);
    const analysed = () => books().map((b) => `${b.name}:${b.status}:${b.pageCount}`);
    await expect
      .poll(async () => (await indicatorSeen()) || JSON.stringify(analysed()) === JSON.stringify(expected), {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(true);
    // Four books of three pages, all READY.
    await expect.poll(analysed, { timeout: 30_000, interval: 250 }).toEqual(expected);
    console.info(`pending-tasks indicator seen while the library was processed: ${await indicatorSeen()}`);
    // And it goes away once the queue is empty.
    await expect
      .poll(() => page.getByRole('button', { name: /^\d+ pending tasks?$/ }).count(), { timeout: 30_000 })
      .toBe(0);
  });

  it("browses to a book from the library's series grid and reads its first page", async () => {
    await nav().getByRole('link', { name: LIBRARY, exact: true }).click();
    await page.getByRole('main').getByRole('tab', { name: 'Series' }).click();
    const grid = page.getByRole('main').getByRole('list', { name: 'Series' });
    await expect.poll(async () => (await grid.getByRole('link').allTextContents()).sort()).toEqual(['Alpha', 'Beta']);
    await grid.getByRole('link', { name: 'Beta' }).first().click();
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Beta' }).waitFor();
    // The card title opens the book; the round button on its poster would open the reader straight away.
    await page
      .getByRole('main')
      .getByRole('link', { name: /^(?!Read ).*Beta 001/ })
      .first()
      .click();
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Beta 001' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Read', exact: true }).click();
    await page.waitForURL((u) => /^\/book\/[^/]+\/read$/.test(u.pathname));
    // The reader shows page 1: the image of the book's own first page.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const img = document.querySelector<HTMLImageElement>('[data-current] img');
          return img?.complete && img.naturalWidth ? img.naturalWidth : 0;
        }),
      )
      .toBe(BOOKS['Beta 001.cbz']!.firstPageWidth);
  });

  it("serves a book's poster, made from its first page", async () => {
    const book = books().find((b) => b.name === 'Beta 001');
    expect(book).toBeDefined();
    const posterResponse = await page.goto(`${server.url}/api/v1/books/${book!.id}/thumbnail`);
    expect(posterResponse?.status()).toBe(200);
    expect(posterResponse?.headers()['content-type']).toMatch(/^image\/jpeg/);
    await page.waitForFunction(() => document.images[0]?.complete);
    const [width, height] = await page.evaluate(() => [
      document.images[0]!.naturalWidth,
      document.images[0]!.naturalHeight,
    ]);
    expect(width).toBeGreaterThan(0);
    // Made from the first page: same proportions.
    expect(width! / height!).toBeCloseTo(BOOKS['Beta 001.cbz']!.firstPageWidth / 180, 1);
  });

  it('queues a scan from the library actions menu', async () => {
    await page.goto(server.url);
    await nav().getByRole('link', { name: LIBRARY, exact: true }).waitFor();
    await nav()
      .getByRole('button', { name: `Actions for ${LIBRARY}` })
      .click();
    await page.getByRole('menuitem', { name: 'Scan library files', exact: true }).click();
    await expect.poll(() => page.getByText(`Scan of ${LIBRARY} queued`, { exact: true }).count()).toBe(1);
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
  });

  it('deletes the library after the acknowledgement; the drawer loses it and the files stay on disk', async () => {
    await nav()
      .getByRole('button', { name: `Actions for ${LIBRARY}` })
      .click();
    await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete library' });
    const confirm = dialog.getByRole('button', { name: 'Delete', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: `Yes, delete the library "${LIBRARY}"` }).check();
    expect(await confirm.isEnabled()).toBe(true);
    await confirm.click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => nav().getByRole('link', { name: LIBRARY, exact: true }).count()).toBe(0);
    await expect.poll(() => page.getByText(`Library ${LIBRARY} deleted`, { exact: true }).count()).toBe(1);

    const gone = await fetch(`${server.url}/api/v1/libraries/${libraryId}`, { headers: { Authorization: basic } });
    expect(gone.status).toBe(404);
    expect(books()).toEqual([]);
    expect(bookFiles).toHaveLength(4);
    for (const file of bookFiles) expect(existsSync(file), file).toBe(true);
  });
});

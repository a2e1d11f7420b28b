import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeImage, zipBuffer } from '../../packages/server/test/support/library-builder.js';
import { fixture } from '../../packages/server/test/support/fixtures.js';
import { connectBrowser, newPage, signIn } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { analysedBooks, writeLibraryFiles, type BookRow, type LibraryFiles, claimServer } from '../support/library.js';
import { startServer, type RunningServer } from '../support/server.js';

const EMAIL = 'reader@example.org';
const PASSWORD = 'reader-secret';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

/** Page n (1-based) of every generated book is `200 + n` pixels wide, so the page on screen can be told apart. */
const pageWidth = (n: number) => 200 + n;
const PORTRAIT = 300;

/** A CBZ of real JPEG pages; `landscape` lists the pages wider than tall. */
async function cbz(pages: number, seed: number, landscape: number[] = []): Promise<Buffer> {
  const entries = [];
  for (let n = 1; n <= pages; n++) {
    const width = pageWidth(n) + (landscape.includes(n) ? 300 : 0);
    entries.push({
      name: `${String(n).padStart(3, '0')}.jpg`,
      data: await makeImage('jpeg', seed * 10 + n, width, PORTRAIT),
    });
  }
  return zipBuffer(entries);
}

const FILES: LibraryFiles = {
  'Alpha/Alpha 001.cbz': () => cbz(4, 1),
  'Alpha/Alpha 002.cbz': () => cbz(3, 2),
  'Manga/Manga 001.cbz': () => cbz(4, 3),
  'Spreads/Spreads 001.cbz': () => cbz(6, 4, [3]),
  'Quiet/Quiet 001.cbz': () => cbz(3, 5),
  'Scroll/Scroll 001.cbz': () => cbz(6, 6),
  'Novel/The Golden Harpoon.epub': () =>
    fixture('epub/The Golden Harpoon; Or, Lost Among the Floes A Story of the Whaling Grounds.epub'),
  'Papers/two_pages.pdf': () => fixture('pdf/two_pages.pdf'),
};

/** Width of the image of the slide on screen in `tab`, once it has loaded. */
const shownWidthIn = (tab: Page) =>
  tab.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>('[data-current] img');
    return img?.complete && img.naturalWidth ? img.naturalWidth : 0;
  });

describe('readers: paged, continuous and EPUB', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let root: string;
  const ids: Record<string, BookRow> = {};

  const api = async <T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { Authorization: basic, 'Content-Type': 'application/json', ...init.headers },
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
  const progress = async (bookId: string) =>
    (await api<{ readProgress: { page: number; completed: boolean } | null }>(`/api/v1/books/${bookId}`)).body
      .readProgress;

  /** The page numbers of the slide on screen (0 for a blank beside a lone page). */
  const currentSlide = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-current] img, [data-current] canvas')].map((el) =>
        el instanceof HTMLImageElement ? Number(/\d+/.exec(el.alt)?.[0]) : 0,
      ),
    );
  const shownWidth = () => shownWidthIn(page);
  const urlPage = () => new URL(page.url()).searchParams.get('page');

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    root = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-reader-')));
    await writeLibraryFiles(root, FILES);
    const created = await api<{ id: string }>('/api/v1/libraries', {
      method: 'POST',
      body: JSON.stringify({ name: 'Reader E2E', root }),
    });
    expect(created.status).toBe(200);

    // Scan and analysis done: every book READY.
    Object.assign(ids, await analysedBooks(server, Object.keys(FILES).length));

    browser = await connectBrowser();
    ({ context, page } = await newPage(browser));
    await signIn(page, server.url, EMAIL, PASSWORD);
  });
  cleanUpAfterSpec('reader', () => ({ browser, page, server, dirs: [root] }));

  it('reads a CBZ from the first page to the end with the keyboard and lands in the next book', async () => {
    const first = ids['Alpha 001']!;
    const second = ids['Alpha 002']!;
    const neighbourRequests: string[] = [];
    const countNeighbours = (r: { url(): string }) => {
      const match = new RegExp(`/api/v1/books/${first.id}/(next|previous)$`).exec(new URL(r.url()).pathname);
      if (match) neighbourRequests.push(match[1]!);
    };
    page.on('request', countNeighbours);
    await page.goto(`${server.url}/book/${first.id}/read`);
    for (let n = 1; n <= 4; n++) {
      await expect.poll(shownWidth, { timeout: 10_000 }).toBe(pageWidth(n));
      await expect.poll(urlPage).toBe(String(n));
      if (n === 4) {
        // Every turn saved its page and came back as a live event: the neighbours were still asked once each.
        await expect.poll(() => progress(first.id), { timeout: 10_000 }).toMatchObject({ page: 4 });
        await page.waitForTimeout(1000);
        page.off('request', countNeighbours);
        expect(neighbourRequests.sort()).toEqual(['next', 'previous']);
      }
      await page.keyboard.press('ArrowRight');
    }
    // Past the last page: a notice first, the next book on the second press.
    await page.getByText("You've reached the end of the book.", { exact: false }).waitFor();
    expect(page.url()).toContain(`/book/${first.id}/read`);
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => u.pathname.endsWith(`/book/${second.id}/read`));
    await expect.poll(shownWidth, { timeout: 10_000 }).toBe(pageWidth(1));
    await expect.poll(() => progress(first.id), { timeout: 10_000 }).toMatchObject({ page: 4, completed: true });
  });

  it('saves the page on every turn and resumes there when the book is opened again', async () => {
    const book = ids['Alpha 002']!;
    await page.goto(`${server.url}/book/${book.id}/read`);
    await expect.poll(shownWidth, { timeout: 10_000 }).toBe(pageWidth(1));
    await page.keyboard.press('ArrowRight');
    await expect.poll(shownWidth).toBe(pageWidth(2));
    await expect.poll(() => progress(book.id), { timeout: 10_000 }).toMatchObject({ page: 2, completed: false });
    await page.goto(server.url);
    await page.goto(`${server.url}/book/${book.id}/read`);
    await expect.poll(shownWidth, { timeout: 10_000 }).toBe(pageWidth(2));
    await expect.poll(urlPage).toBe('2');
  });

  it("applies the series' right-to-left direction: the arrow keys and tap zones swap", async () => {
    const book = ids['Manga 001']!;
    const patched = await api(`/api/v1/series/${book.seriesId}/metadata`, {
      method: 'PATCH',
      body: JSON.stringify({ readingDirection: 'RIGHT_TO_LEFT' }),
    });
    expect(patched.status).toBe(204);
    await page.goto(`${server.url}/book/${book.id}/read`);
    await page.getByText('Reading direction: Right to left (from the series)').waitFor();
    await expect.poll(shownWidth, { timeout: 10_000 }).toBe(pageWidth(1));
    await page.keyboard.press('ArrowLeft');
    await expect.poll(shownWidth).toBe(pageWidth(2));
    await page.keyboard.press('ArrowLeft');
    await expect.poll(shownWidth).toBe(pageWidth(3));
    await page.keyboard.press('ArrowRight');
    await expect.poll(shownWidth).toBe(pageWidth(2));
    const { width, height } = page.viewportSize()!;
    await page.mouse.click(width * 0.1, height / 2);
    await expect.poll(shownWidth).toBe(pageWidth(3));
    await page.mouse.click(width * 0.9, height / 2);
    await expect.poll(shownWidth).toBe(pageWidth(2));
    // The middle shows the toolbars.
    await page.mouse.click(width / 2, height / 2);
    await page.getByRole('button', { name: 'Close the book' }).waitFor();
  });

  it("sets the current page as the book's poster from the reader's menu", async () => {
    const book = ids['Manga 001']!;
    await page.goto(`${server.url}/book/${book.id}/read?page=2&incognito=true`);
    await expect.poll(shownWidth, { timeout: 10_000 }).toBe(pageWidth(2));
    await page.keyboard.press('m');
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Set page as book poster' }).click();
    await page.getByText("Page 2 is now the book's poster").waitFor();
    const posters = await api<{ type: string; selected: boolean; width: number; height: number }[]>(
      `/api/v1/books/${book.id}/thumbnails`,
    );
    const uploaded = posters.body.find((p) => p.type === 'USER_UPLOADED');
    expect(uploaded).toMatchObject({ selected: true, width: pageWidth(2), height: PORTRAIT });
  });

  it('double-page mode keeps the cover alone and lets a landscape page stand alone', async () => {
    const book = ids['Spreads 001']!;
    await page.goto(`${server.url}/book/${book.id}/read?page=1&incognito=true`);
    await expect.poll(currentSlide, { timeout: 10_000 }).toEqual([1]);
    await page.keyboard.press('d');
    await page.getByText('Page layout: Double pages', { exact: true }).waitFor();
    const slides = [await currentSlide()];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('ArrowRight');
      await expect.poll(currentSlide).not.toEqual(slides.at(-1));
      slides.push(await currentSlide());
    }
    expect(slides).toEqual([[0, 1], [2, 0], [3], [4, 5], [6, 0]]);
    // The slide of a page holds it whatever the layout: the URL page is the spread's second page.
    await expect.poll(urlPage).toBe('6');
    await page.keyboard.press('d');
    await page.keyboard.press('d');
    await page.getByText('Page layout: Single page', { exact: true }).waitFor();
  });

  it('incognito reading saves nothing', async () => {
    const book = ids['Quiet 001']!;
    const writes: string[] = [];
    const watch = (r: { method(): string; url(): string }) => {
      if (r.method() !== 'GET' && /\/(read-progress|progression)/.test(r.url())) writes.push(r.url());
    };
    page.on('request', watch);
    await page.goto(`${server.url}/book/${book.id}/read?incognito=true`);
    await expect.poll(shownWidth, { timeout: 10_000 }).toBe(pageWidth(1));
    await page.keyboard.press('ArrowRight');
    await expect.poll(shownWidth).toBe(pageWidth(2));
    await page.keyboard.press('End');
    await expect.poll(shownWidth).toBe(pageWidth(3));
    await page.keyboard.press('ArrowRight');
    await page.getByText("You've reached the end of the book.", { exact: false }).waitFor();
    await page.goto(server.url);
    await page.waitForTimeout(500);
    page.off('request', watch);
    expect(writes).toEqual([]);
    expect(await progress(book.id)).toBeNull();
  });

  it('opens a webtoon series in the continuous reader, sized before the images arrive, saving the page in view', async () => {
    const book = ids['Scroll 001']!;
    const patched = await api(`/api/v1/series/${book.seriesId}/metadata`, {
      method: 'PATCH',
      body: JSON.stringify({ readingDirection: 'WEBTOON' }),
    });
    expect(patched.status).toBe(204);
    await page.goto(`${server.url}/book/${book.id}/read`);
    await page.getByText('Reading direction: Webtoon (from the series)').waitFor();
    await page.getByTestId('continuous-reader').waitFor();
    // Every page box has its page's proportions from the start, loaded or not.
    const boxes = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-page]')].map((el) => {
        const r = el.getBoundingClientRect();
        return Math.round((r.width / r.height) * 1000) / 1000;
      }),
    );
    expect(boxes).toEqual([1, 2, 3, 4, 5, 6].map((n) => Math.round((pageWidth(n) / PORTRAIT) * 1000) / 1000));
    await page.evaluate(() => document.getElementById('page-3')!.scrollIntoView({ block: 'start' }));
    await expect.poll(urlPage).toBe('3');
    await expect.poll(() => progress(book.id), { timeout: 10_000 }).toMatchObject({ page: 3, completed: false });
    await page.keyboard.press('End');
    await expect.poll(urlPage).toBe('6');
    await expect.poll(() => progress(book.id), { timeout: 10_000 }).toMatchObject({ page: 6, completed: true });
  });

  it('an EPUB opened, moved three pages, closed and opened again resumes at the same place', async () => {
    const book = ids['The Golden Harpoon']!;
    const footer = page.getByTestId('epub-footer').getByText(/^Page \d+ of \d+/);
    const position = async () => Number(/^Page (\d+)/.exec((await footer.textContent()) ?? '')?.[1]);
    await page.goto(`${server.url}/book/${book.id}/read-epub`);
    await footer.waitFor({ timeout: 20_000 });
    const start = await position();
    let last = start;
    for (let i = 0; i < 3; i++) {
      const before = await footer.textContent();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => footer.textContent(), { timeout: 10_000 }).not.toBe(before);
      last = await position();
    }
    expect(last).toBeGreaterThan(start);
    await expect
      .poll(
        async () =>
          (await api<{ locator?: { locations?: { position?: number } } }>(`/api/v1/books/${book.id}/progression`)).body
            ?.locator?.locations?.position,
        { timeout: 10_000 },
      )
      .toBe(last);
    await page.goto(server.url);
    await page.goto(`${server.url}/book/${book.id}/read-epub`);
    await footer.waitFor({ timeout: 20_000 });
    await expect.poll(position, { timeout: 10_000 }).toBe(last);
  });

  it("renders a PDF's pages in the paged reader", async () => {
    const book = ids['two_pages']!;
    await page.goto(`${server.url}/book/${book.id}/read?incognito=true`);
    await expect.poll(shownWidth, { timeout: 20_000 }).toBeGreaterThan(100);
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await currentSlide())[0], { timeout: 10_000 }).toBe(2);
    await expect.poll(shownWidth, { timeout: 20_000 }).toBeGreaterThan(100);
  });

  it("opened cold, asks for its book, pages and series while the app's code is on its way, once each", async () => {
    const book = ids['Quiet 001']!;
    const { context: cold, page: tab } = await newPage(browser);
    try {
      await cold.addCookies(await context.cookies());
      const asked: string[] = [];
      tab.on('request', (r) => asked.push(new URL(r.url()).pathname));
      const bookPath = `/api/v1/books/${book.id}`;
      const readerData = () =>
        asked.filter((p) => p === bookPath || p === `${bookPath}/pages` || p.startsWith('/api/v1/series/'));
      // The app's code is held back until the reader's data has been asked for (by the page's first script,
      // packages/web/src/early): before, the book was asked for once the reader's code had run, and the series once
      // the book had answered.
      let askedBeforeCode = false;
      await tab.route(/\/assets\/app-[^/]+\.js$/, async (route) => {
        askedBeforeCode = await expect
          .poll(() => readerData().length, { timeout: 10_000 })
          .toBe(3)
          .then(
            () => true,
            () => false,
          );
        await route.continue();
      });
      await tab.goto(`${server.url}/book/${book.id}/read?page=1&incognito=true`);
      await expect.poll(() => shownWidthIn(tab), { timeout: 10_000 }).toBe(pageWidth(1));
      expect(askedBeforeCode).toBe(true);
      // the reader took those answers rather than asking again
      expect(readerData()).toEqual([bookPath, `${bookPath}/pages`, `/api/v1/series/${book.seriesId}`]);
    } finally {
      await cold.close();
    }
  });

  it('turns pages with a tap and a swipe on a phone-sized touch screen', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
    try {
      await phone.addCookies(await context.cookies());
      const p = await phone.newPage();
      const book = ids['Alpha 001']!;
      await p.goto(`${server.url}/book/${book.id}/read?page=1&incognito=true`);
      const width = () => shownWidthIn(p);
      await expect.poll(width, { timeout: 10_000 }).toBe(pageWidth(1));
      await p.touchscreen.tap(340, 370);
      await expect.poll(width).toBe(pageWidth(2));
      await p.touchscreen.tap(20, 370);
      await expect.poll(width).toBe(pageWidth(1));
      await p.touchscreen.tap(180, 370);
      await p.getByRole('button', { name: 'Reader settings' }).click();
      await p.getByLabel('Swipe to turn pages').check();
      await p.keyboard.press('Escape');
      await p.getByRole('dialog', { name: 'Reader settings' }).waitFor({ state: 'hidden' });
      // A swipe to the left, as a finger drags the page.
      const cdp = await phone.newCDPSession(p);
      const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
        cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y: 370 }] });
      await touch('touchStart', 300);
      for (const x of [250, 200, 150, 100]) await touch('touchMove', x);
      await touch('touchEnd', 100);
      await expect.poll(width).toBe(pageWidth(2));
    } finally {
      await phone.close();
    }
  });
});

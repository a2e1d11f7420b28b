import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { writeCbz } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, newPage, logIn, signIn } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { repoRoot, startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

/** A screenshot file under e2e/artifacts, to look at. */
function artifact(name: string): string {
  const dir = join(repoRoot, 'e2e/artifacts');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

const EMAIL = 'browser@example.org';
const PASSWORD = 'browse-secret';
const LIBRARY = 'E2E Browse';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

interface BookSpec {
  series: string;
  number: number;
  title: string;
  genre: string;
}

/** Three series; each book's ComicInfo names its series, title and genre (imported lower-cased, as Komga does). */
const BOOKS: BookSpec[] = [
  { series: 'Space Saga', number: 1, title: 'Into the Void', genre: 'science fiction' },
  { series: 'Space Saga', number: 2, title: 'Dark Star', genre: 'science fiction' },
  { series: 'Cozy Cafe', number: 1, title: 'Morning Brew', genre: 'Slice of Life' },
  { series: 'Knight Tales', number: 1, title: 'The Lost Sword', genre: 'Fantasy' },
];

const comicInfo = (b: BookSpec) =>
  `<?xml version="1.0"?>
<ComicInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Title>${b.title}</Title>
  <Series>${b.series}</Series>
  <Number>${b.number}</Number>
  <Genre>${b.genre}</Genre>
</ComicInfo>`;

interface Named {
  id: string;
  name: string;
}
interface BookJson extends Named {
  media: { status: string };
  metadata: { title: string };
}

describe('browse: a library of series, filters held in the URL, search from the app bar', () => {
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
  const main = () => page.getByRole('main');
  const grid = () => main().getByRole('list', { name: 'Series' });
  const seriesShown = async () => (await grid().getByRole('link').allTextContents()).sort();
  const query = () => new URL(page.url()).searchParams;
  /** "series|number - title" of each card of the Books grid, in order. */
  const booksShown = () =>
    main()
      .getByRole('list', { name: 'Books' })
      .getByRole('listitem')
      .evaluateAll((items) =>
        items.map((li) =>
          [...li.querySelectorAll('a')]
            .map((a) => a.textContent ?? '')
            .filter(Boolean)
            .join('|'),
        ),
      );

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    libraryRoot = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-browse-')));
    let seed = 1;
    for (const b of BOOKS) {
      const file = join(libraryRoot, b.series, `${b.series} ${String(b.number).padStart(3, '0')}.cbz`);
      await writeCbz(file, { pages: 2, seed: seed++, comicInfo: comicInfo(b) });
    }
    const created = await fetch(`${server.url}/api/v1/libraries`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: LIBRARY, root: libraryRoot }),
    });
    expect(created.status).toBe(200);
    libraryId = ((await created.json()) as Named).id;

    // Analysed, and the ComicInfo titles imported.
    const deadline = Date.now() + 30_000;
    const expected = BOOKS.map((b) => b.title).sort();
    for (;;) {
      const list = await books();
      const ready = list.length === BOOKS.length && list.every((b) => b.media.status === 'READY');
      if (ready && JSON.stringify(list.map((b) => b.metadata.title).sort()) === JSON.stringify(expected)) break;
      if (Date.now() > deadline) throw new Error(`library not analysed in 30 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
  });
  cleanUpAfterSpec('browse', () => ({ browser, page, server, dirs: [libraryRoot] }));

  it('logs in and lands on the dashboard, where the new books show', async () => {
    await logIn(page, server.url, EMAIL, PASSWORD);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    const added = main().getByRole('region', { name: 'Recently added books' });
    await expect.poll(() => added.getByRole('link', { name: '2 - Dark Star', exact: true }).count()).toBe(1);
  });

  /**
   * A fresh browser context signed in as the page's user: a cold start (empty cache), with every request it makes
   * as "path?query", in order.
   */
  const coldStart = async () => {
    const { context, page: cold } = await newPage(browser);
    await context.addCookies(await page.context().cookies());
    const requests: string[] = [];
    cold.on('request', (r) => {
      const url = new URL(r.url());
      requests.push(url.pathname + url.search);
    });
    return { context, cold, requests };
  };

  /**
   * Holds back `tab`'s requests to `url` until `ready()` (at most 10 s), then lets them go: whether `ready()` came
   * true while they waited, read once the page has loaded.
   */
  const holdBack = async (tab: Page, url: RegExp, ready: () => boolean) => {
    let held = false;
    await tab.route(url, async (route) => {
      held = await expect
        .poll(ready, { timeout: 10_000 })
        .toBe(true)
        .then(
          () => true,
          () => false,
        );
      await route.continue();
    });
    return () => held;
  };

  /** The dashboard's rows: seven lists of 20 (the app bar's own book count asks for one). */
  const dashboardRows = (requests: string[]) =>
    requests.filter(
      (u) => /^\/api\/v1\/(books\/list|books\/ondeck|series\/(new|updated))\?/.test(u) && /[?&]size=20(&|$)/.test(u),
    );
  const firstPosters = (requests: string[]) => requests.filter((u) => /^\/api\/v1\/books\/[^/]+\/thumbnail/.test(u));

  it("a cold start asks for the dashboard's rows and first posters with the session check, not after its code", async () => {
    const { context, cold, requests } = await coldStart();
    const rows = () => dashboardRows(requests);
    const posters = () => firstPosters(requests);
    // The dashboard's code is held back until its rows and the first row's posters have been asked for: before,
    // the rows were asked for only once that code had loaded and rendered, one step after another.
    // (the dashboard is in the browse screens' chunk: packages/web/vite.config.ts)
    const askedWhileCodeLoaded = await holdBack(
      cold,
      /\/assets\/browse-[^/]+\.js$/,
      () => rows().length >= 7 && posters().length >= 4,
    );
    // The last row's answer is held back too: the first row's posters need only the rows above it.
    const postersBeforeLastRow = await holdBack(cold, /\/api\/v1\/series\/updated\?/, () => posters().length >= 4);
    await cold.goto(server.url);
    const added = cold.getByRole('main').getByRole('region', { name: 'Recently added books' });
    await added.getByRole('link', { name: '2 - Dark Star', exact: true }).waitFor();
    await expect
      .poll(() =>
        added.locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length),
      )
      .toBe(4);
    expect(askedWhileCodeLoaded()).toBe(true);
    expect(postersBeforeLastRow()).toBe(true);
    // each row and each poster once: what was asked ahead is what the dashboard shows
    expect(rows()).toHaveLength(7);
    expect(posters()).toHaveLength(new Set(posters()).size);
    await context.close();
  });

  it("a cold start asks for the session, the libraries, the rows and their posters while the app's code is on its way, once each", async () => {
    const { context, cold, requests } = await coldStart();
    const sessionChecks = () => requests.filter((u) => u === '/api/v2/users/me');
    const libraries = () => requests.filter((u) => u === '/api/v1/libraries');
    // The app's code is held back until the first screen's requests have been asked for (by the page's first
    // script, packages/web/src/early): before, the check waited for that code to arrive and run (a few hundred
    // milliseconds of a cold start), and the libraries and rows for the check's answer.
    const askedBeforeCode = await holdBack(
      cold,
      /\/assets\/app-[^/]+\.js$/,
      () =>
        sessionChecks().length === 1 &&
        libraries().length === 1 &&
        dashboardRows(requests).length === 7 &&
        firstPosters(requests).length >= 4,
    );
    await cold.goto(server.url);
    const added = cold.getByRole('main').getByRole('region', { name: 'Recently added books' });
    await added.getByRole('link', { name: '2 - Dark Star', exact: true }).waitFor();
    await expect
      .poll(() =>
        added.locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length),
      )
      .toBe(4);
    expect(askedBeforeCode()).toBe(true);
    // the app took the answers already on their way rather than asking again (the libraries are left out: the
    // live events of the library's own analysis may refresh them meanwhile)
    expect(sessionChecks()).toHaveLength(1);
    expect(dashboardRows(requests)).toHaveLength(7);
    expect(firstPosters(requests)).toHaveLength(new Set(firstPosters(requests)).size);
    await context.close();
  });

  it('first paints the cards a window shows of each dashboard row, without their hover controls; the rest follow', async () => {
    // 272 px wide: a row's first render holds 3 cards (DashboardSections' cardsInView), of the 4 recently added.
    const { context, page: cold } = await newPage(browser, { viewport: { width: 272, height: 700 } });
    await context.addCookies(await page.context().cookies());
    // What the rows' first render put on the page, read in the mutation's microtask: before React's next task.
    await cold.addInitScript(() => {
      const seen = new MutationObserver(() => {
        const sections = [...document.querySelectorAll('main section')];
        if (!sections.some((s) => s.querySelector('[data-testid="item-card"]'))) return;
        seen.disconnect();
        (window as unknown as { firstRender: unknown }).firstRender = sections.map((s) => ({
          row: s.querySelector('h2')?.textContent,
          cards: s.querySelectorAll('[data-testid="item-card"]').length,
          controls: s.querySelectorAll('.card-overlay a, .card-overlay button').length,
        }));
      });
      seen.observe(document, { childList: true, subtree: true });
    });
    await cold.goto(server.url);
    const added = cold.getByRole('main').getByRole('region', { name: 'Recently added books' });
    // Then every card, each with its read button and ⋮ menu.
    await expect.poll(() => added.getByRole('listitem').count()).toBe(4);
    await expect.poll(() => added.getByRole('link', { name: /^Read / }).count()).toBe(4);
    const first = await cold.evaluate(() => (window as unknown as { firstRender: unknown }).firstRender);
    expect(first).toContainEqual({ row: 'Recently added books', cards: 3, controls: 0 });
    await context.close();
  });

  it("browses the library's series", async () => {
    await page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: LIBRARY }).click();
    await main().getByRole('tab', { name: 'Series' }).click();
    await page.waitForURL((u) => u.pathname === `/libraries/${libraryId}/series`);
    await main().getByRole('heading', { level: 1, name: LIBRARY }).waitFor();
    await expect.poll(seriesShown).toEqual(['Cozy Cafe', 'Knight Tales', 'Space Saga']);
    // Remembered: the library now opens on its series. The tab is stored by an effect after the page paints: wait
    // for it before leaving the page.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('quire.preferences') ?? '')).toContain('"BROWSE"');
    await page.goto(`${server.url}/libraries/${libraryId}`);
    await page.waitForURL((u) => u.pathname === `/libraries/${libraryId}/series`);
  });

  it('filters by genre; the URL holds the filter and a reload keeps it', async () => {
    await main().getByRole('button', { name: 'Filter and sort' }).click();
    const drawer = page.getByRole('dialog', { name: 'Filter and sort' });
    await drawer.getByRole('button', { name: /^genre/i }).click();
    await drawer.getByRole('checkbox', { name: 'science fiction' }).click();
    await expect.poll(() => query().getAll('genre')).toEqual(['is:science fiction']);
    // The drawer is modal: the grid is hidden from assistive technology until it closes.
    await page.keyboard.press('Escape');
    await expect.poll(seriesShown).toEqual(['Space Saga']);

    await page.reload();
    await expect.poll(seriesShown).toEqual(['Space Saga']);
    expect(query().getAll('genre')).toEqual(['is:science fiction']);
    await main().getByRole('button', { name: 'Filter and sort, 1 filter active' }).click();
    await drawer.getByRole('button', { name: /^genre/i }).click();
    expect(await drawer.getByRole('checkbox', { name: 'science fiction' }).getAttribute('aria-checked')).toBe('true');
    // Tri-state: a second click excludes the genre, a third lets it go.
    await drawer.getByRole('checkbox', { name: 'science fiction' }).click();
    await expect.poll(() => query().getAll('genre')).toEqual(['isNot:science fiction']);
    await page.keyboard.press('Escape');
    await expect.poll(seriesShown).toEqual(['Cozy Cafe', 'Knight Tales']);
    await main().getByRole('button', { name: 'Filter and sort, 1 filter active' }).click();
    await drawer.getByRole('button', { name: /^genre/i }).click();
    await drawer.getByRole('checkbox', { name: 'science fiction (excluded)' }).click();
    await expect.poll(() => query().getAll('genre')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(seriesShown).toEqual(['Cozy Cafe', 'Knight Tales', 'Space Saga']);
  });

  it('filters by read status; the URL holds it and a reload keeps it', async () => {
    const cafe = (await get<{ content: Named[] }>(`/api/v1/series?library_id=${libraryId}&unpaged=true`)).content.find(
      (s) => s.name === 'Cozy Cafe',
    )!;
    const marked = await fetch(`${server.url}/api/v1/series/${cafe.id}/read-progress`, {
      method: 'POST',
      headers: { Authorization: basic },
    });
    expect(marked.status).toBe(204);

    await main().getByRole('button', { name: 'Filter and sort' }).click();
    const drawer = page.getByRole('dialog', { name: 'Filter and sort' });
    await drawer.getByRole('checkbox', { name: 'Read', exact: true }).click();
    await expect.poll(() => query().getAll('readStatus')).toEqual(['is:READ']);
    await page.keyboard.press('Escape');
    await expect.poll(seriesShown).toEqual(['Cozy Cafe']);
    // A second click excludes: everything not read.
    await main().getByRole('button', { name: 'Filter and sort, 1 filter active' }).click();
    await drawer.getByRole('checkbox', { name: 'Read', exact: true }).click();
    await expect.poll(() => query().getAll('readStatus')).toEqual(['isNot:READ']);
    await page.keyboard.press('Escape');
    await expect.poll(seriesShown).toEqual(['Knight Tales', 'Space Saga']);

    await page.reload();
    await expect.poll(seriesShown).toEqual(['Knight Tales', 'Space Saga']);
    expect(query().getAll('readStatus')).toEqual(['isNot:READ']);
  });

  it("lists the library's books on its Books tab: filters in the URL, remembered, sort, selection, all libraries", async () => {
    await main().getByRole('tab', { name: 'Books' }).click();
    await page.waitForURL((u) => u.pathname === `/libraries/${libraryId}/books`);
    // Sorted by series, then number; each card names its series.
    await expect
      .poll(booksShown)
      .toEqual([
        'Cozy Cafe|1 - Morning Brew',
        'Knight Tales|1 - The Lost Sword',
        'Space Saga|1 - Into the Void',
        'Space Saga|2 - Dark Star',
      ]);

    // Read status (Cozy Cafe was marked read above).
    await main().getByRole('button', { name: 'Filter and sort' }).click();
    const drawer = page.getByRole('dialog', { name: 'Filter and sort' });
    await drawer.getByRole('checkbox', { name: 'Read', exact: true }).click();
    await expect.poll(() => query().getAll('readStatus')).toEqual(['is:READ']);
    await page.keyboard.press('Escape');
    await expect.poll(booksShown).toEqual(['Cozy Cafe|1 - Morning Brew']);
    await page.reload();
    await expect.poll(booksShown).toEqual(['Cozy Cafe|1 - Morning Brew']);

    // Media status: no book is in error.
    await main().getByRole('button', { name: 'Filter and sort, 1 filter active' }).click();
    await drawer.getByRole('button', { name: /^media status/i }).click();
    await drawer.getByRole('checkbox', { name: 'Error' }).click();
    await expect.poll(() => query().getAll('mediaStatus')).toEqual(['is:ERROR']);
    await page.keyboard.press('Escape');
    await main().getByText('The active filter has no matches').waitFor();
    await main().getByRole('button', { name: 'Reset filters' }).click();
    await expect.poll(() => booksShown().then((b) => b.length)).toBe(4);

    // Sort by file name, newest key first: descending. Two quick changes on a slow device (the CPU slowed six times):
    // the second is made on top of the first, not on the filters before it.
    await main().getByRole('button', { name: 'Filter and sort' }).click();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    try {
      await drawer.getByRole('checkbox', { name: 'Unread', exact: true }).click();
      await drawer.getByRole('button', { name: 'File name' }).click();
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
    expect(query().getAll('readStatus')).toEqual(['is:UNREAD']);
    await expect.poll(() => query().get('sort')).toBe('name,desc');
    await page.keyboard.press('Escape');
    await expect
      .poll(booksShown)
      .toEqual(['Space Saga|2 - Dark Star', 'Space Saga|1 - Into the Void', 'Knight Tales|1 - The Lost Sword']);

    // Remembered for this library: a bare URL gets them back.
    await page.goto(`${server.url}/libraries/${libraryId}/books`);
    await expect.poll(() => query().getAll('readStatus')).toEqual(['is:UNREAD']);
    expect(query().get('sort')).toBe('name,desc');
    await expect.poll(booksShown).toHaveLength(3);

    // Multi-select: mark one book read from the selection bar; it leaves the unread list.
    await main().getByRole('button', { name: 'Select 2 - Dark Star' }).click();
    const bar = main().getByRole('toolbar', { name: 'Selection' });
    await bar.getByText('1 selected').waitFor();
    // Meanwhile a click on another card picks it instead of opening it, and the cards' read buttons step aside.
    const lostSword = main().getByRole('listitem').filter({ hasText: 'The Lost Sword' });
    await lostSword.getByRole('link', { name: /^Read / }).waitFor({ state: 'hidden' });
    await lostSword.getByRole('link', { name: '1 - The Lost Sword' }).click();
    await bar.getByText('2 selected').waitFor();
    await lostSword.getByRole('link', { name: '1 - The Lost Sword' }).click();
    await bar.getByText('1 selected').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/libraries/${libraryId}/books`);
    await bar.getByRole('button', { name: 'Mark as read' }).click();
    await expect.poll(booksShown).toEqual(['Space Saga|1 - Into the Void', 'Knight Tales|1 - The Lost Sword']);

    // The all-libraries pseudo-library has its own Books tab.
    await page.goto(`${server.url}/libraries/all/books`);
    await main().getByRole('heading', { level: 1, name: 'All libraries' }).waitFor();
    await expect.poll(() => booksShown().then((b) => b.length)).toBe(4);
  });

  it('finds a book by its title from the app-bar search and opens it', async () => {
    const darkStar = (await books()).find((b) => b.metadata.title === 'Dark Star')!;
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.click();
    await box.fill('Dark Star');
    const option = page.getByRole('option', { name: /^Dark Star/ });
    await option.waitFor();
    await option.click();
    await page.waitForURL((u) => u.pathname === `/book/${darkStar.id}`);
    expect(await box.inputValue()).toBe('');
  });

  it('shows every match on the results page after Enter', async () => {
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.click();
    // The search box is scoped to all libraries here (not inside one).
    await box.fill('Space Saga');
    await page.getByRole('option', { name: /Search all for/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/search' && u.searchParams.get('q') === 'Space Saga');
    await main().getByRole('heading', { level: 1, name: 'Search results for “Space Saga”' }).waitFor();
    const seriesRow = main().getByRole('region', { name: 'Series' });
    await expect.poll(() => seriesRow.getByRole('link', { name: 'Space Saga', exact: true }).count()).toBe(1);
  });
  it('shows the covers on a phone: a first tap on a poster reveals its actions, a second acts; a mouse hovers', async () => {
    const saga = (await get<{ content: Named[] }>(`/api/v1/series?library_id=${libraryId}&unpaged=true`)).content.find(
      (s) => s.name === 'Space Saga',
    )!;
    // The series page's grid of books: two cards with a read button each.
    const seriesUrl = `${server.url}/series/${saga.id}`;
    const cards = (p: Page) => p.getByRole('main').getByRole('list', { name: 'Books' }).getByRole('listitem');
    const overlayOpacities = (p: Page) =>
      cards(p).evaluateAll((items) =>
        items.map((li) => Number(getComputedStyle(li.querySelector('.card-overlay')!).opacity)),
      );
    /** A finger on the poster of a card, at a fraction of its height (the middle holds the read button). */
    const tapPoster = async (p: Page, index: number, fromTop = 0.5) => {
      const poster = cards(p).nth(index).locator('.card-poster');
      await poster.scrollIntoViewIfNeeded();
      const box = (await poster.boundingBox())!;
      await p.touchscreen.tap(box.x + box.width / 2, box.y + box.height * fromTop);
    };
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      deviceScaleFactor: 2,
    });
    try {
      const tab = await phone.newPage();
      await signIn(tab, server.url, EMAIL, PASSWORD);
      await tab.goto(seriesUrl);
      await expect.poll(() => cards(tab).count()).toBe(2);
      await expect
        .poll(() =>
          cards(tab)
            .locator('img')
            .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete)),
        )
        .toBe(true);
      const first = cards(tab).first();
      await first.scrollIntoViewIfNeeded();
      // Nothing covers the posters: no overlay, so no read button over them.
      await expect.poll(() => overlayOpacities(tab)).toEqual([0, 0]);
      await tab.screenshot({ path: artifact('phone-series-books.png') });

      // First tap on a poster: the actions show, nothing opens.
      const url = tab.url();
      await tapPoster(tab, 0);
      await expect.poll(() => overlayOpacities(tab)).toEqual([1, 0]);
      expect(tab.url()).toBe(url);
      await tab.screenshot({ path: artifact('phone-series-books-revealed.png') });
      // A tap elsewhere hides them again.
      await tab.getByRole('heading', { level: 2, name: 'Books' }).tap();
      await expect.poll(() => overlayOpacities(tab)).toEqual([0, 0]);
      // Reveal, then the second tap acts: the read button opens the reader.
      await tapPoster(tab, 0);
      await expect.poll(() => overlayOpacities(tab)).toEqual([1, 0]);
      await first.getByRole('link', { name: /^Read / }).tap();
      await tab.waitForURL((u) => /^\/book\/[^/]+\/read$/.test(u.pathname));
      await tab.goto(seriesUrl);
      // A second tap on the poster itself, away from its buttons, opens the book.
      await tapPoster(tab, 0);
      await expect.poll(() => overlayOpacities(tab)).toEqual([1, 0]);
      await tapPoster(tab, 0, 0.2);
      await tab.waitForURL((u) => /^\/book\/[^/]+$/.test(u.pathname));
    } finally {
      await phone.close();
    }

    // Desktop, with a mouse: hovering shows the actions at once, leaving hides them.
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const tab = await desktop.newPage();
      await signIn(tab, server.url, EMAIL, PASSWORD);
      await tab.goto(seriesUrl);
      await expect.poll(() => cards(tab).count()).toBe(2);
      expect(await overlayOpacities(tab)).toEqual([0, 0]);
      const pointAt = async (index: number) => {
        const box = (await cards(tab).nth(index).locator('.card-poster').boundingBox())!;
        await tab.mouse.move(box.x + box.width / 2, box.y + box.height / 5);
      };
      await pointAt(1);
      await expect.poll(() => overlayOpacities(tab)).toEqual([0, 1]);
      await tab.getByRole('main').getByRole('heading', { level: 2, name: 'Books' }).hover();
      await expect.poll(() => overlayOpacities(tab)).toEqual([0, 0]);
      await pointAt(1);
      await cards(tab)
        .nth(1)
        .getByRole('link', { name: /^Read / })
        .click();
      await tab.waitForURL((u) => /^\/book\/[^/]+\/read$/.test(u.pathname));
    } finally {
      await desktop.close();
    }
  });
});

import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { makeImage, zipBuffer } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, newPage } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { claimServer } from '../support/library.js';
import { startServer, type RunningServer } from '../support/server.js';

const EMAIL = 'keys@example.org';
const PASSWORD = 'keys-secret';
const LIBRARY = 'Keyboard Comics';

/** Page n of every book is `300 + n` pixels wide: the page on screen can be told apart. */
const pageWidth = (n: number) => 300 + n;

async function cbz(pages: number, seed: number): Promise<Buffer> {
  const entries = [];
  for (let n = 1; n <= pages; n++) {
    entries.push({
      name: `${String(n).padStart(3, '0')}.jpg`,
      data: await makeImage('jpeg', seed * 10 + n, pageWidth(n), 420),
    });
  }
  return zipBuffer(entries);
}

/** What has the keyboard focus, as a screen reader would name it. */
interface Focused {
  name: string;
  tag: string;
  inDialog: boolean;
  inMain: boolean;
  /** The focus ring: outline style and width. */
  outline: string;
}

/**
 * A keyboard-only walk (issue 17): no mouse and no click from the test, only `page.keyboard`. It logs in, skips to
 * the content, adds a library through the add-library dialog (focus trapped inside it), waits for the books, opens
 * the first book's reader from its series and reads two pages. The page counts every pointer event it receives: none.
 */
describe('keyboard only: log in, add a library, open a book and read two pages', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let root: string;
  let basic: string;

  const focused = () =>
    page.evaluate((): Focused => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body)
        return { name: '', tag: 'body', inDialog: false, inMain: false, outline: 'none' };
      const labelled = el.getAttribute('aria-labelledby');
      const name =
        el.getAttribute('aria-label') ??
        (labelled ? document.getElementById(labelled)?.textContent : undefined) ??
        (el as HTMLInputElement).labels?.[0]?.textContent?.replace(/\s*\*$/, '') ??
        el.textContent ??
        '';
      const style = getComputedStyle(el);
      return {
        name: name.replace(/\s+/g, ' ').trim() || `<${el.tagName.toLowerCase()} ${el.className}>`,
        tag: el.tagName.toLowerCase(),
        inDialog: !!el.closest('[role="dialog"]'),
        inMain: !!el.closest('main'),
        outline: `${style.outlineStyle} ${style.outlineWidth}`,
      };
    });

  /** Presses Tab until the focus is on `name`; every stop passes `each` (for the dialog's focus trap). */
  const tabTo = async (name: string | RegExp, each: (f: Focused) => void = () => undefined, max = 80) => {
    const seen: string[] = [];
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const f = await focused();
      each(f);
      seen.push(f.name);
      if (typeof name === 'string' ? f.name === name : name.test(f.name)) return f;
    }
    throw new Error(`Tab never reached "${name}"; it went through: ${seen.join(' | ')}`);
  };
  /** A button or link reached by the keyboard shows a focus ring. */
  const expectRing = (f: Focused) => expect(f.outline, `focus ring of "${f.name}"`).toMatch(/^solid [23]px$/);

  beforeAll(async () => {
    server = await startServer();
    basic = await claimServer(server, EMAIL, PASSWORD);
    root = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-keyboard-')));
    await mkdir(join(root, 'Lantern'));
    await writeFile(join(root, 'Lantern', 'Lantern 001.cbz'), await cbz(4, 1));
    await writeFile(join(root, 'Lantern', 'Lantern 002.cbz'), await cbz(3, 2));
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
    // Counts what a pointer would send; a key press sends none of these (its click event has no pointerdown).
    await page.addInitScript(() => {
      const w = window as unknown as { pointerEvents: number };
      w.pointerEvents = 0;
      for (const type of ['pointerdown', 'mousedown', 'touchstart'])
        window.addEventListener(type, () => w.pointerEvents++, true);
    });
  });
  cleanUpAfterSpec('keyboard', () => ({ browser, page, server, dirs: [root] }));

  it('logs in with the keyboard', async () => {
    await page.goto(server.url);
    await page.waitForURL(/\/login/);
    await tabTo('Email');
    await page.keyboard.type(EMAIL);
    await tabTo('Password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => !u.pathname.endsWith('/login'));
    // The welcome screen, for an administrator with no library yet.
    await page.getByRole('main').getByRole('button', { name: 'Add library' }).waitFor();
  });

  it('skips to the content, adds a library in the dialog without leaving it; the focus lands on the next screen’s content', async () => {
    // The first Tab stop is the skip link; it moves the focus to the main content.
    await page.keyboard.press('Tab');
    const skip = await focused();
    expect(skip.name).toBe('Skip to content');
    expect(await page.getByRole('link', { name: 'Skip to content' }).isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');

    const opener = await tabTo('Add library');
    expect(opener.inMain).toBe(true);
    expectRing(opener);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add library' });
    await dialog.waitFor();
    // Focus starts in the dialog, on the name.
    expect(await focused()).toMatchObject({ name: 'Name', inDialog: true });
    await page.keyboard.type(LIBRARY);
    // Round the whole dialog with Tab: the focus never leaves it, and comes back to the name.
    await tabTo('Name', (f) => expect(f.inDialog, `"${f.name}" is outside the dialog`).toBe(true));
    await tabTo('Root folder');
    await page.keyboard.type(root);
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);
    // The welcome screen that held the opener made way for the dashboard: the focus is on its content, not lost.
    await page.waitForURL(/\/dashboard/);
    await expect.poll(async () => (await focused()).tag, { timeout: 5_000 }).toBe('main');

    const nav = page.getByRole('navigation', { name: 'Navigation' });
    await nav.getByRole('link', { name: LIBRARY }).waitFor();
    // Scan and analysis: both books are READY (asked the API, as any client would).
    await expect
      .poll(
        async () => {
          const res = await fetch(`${server.url}/api/v1/books?size=10`, { headers: { Authorization: basic } });
          const body = (await res.json()) as { content: { media: { status: string } }[] };
          return body.content.filter((b) => b.media.status === 'READY').length;
        },
        { timeout: 60_000 },
      )
      .toBe(2);
  });

  it("opens the library, the series and its first book's reader, and reads two pages", async () => {
    const ring = await tabTo(LIBRARY);
    expectRing(ring);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: LIBRARY }).waitFor();
    // On through the rest of the drawer to the library's content: the series' link.
    await tabTo('Lantern');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Lantern' }).waitFor();

    await tabTo('Read');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/book\/[^/]+\/read/);
    const shownWidth = () =>
      page.evaluate(() => {
        const img = document.querySelector<HTMLImageElement>('[data-current] img');
        return img?.complete && img.naturalWidth ? img.naturalWidth : 0;
      });
    await expect.poll(shownWidth, { timeout: 10_000 }).toBe(pageWidth(1));
    await page.keyboard.press('ArrowRight');
    await expect.poll(shownWidth).toBe(pageWidth(2));
    await page.keyboard.press('ArrowRight');
    await expect.poll(shownWidth).toBe(pageWidth(3));
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('3');

    expect(await page.evaluate(() => (window as unknown as { pointerEvents: number }).pointerEvents)).toBe(0);
  });
});

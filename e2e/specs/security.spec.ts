import { copyFile, mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { fixture } from '../../packages/server/test/support/fixtures.js';
import { HOSTILE_CHAPTER_TEXT, hostileEpub } from '../../packages/server/test/support/hostile-epub.js';
import { makeImage, zipBuffer } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, logIn, newPage } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'admin-secret';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

/** Time given to a book's scripts to do their harm, had they run. */
const GRACE_MS = 1_500;

const FILES: Record<string, () => Promise<Buffer> | Buffer | string> = {
  'Hostile/The Hostile Harbour.epub': () => hostileEpub(),
  'Novel/The Golden Harpoon.epub': () =>
    fixture('epub/The Golden Harpoon; Or, Lost Among the Floes A Story of the Whaling Grounds.epub'),
  'Comics/Comic 001.cbz': async () =>
    zipBuffer(
      await Promise.all(
        [1, 2, 3].map(async (n) => ({ name: `00${n}.jpg`, data: await makeImage('jpeg', n, 300, 450) })),
      ),
    ),
};

/**
 * The web client under its Content-Security-Policy, and an EPUB whose author tries every way to run a script
 * with the reader's session and create an administrator (packages/server/test/support/hostile-epub.ts): an
 * administrator opens its files directly and reads it in the web reader. Nothing of the book may reach the API,
 * the book must still read, and the rest of the client must work as before.
 */
describe('the web client under its security policy, and a hostile EPUB', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let root: string;
  const ids: Record<string, string> = {};
  /** Every request the browser made that tried to create a user. */
  const userCreations: string[] = [];
  /** What the browser refused because of a Content-Security-Policy. */
  const refusals: string[] = [];

  const users = async () =>
    (
      (await (await fetch(`${server.url}/api/v2/users`, { headers: { Authorization: basic } })).json()) as {
        email: string;
      }[]
    ).map((u) => u.email);

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    root = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-security-')));
    for (const [rel, make] of Object.entries(FILES)) {
      const path = join(root, rel);
      await mkdir(join(path, '..'), { recursive: true });
      const made = await make();
      if (typeof made === 'string') await copyFile(made, path);
      else await writeFile(path, made);
    }
    const created = await fetch(`${server.url}/api/v1/libraries`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Security', root }),
    });
    expect(created.status).toBe(200);

    // Scanned and analysed (read from the server's database, read-only).
    const readyCount = () => {
      try {
        const d = new Database(join(server.dataDir, 'database.sqlite'), { readonly: true, fileMustExist: true });
        try {
          const rows = d
            .prepare(`SELECT b.id, b.name, m.status FROM book b JOIN media m ON m.book_id = b.id`)
            .all() as {
            id: string;
            name: string;
            status: string;
          }[];
          for (const row of rows) ids[row.name] = row.id;
          return rows.filter((r) => r.status === 'READY').length;
        } finally {
          d.close();
        }
      } catch {
        return 0;
      }
    };
    const deadline = Date.now() + 60_000;
    while (readyCount() < Object.keys(FILES).length) {
      if (Date.now() > deadline) throw new Error(`books not analysed: ${JSON.stringify(ids)}`);
      await new Promise((r) => setTimeout(r, 250));
    }

    browser = await connectBrowser();
    ({ context, page } = await newPage(browser));
    context.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname.endsWith('/api/v2/users')) {
        userCreations.push(`${req.frame().url()} → ${req.url()}`);
      }
    });
    context.on('console', (msg) => {
      if (/Content.Security.Policy/i.test(msg.text())) refusals.push(msg.text());
    });
    // Through the login page.
    await logIn(page, server.url, EMAIL, PASSWORD);
  });
  beforeEach(() => {
    userCreations.length = 0;
  });
  cleanUpAfterSpec('security', () => ({ browser, page, server, dirs: [root] }));

  it('logs in, shows posters, reads a comic and an EPUB in a server font and the night theme: nothing refused', async () => {
    // Posters on the dashboard.
    const posters = () =>
      page.evaluate(
        () =>
          [...document.querySelectorAll<HTMLImageElement>('img[src*="/thumbnail"]')].filter(
            (img) => img.complete && img.naturalWidth > 0,
          ).length,
      );
    await expect.poll(posters, { timeout: 30_000 }).toBeGreaterThan(0);

    // The comic reader.
    await page.goto(`${server.url}/book/${ids['Comic 001']}/read?page=1&incognito=true`);
    const shown = () =>
      page.evaluate(() => document.querySelector<HTMLImageElement>('[data-current] img')?.naturalWidth ?? 0);
    await expect.poll(shown, { timeout: 20_000 }).toBe(300);

    // The EPUB reader, in OpenDyslexic (a family the server serves from /api/v1/fonts) and the night theme.
    await page.evaluate(() =>
      localStorage.setItem(
        'quire.preferences',
        JSON.stringify({ epubreader: { fontFamily: 'OpenDyslexic', appearance: 'night' } }),
      ),
    );
    await page.goto(`${server.url}/book/${ids['The Golden Harpoon']}/read-epub?incognito=true`);
    const footer = page.getByTestId('epub-footer').getByText(/^Page \d+ of \d+/);
    await footer.waitFor({ timeout: 20_000 });
    const frameState = async () => {
      for (const frame of page.frames()) {
        const state = await frame
          .evaluate(async () => {
            const p = document.querySelector('body p');
            if (!p || document.visibilityState === 'hidden') return null;
            await document.fonts.ready;
            return {
              font: [...document.fonts].some((f) => f.family.includes('OpenDyslexic') && f.status === 'loaded'),
              background: getComputedStyle(document.documentElement).backgroundColor,
            };
          })
          .catch(() => null);
        if (state?.font) return state;
      }
      return null;
    };
    await expect.poll(frameState, { timeout: 10_000 }).toMatchObject({ font: true });
    expect((await frameState())?.background).toMatch(/^rgb\((\d), (\d), (\d)\)$/);
    const before = await footer.textContent();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => footer.textContent(), { timeout: 10_000 }).not.toBe(before);

    // And back to the dashboard and the server settings.
    await page.goto(`${server.url}/settings/server`);
    await page
      .getByRole('heading', { name: /server/i })
      .first()
      .waitFor();
    expect(refusals).toEqual([]);
  });

  it("opening the book's chapter and SVG directly runs none of their scripts", async () => {
    const open = async (file: string) => {
      const res = await page.goto(`${server.url}/api/v1/books/${ids['The Hostile Harbour']}/resource/${file}`);
      expect(res?.status()).toBe(200);
      await page.waitForTimeout(GRACE_MS);
    };
    await open('OEBPS/chapter1.xhtml');
    // Still readable as a page of its own.
    expect(await page.evaluate(() => document.body.textContent)).toContain(HOSTILE_CHAPTER_TEXT);
    await open('OEBPS/images/evil.svg');
    expect(userCreations).toEqual([]);
    expect(await users()).toEqual([EMAIL]);
  });

  it('the web reader shows the book and turns its pages, and none of its scripts runs', async () => {
    const earlier = refusals.length;
    await page.goto(`${server.url}/book/${ids['The Hostile Harbour']}/read-epub`);
    const footer = page.getByTestId('epub-footer').getByText(/^Page \d+ of \d+/);
    await footer.waitFor({ timeout: 20_000 });
    // The chapter is on screen, styled by the book's stylesheet.
    const chapter = async (): Promise<Frame | undefined> => {
      for (const frame of page.frames()) {
        const found = await frame
          .evaluate((text) => document.body?.textContent?.includes(text) ?? false, HOSTILE_CHAPTER_TEXT)
          .catch(() => false);
        if (found) return frame;
      }
      return undefined;
    };
    await expect.poll(async () => (await chapter()) !== undefined, { timeout: 10_000 }).toBe(true);
    const frame = (await chapter())!;
    expect(await frame.evaluate(() => getComputedStyle(document.querySelector('p.first')!).fontWeight)).toBe('700');

    // The javascript: link, clicked.
    await frame.locator('#evil-link').click();
    // Pages turn, with the keyboard and with a click on the right of the page (which goes through the
    // navigator's own script in the book's frame).
    const first = await footer.textContent();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => footer.textContent(), { timeout: 10_000 }).not.toBe(first);
    const second = await footer.textContent();
    const area = (await page.getByTestId('epub-reader').boundingBox())!;
    await page.mouse.click(area.x + area.width * 0.9, area.y + area.height / 2);
    await expect.poll(() => footer.textContent(), { timeout: 10_000 }).not.toBe(second);
    await page.waitForTimeout(GRACE_MS);

    expect(userCreations).toEqual([]);
    expect((await users()).filter((u) => u.endsWith('@evil.example'))).toEqual([]);
    // The browser refused the book's scripts (rather than them failing for another reason).
    const refused = refusals.slice(earlier).join('\n');
    expect(refused).toMatch(/Executing inline script/);
    expect(refused).toMatch(/Executing inline event handler/);
    expect(refused).toMatch(/Loading the script '[^']*\/evil\.js'/);
  });
});

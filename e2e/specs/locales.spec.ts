import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { makeImage, zipBuffer } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, signIn, newPage } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { repoRoot, startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'admin-secret';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

/** A string of a language's locale file, as the user sees it. */
function text(locale: string, ns: string, path: string): string {
  const file = join(repoRoot, 'packages/web/src/i18n/locales', locale, `${ns}.json`);
  let value: unknown = JSON.parse(readFileSync(file, 'utf8'));
  for (const key of path.split('.')) value = (value as Record<string, unknown>)[key];
  return value as string;
}

/** The locale chunks a page fetched (`locale-<code>-<hash>.js`, the hash 8 characters that may hold a '-'). */
function watchLocaleChunks(page: Page): string[] {
  const chunks: string[] = [];
  page.on('request', (r) => {
    const match = /\/locale-([A-Za-z-]+)-[\w-]{8}\.js$/.exec(new URL(r.url()).pathname);
    if (match) chunks.push(match[1]!);
  });
  return chunks;
}

describe('locales: the browser language on a first visit, the user language everywhere, right to left', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let libraryRoot: string;
  let bookId: string;
  let bookUrl: string;

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    // A Latin-script path, which must read left to right inside Hebrew text.
    libraryRoot = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-locales-')));
    await mkdir(join(libraryRoot, 'Captain Science'));
    const pages = [];
    for (let i = 0; i < 3; i++) pages.push({ name: `${i + 1}.jpg`, data: await makeImage('jpeg', i + 1, 90, 130) });
    await writeFile(join(libraryRoot, 'Captain Science', 'Captain Science #001.cbz'), zipBuffer(pages));
    const created = await fetch(`${server.url}/api/v1/libraries`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Locales', root: libraryRoot }),
    });
    expect(created.status).toBe(200);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await fetch(`${server.url}/api/v1/books?unpaged=true`, { headers: { Authorization: basic } });
      const book = ((await res.json()) as { content: { id: string; url: string; media: { status: string } }[] })
        .content[0];
      if (book?.media.status === 'READY') {
        bookId = book.id;
        bookUrl = book.url;
        break;
      }
      if (Date.now() > deadline) throw new Error(`library not analysed in 30 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    browser = await connectBrowser();
  });
  cleanUpAfterSpec('locales', () => ({ browser, page, server, dirs: [libraryRoot] }));

  it('shows an English browser the login in English, with no language fetched beyond the main bundle', async () => {
    const visitor = await newPage(browser, { languages: ['en-US', 'en'] });
    try {
      const chunks = watchLocaleChunks(visitor.page);
      await visitor.page.goto(server.url);
      await visitor.page.getByRole('button', { name: 'Log in' }).waitFor();
      expect(await visitor.page.locator('html').getAttribute('lang')).toBe('en');
      expect(chunks).toEqual([]);
    } finally {
      await visitor.context.close();
    }
  });

  it('lands a first visit with Accept-Language pt-BR,pt in Brazilian Portuguese, fetching that language alone', async () => {
    const visitor = await newPage(browser, { languages: ['pt-BR', 'pt'] });
    try {
      const chunks = watchLocaleChunks(visitor.page);
      await visitor.page.goto(server.url);
      await visitor.page.getByRole('button', { name: text('pt-BR', 'auth', 'login') }).waitFor();
      expect(await visitor.page.locator('html').getAttribute('lang')).toBe('pt-BR');
      expect(await visitor.page.locator('html').getAttribute('dir')).toBe('ltr');
      // The language selector shows the language under its own name.
      const select = visitor.page.getByRole('combobox', { name: text('pt-BR', 'common', 'language') });
      expect(await select.locator('option:checked').textContent()).toBe('Português (Brasil)');
      expect(chunks).toEqual(['pt-BR']);
    } finally {
      await visitor.context.close();
    }
  });

  it('switches to Hebrew: the layout mirrors and a file path reads in order', async () => {
    ({ page } = await newPage(browser, { languages: ['en-US'] }));
    await signIn(page, server.url, EMAIL, PASSWORD);
    const nav = page.getByRole('navigation', { name: 'Navigation' });
    await nav.waitFor();
    const ltrNav = (await nav.boundingBox())!;
    expect(ltrNav.x).toBeLessThan(100);

    await page.getByRole('combobox', { name: 'Language' }).selectOption('he');
    await expect.poll(() => page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.locator('html').getAttribute('lang')).toBe('he');
    const heNav = page.getByRole('navigation', { name: text('he', 'nav', 'navigation') });
    await heNav.waitFor();
    // The drawer moved to the right edge.
    const rtlNav = (await heNav.boundingBox())!;
    expect(rtlNav.x + rtlNav.width).toBeGreaterThan(1280 - 5);

    await page.goto(`${server.url}/book/${bookId}`);
    const path = page.locator('bdi', { hasText: 'Captain Science #001.cbz' });
    await path.waitFor();
    expect(await path.textContent()).toBe(bookUrl);
    // Where the first and the last characters of the path are drawn: the first on the left, as in any language.
    const [first, last] = await path.evaluate((el) => {
      const node = el.firstChild!;
      const at = (i: number) => {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        return range.getBoundingClientRect().left;
      };
      return [at(0), at(node.textContent!.length - 1)];
    });
    expect(first).toBeLessThan(last);
    // The size is the browser's Hebrew formatting, not the server's English "KiB".
    const size = page.locator('bdi', { hasText: /\d/ }).filter({ hasNotText: '/' }).first();
    expect(await size.textContent()).not.toMatch(/KiB|MiB/);
  });

  it('follows the user to another browser, whatever its own language', async () => {
    const elsewhere = await newPage(browser, { languages: ['en-US'] });
    try {
      await elsewhere.page.goto(server.url);
      await elsewhere.page.getByRole('textbox', { name: 'Email' }).fill(EMAIL);
      await elsewhere.page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
      await elsewhere.page.getByRole('button', { name: 'Log in' }).click();
      await expect.poll(() => elsewhere.page.locator('html').getAttribute('lang')).toBe('he');
      expect(await elsewhere.page.locator('html').getAttribute('dir')).toBe('rtl');
    } finally {
      await elsewhere.context.close();
    }
  });
});

import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { makeImage, zipBuffer } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, signIn, newPage } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'admin-secret';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;
const BOOKS = 3;

interface BookJson {
  id: string;
  name: string;
  media: { status: string; pagesCount: number };
}

/*
 * Issue 14 in the browser: three books end with the same credits page. From the new duplicates tab the administrator
 * marks it for manual deletion, deletes its matches from the known tab, and sees each book lose a page and the
 * removal in the history.
 */
describe('duplicate pages: mark a shared page for manual deletion, delete its matches, see it in the history', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let root: string;
  let libraryId: string;

  const api = async <T>(path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { Authorization: basic } });
    return (await res.json()) as T;
  };
  const books = async () =>
    (await api<{ content: BookJson[] }>(`/api/v1/books?library_id=${libraryId}&unpaged=true&sort=name,asc`)).content;
  const main = () => page.getByRole('main');

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    root = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-duplicate-pages-')));
    await mkdir(join(root, 'Series'), { recursive: true });
    const credits = await makeImage('png', 77, 120, 180);
    for (let b = 1; b <= BOOKS; b++) {
      const entries = [];
      for (let p = 1; p <= 3; p++)
        entries.push({ name: `00${p}.jpg`, data: await makeImage('jpeg', b * 10 + p, 90, 130) });
      entries.push({ name: 'zz-credits.png', data: credits });
      await writeFile(join(root, 'Series', `Book ${b}.cbz`), zipBuffer(entries));
    }
    const created = await fetch(`${server.url}/api/v1/libraries`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'E2E Duplicates', root, hashPages: true }),
    });
    expect(created.status).toBe(200);
    libraryId = ((await created.json()) as { id: string }).id;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const unknown = await api<{ totalElements: number }>('/api/v1/page-hashes/unknown');
      if (unknown.totalElements === 1) break;
      if (Date.now() > deadline) throw new Error(`pages not hashed in 60 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
  });
  cleanUpAfterSpec('duplicate-pages', () => ({ browser, page, server, dirs: [root] }));

  it('logs in', async () => {
    await signIn(page, server.url, EMAIL, PASSWORD);
  });

  it('shows the shared page as a new duplicate, and marking it for manual deletion takes it off the list', async () => {
    await page.goto(`${server.url}/media-management/duplicate-pages`);
    await page.waitForURL((u) => u.pathname === '/media-management/duplicate-pages/unknown');
    await main().getByText('Deleting duplicate pages will modify your files', { exact: false }).waitFor();
    const card = main().locator('[aria-label^="Duplicate page "]').first();
    await card.getByRole('button', { name: '3 matches' }).waitFor();
    await card.getByRole('img', { name: /^Duplicate page / }).waitFor();

    // The matches table lists the three books' last page.
    await card.getByRole('button', { name: '3 matches' }).click();
    const matches = page.getByRole('dialog', { name: 'Pages holding this image' });
    await expect.poll(() => matches.getByRole('row').filter({ hasText: 'zz-credits.png' }).count()).toBe(BOOKS);
    await matches.getByRole('button', { name: 'Close' }).click();

    await card.getByRole('button', { name: 'Manual delete' }).click();
    await main().getByText('No duplicate pages found').waitFor({ timeout: 15_000 });
  });

  it('deletes the matches from the known tab: every book loses its credits page, and the history shows it', async () => {
    await main().getByRole('tab', { name: 'Duplicate pages (known)' }).click();
    await page.waitForURL((u) => u.pathname === '/media-management/duplicate-pages/known');
    const card = main().locator('[aria-label^="Duplicate page "]').first();
    await card.getByText('Manual deletion').waitFor();
    await card.getByRole('button', { name: 'Delete matches' }).click();
    await expect.poll(() => card.getByRole('button', { name: 'Delete matches' }).isDisabled()).toBe(true);
    await expect
      .poll(async () => (await books()).map((b) => b.media.pagesCount), { timeout: 30_000 })
      .toEqual([3, 3, 3]);

    await page.reload();
    await card.getByText('Deleted 3 times').waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: '0 matches' }).waitFor();

    const first = (await books())[0]!;
    await page.goto(`${server.url}/book/${first.id}`);
    await main().getByText('3 pages').waitFor({ timeout: 15_000 });

    await page.goto(`${server.url}/history`);
    const rows = main().getByRole('row').filter({ hasText: 'Duplicate page deleted' });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(BOOKS);
    await rows
      .filter({ has: page.getByRole('link', { name: 'Book 1', exact: true }) })
      .getByRole('button', { name: 'Details of this event: Duplicate page deleted' })
      .click();
    const details = page.getByRole('dialog', { name: 'Duplicate page deleted' });
    await details.getByText('zz-credits.png').waitFor();
    await details.getByText(join(root, 'Series', 'Book 1.cbz')).waitFor();
  });
});

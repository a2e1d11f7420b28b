import { existsSync } from 'node:fs';
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

interface BookJson {
  id: string;
  name: string;
  media: { status: string; comment: string };
  deleted: boolean;
}

const comic = async (seed: number) =>
  zipBuffer([
    { name: '001.jpg', data: await makeImage('jpeg', seed, 90, 130) },
    { name: '002.jpg', data: await makeImage('jpeg', seed + 1, 90, 130) },
  ]);

describe('media management: re-analyse a broken book, delete a duplicate file, see it in the history', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let root: string;
  let libraryId: string;

  const books = async () => {
    const res = await fetch(`${server.url}/api/v1/books?library_id=${libraryId}&unpaged=true&sort=name,asc`, {
      headers: { Authorization: basic },
    });
    return ((await res.json()) as { content: BookJson[] }).content;
  };
  const bookNamed = async (name: string) => (await books()).find((b) => b.name === name)!;
  const main = () => page.getByRole('main');

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    root = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-media-')));
    await mkdir(join(root, 'Broken'), { recursive: true });
    await mkdir(join(root, 'Twins'), { recursive: true });
    // An archive without a single image: analysed as ERROR ERR_1006 (no pages).
    await writeFile(
      join(root, 'Broken', 'Broken 001.cbz'),
      zipBuffer([{ name: 'notes.txt', data: Buffer.from('no pages') }]),
    );
    const twin = await comic(1);
    await writeFile(join(root, 'Twins', 'Twin A.cbz'), twin);
    await writeFile(join(root, 'Twins', 'Twin B.cbz'), twin);
    const created = await fetch(`${server.url}/api/v1/libraries`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'E2E Media', root, hashFiles: true }),
    });
    expect(created.status).toBe(200);
    libraryId = ((await created.json()) as { id: string }).id;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const list = await books();
      const overview = await fetch(`${server.url}/api/v1/tasks/overview`, { headers: { Authorization: basic } });
      const { queued, running } = (await overview.json()) as { queued: number; running: number };
      if (list.length === 3 && list.every((b) => b.media.status !== 'UNKNOWN') && queued + running === 0) break;
      if (Date.now() > deadline) throw new Error(`library not analysed in 60 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect((await bookNamed('Broken 001')).media).toMatchObject({ status: 'ERROR', comment: 'ERR_1006' });
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
  });
  cleanUpAfterSpec('media-management', () => ({ browser, page, server, dirs: [root] }));

  it('logs in', async () => {
    await signIn(page, server.url, EMAIL, PASSWORD);
  });

  it('lists the broken book with its reason, and analysing it again after a fix takes it off the list', async () => {
    await page.goto(`${server.url}/media-management`);
    await page.waitForURL((u) => u.pathname === '/media-management/analysis');
    const row = main().getByRole('row').filter({ hasText: 'Broken 001' });
    await row.getByText('The book does not contain any page').waitFor();
    await row.getByText('Error', { exact: true }).waitFor();

    // The file is repaired on disk; analysing it again from the screen makes it READY, and it leaves the list.
    await writeFile(join(root, 'Broken', 'Broken 001.cbz'), await comic(10));
    await row.getByRole('button', { name: 'Analyze Broken 001 again' }).click();
    await page.getByText('Analysis queued for 1 book').waitFor();
    await expect.poll(async () => (await bookNamed('Broken 001')).media.status, { timeout: 30_000 }).toBe('READY');
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    await main().getByText('No book to check.').waitFor();
  });

  it('deletes one of two duplicate files after confirming, and the history shows it', async () => {
    await main().getByRole('tab', { name: 'Duplicate files' }).click();
    await page.waitForURL((u) => u.pathname === '/media-management/duplicate-files');
    await expect
      .poll(
        () =>
          main()
            .getByText(/^Hash /)
            .count(),
        { timeout: 15_000 },
      )
      .toBe(1);
    await main().getByRole('button', { name: 'Delete the file of Twin B' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const file = join(root, 'Twins', 'Twin B.cbz');
    await expect.poll(() => existsSync(file), { timeout: 15_000 }).toBe(false);
    expect(existsSync(join(root, 'Twins', 'Twin A.cbz'))).toBe(true);
    // Alone now, Twin A is no duplicate any more.
    await main().getByText('No duplicate files found.').waitFor({ timeout: 15_000 });

    await page.goto(`${server.url}/history`);
    const row = main().getByRole('row').filter({ hasText: 'Book file deleted' });
    await row.getByRole('link', { name: 'Twin B' }).waitFor();
    await row.getByRole('link', { name: 'Twins' }).waitFor();
    await row.getByRole('button', { name: 'Details of this event: Book file deleted' }).click();
    const details = page.getByRole('dialog', { name: 'Book file deleted' });
    await details.getByText(file).waitFor();
    await details.getByText('File was deleted by user request').waitFor();
  });
});

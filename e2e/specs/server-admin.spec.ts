import { once } from 'node:events';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { makeImage, zipBuffer } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, signIn, newPage } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { repoRoot, startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'admin-secret';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

/** A cover with sharp black and white stripes and a title, so that a blur shows on the screenshot. */
const cover = (title: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="424">
        <rect width="300" height="424" fill="#fff"/>
        ${Array.from({ length: 14 }, (_, i) => `<rect y="${i * 30}" width="300" height="12" fill="#000"/>`).join('')}
        <rect x="20" y="170" width="260" height="80" fill="#fff"/>
        <text x="150" y="225" font-size="44" text-anchor="middle" fill="#c00">${title}</text>
      </svg>`,
    ),
  )
    .jpeg()
    .toBuffer();

const comic = async (title: string, seed: number) =>
  zipBuffer([
    { name: '001.jpg', data: await cover(title) },
    { name: '002.jpg', data: await makeImage('jpeg', seed, 90, 130) },
  ]);

/** The computed CSS `filter` of the poster image on the card titled `title`. */
const posterFilter = (main: Locator, title: string) =>
  main
    .getByTestId('item-card')
    .filter({ has: main.page().getByRole('link', { name: title, exact: true }) })
    .locator('img')
    .first()
    .evaluate((img) => getComputedStyle(img).filter);

describe('server administration: blur unread posters, download the log, shut the server down', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let root: string;
  let libraryId: string;
  const main = () => page.getByRole('main');
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { Authorization: basic, 'Content-Type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    root = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-server-admin-')));
    await mkdir(join(root, 'Saga'), { recursive: true });
    await writeFile(join(root, 'Saga', 'Saga 001.cbz'), await comic('ONE', 1));
    await writeFile(join(root, 'Saga', 'Saga 002.cbz'), await comic('TWO', 5));
    const created = await api('/api/v1/libraries', { method: 'POST', body: JSON.stringify({ name: 'E2E', root }) });
    expect(created.status).toBe(200);
    libraryId = ((await created.json()) as { id: string }).id;
    const deadline = Date.now() + 60_000;
    let books: { id: string; name: string; media: { status: string } }[] = [];
    for (;;) {
      const res = await api(`/api/v1/books?library_id=${libraryId}&unpaged=true`);
      books = ((await res.json()) as { content: typeof books }).content;
      if (books.length === 2 && books.every((b) => b.media.status === 'READY')) break;
      if (Date.now() > deadline) throw new Error(`library not analysed in 60 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // One book read, one not.
    const read = books.find((b) => b.name === 'Saga 001')!;
    const progress = await api(`/api/v1/books/${read.id}/read-progress`, {
      method: 'PATCH',
      body: JSON.stringify({ completed: true }),
    });
    expect(progress.status).toBe(204);
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
  });
  cleanUpAfterSpec('server-admin', () => ({ browser, page, server, dirs: [root] }));

  it('logs in', async () => {
    await signIn(page, server.url, EMAIL, PASSWORD);
  });

  it('blurs the poster of the unread book once the user asks for it, and not the read one', async () => {
    await page.goto(`${server.url}/libraries/${libraryId}/books`);
    await main().getByRole('link', { name: '2 - Saga 002', exact: true }).waitFor();
    expect(await posterFilter(main(), '2 - Saga 002')).toBe('none');

    await page.goto(`${server.url}/account/settings-ui`);
    await main().getByRole('switch', { name: 'Blur the posters of unread books and series' }).check();
    await main().getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Settings saved').waitFor();

    await page.goto(`${server.url}/libraries/${libraryId}/books`);
    await main().getByRole('link', { name: '2 - Saga 002', exact: true }).waitFor();
    await expect.poll(() => posterFilter(main(), '2 - Saga 002')).toBe('blur(5px)');
    expect(await posterFilter(main(), '1 - Saga 001')).toBe('none');
    await page.screenshot({ path: join(repoRoot, 'e2e/artifacts/server-admin-blurred-poster.png') });
    // Stored under the reference's key, as the user's own setting.
    const settings = await (await api('/api/v1/client-settings/user/list')).json();
    expect(settings).toEqual({
      'webui.poster.stretch': { value: 'false' },
      'webui.poster.blur_unread': { value: 'true' },
    });
  });

  it('downloads the log file as komga.log with the session', async () => {
    await page.goto(`${server.url}/settings/server`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main().getByRole('link', { name: 'Download log file' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('komga.log');
    // Read through the connection (download.path() is the browser's side: the run's one Chromium is connected to).
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text).toContain('Quire listening on');
  });

  it('stops the server from the confirmation dialog: the process exits with code 0, its database sound', async () => {
    await page.goto(`${server.url}/settings/server`);
    await main().getByRole('button', { name: 'Stop server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop the server?' });
    await dialog.getByRole('button', { name: 'Stop server' }).click();
    await main().getByText('The server is shutting down.').waitFor();
    if (server.process.exitCode === null) await once(server.process, 'exit');
    expect(server.process.exitCode).toBe(0);
    expect(server.output()).toContain('Quire is shutting down');
    const db = new Database(join(server.dataDir, 'database.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('SELECT count(*) FROM book').pluck().get()).toBe(2);
    } finally {
      db.close();
    }
  });
});

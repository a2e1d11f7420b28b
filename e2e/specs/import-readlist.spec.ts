import { readFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixture } from '../../packages/server/test/support/fixtures.js';
import { buildLibrary, type CbzOptions } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, signIn, newPage } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'admin-secret';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;
/** A real ComicRack list, read in place: 15 books over three series, numbers without leading zeros. */
const LIST = fixture('cbl/[Spider-Man] 69 - Secret Empire.cbl');
/** The list's third book (Free Comic Book Day 2017) is left out of the library: its row finds no series. */
const MISSING = 3;

interface Requested {
  position: number;
  series: string;
  number: string;
  volume: string;
}

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The books the list asks for, read here on their own so the test does not trust the server's parser. */
function requestedBooks(xml: string): Requested[] {
  const books = [...xml.matchAll(/<Book Series="([^"]*)" Number="([^"]*)" Volume="([^"]*)"/g)];
  return books.map((m, i) => ({ position: i + 1, series: unescape(m[1]!), number: m[2]!, volume: m[3]! }));
}

/*
 * Issue 15 in the browser: a library of generated books named after a real ComicRack list, minus one. The
 * administrator uploads the .cbl on /import/readlist, sees the one unmatched book, creates the list anyway and
 * lands on the new read list, whose books follow the list's order.
 */
describe('read list import: a real .cbl with one book missing becomes a read list in its order', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let root: string;
  const requested = requestedBooks(readFileSync(LIST, 'utf8'));
  const present = requested.filter((r) => r.position !== MISSING);
  const main = () => page.getByRole('main');

  beforeAll(async () => {
    expect(requested).toHaveLength(15);
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    root = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-import-readlist-')));
    // Series folders are named `Series (Volume)`, the name a request is tried under first; numbers get leading
    // zeros, which matching ignores; each title says the book's place in the list.
    const files: Record<string, CbzOptions> = {};
    for (const r of present) {
      const folder = `${r.series} (${r.volume})`;
      const number = r.number.padStart(3, '0');
      files[`${folder}/${folder} ${number}.cbz`] = {
        pages: 1,
        seed: r.position,
        comicInfo: `<?xml version="1.0"?><ComicInfo><Number>${number}</Number><Title>Part ${r.position}</Title></ComicInfo>`,
      };
    }
    await buildLibrary(root, files);
    const created = await fetch(`${server.url}/api/v1/libraries`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'E2E Comics', root }),
    });
    expect(created.status).toBe(200);
    // Ready when every book carries its ComicInfo title.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await fetch(`${server.url}/api/v1/books?unpaged=true`, { headers: { Authorization: basic } });
      const books = ((await res.json()) as { content: { metadata: { title: string } }[] }).content;
      if (books.length === present.length && books.every((b) => b.metadata.title.startsWith('Part '))) break;
      if (Date.now() > deadline) throw new Error(`library not ready in 60 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
  });
  cleanUpAfterSpec('import-readlist', () => ({ browser, page, server, dirs: [root] }));

  it('logs in and opens Import > Read list from the drawer', async () => {
    await signIn(page, server.url, EMAIL, PASSWORD);
    await page.getByRole('navigation').getByRole('link', { name: 'Read list', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/import/readlist');
    await main().getByRole('heading', { name: 'Import read list' }).waitFor();
  });

  it('uploads the list and sees every book matched but the missing one', async () => {
    await main().locator('input[type="file"]').setInputFiles(LIST);
    await main().getByText('[Spider-Man] 69 - Secret Empire.cbl').waitFor();
    await main().getByRole('button', { name: 'Match' }).click();
    const rows = main().getByRole('row', { name: /^Row \d+:/ });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(requested.length);
    const missing = main().getByRole('row', { name: new RegExp(`^Row ${MISSING}:`) });
    await missing.getByRole('img', { name: 'Choose a series' }).waitFor();
    await main().getByRole('button', { name: 'Error (1)' }).waitFor();
    await main()
      .getByRole('button', { name: `OK (${present.length})` })
      .waitFor();
    const first = main().getByRole('row', { name: /^Row 1:/ });
    expect(await first.getByRole('button', { name: /^Book of row 1:/ }).textContent()).toBe('000 - Part 1');
    expect(await main().getByRole('textbox', { name: 'Name' }).inputValue()).toBe('[Spider-Man] 69 - Secret Empire');
  });

  it('confirms the unmatched book, creates the list anyway, and opens it from the toast', async () => {
    await main().getByRole('button', { name: 'Create', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Create the read list?' });
    await confirm.getByText(`1 / ${requested.length} books are unmatched`).waitFor();
    await confirm.getByRole('button', { name: 'Create anyway' }).click();
    await page.getByText('Read List created: [Spider-Man] 69 - Secret Empire').waitFor();
    await page.getByRole('button', { name: 'Go to read list' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/readlists/'));
    await main().getByRole('heading', { name: '[Spider-Man] 69 - Secret Empire' }).waitFor();
    const cards = main().getByTestId('item-card');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(present.length);
    const order = (await cards.allInnerTexts()).map((text) => Number(/ - Part (\d+)/.exec(text)?.[1]));
    expect(order).toEqual(present.map((r) => r.position));
  });
});

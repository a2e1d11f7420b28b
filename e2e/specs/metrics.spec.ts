import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildLibrary, makeImage } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, signIn, newPage, screenshot } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'admin-secret';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

/** The page's size format for small files (formatFileSize: bytes, then kB of 1000 bytes without decimals). */
const size = (bytes: number) =>
  bytes < 1000
    ? new Intl.NumberFormat('en', { style: 'unit', unit: 'byte' }).format(bytes)
    : new Intl.NumberFormat('en', { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }).format(bytes / 1000);

describe('metrics: the charts of two real libraries, in light and dark theme', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let root: string;
  const sizes: Record<string, number> = {};

  const api = async <T>(path: string, init: RequestInit = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
    });
    expect(res.status, `${path}: ${res.status}`).toBeLessThan(300);
    return (await res.json()) as T;
  };
  const card = (name: string) => page.getByRole('main').getByRole('region', { name });
  const rows = (name: string) =>
    card(name)
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)));

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    root = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-metrics-')));
    // Comics: two series, three books and a series cover (a sidecar); Manga: one book.
    await buildLibrary(join(root, 'comics'), {
      'Saga/Saga 01.cbz': { pages: 3, seed: 1 },
      'Saga/Saga 02.cbz': { pages: 4, seed: 2 },
      'Saga/cover.jpg': await makeImage('jpeg', 9),
      'Rat Queens/Rat Queens 01.cbz': { pages: 5, seed: 3 },
    });
    await buildLibrary(join(root, 'manga'), { 'Berserk/Berserk 01.cbz': { pages: 2, seed: 4 } });
    for (const name of ['Comics', 'Manga']) {
      const { id } = await api<{ id: string }>('/api/v1/libraries', {
        method: 'POST',
        body: JSON.stringify({ name, root: join(root, name.toLowerCase()) }),
      });
      sizes[name] = 0;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const books = await api<{ content: { sizeBytes: number; media: { status: string } }[] }>(
          `/api/v1/books?library_id=${id}&unpaged=true`,
        );
        const overview = await api<{ queued: number; running: number }>('/api/v1/tasks/overview');
        const expected = name === 'Comics' ? 3 : 1;
        if (books.content.length === expected && overview.queued + overview.running === 0) {
          sizes[name] = books.content.reduce((n, b) => n + b.sizeBytes, 0);
          break;
        }
        if (Date.now() > deadline) throw new Error(`library not scanned in 60 s:\n${server.output()}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    browser = await connectBrowser();
    ({ page } = await newPage(browser, { viewport: { width: 1280, height: 1400 } }));
    await page.emulateMedia({ colorScheme: 'light' });
  });
  cleanUpAfterSpec('metrics', () => ({ browser, page, server, dirs: [root] }));

  it('opens from the drawer', async () => {
    await signIn(page, server.url, EMAIL, PASSWORD);
    await page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: 'Metrics' }).click();
    await page.waitForURL((u) => u.pathname === '/settings/metrics');
    await page.getByRole('heading', { name: 'Metrics', level: 1 }).waitFor();
  });

  it('charts the tasks the scans ran, by type', async () => {
    await card('Tasks executed').getByRole('rowheader', { name: 'Scan library' }).waitFor();
    const executed = Object.fromEntries((await rows('Tasks executed')).map(([type, count]) => [type, count]));
    expect(executed).toMatchObject({ 'Scan library': '2', 'Analyze book': '4' });
    const time = await rows('Tasks total time');
    expect(time.map(([type]) => type)).toEqual(expect.arrayContaining(['Scan library', 'Analyze book']));
    for (const [, seconds] of time) expect(seconds).toMatch(/^\d+(\.\d)? sec$/);
  });

  it('shows the figures of all libraries and a donut per library metric, with library names', async () => {
    await card('All libraries').getByRole('rowheader', { name: 'Sidecars' }).waitFor();
    expect(await rows('All libraries')).toEqual([
      ['Disk space', size(sizes.Comics! + sizes.Manga!)],
      ['Series', '3'],
      ['Books', '4'],
      ['Collections', '0'],
      ['Read lists', '0'],
      ['Sidecars', '1'],
    ]);
    await card('Books per library').getByRole('img', { name: 'Books per library: Comics 3, Manga 1' }).waitFor();
    expect(await rows('Books per library')).toEqual([
      ['Comics', '3', '75%'],
      ['Manga', '1', '25%'],
    ]);
    await card('Series per library').getByRole('img', { name: 'Series per library: Comics 2, Manga 1' }).waitFor();
    await card('Library disk space')
      .getByRole('img', {
        name: `Library disk space: Comics ${size(sizes.Comics!)}, Manga ${size(sizes.Manga!)}`,
      })
      .waitFor();
    // Only Comics has a sidecar: its donut is whole.
    expect(await rows('Sidecars per library')).toEqual([['Comics', '1', '100%']]);
    // One slice per library, in ui.md's palette.
    const fills = await card('Books per library')
      .locator('svg[role="img"] path')
      .evaluateAll((paths) => paths.map((p) => p.getAttribute('fill')));
    expect(fills).toEqual(['#7eb0d5', '#fd7f6f']);
    await screenshot(page, 'metrics-light');
  });

  it('follows the dark theme', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const barFill = () => card('Tasks executed').locator('tbody svg rect').first().getAttribute('fill');
    expect(await barFill()).toBe('#005ed3');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(barFill).toBe('#78baec');
    const [r, g, b] = (await background()).match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(3 * 60);
    await screenshot(page, 'metrics-dark');
  });

  it('speaks Arabic: translated cards, numbers in Arabic, bars growing from the right', async () => {
    await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
    await page.getByRole('heading', { name: 'المقاييس', level: 1 }).waitFor();
    const books = card('الكتب لكل مكتبة');
    // The digits are the browser's for Arabic, whichever its locale data chooses.
    const [three, one] = await page.evaluate(() => [3, 1].map((n) => new Intl.NumberFormat('ar').format(n)));
    await books.getByRole('img', { name: `الكتب لكل مكتبة: Comics ${three}, Manga ${one}` }).waitFor();
    const bar = card('المهام المنفّذة').locator('tbody svg').first();
    const [width, x, barWidth] = await bar.evaluate((svg) => {
      const rect = svg.querySelector('rect')!;
      return [Number(svg.getAttribute('width')), rect.x.baseVal.value, rect.width.baseVal.value];
    });
    expect(x + barWidth).toBe(width);
    await screenshot(page, 'metrics-dark-ar');
  });
});

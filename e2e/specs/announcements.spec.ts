import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  HOSTILE_ITEM,
  jsonFeed,
  startFeedServer,
  type FeedServer,
} from '../../packages/server/test/support/feed-server.js';
import { connectBrowser, signIn, newPage, screenshot } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'admin-secret';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

/** Time given to the item's script and handler to run, had they been let through. */
const GRACE_MS = 1_500;

/**
 * Announcements end to end: the built server fetches a feed from a server this test starts on loopback, and an
 * administrator reads it in Chromium. One item carries a `<script>` and an `onerror` handler: the item shows,
 * neither runs, and marking items read clears the drawer's unread count.
 */
describe('announcements', () => {
  let feed: FeedServer;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let failed = false;

  beforeAll(async () => {
    feed = await startFeedServer(
      jsonFeed([
        HOSTILE_ITEM,
        { id: 'welcome', title: 'Welcome to the news', content_html: '<p>Plain news.</p>', tags: [] },
      ]),
    );
    server = await startServer({ QUIRE_ANNOUNCEMENTS_URL: feed.url });
    await claimServer(server, EMAIL, PASSWORD);
    // The server fetches in the background at start-up.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await fetch(`${server.url}/api/v1/announcements`, { headers: { Authorization: basic } });
      const body = (await res.json()) as { items: unknown[] };
      if (body.items.length === 2) break;
      if (Date.now() > deadline) throw new Error(`feed not fetched:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
    await signIn(page, server.url, EMAIL, PASSWORD);
  });

  afterAll(async () => {
    if (failed && page) await screenshot(page, 'announcements');
    await browser?.close();
    await server?.stop();
    await feed?.close();
  });

  const drawerEntry = () => page.getByRole('navigation').getByRole('link', { name: /Announcements/ });

  it('shows the hostile item with its content and runs none of its code', async () => {
    try {
      await expect.poll(() => drawerEntry().textContent()).toContain('2 unread');
      await drawerEntry().click();
      await page.waitForURL(/\/settings\/announcements$/);
      const item = page.getByRole('article', { name: HOSTILE_ITEM.title });
      await item.locator('#hostile-text').waitFor();
      expect(await item.locator('#hostile-text').textContent()).toBe('Read the notes.');
      const link = item.getByRole('link', { name: 'notes' });
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await item.locator('script').count()).toBe(0);
      expect(await item.locator('img').getAttribute('onerror')).toBeNull();
      await page.waitForTimeout(GRACE_MS);
      const ran = await page.evaluate(() => {
        const w = window as unknown as Record<string, unknown>;
        return [w.__announcementScriptRan, w.__announcementHandlerRan];
      });
      expect(ran).toEqual([undefined, undefined]);
    } catch (err) {
      failed = true;
      throw err;
    }
  });

  it('marking read lowers the drawer’s count, and marking all clears it', async () => {
    try {
      const item = page.getByRole('article', { name: HOSTILE_ITEM.title });
      await item.getByRole('button', { name: 'Mark as read' }).click();
      await expect.poll(() => drawerEntry().textContent()).toContain('1 unread');
      expect(await item.getByRole('button', { name: 'Mark as read' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await expect.poll(() => drawerEntry().textContent()).toBe('Announcements');
      expect(await page.getByRole('button', { name: 'Mark all as read' }).count()).toBe(0);
      // Kept by the server: a reload shows the same.
      await page.reload();
      await page.getByRole('article', { name: 'Welcome to the news' }).waitFor();
      expect(await drawerEntry().textContent()).toBe('Announcements');
      expect(await page.getByRole('button', { name: 'Mark as read' }).count()).toBe(0);
    } catch (err) {
      failed = true;
      throw err;
    }
  });
});

import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connectBrowser, newPage } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { startServer, type RunningServer } from '../support/server.js';

const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

describe('foundation: claim, users, guards, password, theme, locale', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
  });
  cleanUpAfterSpec('foundation', () => ({ browser, page, server }));

  it('sends a visitor through startup to login, claims the server and comes back to the page asked for', async () => {
    await page.goto(`${server.url}/settings/users`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(page.url())).toContain('redirect=/settings/users');
    await page.getByRole('textbox', { name: 'Email' }).fill('admin@example.org');
    await page.getByRole('textbox', { name: 'Password' }).fill('admin-secret');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/settings\/users$/);
    await expect.poll(() => page.getByRole('listitem', { name: 'admin@example.org' }).count()).toBe(1);
    const claim = await fetch(`${server.url}/api/v1/claim`).then((r) => r.json());
    expect(claim).toEqual({ isClaimed: true });
  });

  it('offers an admin every administration screen, Kobo sync settings included', async () => {
    // A second tab of the same session, so that the next tests find the first one where they expect it.
    const tab = await page.context().newPage();
    try {
      await tab.goto(`${server.url}/welcome`);
      const nav = tab.getByRole('navigation', { name: 'Navigation' });
      await nav.getByRole('link', { name: 'Users' }).waitFor();
      const hrefs = await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs).toContain('/settings/users');
      expect(hrefs).toEqual(
        expect.arrayContaining([
          '/history',
          '/media-management',
          '/settings/tasks',
          '/settings/metrics',
          '/settings/ui',
          '/settings/announcements',
          '/settings/updates',
          '/import/books',
          '/import/readlist',
        ]),
      );

      // The Kobo sync settings: kepubify is picked with the server's file browser (any file will do here), and
      // saving sends them to the real server.
      await tab.goto(`${server.url}/settings/server`);
      const kobo = tab.getByRole('group', { name: 'Kobo sync' });
      await kobo.getByRole('spinbutton', { name: 'Kobo Sync external port' }).fill('443');
      const file = join(realpathSync(server.dataDir), 'database.sqlite');
      await kobo.getByRole('textbox', { name: 'Path to kepubify' }).fill(file);
      await kobo.getByRole('button', { name: 'Browse' }).click();
      const files = tab.getByRole('dialog', { name: 'Path to kepubify' });
      const current = files.getByRole('button', { name: 'database.sqlite', exact: true });
      await expect.poll(() => current.getAttribute('aria-current')).toBe('true');
      await files.getByRole('button', { name: 'Choose' }).click();
      await tab.getByRole('button', { name: 'Save changes' }).click();
      await tab.getByText('Settings saved').waitFor();
      const admin = { Authorization: basic('admin@example.org', 'admin-secret') };
      const saved = (await fetch(`${server.url}/api/v1/settings`, { headers: admin }).then((r) => r.json())) as {
        koboPort: number | null;
        kepubifyPath: { databaseSource: string | null };
      };
      expect(saved.koboPort).toBe(443);
      expect(saved.kepubifyPath.databaseSource).toBe(file);
      // Not a kepubify: cleared, so that nothing else of this spec meets it.
      await fetch(`${server.url}/api/v1/settings`, {
        method: 'PATCH',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ koboPort: null, kepubifyPath: null }),
      });
    } finally {
      await tab.close();
    }
  });

  it('adds a user through the dialog', async () => {
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('not-an-email');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.getByText('Must be a valid e-mail address').count()).toBe(1);
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('reader@example.org');
    await dialog.getByRole('textbox', { name: 'Password' }).fill('reader-secret');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByRole('listitem', { name: 'reader@example.org' }).count()).toBe(1);
    const users = (await fetch(`${server.url}/api/v2/users`, {
      headers: { Authorization: basic('admin@example.org', 'admin-secret') },
    }).then((r) => r.json())) as { email: string; roles: string[] }[];
    const reader = users.find((u) => u.email === 'reader@example.org');
    expect(reader?.roles.sort()).toEqual(['FILE_DOWNLOAD', 'PAGE_STREAMING', 'USER']);
  });

  it('logs out and logs in as the new user, who is sent home from an admin page', async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    await page.getByRole('textbox', { name: 'Email' }).fill('reader@example.org');
    await page.getByRole('textbox', { name: 'Password' }).fill('wrong-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByText(/Invalid authentication/).count()).toBeGreaterThan(0);
    await page.getByRole('textbox', { name: 'Password' }).fill('reader-secret');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/login'));
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);

    await page.goto(`${server.url}/settings/users`);
    await page.waitForURL((u) => !u.pathname.startsWith('/settings'));
    expect(new URL(page.url()).pathname).not.toContain('/settings');
    expect(await page.getByRole('listitem', { name: 'admin@example.org' }).count()).toBe(0);
  });

  it('changes its own password from the account page, with the current one, and stays signed in', async () => {
    await page.goto(`${server.url}/account`);
    await page.getByRole('button', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByRole('textbox', { name: 'Current password' }).fill('not-my-password');
    await dialog.getByRole('textbox', { name: 'New password', exact: true }).fill('new-reader-secret');
    await dialog.getByRole('textbox', { name: 'Repeat new password' }).fill('something-else');
    await dialog.getByRole('button', { name: 'Save password' }).click();
    await expect.poll(() => dialog.getByText('Passwords must match').count()).toBe(1);
    await dialog.getByRole('textbox', { name: 'Repeat new password' }).fill('new-reader-secret');
    await dialog.getByRole('button', { name: 'Save password' }).click();
    await expect.poll(() => dialog.getByText('This is not your current password.').count()).toBe(1);
    await dialog.getByRole('textbox', { name: 'Current password' }).fill('reader-secret');
    await dialog.getByRole('button', { name: 'Save password' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByText('reader@example.org').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/account');
    const withNew = await fetch(`${server.url}/api/v2/users/me`, {
      headers: {
        Authorization: basic('reader@example.org', 'new-reader-secret'),
        'X-Requested-With': 'XMLHttpRequest',
      },
    });
    expect(withNew.status).toBe(200);
    const withOld = await fetch(`${server.url}/api/v2/users/me`, {
      headers: { Authorization: basic('reader@example.org', 'reader-secret'), 'X-Requested-With': 'XMLHttpRequest' },
    });
    expect(withOld.status).toBe(401);
  });

  it("shows every user's authentication activity to the admin, newest first, sorted by a column", async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    await page.getByRole('textbox', { name: 'Email' }).fill('admin@example.org');
    await page.getByRole('textbox', { name: 'Password' }).fill('admin-secret');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/login'));
    await page.goto(`${server.url}/settings/users`);

    const table = page.getByRole('table', { name: 'Authentication activity' });
    await table.waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['Date', 'E-mail', 'IP address', 'User agent', 'Source', 'Success', 'API key', 'Error']);
    const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
    const emails = async () =>
      rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLTableRowElement).cells[1]?.textContent ?? ''));
    // Newest first: the admin's own login just now; the reader's failed and successful logins are there too.
    await expect.poll(async () => (await emails())[0]).toBe('admin@example.org');
    expect(await emails()).toContain('reader@example.org');
    const readerFailure = rows
      .filter({ hasText: 'reader@example.org' })
      .filter({ has: page.getByRole('img', { name: 'Failed' }) });
    expect(await readerFailure.count()).toBeGreaterThan(0);
    expect(await table.getByRole('columnheader', { name: 'Date' }).getAttribute('aria-sort')).toBe('descending');

    // Sorted by e-mail, ascending then descending, by the server.
    await table.getByRole('button', { name: 'E-mail' }).click();
    expect(await table.getByRole('columnheader', { name: 'E-mail' }).getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(async () => (await emails()).at(-1)).toBe('reader@example.org');
    expect((await emails())[0]).toBe('admin@example.org');
    await table.getByRole('button', { name: 'E-mail' }).click();
    await expect.poll(async () => (await emails())[0]).toBe('reader@example.org');
    await expect.poll(async () => (await emails()).at(-1)).toBe('admin@example.org');
  });

  it('switches to the dark theme', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const before = await background();
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
    await expect.poll(background).not.toBe(before);
    const [r, g, b] = (await background()).match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(3 * 60);
    await page.reload();
    await expect
      .poll(async () => ((await background()).match(/\d+/g) ?? []).map(Number).reduce((a, c) => a + c, 0))
      .toBeLessThan(3 * 60);
  });

  it('flips the layout right-to-left in Arabic', async () => {
    const nav = page.getByRole('navigation', { name: 'Navigation' });
    const ltrBox = await nav.boundingBox();
    expect(ltrBox!.x).toBeLessThan(100);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    await expect.poll(async () => (await page.getByRole('navigation').first().boundingBox())!.x).toBeGreaterThan(600);
  });
});

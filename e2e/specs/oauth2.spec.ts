import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startOidcProvider, type TestOidcProvider } from '../../packages/server/test/support/oidc-provider.js';
import { connectBrowser, newPage, screenshot } from '../support/browser.js';
import { freePort, startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const ADMIN = 'admin@example.org';
const ADMIN_PASSWORD = 'admin-secret';
const adminAuth = `Basic ${Buffer.from(`${ADMIN}:${ADMIN_PASSWORD}`).toString('base64')}`;

/**
 * OpenID Connect login in Chromium against a real provider (oidc-provider on a loopback port): the login page's
 * button opens the provider in a popup, the person logs in there, and the popup hands the session over to the login
 * page's window and closes itself (server_redirect=Y). Failures come back to the login page, translated.
 */
describe('OAuth2 / OpenID Connect login in the browser', () => {
  let port: number;
  let provider: TestOidcProvider;
  let server: RunningServer | undefined;
  let browser: Browser;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    port = await freePort();
    provider = await startOidcProvider({
      redirectUris: [`http://127.0.0.1:${port}/login/oauth2/code/test`],
      accounts: {
        alice: { email: 'Alice@Example.org', email_verified: true },
        newcomer: { email: 'newcomer@example.org', email_verified: true },
        unverified: { email: 'alice@example.org', email_verified: false },
      },
    });
    browser = await connectBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await provider?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && context)
      for (const p of context.pages()) await screenshot(p, ctx.task.name);
    await context?.close();
    context = undefined;
    await server?.stop();
    server = undefined;
  });

  /** Quire on the port the provider knows, claimed, with alice as a user, and the given settings. */
  async function start(env: Record<string, string> = {}) {
    server = await startServer({
      QUIRE_PORT: String(port),
      QUIRE_BASE_URL: `http://127.0.0.1:${port}`,
      QUIRE_OAUTH2_TEST_ISSUER: provider.issuer,
      QUIRE_OAUTH2_TEST_CLIENT_ID: provider.clientId,
      QUIRE_OAUTH2_TEST_CLIENT_SECRET: provider.clientSecret,
      QUIRE_OAUTH2_TEST_NAME: 'Test IdP',
      ...env,
    });
    await claimServer(server, ADMIN, ADMIN_PASSWORD);
    const created = await fetch(`${server.url}/api/v2/users`, {
      method: 'POST',
      headers: { authorization: adminAuth, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.org', password: 'alice-password' }),
    });
    expect(created.status).toBe(201);
    return server;
  }

  /** Logs in as `login` at the provider's form in the popup; resolves once the popup has closed itself. */
  async function logInThroughPopup(page: Page, login: string, open: () => Promise<void>) {
    const popupOpened = page.waitForEvent('popup');
    await open();
    const popup = await popupOpened;
    await popup.locator('input[name="login"]').fill(login);
    await popup.locator('input[name="password"]').fill('any');
    const closed = popup.waitForEvent('close', { timeout: 30_000 });
    await popup.getByRole('button', { name: 'Sign-in' }).click();
    await closed;
  }

  const signInButton = (page: Page) => page.getByRole('button', { name: 'Sign in with Test IdP' });

  /** A fresh browser context's page (closed after the test). */
  async function freshPage(): Promise<Page> {
    const opened = await newPage(browser);
    context = opened.context;
    return opened.page;
  }

  /** Waits until the main window has left the login and startup pages, and answers whose session it holds. */
  async function loggedInEmail(page: Page): Promise<string> {
    await page.waitForURL((u) => !u.pathname.endsWith('/login') && !u.pathname.endsWith('/startup'), {
      timeout: 30_000,
    });
    return page.evaluate(async () => {
      const res = await fetch('/api/v2/users/me', { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      return res.ok ? ((await res.json()) as { email: string }).email : `HTTP ${res.status}`;
    });
  }

  it('logs an existing user in through the popup, which closes and leaves the main window logged in', async () => {
    const s = await start();
    const page = await freshPage();
    await page.goto(`${s.url}/login`);
    await logInThroughPopup(page, 'alice', () => signInButton(page).click());
    expect(await loggedInEmail(page)).toBe('alice@example.org');
    const activity = await fetch(`${s.url}/api/v2/users/authentication-activity?sort=dateTime,desc`, {
      headers: { authorization: adminAuth },
    });
    const rows = ((await activity.json()) as { content: { email: string; source: string; success: boolean }[] })
      .content;
    expect(rows.find((r) => r.source === 'OAuth2:Test IdP')).toMatchObject({
      email: 'alice@example.org',
      success: true,
    });
  });

  it('refuses someone without an account (ERR_1025), then lets them in once account creation is on', async () => {
    let s = await start();
    let page = await freshPage();
    await page.goto(`${s.url}/login`);
    await logInThroughPopup(page, 'newcomer', () => signInButton(page).click());
    await page.waitForURL(/\/login\?server_redirect=Y&error=ERR_1025/);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('OAuth2 login: no local user exists with that email');
    await page.context().close();
    await s.stop();

    s = await start({ QUIRE_OAUTH2_ACCOUNT_CREATION: 'true' });
    page = await freshPage();
    await page.goto(`${s.url}/login`);
    await logInThroughPopup(page, 'newcomer', () => signInButton(page).click());
    expect(await loggedInEmail(page)).toBe('newcomer@example.org');
  });

  it('refuses an unverified e-mail (ERR_1026), in the reader’s language', async () => {
    const s = await start();
    const page = await freshPage();
    await page.goto(`${s.url}/login`);
    // Polish, as a visitor would choose it on the login page.
    await page.evaluate(() => localStorage.setItem('quire.preferences', JSON.stringify({ locale: 'pl' })));
    await page.reload();
    const button = page.getByRole('button', { name: 'Zaloguj się przez Test IdP' });
    await logInThroughPopup(page, 'unverified', () => button.click());
    await page.waitForURL(/error=ERR_1026/);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('Logowanie OpenID Connect: adres e-mail nie został zweryfikowany');
  });

  it('hides the fields and opens the only provider at once with webui.oauth2.hide_login and auto_login', async () => {
    const s = await start();
    const saved = await fetch(`${s.url}/api/v1/client-settings/global`, {
      method: 'PATCH',
      headers: { authorization: adminAuth, 'content-type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify({
        'webui.oauth2.hide_login': { value: 'true', allowUnauthorized: true },
        'webui.oauth2.auto_login': { value: 'true', allowUnauthorized: true },
      }),
    });
    expect(saved.status).toBe(204);
    const page = await freshPage();
    await logInThroughPopup(page, 'alice', () => page.goto(`${s.url}/login`).then(() => undefined));
    expect(await loggedInEmail(page)).toBe('alice@example.org');
    // Logged out, the page shows only the button (no fields) and does not open the popup again.
    await page.goto(`${s.url}/login?logout=true`);
    await expect.poll(() => signInButton(page).isVisible()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Email' }).count()).toBe(0);
    expect(page.context().pages()).toHaveLength(1);
  });
});

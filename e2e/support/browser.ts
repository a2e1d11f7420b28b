import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { repoRoot } from './server.js';
import { timed } from './timing.js';

function chromiumPath(): string {
  const fromEnv = process.env.QUIRE_CHROMIUM;
  if (fromEnv) return fromEnv;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      // try the next name
    }
  }
  throw new Error("Debian's chromium is not installed: apt-get install -y chromium (or set QUIRE_CHROMIUM)");
}

/** Chromium's command line: headless, and nothing of its own on the network (updates, sync, QUIC). */
export const chromiumLaunchOptions = () => ({
  executablePath: chromiumPath(),
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
});

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the run's one Chromium (started by global-setup.ts). */
    chromiumEndpoint: string;
  }
}

/**
 * The run's Chromium (one for every spec: launching it took 1 to 1.5 s a spec), as this spec's own connection.
 * Closing it closes the contexts the spec made and leaves the browser to the next spec.
 */
export async function connectBrowser(): Promise<Browser> {
  return timed('browser connect', () => chromium.connect(inject('chromiumEndpoint')));
}

/** A page in a fresh context; `languages` are the browser's preferred languages (navigator and Accept-Language). */
export async function newPage(
  browser: Browser,
  opts: { viewport?: { width: number; height: number }; languages?: string[] } = {},
) {
  const context: BrowserContext = await browser.newContext({
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    ...(opts.languages && {
      locale: opts.languages[0],
      extraHTTPHeaders: { 'Accept-Language': opts.languages.join(',') },
    }),
  });
  const page: Page = await context.newPage();
  return { context, page };
}

/** Saves a screenshot under e2e/artifacts, for a failing test. */
export async function screenshot(page: Page, name: string) {
  const dir = join(repoRoot, 'e2e/artifacts');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name.replace(/[^\w-]+/g, '_')}.png`), fullPage: true }).catch(() => {});
}

/**
 * Opens `baseUrl` as a visitor, who is sent to the login page, logs in there and waits to leave it. For a test of
 * the login screen; the others sign in with `signIn`.
 */
export async function logIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(baseUrl);
  await page.waitForURL(/\/login/);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((u) => !u.pathname.endsWith('/login'));
}

/**
 * Signs the page's context in as the web client's login does (its Basic request sets the session cookie, shared by
 * every page of the context), then opens `baseUrl` and waits for the app to route the user past startup: about half
 * the time of the login screen, which foundation, browse, library, keyboard, security and a11y go through.
 */
export async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  return timed('sign-in', async () => {
    const res = await page.context().request.get(`${baseUrl}/api/v2/users/me`, {
      headers: {
        Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`,
        'X-Requested-With': 'XMLHttpRequest',
      },
    });
    if (!res.ok()) throw new Error(`log-in answered ${res.status()}: ${await res.text()}`);
    await page.goto(baseUrl);
    await page.waitForURL((u) => !['/', '/startup', '/login'].includes(u.pathname));
  });
}

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot } from './server.js';

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

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
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

/** Opens `baseUrl` as a visitor, who is sent to the login page, logs in there and waits to leave it. */
export async function logIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(baseUrl);
  await page.waitForURL(/\/login/);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((u) => !u.pathname.endsWith('/login'));
}

import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { makeImage, zipBuffer } from '../../packages/server/test/support/library-builder.js';
import { fixture } from '../../packages/server/test/support/fixtures.js';
import { jsonFeed, startFeedServer, type FeedServer } from '../../packages/server/test/support/feed-server.js';
import { formatViolations, isBlocking, navigate, runAxe, settle, tr, type Violation } from './a11y.js';
import { connectBrowser, newPage } from './browser.js';
import { cleanUpAfterSpec } from './lifecycle.js';
import { analysedBooks, claimServer, writeLibraryFiles, type BookRow, type LibraryFiles } from './library.js';
import { startServer, type RunningServer } from './server.js';

const EMAIL = 'a11y@example.org';
const PASSWORD = 'a11y-secret';
const OTHER_USER = 'reader@example.org';
const LIBRARY = 'Accessible Comics';

async function cbz(pages: number, seed: number): Promise<Buffer> {
  const entries = [];
  for (let n = 1; n <= pages; n++) {
    entries.push({ name: `${String(n).padStart(3, '0')}.jpg`, data: await makeImage('jpeg', seed * 10 + n, 240, 360) });
  }
  return zipBuffer(entries);
}

const FILES: LibraryFiles = {
  'Alpha/Alpha 001.cbz': () => cbz(3, 1),
  'Alpha/Alpha 002.cbz': () => cbz(3, 2),
  'Beta/Beta 001.cbz': () => cbz(2, 3),
  'Novel/The Golden Harpoon.epub': () =>
    fixture('epub/The Golden Harpoon; Or, Lost Among the Floes A Story of the Whaling Grounds.epub'),
  'Papers/two_pages.pdf': () => fixture('pdf/two_pages.pdf'),
};

/**
 * axe-core on every screen and dialog of the client, in light and dark, in `lang` (chosen in the login page's own
 * selects, as a user does): no `serious` or `critical` violation anywhere. Dialogs are closed with Esc and must give
 * the focus back to what opened them. One browser page for everything; screens are reached by client-side navigation.
 * Each language is a spec file of its own (a11y-en.spec.ts, a11y-ar.spec.ts): the walk is the longest part of the
 * browser pass, and two files run at once. `reducedMotion` adds the test of the reduced-motion preference.
 */
export function describeAccessibility(lang: 'en' | 'ar', { reducedMotion }: { reducedMotion: boolean }) {
  describe(`accessibility: axe-core on every screen and dialog, light and dark, ${lang}`, () => {
    let server: RunningServer;
    let feed: FeedServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let root: string;
    let libraryId: string;
    let ids: Record<string, BookRow>;

    beforeAll(async () => {
      feed = await startFeedServer(
        jsonFeed([{ id: 'news', title: 'Quire news', content_html: '<p>Plain news.</p>', tags: [] }]),
      );
      server = await startServer({ QUIRE_ANNOUNCEMENTS_URL: feed.url });
      const basic = await claimServer(server, EMAIL, PASSWORD);
      const post = (path: string, body: object) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { Authorization: basic, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      root = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-a11y-')));
      await writeLibraryFiles(root, FILES);
      const created = await post('/api/v1/libraries', { name: LIBRARY, root });
      expect(created.status).toBe(200);
      libraryId = ((await created.json()) as { id: string }).id;
      // A second user, whose roles and restrictions the admin's dialogs edit.
      const user = await post('/api/v2/users', { email: OTHER_USER, password: 'reader-secret', roles: [] });
      expect(user.status).toBe(201);
      ids = await analysedBooks(server, Object.keys(FILES).length);

      browser = await connectBrowser();
      ({ context, page } = await newPage(browser));
    });
    cleanUpAfterSpec(`a11y-${lang}`, () => ({ browser, page, server, dirs: [root] }));
    afterAll(() => feed?.close());

    for (const theme of ['light', 'dark'] as const) {
      it(`${lang}, ${theme} theme: no serious or critical violation, focus back to the opener of each dialog`, async () => {
        const L = (key: string, vars?: Record<string, string>) => tr(lang, key, vars);
        const found: Violation[] = [];
        const problems: string[] = [];
        const main = () => page.getByRole('main');
        const check = async (screen: string, within?: string) => {
          await settle(page);
          const violations = (await runAxe(page, `${lang}/${theme} ${screen}`, within)).filter(isBlocking);
          // Printed as soon as found, so a run that stops later still shows them.
          if (violations.length) console.log(formatViolations(violations));
          found.push(...violations);
          if (within) return;
          const h1s = await page.evaluate(
            () => [...document.querySelectorAll('h1')].filter((h) => !h.closest('[role="dialog"]')).length,
          );
          if (h1s !== 1) problems.push(`[${lang}/${theme}] ${screen} has ${h1s} h1 headings, not one`);
        };
        const screen = async (name: string, path: string) => {
          // The old screen stays until the new one has loaded: wait for a new h1 or, where the next screen keeps the
          // heading element (the tabs of a library and of media management), for the new path's tab to be selected
          // (the router selects it with the new tab's content, once that content's code has loaded). Where the page is
          // already at `path` (the login lands on the dashboard), nothing will change: its own h1 is waited for.
          await navigate(page, path, { markHeadings: true });
          await page.waitForFunction(
            () => {
              const h1 = document.querySelector<HTMLElement>('main h1');
              if (!h1) return false;
              if (h1.dataset.seen === undefined) return true;
              const selected = document.querySelectorAll<HTMLAnchorElement>('main a[role="tab"][aria-selected="true"]');
              return [...selected].some((tab) => tab.pathname === window.location.pathname);
            },
            undefined,
            { polling: 100 },
          );
          await check(name);
        };
        /** Opens a dialog from `opener` (clicked), checks it, closes it with Esc and expects the focus back. */
        const dialog = async (name: string, open: () => Promise<void>, opener: Locator) => {
          await open();
          await page.getByRole('dialog').last().waitFor();
          await check(`dialog: ${name}`, '[role="dialog"]');
          await page.keyboard.press('Escape');
          await expect.poll(() => page.getByRole('dialog').count(), { timeout: 10_000 }).toBe(0);
          await settle(page);
          // MUI gives the focus back when the dialog has gone; on a loaded machine that can take a moment.
          const back = await expect
            .poll(() => opener.evaluate((el) => el === document.activeElement), { timeout: 5_000 })
            .toBe(true)
            .then(
              () => true,
              () => false,
            );
          if (!back) {
            const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120) ?? 'nothing');
            problems.push(`[${lang}/${theme}] closing "${name}" left the focus on ${focused}`);
          }
        };

        // Logged out: the login page, where the theme and the language are chosen.
        await context.clearCookies();
        await page.goto(`${server.url}/login`);
        await page.locator('select:has(option[value="dark"])').selectOption(theme);
        await page.locator('select:has(option[value="ar"])').selectOption(lang);
        await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
        expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
        await check('login');
        await page.locator('input[name="email"]').fill(EMAIL);
        await page.locator('input[name="password"]').fill(PASSWORD);
        await page.keyboard.press('Enter');
        await page.waitForURL((u) => !u.pathname.endsWith('/login'));

        const alpha = ids['Alpha 001']!;
        await screen('dashboard', '/dashboard');
        await screen('library grid', `/libraries/${libraryId}/series`);
        await screen('library books', `/libraries/${libraryId}/books`);
        await screen('series', `/series/${alpha.seriesId}`);
        await screen('book', `/book/${alpha.id}`);
        await screen('search', '/search?q=Alpha');
        await screen('account', '/account');
        // The new key's dialog once the key is shown, with the Kobo address (the claimed user holds every role).
        const generate = main().getByRole('button', { name: L('account.generateApiKey') });
        await dialog(
          'generated API key',
          async () => {
            await generate.click();
            const form = page.getByRole('dialog');
            await form.getByRole('textbox', { name: L('account.apiKeyComment') }).fill(`a11y ${lang} ${theme}`);
            await form.getByRole('button', { name: L('account.generate'), exact: true }).click();
            await form.getByRole('textbox', { name: L('account.koboEndpoint') }).waitFor();
          },
          generate,
        );
        await screen('account UI settings', '/account/settings-ui');
        await screen('history', '/history');
        await screen('users', '/settings/users');
        await screen('server settings', '/settings/server');
        await screen('metrics', '/settings/metrics');
        await screen('UI settings', '/settings/ui');
        await screen('tasks', '/settings/tasks');
        await screen('announcements', '/settings/announcements');
        await screen('updates', '/settings/updates');
        await screen('media analysis', '/media-management/analysis');
        await screen('missing posters', '/media-management/missing-posters');
        await screen('duplicate files', '/media-management/duplicate-files');
        await screen('duplicate pages, unknown', '/media-management/duplicate-pages/unknown');
        await screen('duplicate pages, known', '/media-management/duplicate-pages/known');
        await screen('import books', '/import/books');
        await screen('import read list', '/import/readlist');

        // Dialogs, each opened the way a user opens it.
        const nav = page.getByRole('navigation', { name: L('nav.navigation') });
        const addLibrary = nav.getByRole('button', { name: L('libraries.addLibrary') });
        await dialog('add library', () => addLibrary.click(), addLibrary);
        const libraryMenu = nav.getByRole('button', { name: L('libraries.menu.button', { name: LIBRARY }) });
        for (const item of ['libraries.menu.edit', 'libraries.menu.delete']) {
          await dialog(
            item,
            async () => {
              await libraryMenu.click();
              await page.getByRole('menuitem', { name: L(item) }).click();
            },
            libraryMenu,
          );
        }

        await screen('users', '/settings/users');
        for (const action of [
          'users.editRoles',
          'users.editRestrictions',
          'users.changePassword',
          'users.deleteUser',
        ]) {
          const button = main().getByRole('button', {
            name: L('users.actionOnUser', { action: L(action), email: OTHER_USER }),
          });
          await dialog(action, () => button.click(), button);
        }

        await screen('series', `/series/${alpha.seriesId}`);
        const editSeries = main()
          .getByRole('button', { name: L('items.actions.edit'), exact: true })
          .first();
        await dialog('edit series', () => editSeries.click(), editSeries);
        const seriesMenu = main().getByRole('button', {
          name: L('items.actions.menu', { title: 'Alpha' }),
          exact: true,
        });
        for (const item of ['items.actions.addToCollection', 'items.actions.addToReadList', 'items.actions.delete']) {
          await dialog(
            item,
            async () => {
              await seriesMenu.click();
              await page.getByRole('menuitem', { name: L(item) }).click();
            },
            seriesMenu,
          );
        }

        await screen('book', `/book/${alpha.id}`);
        const editBook = main()
          .getByRole('button', { name: L('items.actions.edit'), exact: true })
          .first();
        await dialog('edit book', () => editBook.click(), editBook);

        // The readers: toolbars shown, then their settings and shortcut help.
        const readers = [
          { name: 'comic reader', path: `/book/${alpha.id}/read`, ready: '[data-current] img' },
          { name: 'PDF reader', path: `/book/${ids['two_pages']!.id}/read`, ready: '[data-current] img' },
          {
            name: 'EPUB reader',
            path: `/book/${ids['The Golden Harpoon']!.id}/read-epub`,
            ready: 'iframe >> visible=true',
          },
        ];
        for (const reader of readers) {
          await navigate(page, reader.path);
          await page.locator(reader.ready).first().waitFor();
          // `m` shows the toolbars once the reader listens (the EPUB one, once its navigator is ready): pressed again
          // if they have not come after a while.
          const close = page.getByRole('button', { name: L('reader.closeBook') });
          for (let tries = 0; !(await close.isVisible()); tries++) {
            if (tries === 10) throw new Error(`${reader.name}: the toolbars never showed`);
            await page.keyboard.press('m');
            await close.waitFor({ timeout: 3_000 }).catch(() => undefined);
          }
          await check(reader.name);
          for (const key of ['s', 'h']) {
            await page.keyboard.press(key);
            await page.getByRole('dialog').last().waitFor();
            await check(`${reader.name} ${key === 's' ? 'settings' : 'help'}`, '[role="dialog"]');
            await page.keyboard.press('Escape');
            await expect.poll(() => page.getByRole('dialog').count(), { timeout: 10_000 }).toBe(0);
          }
        }

        expect(problems, problems.join('\n')).toEqual([]);
        expect(found.length, `serious or critical violations:\n\n${formatViolations(found)}`).toBe(0);
      });
    }

    // In one of the two files only: it depends on the reader, not on the language.
    if (reducedMotion)
      it('when the system asks for less motion, the page turns and the dialogs appear without animation', async () => {
        /**
         * Presses the key that turns the page and answers how the new slide moves, and where it is, as the turn is
         * drawn: in a mutation observer's callback, which runs right after the render that made it the current one.
         * The slide slides only until the reader renders again (an image loaded), so a read after it would find no
         * transition, and a read before the turn is drawn (a loaded machine) would find the resting slide.
         */
        const turnPage = async () => {
          type Turned = { transition: string; left: number };
          await page.evaluate(() => {
            const before = document.querySelector('[data-current]');
            (window as unknown as { turned: Promise<Turned> }).turned = new Promise<Turned>((resolve) => {
              const observer = new MutationObserver(() => {
                const el = document.querySelector<HTMLElement>('[data-current]');
                if (!el || el === before) return;
                observer.disconnect();
                resolve({ transition: getComputedStyle(el).transitionProperty, left: el.getBoundingClientRect().left });
              });
              observer.observe(document.body, { subtree: true, attributes: true, childList: true });
            });
          });
          await page.keyboard.press('ArrowRight');
          return page.evaluate(() => (window as unknown as { turned: Promise<Turned> }).turned);
        };
        /** Right after the help dialog shows: its fade, and its opacity. */
        const dialogFade = () =>
          page.evaluate(() => {
            const el = document.querySelector<HTMLElement>('.MuiDialog-container')!;
            return { transition: getComputedStyle(el).transitionProperty, opacity: getComputedStyle(el).opacity };
          });
        const turnAndHelp = async () => {
          await navigate(page, `/book/${ids['Alpha 001']!.id}/read`);
          await page.locator('[data-current] img').waitFor();
          const turned = await turnPage();
          await page.keyboard.press('h');
          await page.getByRole('dialog').waitFor();
          const help = await dialogFade();
          await page.keyboard.press('Escape');
          await expect.poll(() => page.getByRole('dialog').count(), { timeout: 10_000 }).toBe(0);
          return { turned, help };
        };

        // As a check of the check: with no preference, both move.
        await page.emulateMedia({ reducedMotion: 'no-preference' });
        const moving = await turnAndHelp();
        expect(moving.turned.transition).toBe('transform');
        expect(moving.help.transition).toBe('opacity');

        await page.emulateMedia({ reducedMotion: 'reduce' });
        const still = await turnAndHelp();
        expect(still.turned).toEqual({ transition: 'none', left: 0 });
        expect(still.help).toEqual({ transition: 'none', opacity: '1' });
        await page.emulateMedia({ reducedMotion: null });
      });
  });
}

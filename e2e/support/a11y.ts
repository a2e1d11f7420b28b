import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import i18next from 'i18next';
import type { Page } from 'playwright-core';
import { repoRoot } from './server.js';

/** One axe-core rule broken on a screen, with the elements that break it. */
export interface Violation {
  screen: string;
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
}

/** WCAG 2.1 A and AA, plus axe's best practices (landmarks, headings). `isBlocking` says which results fail. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * Runs axe-core (evaluated from the `axe-core` package on first use in a document) on the page as it is, or only in
 * the elements `within` selects (an open dialog: the screen behind it is inert and checked on its own).
 */
export async function runAxe(page: Page, screen: string, within?: string): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source); // through the DevTools protocol: the page's CSP forbids inline scripts
  const found = await page.evaluate(
    async ({ tags, within }) => {
      const axeRun = (window as unknown as { axe: typeof axe }).axe;
      // The EPUB's own pages (in their iframes) are the publisher's, not the client's.
      const result = await axeRun.run(
        within ? { include: [[within]], exclude: [['iframe']] } : { exclude: [['iframe']] },
        {
          runOnly: { type: 'tag', values: tags },
          resultTypes: ['violations'],
          // Not asserted (see STRUCTURE) and among the slowest rules.
          rules: { region: { enabled: false } },
        },
      );
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? 'unknown',
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: n.target.join(' '),
          html: n.html.slice(0, 200),
          summary: n.failureSummary ?? '',
        })),
      }));
    },
    { tags: TAGS, within },
  );
  return found.map((v) => ({ ...v, screen }));
}

/**
 * The structure rules a screen-reader user navigates by (landmarks, headings, lists): moderate for axe, failures
 * here. `region` (all content in landmarks) is not run: the drawer's theme and language selects sit outside them.
 */
const STRUCTURE = new Set([
  'heading-order',
  'empty-heading',
  'page-has-heading-one',
  'landmark-one-main',
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-main',
  'landmark-unique',
]);

export const isBlocking = (v: Violation) => v.impact === 'serious' || v.impact === 'critical' || STRUCTURE.has(v.id);

/** One paragraph per violation: screen, rule, impact, then each element and what is wrong with it. */
export function formatViolations(violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `[${v.screen}] ${v.id} (${v.impact}): ${v.help}\n` +
        v.nodes
          .map((n) => `    ${n.target}\n      ${n.html}\n      ${n.summary.replace(/\n/g, '\n      ')}`)
          .join('\n'),
    )
    .join('\n\n');
}

/**
 * Waits until the screen is drawn and still: no skeleton or spinner in the main content, no finite animation or
 * transition running (a dialog half faded in has the wrong contrast).
 */
export async function settle(page: Page) {
  await page.waitForFunction(
    () => {
      const main = document.querySelector('main');
      if (main?.querySelector('.MuiSkeleton-root, .MuiCircularProgress-root')) return false;
      return document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity);
    },
    undefined,
    { polling: 100, timeout: 15_000 },
  );
}

type Messages = Record<string, unknown>;
const messages = new Map<string, Messages>();

/** The web client's own string for `key` (`nav.home`) in `lang`, with `{{name}}` placeholders filled. */
export function tr(lang: string, key: string, vars: Record<string, string> = {}): string {
  let all = messages.get(lang);
  if (!all) {
    const dir = join(repoRoot, 'packages/web/src/i18n/locales', lang);
    all = Object.fromEntries(
      readdirSync(dir).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, f), 'utf8'))]),
    );
    messages.set(lang, all);
  }
  let value: unknown = all;
  for (const part of key.split('.')) value = (value as Messages | undefined)?.[part];
  if (typeof value !== 'string') throw new Error(`no string ${key} in ${lang}`);
  // As the app does (i18n/index.ts): in a right-to-left language each interpolated value sits between Unicode
  // isolates, which are part of the accessible name a locator matches.
  const isolate =
    i18next.dir(lang) === 'rtl'
      ? (text: string) => (text === '' ? text : `\u2068${text}\u2069`)
      : (text: string) => text;
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
    vars[name] === undefined ? `{{${name}}}` : isolate(vars[name]),
  );
}

/**
 * Client-side navigation in the same document, as a link would do it: the router follows the history change, the
 * app is not reloaded (axe stays injected, the session's caches stay warm). With `markHeadings`, the headings on
 * screen are marked `data-seen` first, so that the next screen's can be told apart, and a page already at `path`
 * is left as it is. Checked, marked and navigated in one task of the page: in two, the app could reach `path` by
 * itself in between (the login's own redirect to the dashboard), and its heading, marked as seen, never changed.
 */
export async function navigate(page: Page, path: string, { markHeadings = false } = {}) {
  await page.evaluate(
    ({ p, mark }) => {
      if (mark) {
        if (window.location.pathname + window.location.search === p) return;
        document.querySelectorAll('h1').forEach((h) => (h.dataset.seen = ''));
      }
      window.history.pushState(null, '', p);
      window.dispatchEvent(new PopStateEvent('popstate'));
    },
    { p: path, mark: markHeadings },
  );
  await page.waitForURL((u) => u.pathname + u.search === path);
}

// How fast the web client shows its first screens in Chromium, as a user meets them: a library of 60 CBZ books
// (20 series) served by the built server once it has imported them (its task queue empty), a signed-in user, then
//   - cold: a fresh browser context (empty cache) opening `/` until the first dashboard card's poster is painted,
//     and `/libraries/<id>/series` until the first series card's poster is painted;
//   - warm: the same screens again in the same context (cached assets).
// Each is measured on loopback and on a throttled link (20 Mbit/s, 20 ms round trip, as a home network or a
// phone on good 4G sees a server), from navigation start; 5 runs each, the median reported, with the bytes
// of JavaScript transferred. Baseline in the same run: a cold load of a small JSON answer of the same server
// (`/api/v1/claim`: the floor that the browser, the link and the server's first byte set).
// Run `npm run build` first. Goal (issue 18): cold load to the first dashboard card under 1 s on loopback.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, percentile } from './support/browser.mjs';
import { makeJpegPages, writeZip } from './support/cbz.mjs';
import { claim, createLibrary, openDatabase, sessionCookie, sleep, startServer } from './support/server.mjs';

const SERIES = 20;
const BOOKS_PER_SERIES = 3;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GOAL_COLD_MS = 1000;
/** 20 Mbit/s down, 10 up, 20 ms round trip (CDP's throughput is in bytes per second). */
const THROTTLED = { offline: false, latency: 20, downloadThroughput: (20e6 / 8) | 0, uploadThroughput: (10e6 / 8) | 0 };

const work = await mkdtemp(join(tmpdir(), 'quire-bench-client-'));
const root = join(work, 'library');
const dataDir = join(work, 'data');

console.log(`generating ${SERIES * BOOKS_PER_SERIES} CBZ books of 4 pages…`);
const pages = await makeJpegPages(4, { width: 800, height: 1200, noise: 20 });
for (let s = 1; s <= SERIES; s++) {
  const folder = join(root, `Series ${String(s).padStart(2, '0')}`);
  await mkdir(folder, { recursive: true });
  for (let b = 1; b <= BOOKS_PER_SERIES; b++) {
    await writeZip(
      join(folder, `Series ${s} ${String(b).padStart(3, '0')}.cbz`),
      pages.map(({ data }, i) => ({ name: `${i + 1}.jpg`, data })),
    );
  }
}

/** @type {Awaited<ReturnType<typeof startServer>> | undefined} */
let server;
/** @type {import('playwright-core').Browser | undefined} */
let browser;
try {
  const srv = await startServer({ dataDir });
  server = srv;
  const authorization = await claim(server.base);
  const library = await createLibrary(server.base, authorization, { name: 'Bench', root });
  const started = Date.now();
  for (;;) {
    const db = openDatabase(dataDir);
    const ready = /** @type {{ n: number }} */ (db.prepare("select count(*) n from media where status = 'READY'").get())
      .n;
    const posters = /** @type {{ n: number }} */ (
      db.prepare('select count(distinct book_id) n from thumbnail_book').get()
    ).n;
    // and the import's remaining tasks done (barcode searches, metadata refreshes): measured against an idle server,
    // not one sharing the CPU with the import's work
    const queued = /** @type {{ n: number }} */ (db.prepare('select count(*) n from task').get()).n;
    db.close();
    if (ready === SERIES * BOOKS_PER_SERIES && posters === SERIES * BOOKS_PER_SERIES && queued === 0) break;
    if (Date.now() - started > 300_000) throw new Error('the library was not imported in 5 minutes');
    await sleep(250);
  }
  const [name = '', value = ''] = (await sessionCookie(server.base, authorization)).split('=');

  const chrome = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  browser = chrome;

  /**
   * Opens `path` in `page` and resolves with the ms from navigation start to the first painted poster of a card
   * in the main region, and the JavaScript bytes transferred.
   * @param {import('playwright-core').Page} page
   * @param {string} path
   * @param {boolean} [card]
   */
  async function timeTo(page, path, card = true) {
    let jsBytes = 0;
    const onResponse = async (/** @type {import('playwright-core').Response} */ r) => {
      if (!r.url().endsWith('.js')) return;
      const sizes = await r
        .request()
        .sizes()
        .catch(() => undefined);
      jsBytes += sizes?.responseBodySize ?? 0;
    };
    page.on('response', onResponse);
    await page.goto(`${srv.base}${path}`, { waitUntil: card ? 'commit' : 'load' });
    const ms = card
      ? await page.evaluate(
          () =>
            new Promise((resolve) => {
              const check = () => {
                const img = /** @type {HTMLImageElement | null} */ (
                  document.querySelector('main [role="listitem"] img')
                );
                if (img?.complete && img.naturalWidth > 0) requestAnimationFrame(() => resolve(performance.now()));
                else requestAnimationFrame(check);
              };
              check();
            }),
        )
      : await page.evaluate(() => performance.now());
    page.off('response', onResponse);
    return { ms: /** @type {number} */ (ms), jsBytes };
  }

  /** @param {string} path @param {boolean} throttled @param {boolean} [card] */
  async function measure(path, throttled, card = true) {
    /** @type {number[]} */ const cold = [];
    /** @type {number[]} */ const warm = [];
    let jsCold = 0;
    for (let run = 0; run < RUNS; run++) {
      const context = await chrome.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies([{ name, value, url: srv.base }]);
      const page = await context.newPage();
      if (throttled) {
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', THROTTLED);
      }
      const first = await timeTo(page, path, card);
      cold.push(first.ms);
      jsCold = first.jsBytes;
      warm.push((await timeTo(page, path, card)).ms);
      await context.close();
    }
    const median = (/** @type {number[]} */ xs) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );
    return { cold: median(cold), warm: median(warm), jsCold };
  }

  const rows = [];
  for (const throttled of [false, true]) {
    const link = throttled ? '20 Mbit/s, 20 ms' : 'loopback';
    rows.push({ screen: 'baseline: /api/v1/claim', link, ...(await measure('/api/v1/claim', throttled, false)) });
    rows.push({ screen: 'dashboard, first card', link, ...(await measure('/', throttled)) });
    rows.push({
      screen: 'library series grid, first card',
      link,
      ...(await measure(`/libraries/${library.id}/series`, throttled)),
    });
  }
  const pad = (/** @type {string} */ s, /** @type {number} */ n) => s.padEnd(n);
  console.log(`\n${pad('screen', 34)}${pad('link', 18)}${pad('cold', 10)}${pad('warm', 10)}JS transferred (cold)`);
  for (const r of rows) {
    console.log(
      `${pad(r.screen, 34)}${pad(r.link, 18)}${pad(`${r.cold.toFixed(0)} ms`, 10)}${pad(`${r.warm.toFixed(0)} ms`, 10)}${(r.jsCold / 1024).toFixed(0)} KiB`,
    );
  }
  const dashboard = rows.find((r) => r.screen.startsWith('dashboard') && r.link === 'loopback');
  const met = (dashboard?.cold ?? Infinity) < GOAL_COLD_MS;
  console.log(`\ngoal: cold dashboard on loopback < ${GOAL_COLD_MS} ms: ${met ? 'met' : 'NOT met'}`);
  process.exitCode = met ? 0 : 1;
} finally {
  await browser?.close();
  await server?.stop();
  await rm(work, { recursive: true, force: true });
}

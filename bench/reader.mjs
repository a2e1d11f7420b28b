// Page-turn latency of the paged reader in Chromium: a 100-page CBZ of real 1000 × 1500 JPEG pages (noise, like a
// scan) served by the built server; the reader opens it with its default settings (preloading on, animations on),
// then the Next key is pressed page after page. Each turn is timed from the key press (a capturing listener that
// runs before the reader's) to the first frame in which the next page's image is on screen, decoded: that frame's
// requestAnimationFrame callback, then a task queued from it, which runs once the frame has been produced.
// Reports the median and 95th percentile. Goal: p95 under 50 ms. Run `npm run build` first.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS, percentile } from './support/browser.mjs';
import { makeJpegPages, writeZip } from './support/cbz.mjs';
import { installTurnProbe, shownPage, timeTurn } from './support/page-turns.mjs';
import { claim, createLibrary, openDatabase, sessionCookie, sleep, startServer } from './support/server.mjs';

const PAGES = 100;
/** Time the reader is left on each page before the next press, as a reader would (preloading happens here). */
const DWELL_MS = Number(process.env.BENCH_DWELL_MS ?? 300);
const GOAL_P95_MS = 50;

const work = await mkdtemp(join(tmpdir(), 'quire-bench-reader-'));
const root = join(work, 'library');
const dataDir = join(work, 'data');
await mkdir(join(root, 'Bench Series'), { recursive: true });

console.log(`generating a CBZ of ${PAGES} JPEG pages (1000 × 1500)…`);
const pages = await makeJpegPages(PAGES, { noise: 20 });
await writeZip(
  join(root, 'Bench Series', 'Bench 001.cbz'),
  pages.map(({ data }, i) => ({ name: `${String(i + 1).padStart(3, '0')}.jpg`, data })),
);
console.log(`average page: ${(pages.reduce((s, p) => s + p.data.length, 0) / PAGES / 1024).toFixed(0)} KiB`);

let server;
let browser;
try {
  server = await startServer({ dataDir });
  const authorization = await claim(server.base);
  await createLibrary(server.base, authorization, { name: 'Bench', root });
  /** @type {string | undefined} */
  let bookId;
  const started = Date.now();
  while (!bookId) {
    try {
      const db = openDatabase(dataDir);
      const row = /** @type {{ id: string } | undefined} */ (
        db.prepare("select b.id from book b join media m on m.book_id = b.id where m.status = 'READY'").get()
      );
      bookId = row?.id;
      db.close();
    } catch {
      /* not there yet */
    }
    if (Date.now() - started > 120_000) throw new Error('the book was not analysed in 2 minutes');
    if (!bookId) await sleep(200);
  }

  const [name = '', value = ''] = (await sessionCookie(server.base, authorization)).split('=');
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name, value, url: server.base }]);
  const page = await context.newPage();
  await page.goto(`${server.base}/book/${bookId}/read?page=1&incognito=true`);
  const deadline = Date.now() + 30_000;
  while ((await shownPage(page)) !== 1) {
    if (Date.now() > deadline) throw new Error('the reader did not show page 1');
    await sleep(50);
  }

  await installTurnProbe(page);

  /** @type {number[]} */
  const samples = [];
  for (let n = 2; n <= PAGES; n++) {
    await sleep(DWELL_MS);
    samples.push(await timeTurn(page, n, 10_000));
  }

  const sorted = [...samples].sort((a, b) => a - b);
  const median = percentile(sorted, 50);
  const p95 = percentile(sorted, 95);
  const mean = samples.reduce((s, x) => s + x, 0) / samples.length;
  console.log(`page turns measured: ${samples.length} (Next key → next page painted, ${DWELL_MS} ms on each page)`);
  console.log(
    `median ${median.toFixed(1)} ms   p95 ${p95.toFixed(1)} ms   mean ${mean.toFixed(1)} ms   max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`,
  );
  console.log(`goal p95 < ${GOAL_P95_MS} ms: ${p95 < GOAL_P95_MS ? 'met' : 'NOT met'}`);
  process.exitCode = p95 < GOAL_P95_MS ? 0 : 1;
} finally {
  await browser?.close();
  await server?.stop();
  await rm(work, { recursive: true, force: true });
}

// PDF pages in the web reader, against the same pages in a CBZ measured in the same run (the machine is shared and
// noisy: compare the two). One set of real 1000 × 1500 JPEG pages (noise, like scans) goes into a CBZ as they are
// and into a PDF (pdf-lib, one image per page): a scanned PDF is what a comics reader opens. Each book is opened
// in Chromium's paged reader with a cold browser cache (a new context, 1280 × 900): "first page" is from the
// navigation until page 1 is on screen, decoded; then the Next key is pressed TURNS times, each turn timed from the
// key press to the first frame with the next page's image decoded on screen (as bench/reader.mjs), with DWELL ms
// on each page. Goal (issue 18): PDF first page < 1 s, PDF p95 turn < 300 ms. Run `npm run build` first.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { chromium } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS, percentile } from './support/browser.mjs';
import { makeJpegPages, writeZip } from './support/cbz.mjs';
import { installTurnProbe, shownPage, timeTurn } from './support/page-turns.mjs';
import { claim, createLibrary, openDatabase, sessionCookie, sleep, startServer } from './support/server.mjs';

const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const PAGES = TURNS + 4;
/** Time the reader is left on each page before the next press, as a reader would (preloading happens here). */
const DWELL_MS = Number(process.env.BENCH_DWELL_MS ?? 500);
const GOAL_FIRST_MS = 1000;
const GOAL_P95_MS = 300;

const work = await mkdtemp(join(tmpdir(), 'quire-bench-pdf-'));
const root = join(work, 'library');
const dataDir = join(work, 'data');
await mkdir(join(root, 'Bench Series'), { recursive: true });

console.log(`generating ${PAGES} JPEG pages (1000 × 1500), as a CBZ and as a PDF…`);
const pages = await makeJpegPages(PAGES, { noise: 20 });
await writeZip(
  join(root, 'Bench Series', 'Bench CBZ.cbz'),
  pages.map(({ data }, i) => ({ name: `${String(i + 1).padStart(3, '0')}.jpg`, data })),
);
const pdf = await PDFDocument.create();
for (const { data } of pages) {
  const image = await pdf.embedJpg(data);
  // 8.33 × 12.5 in: a scan at 120 dpi
  const page = pdf.addPage([600, 900]);
  page.drawImage(image, { x: 0, y: 0, width: 600, height: 900 });
}
await writeFile(join(root, 'Bench Series', 'Bench PDF.pdf'), await pdf.save());

/** @type {Awaited<ReturnType<typeof startServer>> | undefined} */
let server;
/** @type {import('playwright-core').Browser | undefined} */
let browser;
try {
  server = await startServer({ dataDir });
  const authorization = await claim(server.base);
  await createLibrary(server.base, authorization, { name: 'Bench', root });
  /** @type {Record<string, string>} */
  let ids = {};
  const started = Date.now();
  while (Object.keys(ids).length < 2) {
    try {
      const db = openDatabase(dataDir);
      const rows = /** @type {{ id: string, name: string }[]} */ (
        db.prepare("select b.id, b.name from book b join media m on m.book_id = b.id where m.status = 'READY'").all()
      );
      ids = Object.fromEntries(rows.map((r) => [r.name, r.id]));
      db.close();
    } catch {
      /* not there yet */
    }
    if (Date.now() - started > 120_000) throw new Error('the books were not analysed in 2 minutes');
    if (Object.keys(ids).length < 2) await sleep(200);
  }

  const [name = '', value = ''] = (await sessionCookie(server.base, authorization)).split('=');
  const chromiumBrowser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  browser = chromiumBrowser;
  const base = server.base;

  /** First page and page turns of one book, in a fresh browser context (empty cache). */
  const measure = async (/** @type {string} */ bookId) => {
    const context = await chromiumBrowser.newContext({
      viewport: { width: 1280, height: 900 },
    });
    await context.addCookies([{ name, value, url: base }]);
    const page = await context.newPage();
    const opened = performance.now();
    await page.goto(`${base}/book/${bookId}/read?page=1&incognito=true`, {
      waitUntil: 'commit',
    });
    while ((await shownPage(page)) !== 1) {
      if (performance.now() - opened > 60_000) throw new Error('the reader did not show page 1');
      await sleep(10);
    }
    const first = performance.now() - opened;
    // the page's own request, without the client's start-up: its response time as the browser saw it
    const [firstAsked = NaN, firstRequest = NaN] = await page.evaluate(() => {
      const e = /** @type {PerformanceResourceTiming | undefined} */ (
        performance.getEntriesByType('resource').find((r) => /\/pages\/1(\?|$)/.test(r.name))
      );
      return e ? [e.startTime, e.responseEnd - e.startTime] : [];
    });

    await installTurnProbe(page);
    /** @type {number[]} */
    const turns = [];
    for (let n = 2; n <= TURNS + 1; n++) {
      await sleep(DWELL_MS);
      turns.push(await timeTurn(page, n, 60_000));
    }
    await context.close();
    const sorted = [...turns].sort((a, b) => a - b);
    return {
      first,
      firstAsked,
      firstRequest,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: sorted.at(-1) ?? NaN,
    };
  };

  // once unmeasured: the first reader opened after start-up pays for the server's and the browser's own warm-up
  await measure(/** @type {string} */ (ids['Bench CBZ']));
  const cbz = await measure(/** @type {string} */ (ids['Bench CBZ']));
  const pdfFigures = await measure(/** @type {string} */ (ids['Bench PDF']));
  const row = (/** @type {string} */ label, /** @type {Awaited<ReturnType<typeof measure>>} */ f) =>
    `${label.padEnd(6)} ${f.first.toFixed(0).padStart(8)} ${f.firstAsked.toFixed(0).padStart(9)} ${f.firstRequest.toFixed(0).padStart(10)} ${f.p50.toFixed(0).padStart(8)} ${f.p95.toFixed(0).padStart(8)} ${f.max.toFixed(0).padStart(8)}`;
  console.log(`\n${TURNS} page turns per book, ${DWELL_MS} ms on each page, 1280 × 900 window, times in ms`);
  console.log(
    `book   ${'first'.padStart(8)} ${'asked at'.padStart(9)} ${'page 1 GET'.padStart(10)} ${'turn p50'.padStart(8)} ${'turn p95'.padStart(8)} ${'max'.padStart(8)}`,
  );
  console.log(row('CBZ', cbz));
  console.log(row('PDF', pdfFigures));
  console.log(
    `PDF / CBZ: first page ×${(pdfFigures.first / cbz.first).toFixed(1)}, page 1 GET ×${(pdfFigures.firstRequest / cbz.firstRequest).toFixed(1)}, p95 turn ×${(pdfFigures.p95 / cbz.p95).toFixed(1)}`,
  );
  const met = pdfFigures.first < GOAL_FIRST_MS && pdfFigures.p95 < GOAL_P95_MS;
  console.log(`goal PDF first page < ${GOAL_FIRST_MS} ms and p95 turn < ${GOAL_P95_MS} ms: ${met ? 'met' : 'NOT met'}`);
  process.exitCode = met ? 0 : 1;
} finally {
  await browser?.close();
  await server?.stop();
  await rm(work, { recursive: true, force: true });
}

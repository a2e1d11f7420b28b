// OPDS feed latency on big lists (issue 19, komga#285: Komga users report minutes): the first page of a series of
// 2,000 books and of a library of 5,000 series, written straight into the built server's SQLite database (created
// by the server's own migrations on a first start), then served by the built server. Each feed is measured against
// its baseline, the REST list of the same rows in the same run (the machine is shared: compare ratios), and the run
// fails when a feed's p95 is over 100 ms.
// FEEDS below is the list of what is measured: one line per feed, OPDS 1.2 and 2. `-- --only v1.2` keeps the
// feeds whose name contains the text. Also prints one feed authenticated as KOReader does it, with Basic on every
// request (a password check each time), for information.
// Run `npm run build` first. BENCH_REQUESTS (default 200) sets the requests per feed, BENCH_WARMUP (30) the warm-up
// requests before them; BENCH_KEEP=1 keeps the data directory (its path is printed) for a closer look.
import { mkdtemp, rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claim, iso, openDatabase, openForBulkWrite, sessionCookie, startServer } from './support/server.mjs';

const { values: args } = parseArgs({ options: { only: { type: 'string' } } });
const BIG_SERIES_BOOKS = 2_000;
const PAGES_PER_BOOK = 20;
const BIG_LIBRARY_SERIES = 5_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const BUDGET_MS = 100;

/**
 * What is measured. `feed` and `baseline` give the paths from the ids of the data; the baseline is the REST list the
 * web client would load for the same screen.
 * @type {{ name: string, feed: (ids: Ids) => string, baseline: (ids: Ids) => string }[]}
 */
const FEEDS = [
  {
    name: 'OPDS v1.2 series of 2,000 books, first page',
    feed: (ids) => `/opds/v1.2/series/${ids.bigSeries}`,
    baseline: (ids) => `/api/v1/series/${ids.bigSeries}/books?sort=metadata.numberSort`,
  },
  {
    name: 'OPDS v1.2 library of 5,000 series, first page',
    feed: (ids) => `/opds/v1.2/libraries/${ids.bigLibrary}`,
    baseline: (ids) => `/api/v1/series?library_id=${ids.bigLibrary}&sort=metadata.titleSort`,
  },
  {
    name: 'OPDS v1.2 all series, first page',
    feed: () => '/opds/v1.2/series',
    baseline: () => '/api/v1/series?sort=metadata.titleSort',
  },
  {
    name: 'OPDS v1.2 latest books, first page',
    feed: () => '/opds/v1.2/books/latest',
    baseline: () => '/api/v1/books/latest',
  },
  {
    name: 'OPDS v2 series of 2,000 books, first page',
    feed: (ids) => `/opds/v2/series/${ids.bigSeries}`,
    baseline: (ids) => `/api/v1/series/${ids.bigSeries}/books?sort=metadata.numberSort`,
  },
  {
    name: 'OPDS v2 library of 5,000 series (browse), first page',
    feed: (ids) => `/opds/v2/libraries/${ids.bigLibrary}/browse`,
    baseline: (ids) => `/api/v1/series?library_id=${ids.bigLibrary}&sort=metadata.titleSort`,
  },
  {
    name: 'OPDS v2 library of 5,000 series (recommended)',
    feed: (ids) => `/opds/v2/libraries/${ids.bigLibrary}`,
    baseline: (ids) => `/api/v1/books/ondeck?library_id=${ids.bigLibrary}`,
  },
  {
    name: 'OPDS v2 latest books, first page',
    feed: () => '/opds/v2/libraries/books/latest',
    baseline: () => '/api/v1/books/latest',
  },
];

/** @typedef {{ bigSeries: string, bigLibrary: string }} Ids */

let counter = 0;
const id = () => `O${(++counter).toString(32).toUpperCase().padStart(12, '0')}`;
const EPOCH = Date.UTC(2023, 0, 1);

/** @returns {Ids} */
function populate(/** @type {string} */ dataDir) {
  const { db, insert: ins } = openForBulkWrite(dataDir);
  const now = iso(Date.now());
  const library = ins('library', ['id', 'name', 'root', 'created_date', 'last_modified_date']);
  const series = ins('series', [
    'id',
    'library_id',
    'name',
    'url',
    'file_last_modified',
    'created_date',
    'last_modified_date',
    'book_count',
  ]);
  const seriesMetadata = ins('series_metadata', [
    'series_id',
    'title',
    'title_sort',
    'publisher',
    'created_date',
    'last_modified_date',
  ]);
  const aggregation = ins('book_metadata_aggregation', ['series_id', 'created_date', 'last_modified_date']);
  const book = ins('book', [
    'id',
    'series_id',
    'library_id',
    'name',
    'url',
    'number',
    'file_last_modified',
    'file_size',
    'created_date',
    'last_modified_date',
  ]);
  const bookMetadata = ins('book_metadata', [
    'book_id',
    'title',
    'summary',
    'number',
    'number_sort',
    'created_date',
    'last_modified_date',
  ]);
  const media = ins('media', ['book_id', 'status', 'media_type', 'page_count', 'created_date', 'last_modified_date']);
  const page = ins('media_page', ['book_id', 'number', 'file_name', 'media_type', 'width', 'height', 'file_size']);
  const author = ins('book_metadata_author', ['book_id', 'name', 'role', 'position']);

  const addSeries = (/** @type {string} */ libraryId, /** @type {string} */ title, /** @type {number} */ books) => {
    const sid = id();
    const folder = `file:///bench/${libraryId}/${encodeURIComponent(title)}/`;
    series.run(sid, libraryId, title, folder, iso(EPOCH), iso(EPOCH), iso(EPOCH), books);
    seriesMetadata.run(sid, title, title, 'Bench Press', iso(EPOCH), iso(EPOCH));
    aggregation.run(sid, now, now);
    for (let n = 1; n <= books; n++) {
      const bid = id();
      const name = `${title} ${String(n).padStart(4, '0')}`;
      const created = iso(EPOCH + n * 60_000);
      book.run(
        bid,
        sid,
        libraryId,
        name,
        `${folder}${encodeURIComponent(name)}.cbz`,
        n,
        created,
        30e6,
        created,
        created,
      );
      bookMetadata.run(bid, name, n % 3 ? '' : `Issue ${n}.\nWhere it all goes on.`, String(n), n, created, created);
      media.run(bid, 'READY', 'application/zip', PAGES_PER_BOOK, now, now);
      author.run(bid, 'Jane Writer', 'writer', 0);
      for (let p = 0; p < PAGES_PER_BOOK; p++) {
        page.run(
          bid,
          p,
          `${String(p).padStart(3, '0')}.${p % 2 ? 'webp' : 'jpg'}`,
          p % 2 ? 'image/webp' : 'image/jpeg',
          1600,
          2400,
          400_000,
        );
      }
    }
    return sid;
  };

  const bigLibrary = id();
  const comics = id();
  /** @type {string} */
  let bigSeries = '';
  db.transaction(() => {
    library.run(comics, 'Comics', 'file:///bench/comics', now, now);
    library.run(bigLibrary, 'Many series', 'file:///bench/many', now, now);
    bigSeries = addSeries(comics, 'Long Runner', BIG_SERIES_BOOKS);
    for (let s = 0; s < BIG_LIBRARY_SERIES; s++) addSeries(bigLibrary, `Series ${String(s).padStart(5, '0')}`, 1);
  })();
  db.close();
  return { bigSeries, bigLibrary };
}

const percentile = (/** @type {number[]} */ sorted, /** @type {number} */ p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** p50/p95 of GETs of `path` (each answer read whole and checked 200). */
async function measure(
  /** @type {string} */ base,
  /** @type {string} */ path,
  /** @type {Record<string, string>} */ headers,
  requests = REQUESTS,
) {
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i < WARMUP + requests; i++) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${base}${path}`, { headers });
    const body = await res.arrayBuffer();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${Buffer.from(body).toString().slice(0, 200)}`);
    if (i >= WARMUP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const work = await mkdtemp(join(tmpdir(), 'quire-bench-opds-'));
const dataDir = join(work, 'data');
let server;
let failed = false;
try {
  const authorization = `Basic ${Buffer.from('bench@example.org:bench-secret').toString('base64')}`;
  // A first start creates the database through the server's migrations; the claim creates the admin.
  server = await startServer({ dataDir });
  await claim(server.base);
  await server.stop();
  const started = Date.now();
  const ids = populate(dataDir);
  console.log(
    `data: ${BIG_SERIES_BOOKS} books in one series, ${BIG_LIBRARY_SERIES} series in one library (${Date.now() - started} ms to write)`,
  );
  openDatabase(dataDir).close();
  server = await startServer({ dataDir, startTimeoutMs: 600_000 });
  const cookie = await sessionCookie(server.base, authorization);
  const session = { cookie };
  const atom = { cookie, accept: 'application/atom+xml' };

  const rows = [];
  for (const f of FEEDS.filter((x) => !args.only || x.name.includes(args.only))) {
    const baseline = await measure(server.base, f.baseline(ids), session);
    const feed = await measure(server.base, f.feed(ids), atom);
    const over = feed.p95 > BUDGET_MS;
    failed ||= over;
    rows.push({
      feed: f.name,
      'p50 ms': feed.p50.toFixed(1),
      'p95 ms': feed.p95.toFixed(1),
      'baseline p95 ms': baseline.p95.toFixed(1),
      'p95 / baseline': (feed.p95 / baseline.p95).toFixed(2),
      budget: over ? `OVER ${BUDGET_MS} ms` : 'ok',
    });
  }
  console.table(rows);
  const first = FEEDS[0];
  if (first && (!args.only || first.name.includes(args.only))) {
    const basic = await measure(server.base, first.feed(ids), { authorization, accept: 'application/atom+xml' }, 20);
    console.log(
      `${first.name}, Basic on every request (KOReader): p50 ${basic.p50.toFixed(1)} ms, p95 ${basic.p95.toFixed(1)} ms`,
    );
  }
} finally {
  await server?.stop();
  if (process.env.BENCH_KEEP === '1') console.log(`data kept in ${dataDir}`);
  else await rm(work, { recursive: true, force: true });
}
if (failed) {
  console.error(`A feed's first page is over ${BUDGET_MS} ms at p95.`);
  process.exit(1);
}

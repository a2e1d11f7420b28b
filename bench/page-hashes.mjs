// Duplicate pages on a large library: 10,000 books × 6 hashed pages (issue 14), written straight into the built
// server's SQLite database (created by the server's own migrations on a first start), then served by the built server.
// Measures:
// - storing the 60,000 page hashes as HashBookPages does (one transaction per book), with the triggers that keep
//   `page_hash_count`, against the same writes on a copy of the database without those triggers (the baseline);
// - the unknown-duplicates list's first page (`GET /api/v1/page-hashes/unknown`, the web client's default), p50/p95
//   over sequential requests, and in the same run, straight on the database, Quire's query on its index against the
//   query that groups every page row (what the list costs without `page_hash_count`).
// Fails when the endpoint's p95 is over 50 ms. Run `npm run build` first. BENCH_REQUESTS (default 200) sets the
// requests; BENCH_KEEP=1 keeps the data directory (its path is printed).
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { claim, iso, openDatabase, openForBulkWrite, sessionCookie, startServer } from './support/server.mjs';

const BOOKS = 10_000;
const BOOKS_PER_SERIES = 20;
const PAGES = 6;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 50;
const BUDGET_MS = 50;
/** Hashes shared by several books: 1,000 credits pages (each in 10 books), 500 scanner notes (each in 5). */
const CREDITS = 1_000;
const NOTES = 500;
/** Credits hashes an administrator already decided on (the list must skip them). */
const KNOWN = 100;

const id = (/** @type {string} */ prefix, /** @type {number} */ n) => `${prefix}${String(n).padStart(12, '0')}`;
const hex = (/** @type {string} */ s) => Buffer.from(s.padEnd(16, '.')).toString('hex').slice(0, 32);

/** The hash of page `p` of book `b`: the last page is a credits page, every 4th book opens with a scanner's note. */
function pageHash(/** @type {number} */ b, /** @type {number} */ p) {
  if (p === PAGES - 1) return hex(`credits-${b % CREDITS}`);
  if (p === 0 && b % 4 === 0) return hex(`note-${(b / 4) % NOTES}`);
  return hex(`page-${b}-${p}`);
}
const pageSize = (/** @type {number} */ b, /** @type {number} */ p) =>
  p === PAGES - 1 ? 40_000 + (b % CREDITS) * 10 : 300_000 + ((b * 7 + p) % 1000);

/**
 * Series, books, READY media and pages without hashes, in one transaction.
 * @param {string} dataDir
 */
function populate(dataDir) {
  const { db, insert: ins } = openForBulkWrite(dataDir);
  const now = iso(Date.now());
  const library = ins('library', ['id', 'name', 'root', 'hash_pages', 'created_date', 'last_modified_date']);
  const series = ins('series', [
    'id',
    'library_id',
    'name',
    'url',
    'file_last_modified',
    'created_date',
    'last_modified_date',
  ]);
  const seriesMetadata = ins('series_metadata', [
    'series_id',
    'title',
    'title_sort',
    'created_date',
    'last_modified_date',
  ]);
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
    'number',
    'number_sort',
    'created_date',
    'last_modified_date',
  ]);
  const media = ins('media', ['book_id', 'status', 'media_type', 'page_count', 'created_date', 'last_modified_date']);
  const page = ins('media_page', ['book_id', 'number', 'file_name', 'media_type', 'width', 'height', 'file_size']);
  const known = ins('page_hash', ['hash', 'size', 'action', 'created_date', 'last_modified_date']);
  const libraryId = id('L', 1);
  db.transaction(() => {
    library.run(libraryId, 'Comics', 'file:///bench/comics', 1, now, now);
    let seriesId = '';
    for (let b = 0; b < BOOKS; b++) {
      if (b % BOOKS_PER_SERIES === 0) {
        seriesId = id('S', b / BOOKS_PER_SERIES);
        const title = `Series ${b / BOOKS_PER_SERIES}`;
        series.run(seriesId, libraryId, title, `file:///bench/comics/${encodeURIComponent(title)}/`, now, now, now);
        seriesMetadata.run(seriesId, title, title, now, now);
      }
      const bookId = id('B', b);
      const name = `Book ${b}`;
      book.run(
        bookId,
        seriesId,
        libraryId,
        name,
        `file:///bench/comics/${encodeURIComponent(name)}.cbz`,
        b,
        now,
        2e7,
        now,
        now,
      );
      bookMetadata.run(bookId, name, String(b), b, now, now);
      media.run(bookId, 'READY', 'application/zip', PAGES, now, now);
      for (let p = 0; p < PAGES; p++)
        page.run(bookId, p, `${String(p + 1).padStart(3, '0')}.jpg`, 'image/jpeg', 1200, 1800, pageSize(b, p));
    }
    for (let k = 0; k < KNOWN; k++) known.run(hex(`credits-${k}`), pageSize(k, PAGES - 1), 'IGNORE', now, now);
  })();
  db.close();
}

/**
 * Stores every page hash as HashBookPages does (MediaRepository.setPageHashes: one transaction per book); ms.
 * @param {string} file
 */
function storeHashes(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const update = db.prepare('UPDATE media_page SET file_hash = ? WHERE book_id = ? AND number = ?');
  const perBook = db.transaction((/** @type {number} */ b) => {
    for (let p = 0; p < PAGES; p++) update.run(pageHash(b, p), id('B', b), p);
  });
  const started = process.hrtime.bigint();
  for (let b = 0; b < BOOKS; b++) perBook(b);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  db.close();
  return ms;
}

const percentile = (/** @type {number[]} */ sorted, /** @type {number} */ p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/**
 * p50/p95 of `run` over REQUESTS calls after WARMUP ones.
 * @param {() => unknown} run
 */
async function time(run) {
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const started = process.hrtime.bigint();
    await run();
    if (i >= WARMUP) times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const work = await mkdtemp(join(tmpdir(), 'quire-bench-page-hashes-'));
const dataDir = join(work, 'data');
let server;
try {
  server = await startServer({ dataDir });
  const authorization = await claim(server.base);
  await server.stop();

  let started = Date.now();
  populate(dataDir);
  console.log(`database: ${BOOKS} books × ${PAGES} pages written in ${Date.now() - started} ms`);

  // Baseline copy: the same database without the triggers that keep page_hash_count.
  const baselineFile = join(work, 'baseline.sqlite');
  await copyFile(join(dataDir, 'database.sqlite'), baselineFile);
  const plain = new Database(baselineFile);
  for (const name of plain
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'page_hash_count%'`)
    .pluck()
    .all())
    plain.exec(`DROP TRIGGER ${name}`);
  plain.close();
  const withoutCounts = storeHashes(baselineFile);
  const withCounts = storeHashes(join(dataDir, 'database.sqlite'));
  const hashes = BOOKS * PAGES;
  console.log(`\nstoring ${hashes} page hashes, one transaction per book:`);
  console.log(
    `  Quire (triggers keep page_hash_count)   ${withCounts.toFixed(0).padStart(6)} ms  ${(hashes / (withCounts / 1000)).toFixed(0)} pages/s`,
  );
  console.log(
    `  baseline (no counts kept)               ${withoutCounts.toFixed(0).padStart(6)} ms  ${(hashes / (withoutCounts / 1000)).toFixed(0)} pages/s`,
  );
  console.log(`  ratio ${(withCounts / withoutCounts).toFixed(2)}`);

  server = await startServer({ dataDir, startTimeoutMs: 120_000 });
  const cookie = await sessionCookie(server.base, authorization);
  const base = server.base;
  // A first start on a database written behind its back builds the search index in the background; waiting for it
  // (a search waits) keeps that work out of the figures, as bench:api does.
  const warm = await fetch(`${base}/api/v1/books/list?size=1`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ fullTextSearch: 'book' }),
  });
  if (!warm.ok) throw new Error(`warm-up: ${warm.status}`);
  /** @type {{ totalElements: number, content: { hash: string, matchCount: number }[] }} */
  let first = { totalElements: 0, content: [] };
  const endpoint = await time(async () => {
    const res = await fetch(`${base}/api/v1/page-hashes/unknown`, { headers: { cookie } });
    if (!res.ok) throw new Error(`GET /unknown: ${res.status} ${await res.text()}`);
    first = await res.json();
  });
  const expected = CREDITS - KNOWN + NOTES;
  if (first.totalElements !== expected || first.content.length !== 10)
    throw new Error(
      `unknown list: ${first.totalElements} hashes, ${first.content.length} on the page; expected ${expected}, 10`,
    );

  const ro = openDatabase(dataDir);
  const indexed = ro.prepare(`SELECT c.hash, c.file_size, c.match_count FROM page_hash_count c
    WHERE c.match_count > 1 AND NOT EXISTS (SELECT 1 FROM page_hash k WHERE k.hash = c.hash)
    ORDER BY c.match_count * coalesce(c.file_size, 0) DESC, c.hash LIMIT 10`);
  const indexedCount = ro.prepare(`SELECT count(*) FROM page_hash_count c
    WHERE c.match_count > 1 AND NOT EXISTS (SELECT 1 FROM page_hash k WHERE k.hash = c.hash)`);
  const grouped = ro.prepare(`SELECT p.file_hash, max(p.file_size) AS size, count(*) AS n FROM media_page p
    WHERE p.file_hash != '' AND NOT EXISTS (SELECT 1 FROM page_hash k WHERE k.hash = p.file_hash)
    GROUP BY p.file_hash HAVING count(*) > 1 ORDER BY count(*) * max(p.file_size) DESC, p.file_hash LIMIT 10`);
  const groupedCount = ro.prepare(`SELECT count(*) FROM (SELECT 1 FROM media_page p
    WHERE p.file_hash != '' AND NOT EXISTS (SELECT 1 FROM page_hash k WHERE k.hash = p.file_hash)
    GROUP BY p.file_hash HAVING count(*) > 1)`);
  const ours = await time(() => [indexed.all(), indexedCount.get()]);
  const baseline = await time(() => [grouped.all(), groupedCount.get()]);
  const plan = ro
    .prepare(`EXPLAIN QUERY PLAN ${indexed.source}`)
    .all()
    .map((r) => /** @type {{ detail: string }} */ (r).detail);
  ro.close();

  console.log(
    `\nunknown duplicates, first page (${expected} hashes held by several pages, ${KNOWN} known ones skipped):`,
  );
  console.log(`${''.padEnd(58)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
  const row = (/** @type {string} */ name, /** @type {{ p50: number, p95: number }} */ r) =>
    console.log(`${name.padEnd(58)} ${r.p50.toFixed(2).padStart(8)} ${r.p95.toFixed(2).padStart(8)}`);
  row('GET /api/v1/page-hashes/unknown (HTTP, size 10)', endpoint);
  row('  its queries: page_hash_count index (page + total)', ours);
  row('  baseline: grouping every page row (page + total)', baseline);
  console.log(`  ratio baseline / index: p50 ${(baseline.p50 / ours.p50).toFixed(1)}×`);
  console.log(`  query plan: ${plan.join('; ')}`);
  const over = endpoint.p95 > BUDGET_MS;
  console.log(over ? `\nFAIL: p95 above ${BUDGET_MS} ms` : `\nOK: p95 within ${BUDGET_MS} ms`);
  process.exitCode = over ? 1 : 0;
} finally {
  await server?.stop();
  if (process.env.BENCH_KEEP) console.log(`kept ${work}`);
  else await rm(work, { recursive: true, force: true });
}

// Library scan throughput of the BUILT server (run `npm run build` first):
//   npm run bench:scan -- [--books 2000] [--pages 20] [--per-series 20] [--pool 1,2] [--cpu-prof]
//                         [--profile-dir DIR] [--timeout 900] [--idle-wait 35]
//
// Generates --books CBZ files of --pages real JPEG pages (a few distinct sharp-made pages reused, plus a
// per-book ComicInfo.xml so that no two files are equal) in --per-series books per series folder, then,
// for each --pool value (the taskPoolSize setting), starts a fresh server on a fresh data dir, claims it,
// sets taskPoolSize, creates the library (which queues the scan) and measures, from that request:
//   scan        until every book row exists,
//   analysis    until every media row is READY,
//   thumbnails  until every book has a thumbnail_book row (metadata refreshes run beside them),
//   all tasks   until the task queue is empty (file hashes, series metadata),
// by polling the server's SQLite database read-only, while sampling the server's RSS every 100 ms; then
//   idle RSS    the server's RSS --idle-wait seconds after the queue emptied (worker threads end after 20-60 s
//               without work).
// Baseline: the time to list every archive's central directory with the server's zip library (yauzl) and
// no database, sequentially, and with `unzip -l` when installed.
// Goals: scan + analysis ≤ 3 × the yauzl listing; peak RSS < 250 MB (defined for 2,000 books).
// --cpu-prof runs the server under `node --cpu-prof` and prints its top self-time functions.
// Everything lives in one temp folder, deleted at the end (also on failure or Ctrl-C).
import { execFile, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import yauzl from 'yauzl';
import { makeJpegPages, writeZip } from './support/cbz.mjs';
import { printProfile } from './support/cpuprofile.mjs';
import {
  claim,
  cpuSeconds,
  createLibrary,
  memoryMb,
  openDatabase,
  patchSettings,
  sampleRss,
  sleep,
  startServer,
} from './support/server.mjs';

const { values: opt } = parseArgs({
  options: {
    books: { type: 'string', default: '2000' },
    pages: { type: 'string', default: '20' },
    'per-series': { type: 'string', default: '20' },
    pool: { type: 'string', default: '1,2' },
    'cpu-prof': { type: 'boolean', default: false },
    'profile-dir': { type: 'string' },
    timeout: { type: 'string', default: '900' },
    'idle-wait': { type: 'string', default: '35' },
  },
});
const BOOKS = positive(opt.books, '--books');
const PAGES = positive(opt.pages, '--pages');
const PER_SERIES = positive(opt['per-series'], '--per-series');
const POOLS = opt.pool.split(',').map((p) => positive(p, '--pool'));
const TIMEOUT_MS = positive(opt.timeout, '--timeout') * 1000;
const IDLE_WAIT_MS = positive(opt['idle-wait'], '--idle-wait') * 1000;
const CPU_PROF = opt['cpu-prof'] || opt['profile-dir'] !== undefined;

// Pages: 800 × 1200 gaussian noise tinted per page, quality 75: ≈ 80 KiB, compresses like a scanned page.
const PAGE = { width: 800, height: 1200, quality: 75, noise: 8 };
const DISTINCT_PAGES = 24; // a book takes PAGES of them, in an order that depends on the book
const RSS_GOAL_MB = 250;
const RATIO_GOAL = 3;
const WRITE_CONCURRENCY = 16;

/**
 * One measured phase: `count` reads how many books reached it; `firstAt`/`doneAt` are ms from the library's
 * creation to its first and last book, `peakMb` the RSS peak while it ran.
 * @typedef {{ name: string, what: string, count: { get(): number }, firstAt?: number, doneAt?: number,
 *   peakMb?: number }} Phase
 * @typedef {Required<Phase>} FinishedPhase
 * @typedef {[FinishedPhase, FinishedPhase, FinishedPhase, FinishedPhase]} FinishedPhases scan, analysis, thumbnails, all tasks
 * @typedef {{ yauzlMs: number, unzipMs: number | null }} Baseline
 * @typedef {{ pool: number, phases: FinishedPhases, scanAnalysisMs: number, ratio: number, peak: number,
 *   hwm: number, idleMb: number }} Result
 */

/**
 * @param {string} s
 * @param {string} name
 */
function positive(s, name) {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${s}`);
  return n;
}
const pad = (/** @type {number} */ n, w = 3) => String(n).padStart(w, '0');
const secs = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(2)} s`;
const rate = (/** @type {number} */ n, /** @type {number} */ ms) => (ms > 0 ? (n / (ms / 1000)).toFixed(0) : '∞');
const mb = (/** @type {number} */ x) => `${x.toFixed(0)} MB`;

const work = await mkdtemp(join(tmpdir(), 'quire-bench-scan-'));
/** @type {Awaited<ReturnType<typeof startServer>> | undefined} */
let server;
/** @type {Promise<void> | undefined} */
let cleaning;
async function cleanup() {
  cleaning ??= (async () => {
    await server?.stop().catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    console.error(`\n${sig}: stopping the server and deleting ${work}`);
    void cleanup().finally(() => process.exit(130));
  });
}

try {
  const root = join(work, 'library');
  const files = await generate(root);
  const baseline = await baselines(files);
  /** @type {Result[]} */
  const results = [];
  for (const pool of POOLS) results.push(await measure(root, pool, baseline));
  summary(results, baseline);
} catch (err) {
  process.exitCode = 1;
  console.error(err);
} finally {
  await cleanup();
}

/**
 * Writes the library; returns the CBZ paths.
 * @param {string} root
 */
async function generate(root) {
  const t0 = performance.now();
  const distinct = await makeJpegPages(DISTINCT_PAGES, PAGE);
  const avgPage = distinct.reduce((n, p) => n + p.data.length, 0) / distinct.length;
  /** @type {{ b: number, s: number, n: number, series: string, dir: string, file: string }[]} */
  const jobs = [];
  for (let b = 0; b < BOOKS; b++) {
    const s = Math.floor(b / PER_SERIES) + 1;
    const n = (b % PER_SERIES) + 1;
    const series = `Bench Series ${pad(s)}`;
    jobs.push({ b, s, n, series, dir: join(root, series), file: join(root, series, `${series} v${pad(n)}.cbz`) });
  }
  for (const dir of new Set(jobs.map((j) => j.dir))) await mkdir(dir, { recursive: true });
  let bytes = 0;
  let next = 0;
  const writer = async () => {
    while (next < jobs.length) {
      const { b, n, series, file } = /** @type {(typeof jobs)[number]} */ (jobs[next++]);
      /** @type {import('../packages/server/test/support/zip-writer.mjs').ZipEntry[]} */
      const entries = [];
      for (let p = 0; p < PAGES; p++) {
        // Step 5 is prime to 24: a book's pages are all different when PAGES ≤ DISTINCT_PAGES.
        const page = /** @type {(typeof distinct)[number]} */ (distinct[(b * 7 + p * 5) % DISTINCT_PAGES]);
        entries.push({ name: `page-${pad(p + 1)}.jpg`, data: page.data, crc: page.crc });
      }
      const comicInfo =
        `<?xml version="1.0" encoding="utf-8"?>\n<ComicInfo><Series>${series}</Series><Number>${n}</Number>` +
        `<Title>Book ${b + 1}</Title><PageCount>${PAGES}</PageCount></ComicInfo>\n`;
      entries.push({ name: 'ComicInfo.xml', data: Buffer.from(comicInfo), deflate: true });
      const size = await writeZip(file, entries);
      bytes += size;
    }
  };
  await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, writer));
  const ms = performance.now() - t0;
  // Flush the new files now, so that the kernel's write-back does not compete with the measurements.
  const t1 = performance.now();
  spawnSync('sync', { stdio: 'ignore' });
  const syncMs = performance.now() - t1;
  console.log(
    `generated ${BOOKS} CBZ × ${PAGES} JPEG pages (${PAGE.width}×${PAGE.height}, ${DISTINCT_PAGES} distinct, ` +
      `avg ${(avgPage / 1024).toFixed(0)} KiB) in ${Math.ceil(BOOKS / PER_SERIES)} series folders: ` +
      `${(bytes / 2 ** 30).toFixed(2)} GiB in ${secs(ms)} (+ ${secs(syncMs)} sync)`,
  );
  return jobs.map((j) => j.file);
}

/**
 * Lists one archive's central directory with yauzl, as the server opens it; returns the entry count.
 * @param {string} file
 * @returns {Promise<number>}
 */
function listWithYauzl(file) {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true },
      (err, zip) => {
        if (err) return reject(err);
        let count = 0;
        zip.on('error', (e) => {
          zip.close();
          reject(e);
        });
        zip.on('entry', () => {
          count++;
          zip.readEntry();
        });
        zip.on('end', () => {
          zip.close();
          resolve(count);
        });
        zip.readEntry();
      },
    );
  });
}

/**
 * @param {string[]} files
 * @returns {Promise<Baseline>}
 */
async function baselines(files) {
  const run = async () => {
    const t0 = performance.now();
    let entries = 0;
    for (const f of files) entries += await listWithYauzl(f);
    return { ms: performance.now() - t0, entries };
  };
  await run(); // warm-up (JIT); the files are in the page cache since they were just written
  const runs = [await run(), await run(), await run()].sort((a, b) => a.ms - b.ms);
  const median = /** @type {(typeof runs)[number]} */ (runs[1]);
  const yauzlMs = median.ms;
  console.log(
    `baseline yauzl: central directories of ${files.length} CBZ, sequential, median of 3: ${secs(yauzlMs)} ` +
      `(${rate(files.length, yauzlMs)} books/s, ${median.entries} entries)`,
  );
  /** @type {number | null} */
  let unzipMs = null;
  if (spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0) {
    const exec = promisify(execFile);
    const t0 = performance.now();
    for (const f of files) await exec('unzip', ['-l', f], { maxBuffer: 16 * 2 ** 20 });
    unzipMs = performance.now() - t0;
    console.log(
      `baseline unzip -l: ${files.length} processes, sequential: ${secs(unzipMs)} (${rate(files.length, unzipMs)} books/s)`,
    );
  } else {
    console.log('baseline unzip -l: unzip not installed, skipped');
  }
  return { yauzlMs, unzipMs };
}

/**
 * One server run with `taskPoolSize = pool`.
 * @param {string} root
 * @param {number} pool
 * @param {Baseline} baseline
 * @returns {Promise<Result>}
 */
async function measure(root, pool, baseline) {
  const dataDir = join(work, `data-pool${pool}`);
  const profDir = opt['profile-dir'] ?? join(work, `profile-pool${pool}`);
  await mkdir(dataDir, { recursive: true });
  if (CPU_PROF) await mkdir(profDir, { recursive: true });
  const before = CPU_PROF ? new Set(await readdir(profDir)) : new Set();
  console.log(`\n— taskPoolSize ${pool}${CPU_PROF ? ' (node --cpu-prof)' : ''} —`);
  const running = await startServer({
    dataDir,
    nodeArgs: CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
  });
  server = running;
  const db = openDatabase(dataDir);
  /** A `select count(…)` statement, read as a number. */
  const counter = (/** @type {string} */ sql) => /** @type {{ get(): number }} */ (db.prepare(sql).pluck());
  /** @type {ReturnType<typeof sampleRss> | undefined} */
  let rss;
  try {
    const authorization = await claim(server.base);
    if (pool !== 1) await patchSettings(server.base, authorization, { taskPoolSize: pool });
    const q = {
      books: counter('select count(*) from book'),
      ready: counter("select count(*) from media where status = 'READY'"),
      failed: counter("select count(*) from media where status in ('ERROR', 'UNSUPPORTED')"),
      failures: db.prepare("select status, comment from media where status in ('ERROR', 'UNSUPPORTED') limit 3"),
      thumbs: counter('select count(distinct book_id) from thumbnail_book'),
      tasks: /** @type {import('better-sqlite3').Statement<[], { kind: string, n: number }>} */ (
        db.prepare('select kind, count(*) n from task group by kind order by n desc')
      ),
      scanTask: counter("select count(*) from task where kind = 'ScanLibrary'"),
      queued: counter('select count(*) from task'),
    };
    // The queue is empty once the follow-ups are done too: file hashes, series metadata refresh and aggregation.
    const drained = { get: () => (q.thumbs.get() >= BOOKS && q.queued.get() === 0 ? BOOKS : 0) };
    rss = sampleRss(running.pid, 100);
    /** @type {Phase[]} */
    const phases = [
      { name: 'scan', what: 'every book row exists', count: q.books },
      { name: 'analysis', what: 'every media READY', count: q.ready },
      { name: 'thumbnails', what: 'every book has a thumbnail', count: q.thumbs },
      { name: 'all tasks', what: 'the task queue is empty', count: drained },
    ];
    const t0 = performance.now();
    await createLibrary(server.base, authorization, { name: 'Bench', root });
    let lastLog = t0;
    let lastCpu = await cpuSeconds(running.pid);
    let lastReady = 0;
    /** @type {number | undefined} */
    let scanTaskEndAt;
    for (;;) {
      const now = performance.now() - t0;
      if (scanTaskEndAt === undefined && q.scanTask.get() === 0) scanTaskEndAt = now;
      for (const p of phases) {
        if (p.doneAt !== undefined) continue;
        const n = p.count.get();
        if (n > 0 && p.firstAt === undefined) p.firstAt = p.name === 'all tasks' ? phases[2]?.doneAt : now;
        if (n >= BOOKS) {
          p.doneAt = now;
          p.peakMb = rss.mark();
        }
      }
      if (phases.every((p) => p.doneAt !== undefined)) break;
      if (q.failed.get() > 0) throw new Error(`analysis failed: ${JSON.stringify(q.failures.all())}`);
      if (now > TIMEOUT_MS) {
        const queued = q.tasks.all().map((t) => `${t.kind} ${t.n}`);
        const progress = phases.map((p) => `${p.name} ${p.count.get()}`).join(', ');
        throw new Error(`timeout after ${secs(now)}: ${progress}; queued ${queued.join(', ') || 'none'}`);
      }
      if (performance.now() - lastLog > 5_000) {
        // Progress, with the analysis rate and the server's CPU use (all threads) since the last line.
        const cpu = await cpuSeconds(running.pid);
        const ready = q.ready.get();
        const dt = performance.now() - lastLog;
        const progress = phases.map((p) => `${p.name} ${p.count.get()}`).join(', ');
        console.log(
          `  … ${secs(now)}: ${progress} (${rate(ready - lastReady, dt)} analysed/s), ` +
            `server CPU ${((((cpu - lastCpu) * 1000) / dt) * 100).toFixed(0)} %, RSS ${mb(rss.last)}`,
        );
        lastLog = performance.now();
        lastCpu = cpu;
        lastReady = ready;
      }
      await sleep(50);
    }
    const { peak, hwm, samples } = await rss.stop();
    rss = undefined;
    await sleep(IDLE_WAIT_MS);
    const idleMb = (await memoryMb(running.pid)).rss;
    // The loop above ends once every phase has its times.
    const finished = /** @type {FinishedPhases} */ (phases);

    // Thumbnails (and metadata refreshes) are queued by each analysis one priority above AnalyzeBook, so
    // they run interleaved with the analyses: the phases overlap. "span" runs from the phase's first book
    // (from the library creation for the scan) to its last; "+wall" is what it added after the previous one.
    console.log(
      '  phase        first at    done at       span   books/s (span)   books/s (from start)      +wall   peak RSS',
    );
    let prev = 0;
    for (const p of finished) {
      const span = p.doneAt - (p.name === 'scan' ? 0 : p.firstAt);
      console.log(
        `  ${p.name.padEnd(11)} ${secs(p.firstAt).padStart(9)} ${secs(p.doneAt).padStart(10)} ${secs(span).padStart(10)}` +
          `   ${rate(BOOKS, span).padStart(14)}   ${rate(BOOKS, p.doneAt).padStart(20)}` +
          `   ${secs(p.doneAt - prev).padStart(8)}   ${mb(p.peakMb).padStart(8)}`,
      );
      prev = p.doneAt;
    }
    if (scanTaskEndAt !== undefined) console.log(`  ScanLibrary task ended at ${secs(scanTaskEndAt)}`);
    const scanAnalysisMs = finished[1].doneAt;
    const ratio = scanAnalysisMs / baseline.yauzlMs;
    console.log(`  peak RSS ${mb(peak)} (${samples} samples every 100 ms; kernel VmHWM ${mb(hwm)})`);
    console.log(`  idle RSS ${mb(idleMb)} (${IDLE_WAIT_MS / 1000} s after the queue emptied)`);
    console.log(
      `  scan + analysis ${secs(scanAnalysisMs)} = ${ratio.toFixed(1)} × yauzl listing` +
        (baseline.unzipMs ? `, ${(scanAnalysisMs / baseline.unzipMs).toFixed(2)} × unzip -l` : ''),
    );
    return { pool, phases: finished, scanAnalysisMs, ratio, peak, hwm, idleMb };
  } finally {
    await rss?.stop();
    db.close();
    await running.stop();
    server = undefined;
    if (CPU_PROF) {
      const profiles = (await readdir(profDir)).filter((f) => f.endsWith('.cpuprofile') && !before.has(f));
      for (const f of profiles) await printProfile(join(profDir, f), 25, (l) => console.log(`  ${l}`));
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * @param {Result[]} results
 * @param {Baseline} baseline
 */
function summary(results, baseline) {
  const pf = (/** @type {boolean} */ ok) => (ok ? 'PASS' : 'FAIL');
  const rssNote = BOOKS === 2000 ? '' : ' (goal defined for 2,000 books)';
  console.log(`\nsummary: ${BOOKS} books × ${PAGES} pages; yauzl listing baseline ${secs(baseline.yauzlMs)}`);
  for (const r of results) {
    console.log(
      `  taskPoolSize ${r.pool}: done at scan ${secs(r.phases[0].doneAt)}, analysis ${secs(r.phases[1].doneAt)}, ` +
        `thumbnails ${secs(r.phases[2].doneAt)}, all tasks ${secs(r.phases[3].doneAt)}; peak RSS ${mb(r.peak)}, idle RSS ${mb(r.idleMb)}`,
    );
    console.log(
      `    goal scan + analysis ≤ ${RATIO_GOAL} × listing: ${r.ratio.toFixed(1)} × → ${pf(r.ratio <= RATIO_GOAL)}`,
    );
    console.log(
      `    goal peak RSS < ${RSS_GOAL_MB} MB: ${r.peak.toFixed(1)} MB → ${pf(r.peak < RSS_GOAL_MB)}${rssNote}`,
    );
  }
}

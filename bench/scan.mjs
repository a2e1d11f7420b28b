// Import speed of the BUILT server (run `npm run build` first), as issue 18's table measures it:
//   npm run bench:scan -- [--books 300] [--pages 20] [--per-series 20] [--options web,api] [--pool N,M]
//                         [--cpu-prof] [--profile-dir DIR] [--timeout 900] [--idle-wait 60]
//                         [--database sqlite|postgres|both] [--instances 1,2] [--server A,B]
//
// Generates --books CBZ files of --pages JPEG pages that compress and decode like scans (1600×2400 gaussian
// noise, ≈ 0.5 MiB a page; a few distinct pages reused, plus a per-book ComicInfo.xml so that no two files are
// equal) in --per-series books per series folder, then, for each --options value and each --pool value, starts
// a fresh server on a fresh data dir, claims it, creates the library (which queues the scan) and measures, from
// the create request:
//   scan        until every book row exists,
//   analysis    until every media row is READY,
//   ready       until every book is READY with a poster (a thumbnail_book row): the import rate of the issue,
//   all tasks   until the task queue is empty (file hashes, metadata refreshes, series metadata),
// by polling the server's database read-only, while sampling the server's RSS every 100 ms; then
//   CPU         the server's CPU time (all threads) until every book is READY with a poster, per book: on a
//               machine shared with other work, the figure its load inflates least; and until the queue is empty
//               (with the barcode search on, most of the import's CPU comes after READY);
//   settled RSS the server's RSS every 5 s for --idle-wait seconds after the queue emptied (the goal: under
//               130 MB within a minute), then what of it is anonymous memory and what pages of mapped files (the
//               shared libraries' code the work touched, the database SQLite maps), against before the import.
// --options web   the body the web client's add-library dialog sends (ui.md §12.6: ISBN barcode off, the suggested
//                 directory exclusions);
// --options api   a body with the name and root only: the API's defaults (engine.md §1.2: ISBN barcode on).
// --pool          taskPoolSize values to set through the settings API; without it the server's default is kept.
// Per phase: the server's own task metrics (task_metric: runs and summed time per task kind) break the time down
// into walk (ScanLibrary), analysis, file hash, poster, metadata refresh (with the barcode search when on), series
// refresh and aggregation; "task overhead" is the wall time the runners spent outside any task.
// Baselines, in the same run: every archive's central directory listed with the server's zip library (yauzl), no
// database, sequentially; `unzip -l`, one process per series folder (`unzip -l 'folder/*.cbz'`), when installed; and
// the work floor: what an import cannot skip, done with the server's native libraries and nothing else (no database,
// no task queue, no server), two books at a time as the server's two runners: each file read whole into a reused
// buffer, every entry's CRC checked (@node-rs/crc32), the file's XXH3-128 (hash-wasm), the first page made a 300 px
// JPEG poster (sharp). Komga reads every byte too (its file hash), and issue 11 has every page checked.
// --cpu-prof runs the server under `node --cpu-prof` and prints its top self-time functions.
// --database postgres runs the same import on PostgreSQL (a throw-away cluster per run, durability off:
// bench/support/postgres.mjs), with each --instances value: 2 starts two built servers on one database, one data
// dir and one library folder (the library created through the first), both running tasks off the shared
// graphile-worker queue; CPU is then given per instance. `both` runs SQLite first, as the baseline of the same
// sitting.
// Everything lives in one temp folder, deleted at the end (also on failure or Ctrl-C).
import { execFile, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { LIBRARY_FORM_DEFAULTS } from '@quire/api/constants';
import pg from 'pg';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { makeJpegPages, writeZip } from './support/cbz.mjs';
import { printProfile } from './support/cpuprofile.mjs';
import {
  claim,
  cpuSeconds,
  createLibrary,
  memoryMb,
  residentFiles,
  openDatabase,
  patchSettings,
  sampleRss,
  sleep,
  startServer,
} from './support/server.mjs';
import { POSTGRES_SETTINGS, startPostgres } from './support/postgres.mjs';

/** The server's native hashing libraries (its dependencies, not the benchmarks'). */
const serverRequire = createRequire(new URL('../packages/server/package.json', import.meta.url));
const { crc32 } = /** @type {typeof import('@node-rs/crc32')} */ (serverRequire('@node-rs/crc32'));
const { createXXHash128 } = /** @type {typeof import('hash-wasm')} */ (serverRequire('hash-wasm'));

const { values: opt } = parseArgs({
  options: {
    books: { type: 'string', default: '300' },
    pages: { type: 'string', default: '20' },
    'per-series': { type: 'string', default: '20' },
    options: { type: 'string', default: 'web,api' },
    pool: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    'profile-dir': { type: 'string' },
    timeout: { type: 'string', default: '900' },
    'idle-wait': { type: 'string', default: '60' },
    database: { type: 'string', default: 'sqlite' },
    instances: { type: 'string', default: '1' },
    server: { type: 'string' },
  },
});
const BOOKS = positive(opt.books, '--books');
const PAGES = positive(opt.pages, '--pages');
const PER_SERIES = positive(opt['per-series'], '--per-series');
/** Library creation bodies besides name and root (ui.md §12.6 for the web client's; none for the API's defaults). */
const OPTION_SETS = {
  web: LIBRARY_FORM_DEFAULTS,
  api: {},
};
const OPTIONS = opt.options.split(',').map((o) => {
  if (!(o in OPTION_SETS)) throw new Error(`--options takes web and/or api, got ${o}`);
  return /** @type {keyof typeof OPTION_SETS} */ (o);
});
/** undefined: the server's default taskPoolSize. */
const POOLS = opt.pool ? opt.pool.split(',').map((p) => positive(p, '--pool')) : [undefined];
const TIMEOUT_MS = positive(opt.timeout, '--timeout') * 1000;
const IDLE_WAIT_MS = positive(opt['idle-wait'], '--idle-wait') * 1000;
const CPU_PROF = opt['cpu-prof'] || opt['profile-dir'] !== undefined;
if (!['sqlite', 'postgres', 'both'].includes(opt.database))
  throw new Error(`--database takes sqlite, postgres or both, got ${opt.database}`);
/** Builds to compare on the same files (A/B in one sitting): each one's main.js; this workspace's build by default. */
const SERVERS = /** @type {(string | undefined)[]} */ (opt.server ? opt.server.split(',') : [undefined]);
/** The servers each run starts: SQLite always one; PostgreSQL each --instances value; each build of --server. */
const SETUPS = /** @type {Setup[]} */ (
  [
    ...(opt.database === 'postgres' ? [] : [{ database: 'sqlite', instances: 1 }]),
    ...(opt.database === 'sqlite'
      ? []
      : opt.instances.split(',').map((n) => ({ database: 'postgres', instances: positive(n, '--instances') }))),
  ].flatMap((setup) => SERVERS.map((main) => ({ ...setup, main })))
);

// Pages: 1600 × 2400 gaussian noise tinted per page, quality 80: ≈ 0.5 MiB, the size and decode cost of a page
// scanned at ~300 dpi (a real scan is smoother and compresses better, so this errs towards the costly side).
const PAGE = { width: 1600, height: 2400, quality: 80, noise: 8 };
const DISTINCT_PAGES = 24; // a book takes PAGES of them, in an order that depends on the book
// issue 18's goals
const RATE_GOAL = { web: 50, api: 25 };
const UNZIP_RATIO_GOAL = 10;
const PEAK_GOAL_MB = 200;
const SETTLED_GOAL_MB = 130;
const WRITE_CONCURRENCY = 16;

/**
 * One measured phase: `count` reads how many books reached it; `firstAt`/`doneAt` are ms from the library's
 * creation to its first and last book, `peakMb` the RSS peak while it ran.
 * @typedef {{ name: string, what: string, count: { get(): Promise<number> }, firstAt?: number, doneAt?: number,
 *   peakMb?: number }} Phase
 * @typedef {Required<Phase>} FinishedPhase
 * @typedef {[FinishedPhase, FinishedPhase, FinishedPhase, FinishedPhase]} FinishedPhases scan, analysis, ready, all tasks
 * @typedef {{ yauzlMs: number, unzipMs: number | null, floorMs: number, floorCpuMs: number }} Baseline
 * @typedef {{ label: string, options: keyof typeof OPTION_SETS, phases: FinishedPhases, readyMs: number,
 *   readyCpu: number, drainCpu: number, databaseCpu: number | null, peak: number, settled: { at: number, mb: number }[], baseRss: number }} Result
 * @typedef {{ database: 'sqlite' | 'postgres', instances: number, main: string | undefined }} Setup
 * @typedef {{ count: (sql: string) => Promise<number>, rows: (sql: string) => Promise<Record<string, any>[]>,
 *   close: () => Promise<void> }} Reader
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
/** @type {Awaited<ReturnType<typeof startServer>>[]} */
let servers = [];
/** @type {(() => void) | undefined} */
let stopPostgres;
/** @type {Promise<void> | undefined} */
let cleaning;
async function cleanup() {
  cleaning ??= (async () => {
    await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
    stopPostgres?.();
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
  for (const options of OPTIONS)
    for (const pool of POOLS) for (const setup of SETUPS) results.push(await measure(root, options, pool, setup));
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
 * Reads every entry of a yauzl ZipFile opened with `lazyEntries`, handing each to `onEntry` (the next entry is read
 * once it has resolved), and closes the file at the end or on an error.
 * @param {import('yauzl').ZipFile} zip
 * @param {(entry: import('yauzl').Entry) => unknown} onEntry
 * @returns {Promise<void>}
 */
function eachEntry(zip, onEntry) {
  return new Promise((resolve, reject) => {
    const fail = (/** @type {unknown} */ e) => {
      zip.close();
      reject(e);
    };
    zip.on('error', fail);
    zip.on('entry', (/** @type {import('yauzl').Entry} */ entry) => {
      const handled = onEntry(entry);
      // a listing's entries are read on at once, as yauzl's own loop would (its baseline times no extra turns)
      if (handled instanceof Promise) handled.then(() => zip.readEntry(), fail);
      else zip.readEntry();
    });
    zip.on('end', () => {
      zip.close();
      resolve();
    });
    zip.readEntry();
  });
}

/**
 * Lists one archive's central directory with yauzl, as the server opens it; returns the entry count.
 * @param {string} file
 * @returns {Promise<number>}
 */
async function listWithYauzl(file) {
  const zip = await yauzl.openPromise(file, {
    autoClose: false,
    decodeStrings: false,
    validateEntrySizes: true,
  });
  let count = 0;
  await eachEntry(zip, () => count++);
  return count;
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
    const folders = [...new Set(files.map((f) => dirname(f)))];
    const t0 = performance.now();
    // unzip expands the wildcard itself: one process lists every archive of a folder.
    for (const folder of folders) await exec('unzip', ['-l', join(folder, '*.cbz')], { maxBuffer: 64 * 2 ** 20 });
    unzipMs = performance.now() - t0;
    console.log(
      `baseline unzip -l: ${folders.length} processes (one per series folder), sequential: ${secs(unzipMs)} ` +
        `(${rate(files.length, unzipMs)} books/s)`,
    );
  } else {
    console.log('baseline unzip -l: unzip not installed, skipped');
  }
  await workFloor(files.slice(0, 20)); // warm-up (JIT, libvips)
  const floor = await workFloor(files);
  console.log(
    `baseline work floor: read whole, every entry's CRC, XXH3-128, a 300 px poster; no database; 2 books at a time: ` +
      `${secs(floor.ms)} (${rate(files.length, floor.ms)} books/s` +
      (unzipMs ? ` = ${(floor.ms / unzipMs).toFixed(1)} × unzip -l` : '') +
      `), ${(floor.cpuMs / files.length).toFixed(1)} ms of CPU a book`,
  );
  return { yauzlMs, unzipMs, floorMs: floor.ms, floorCpuMs: floor.cpuMs };
}

/**
 * The work floor (see the header): wall and CPU time (the whole process: libvips' and libuv's threads too).
 * @param {string[]} files
 */
async function workFloor(files) {
  sharp.cache(false); // as the server: every page is a one-off
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  const lane = async () => {
    const hasher = await createXXHash128(0, 0);
    let buffer = Buffer.alloc(0);
    for (let i = next++; i < files.length; i = next++) {
      const handle = await open(/** @type {string} */ (files[i]), 'r');
      try {
        const { size } = await handle.stat();
        if (buffer.length < size) buffer = Buffer.allocUnsafe(size);
        const { bytesRead } = await handle.read(buffer, 0, size, 0);
        const bytes = buffer.subarray(0, bytesRead);
        let first = /** @type {{ name: string, data: Buffer } | undefined} */ (undefined);
        for (const e of await zipEntries(bytes)) {
          if (crc32(e.data) >>> 0 !== e.crc) throw new Error(`CRC mismatch in ${files[i]}: ${e.name}`);
          if (e.name.endsWith('.jpg') && (!first || e.name < first.name)) first = e;
        }
        hasher.init();
        hasher.update(bytes);
        hasher.digest('hex');
        if (first) await sharp(first.data).resize(300, 300, { fit: 'inside' }).jpeg({ quality: 85 }).toBuffer();
      } finally {
        await handle.close();
      }
    }
  };
  await Promise.all([lane(), lane()]);
  const cpu = process.cpuUsage(cpu0);
  return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/**
 * The entries of a ZIP in memory: the stored ones (the generated books' pages) as views of its bytes, the deflated
 * ones (their ComicInfo.xml) inflated.
 * @param {Buffer} bytes
 * @returns {Promise<{ name: string, crc: number, data: Buffer }[]>}
 */
async function zipEntries(bytes) {
  const zip = await yauzl.fromBufferPromise(bytes);
  /** @type {{ name: string, crc: number, data: Buffer }[]} */
  const entries = [];
  await eachEntry(zip, async (e) => {
    const { fileDataStart } = await zip.readLocalFileHeaderPromise(e, { minimal: true });
    const stored = bytes.subarray(fileDataStart, fileDataStart + e.compressedSize);
    entries.push({ name: e.fileName, crc: e.crc32, data: e.compressionMethod === 8 ? inflateRawSync(stored) : stored });
  });
  return entries;
}

/**
 * Reads the server's SQLite database (read-only, WAL: never blocks the server's writes).
 * @param {string} dataDir
 * @returns {Reader}
 */
function sqliteReader(dataDir) {
  const db = openDatabase(dataDir);
  /** @type {Map<string, import('better-sqlite3').Statement>} */
  const statements = new Map();
  const prepared = (/** @type {string} */ sql) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    count: async (sql) => Number(prepared(sql).pluck().get()),
    rows: async (sql) => /** @type {Record<string, any>[]} */ (prepared(sql).all()),
    close: async () => void db.close(),
  };
}

/**
 * Reads a PostgreSQL database through one connection.
 * @param {string} url
 * @returns {Promise<Reader>}
 */
async function postgresReader(url) {
  const client = new pg.Client(url);
  await client.connect();
  return {
    count: async (sql) => Number(Object.values((await client.query(sql)).rows[0] ?? {})[0]),
    rows: async (sql) => (await client.query(sql)).rows,
    close: () => client.end(),
  };
}

/**
 * One run: a fresh data dir (and a fresh PostgreSQL cluster on PostgreSQL), `setup.instances` servers on them, the
 * library created through the first with `options`, `taskPoolSize = pool` (the server's default when undefined).
 * @param {string} root
 * @param {keyof typeof OPTION_SETS} options
 * @param {number | undefined} pool
 * @param {Setup} setup
 * @returns {Promise<Result>}
 */
async function measure(root, options, pool, setup) {
  const where = setup.database === 'sqlite' ? 'SQLite' : `PostgreSQL × ${setup.instances}`;
  const label = `${where}, ${options} options, taskPoolSize ${pool ?? 'default'}${setup.main ? `, ${setup.main}` : ''}`;
  const slug = `${setup.database}${setup.instances}-${options}-pool${pool ?? 'default'}-${SERVERS.indexOf(setup.main)}`;
  const dataDir = join(work, `data-${slug}`);
  const profDir = opt['profile-dir'] ?? join(work, `profile-${slug}`);
  await mkdir(dataDir, { recursive: true });
  if (CPU_PROF) await mkdir(profDir, { recursive: true });
  const before = CPU_PROF ? new Set(await readdir(profDir)) : new Set();
  console.log(`\n— ${label}${CPU_PROF ? ' (node --cpu-prof)' : ''} —`);
  /** @type {Record<string, string>} */
  const env = {};
  /** The PostgreSQL cluster's CPU time so far (its processes'), on PostgreSQL. */
  /** @type {(() => Promise<number>) | undefined} */
  let databaseCpu;
  if (setup.database === 'postgres') {
    const cluster = await startPostgres();
    stopPostgres = cluster.stop;
    databaseCpu = cluster.cpuSeconds;
    env.QUIRE_DATABASE_URL = cluster.url;
    console.log(`  PostgreSQL: a throw-away cluster (${POSTGRES_SETTINGS})`);
  }
  /** @type {ReturnType<typeof sampleRss> | undefined} */
  let rss;
  /** @type {Reader | undefined} */
  let reader;
  try {
    // One after the other: the first creates the database (migrations), the others find it made.
    for (let i = 0; i < setup.instances; i++) {
      servers.push(
        await startServer({
          dataDir,
          env,
          ...(setup.main ? { main: setup.main } : {}),
          nodeArgs: CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
        }),
      );
    }
    const running = /** @type {(typeof servers)[number]} */ (servers[0]);
    const db = (reader =
      setup.database === 'sqlite' ? sqliteReader(dataDir) : await postgresReader(env.QUIRE_DATABASE_URL ?? ''));
    /** A `select count(…)` statement, read as a number. */
    const counter = (/** @type {string} */ sql) => ({ get: () => db.count(sql) });
    const queue =
      setup.database === 'sqlite'
        ? { table: 'task', kind: 'kind' }
        : { table: 'graphile_worker.jobs', kind: 'task_identifier' };
    const authorization = await claim(running.base);
    if (pool !== undefined) await patchSettings(running.base, authorization, { taskPoolSize: pool });
    // The runners per instance (the server's default depends on the machine: cores and memory).
    const settings = await fetch(`${running.base}/api/v1/settings`, { headers: { authorization } });
    const poolSize = Number(/** @type {{ taskPoolSize: number }} */ (await settings.json()).taskPoolSize);
    const q = {
      books: counter('select count(*) from book'),
      ready: counter("select count(*) from media where status = 'READY'"),
      failed: counter("select count(*) from media where status in ('ERROR', 'UNSUPPORTED')"),
      failures: () => db.rows("select status, comment from media where status in ('ERROR', 'UNSUPPORTED') limit 3"),
      readyWithPoster: counter(
        "select count(*) from media m where m.status = 'READY' and exists " +
          '(select 1 from thumbnail_book t where t.book_id = m.book_id)',
      ),
      tasks: () =>
        db.rows(
          `select ${queue.kind} as kind, count(*) as n from ${queue.table} group by ${queue.kind} order by n desc`,
        ),
      scanTask: counter(`select count(*) from ${queue.table} where ${queue.kind} = 'ScanLibrary'`),
      queued: counter(`select count(*) from ${queue.table}`),
      metrics: async () =>
        (
          await db.rows(
            'select type, sum(count) as n, sum(total_ms) as ms from task_metric group by type order by ms desc',
          )
        ).map((m) => ({ type: String(m.type), n: Number(m.n), ms: Number(m.ms) })),
    };
    // The queue is empty once the follow-ups are done too: file hashes, series metadata refresh and aggregation.
    const drained = {
      get: async () => ((await q.readyWithPoster.get()) >= BOOKS && (await q.queued.get()) === 0 ? BOOKS : 0),
    };
    const serversCpu = async () => Promise.all(servers.map((s) => cpuSeconds(s.pid)));
    const sum = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0);
    const base = await memoryMb(running.pid);
    const baseFiles = new Map((await residentFiles(running.pid)).map((f) => [f.name, f.mb]));
    const baseRss = base.rss;
    rss = sampleRss(running.pid, 100);
    /** @type {Phase[]} */
    const phases = [
      { name: 'scan', what: 'every book row exists', count: q.books },
      { name: 'analysis', what: 'every media READY', count: q.ready },
      { name: 'ready', what: 'every book READY with a poster', count: q.readyWithPoster },
      { name: 'all tasks', what: 'the task queue is empty', count: drained },
    ];
    const cpu0 = await serversCpu();
    const databaseCpu0 = (await databaseCpu?.()) ?? 0;
    /** @type {number | null} */
    let readyDatabaseCpu = null;
    const t0 = performance.now();
    await createLibrary(running.base, authorization, { name: 'Bench', root, ...OPTION_SETS[options] });
    let lastLog = t0;
    let lastCpu = cpu0;
    /** The servers' CPU time (all threads) from the creation to every book READY with a poster, per server. */
    let readyCpus = cpu0.map(() => 0);
    /** The same to the queue's end (with the barcode search on, most of an import's CPU comes after READY). */
    let drainCpus = cpu0.map(() => 0);
    /** @type {number | undefined} */
    let scanTaskEndAt;
    for (;;) {
      const now = performance.now() - t0;
      if (scanTaskEndAt === undefined && (await q.scanTask.get()) === 0) scanTaskEndAt = now;
      for (const p of phases) {
        if (p.doneAt !== undefined) continue;
        const n = await p.count.get();
        if (n > 0 && p.firstAt === undefined) p.firstAt = p.name === 'all tasks' ? phases[2]?.doneAt : now;
        if (n >= BOOKS) {
          p.doneAt = now;
          p.peakMb = rss.mark();
          if (p.name === 'ready') {
            readyCpus = (await serversCpu()).map((c, i) => c - (cpu0[i] ?? 0));
            if (databaseCpu) readyDatabaseCpu = (await databaseCpu()) - databaseCpu0;
          }
          if (p.name === 'all tasks') drainCpus = (await serversCpu()).map((c, i) => c - (cpu0[i] ?? 0));
        }
      }
      if (phases.every((p) => p.doneAt !== undefined)) break;
      if ((await q.failed.get()) > 0) throw new Error(`analysis failed: ${JSON.stringify(await q.failures())}`);
      // One query after the other: PostgreSQL's reader is one connection.
      const progress = async () => {
        const parts = [];
        for (const p of phases) parts.push(`${p.name} ${await p.count.get()}`);
        return parts.join(', ');
      };
      if (now > TIMEOUT_MS) {
        const queued = (await q.tasks()).map((t) => `${t.kind} ${t.n}`);
        throw new Error(`timeout after ${secs(now)}: ${await progress()}; queued ${queued.join(', ') || 'none'}`);
      }
      if (performance.now() - lastLog > 5_000) {
        // Progress, with each server's CPU use (all threads) since the last line.
        const cpu = await serversCpu();
        const dt = performance.now() - lastLog;
        const use = cpu.map((c, i) => `${((((c - (lastCpu[i] ?? 0)) * 1000) / dt) * 100).toFixed(0)} %`);
        console.log(`  … ${secs(now)}: ${await progress()}, server CPU ${use.join(' + ')}, RSS ${mb(rss.last)}`);
        lastLog = performance.now();
        lastCpu = cpu;
      }
      await sleep(50);
    }
    const { peak, hwm, samples } = await rss.stop();
    rss = undefined;
    // The settled RSS is sampled from the moment the queue was seen empty (not from READY: with the barcode search
    // the queue empties long after), every 5 s for --idle-wait seconds.
    const drainedAt = t0 + /** @type {number} */ (phases[3]?.doneAt);
    // The finished runs per task kind, before the idle wait (nothing runs then).
    const metrics = await q.metrics();
    /** @type {{ at: number, mb: number }[]} */
    const settled = [];
    for (let at = 5_000; at <= IDLE_WAIT_MS; at += 5_000) {
      await sleep(Math.max(0, drainedAt + at - performance.now()));
      settled.push({ at, mb: (await memoryMb(running.pid)).rss });
    }
    // What stays: anonymous memory, or pages of files (the binary, libraries, the database SQLite maps)
    const after = await memoryMb(running.pid);
    const grownFiles = (await residentFiles(running.pid))
      .map((f) => ({ name: f.name, mb: f.mb - (baseFiles.get(f.name) ?? 0) }))
      .sort((a, b) => b.mb - a.mb);
    // The loop above ends once every phase has its times.
    const finished = /** @type {FinishedPhases} */ (phases);

    // Posters and metadata refreshes are queued by each analysis one priority below AnalyzeBook, so the phases
    // overlap. "span" runs from the phase's first book (from the library creation for the scan) to its last;
    // "+wall" is what it added after the previous one.
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
    // Per phase: time inside each task kind (the runners' wall time: with a pool of n, up to n × the elapsed time).
    const allMs = finished[3].doneAt;
    const taskMs = metrics.reduce((sum, m) => sum + m.ms, 0);
    const runners = poolSize * setup.instances;
    console.log("  task kind                       runs    total    mean   share of the runners' time");
    for (const m of metrics) {
      console.log(
        `  ${m.type.padEnd(28)} ${String(m.n).padStart(7)} ${secs(m.ms).padStart(8)} ${`${(m.ms / m.n).toFixed(1)} ms`.padStart(9)}` +
          `   ${((m.ms / (allMs * runners)) * 100).toFixed(0).padStart(3)} %`,
      );
    }
    console.log(
      `  outside any task (overhead)  ${secs(Math.max(0, allMs * runners - taskMs)).padStart(16)}` +
        `             ${(Math.max(0, 1 - taskMs / (allMs * runners)) * 100).toFixed(0).padStart(3)} %` +
        ` (${runners} runners: ${setup.instances} × taskPoolSize ${poolSize})`,
    );
    console.log(
      `  peak RSS ${mb(peak)} (${samples} samples every 100 ms; kernel VmHWM ${mb(hwm)}); ${mb(baseRss)} before`,
    );
    console.log(
      `  settled RSS after the queue emptied (at ${secs(finished[3].doneAt)}): ` +
        settled.map((x) => `${x.at / 1000} s ${mb(x.mb)}`).join(', '),
    );
    console.log(
      `  RSS before / at the end of the idle wait: anonymous ${mb(base.anon)} / ${mb(after.anon)}, ` +
        `file-backed ${mb(base.file)} / ${mb(after.file)} (grown most: ${grownFiles
          .slice(0, 3)
          .map((f) => `${f.name} +${mb(f.mb)}`)
          .join(', ')})`,
    );
    const readyCpu = sum(readyCpus);
    console.log(
      `  server CPU time (all threads) to every book READY with a poster: ${readyCpu.toFixed(2)} s = ` +
        `${((readyCpu * 1000) / BOOKS).toFixed(1)} ms a book (what the machine's other load does not inflate much)` +
        (servers.length > 1 ? `; per instance ${readyCpus.map((c) => `${c.toFixed(2)} s`).join(' + ')}` : ''),
    );
    const drainCpu = sum(drainCpus);
    console.log(
      `  server CPU time (all threads) to the queue's end: ${drainCpu.toFixed(2)} s = ` +
        `${((drainCpu * 1000) / BOOKS).toFixed(1)} ms a book`,
    );
    if (readyDatabaseCpu !== null)
      console.log(
        `  PostgreSQL's CPU time (all its processes) meanwhile: ${readyDatabaseCpu.toFixed(2)} s = ` +
          `${((readyDatabaseCpu * 1000) / BOOKS).toFixed(1)} ms a book`,
      );
    return {
      label,
      options,
      phases: finished,
      readyMs: finished[2].doneAt,
      readyCpu,
      drainCpu,
      databaseCpu: readyDatabaseCpu,
      peak,
      settled,
      baseRss,
    };
  } finally {
    await rss?.stop();
    await reader?.close();
    await Promise.all(servers.map((s) => s.stop()));
    servers = [];
    stopPostgres?.();
    stopPostgres = undefined;
    if (CPU_PROF) {
      const profiles = (await readdir(profDir)).filter((f) => f.endsWith('.cpuprofile') && !before.has(f));
      for (const f of profiles) await printProfile(join(profDir, f), 25, (l) => console.log(`  ${l}`));
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The issue's table: import rate to READY with a poster, its ratio to `unzip -l`, peak and settled RSS.
 * @param {Result[]} results
 * @param {Baseline} baseline
 */
function summary(results, baseline) {
  const pf = (/** @type {boolean} */ ok) => (ok ? 'PASS' : 'FAIL');
  console.log(
    `\nsummary: ${BOOKS} books × ${PAGES} pages; yauzl listing ${secs(baseline.yauzlMs)}` +
      (baseline.unzipMs ? `, unzip -l ${secs(baseline.unzipMs)}` : '') +
      `; work floor ${secs(baseline.floorMs)}` +
      (baseline.unzipMs ? ` = ${(baseline.floorMs / baseline.unzipMs).toFixed(1)} × unzip -l` : '') +
      ` (${(baseline.floorCpuMs / BOOKS).toFixed(1)} ms of CPU a book)`,
  );
  for (const r of results) {
    const perSec = BOOKS / (r.readyMs / 1000);
    const goal = RATE_GOAL[r.options];
    const unzip = baseline.unzipMs ? r.readyMs / baseline.unzipMs : null;
    const inAMinute = r.settled.filter((x) => x.at <= 60_000).map((x) => x.mb);
    const settledMin = inAMinute.length ? Math.min(...inAMinute) : NaN;
    const atAMinute = r.settled.find((x) => x.at === 60_000);
    console.log(
      `  ${r.label}: READY with a poster at ${secs(r.readyMs)} = ${perSec.toFixed(1)} books/s` +
        (unzip !== null ? ` = ${unzip.toFixed(1)} × unzip -l` : '') +
        ` = ${(r.readyMs / baseline.floorMs).toFixed(2)} × the work floor` +
        `; ${((r.readyCpu * 1000) / BOOKS).toFixed(1)} ms of server CPU a book` +
        (r.databaseCpu === null ? '' : ` + ${((r.databaseCpu * 1000) / BOOKS).toFixed(1)} ms of PostgreSQL's`) +
        `; queue empty at ${secs(r.phases[3].doneAt)} (${((r.drainCpu * 1000) / BOOKS).toFixed(1)} ms of server CPU a book); RSS ${mb(r.baseRss)} before, peak ${mb(r.peak)}, ` +
        `settled ${r.settled.map((x) => mb(x.mb)).join(' → ')}` +
        (atAMinute ? `; ${mb(atAMinute.mb)} 60 s after the queue emptied` : ''),
    );
    console.log(`    goal ≥ ${goal} books/s: ${pf(perSec >= goal)}`);
    if (unzip !== null && r.options === 'web')
      console.log(`    goal ≤ ${UNZIP_RATIO_GOAL} × unzip -l: ${pf(unzip <= UNZIP_RATIO_GOAL)}`);
    console.log(`    goal peak RSS < ${PEAK_GOAL_MB} MB: ${pf(r.peak < PEAK_GOAL_MB)}`);
    console.log(
      `    goal RSS < ${SETTLED_GOAL_MB} MB within a minute of the queue emptying: ${pf(settledMin < SETTLED_GOAL_MB)}`,
    );
  }
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claim, memoryMb, openDatabase, sessionCookie, sleep, startServer } from '../../../../bench/support/server.mjs';

/*
 * Fuzzing Quire with mutated real books (issue 11). A seeded mutator damages copies of the real fixtures
 * (archives of every kind, EPUB, PDF) in a temporary library; the BUILT server (packages/server/dist/main.js,
 * `npm run build` first), in a child process, scans and analyses them; then every book must be either READY with
 * every page (a sample when there are many) and its poster answering 200, or ERROR/UNSUPPORTED with an ERR code
 * in its comment. Meanwhile the process must stay alive, `/actuator/health` must keep answering, analysis must end
 * within a bound, and the peak resident memory (VmHWM, read from /proc) must stay under a bound.
 *
 * Every case has its own seed, derived from the run's seed and the case number, so any failure replays alone:
 * `npm run fuzz -- --seed S --case K`.
 */

/** Page types the server serves but libvips (sharp's prebuilt binaries) cannot decode into a poster. */
const UNDECODABLE_PAGE_TYPES = new Set(['image/jxl', 'image/vnd.microsoft.icon']);
const repoRoot = resolve(import.meta.dirname, '../../../..');
/** The built server; QUIRE_FUZZ_SERVER may name another build (e.g. a copy kept while this one is rebuilt). */
export const SERVER_MAIN = resolve(process.env.QUIRE_FUZZ_SERVER ?? join(repoRoot, 'packages/server/dist/main.js'));

// ---------------------------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: small, fast, good enough to pick mutations; the same seed gives the same sequence. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of case `index` of a run seeded `seed` (a splitmix-style mix, so neighbouring cases differ fully). */
export function caseSeed(seed: number, index: number): number {
  let z = (seed * 0x9e3779b1 + index * 0x85ebca77) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad) >>> 0;
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97) >>> 0;
  return (z ^ (z >>> 15)) >>> 0;
}

const int = (r: () => number, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

// ---------------------------------------------------------------------------------------------------------------
// The mutator

/** Places worth damaging: container and image structures whose fields readers trust. */
const SIGNATURES = [
  'PK\x03\x04', // ZIP local header
  'PK\x01\x02', // ZIP central directory entry
  'PK\x05\x06', // ZIP end of central directory
  'PK\x06\x06', // Zip64 end of central directory
  'Rar!\x1a\x07',
  '7z\xbc\xaf\x27\x1c',
  'ustar',
  'IHDR',
  'IDAT',
  '\xff\xc0', // JPEG start of frame
  '\xff\xda', // JPEG start of scan
  'RIFF',
  'GIF8',
].map((s) => Buffer.from(s, 'latin1'));

/** PDF tokens followed by a number that readers trust: sizes, counts, offsets, boxes. */
const PDF_NUMBER_TOKENS = [
  '/Length',
  '/Count',
  '/Size',
  'startxref',
  '/W [',
  '/MediaBox [',
  '/CropBox [',
  '/N ',
  '/First',
];
const INTERESTING_INTEGERS = [0, 1, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0xffffffff];
const INTERESTING_DECIMALS = ['0', '-1', '1', '65535', '99999999', '2147483648', '1e308', 'NaN'];

function occurrences(bytes: Buffer, needle: Buffer, limit = 200): number[] {
  const found: number[] = [];
  for (let i = bytes.indexOf(needle); i >= 0 && found.length < limit; i = bytes.indexOf(needle, i + 1)) found.push(i);
  return found;
}

type Mutation = (bytes: Buffer, r: () => number) => { bytes: Buffer; what: string };

const MUTATIONS: Record<string, Mutation> = {
  bitFlips(bytes, r) {
    const out = Buffer.from(bytes);
    const n = int(r, 1, 16);
    for (let i = 0; i < n; i++) out[int(r, 0, out.length - 1)]! ^= 1 << int(r, 0, 7);
    return { bytes: out, what: `${n} bit flips` };
  },
  byteRun(bytes, r) {
    const out = Buffer.from(bytes);
    const at = int(r, 0, out.length - 1);
    const length = Math.min(int(r, 1, 256), out.length - at);
    const fill = pick(r, ['random', 0x00, 0xff] as const);
    for (let i = at; i < at + length; i++) out[i] = fill === 'random' ? int(r, 0, 255) : fill;
    return { bytes: out, what: `${length} bytes of ${fill} at ${at}` };
  },
  truncate(bytes, r) {
    // Half the time near the end (central directories, xref tables, trailers live there).
    const keep = r() < 0.5 ? Math.floor(bytes.length * r()) : bytes.length - int(r, 1, Math.min(4096, bytes.length));
    return { bytes: bytes.subarray(0, Math.max(0, keep)), what: `truncated to ${Math.max(0, keep)} bytes` };
  },
  duplicateChunk(bytes, r) {
    const from = int(r, 0, bytes.length - 1);
    const length = Math.min(int(r, 1, 64 * 1024), bytes.length - from);
    const to = int(r, 0, bytes.length);
    const chunk = bytes.subarray(from, from + length);
    return {
      bytes: Buffer.concat([bytes.subarray(0, to), chunk, bytes.subarray(to)]),
      what: `${length} bytes from ${from} copied to ${to}`,
    };
  },
  removeChunk(bytes, r) {
    const from = int(r, 0, bytes.length - 1);
    const length = Math.min(int(r, 1, 64 * 1024), bytes.length - from);
    return {
      bytes: Buffer.concat([bytes.subarray(0, from), bytes.subarray(from + length)]),
      what: `${length} bytes removed at ${from}`,
    };
  },
  headerField(bytes, r) {
    const places = SIGNATURES.flatMap((s) => occurrences(bytes, s));
    if (places.length === 0) return MUTATIONS.byteRun!(bytes, r);
    const out = Buffer.from(bytes);
    const at = Math.min(pick(r, places) + int(r, 2, 46), out.length - 1);
    const width = pick(r, [1, 2, 4] as const);
    const value = r() < 0.75 ? pick(r, INTERESTING_INTEGERS) : int(r, 0, 0xffffffff);
    for (let i = 0; i < width && at + i < out.length; i++) out[at + i] = (value >>> (8 * i)) & 0xff;
    return { bytes: out, what: `${width}-byte field at ${at} set to ${value}` };
  },
  pdfNumber(bytes, r) {
    const places = PDF_NUMBER_TOKENS.flatMap((t) =>
      occurrences(bytes, Buffer.from(t, 'latin1')).map((at) => at + t.length),
    );
    if (places.length === 0) return MUTATIONS.headerField!(bytes, r);
    const at = pick(r, places);
    // the number after the token (and its leading spaces)
    let start = at;
    while (start < bytes.length && bytes[start] === 0x20) start++;
    let end = start;
    while (end < bytes.length && /[-+.0-9]/.test(String.fromCharCode(bytes[end]!))) end++;
    const value = pick(r, INTERESTING_DECIMALS);
    return {
      bytes: Buffer.concat([bytes.subarray(0, start), Buffer.from(value, 'latin1'), bytes.subarray(end)]),
      what: `number at ${start} set to ${value}`,
    };
  },
};

export interface Mutant {
  bytes: Buffer;
  /** What was done, in order, for the report. */
  mutations: string[];
}

/** 1–3 mutations of the fixture's bytes, chosen by `seed` alone. */
export function mutate(original: Buffer, seed: number, pdf: boolean): Mutant {
  const r = rng(seed);
  const kinds = Object.keys(MUTATIONS).filter((k) => pdf || k !== 'pdfNumber');
  let bytes = original;
  const mutations: string[] = [];
  const n = int(r, 1, 3);
  for (let i = 0; i < n && bytes.length > 0; i++) {
    const kind = pick(r, kinds);
    const m = MUTATIONS[kind]!(bytes, r);
    bytes = m.bytes;
    mutations.push(`${kind}: ${m.what}`);
  }
  return { bytes, mutations };
}

// ---------------------------------------------------------------------------------------------------------------
// The corpus

/** The real fixture books: every archive, EPUB and PDF under shared/fixtures/real, read in place. */
export function fixtureBooks(fixturesDir: string): string[] {
  const books: string[] = [];
  for (const folder of ['archives', 'epub', 'pdf']) {
    const dir = join(fixturesDir, folder);
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      if (name.isFile()) books.push(join(dir, name.name));
    }
  }
  return books.sort();
}

export interface FuzzCase {
  index: number;
  seed: number;
  fixture: string;
  mutations: string[];
  /** Where the mutant was written. */
  file: string;
}

function makeCase(
  runSeed: number,
  index: number,
  fixtures: readonly string[],
  plain: boolean,
): { c: Omit<FuzzCase, 'file'>; bytes: Buffer } {
  const seed = caseSeed(runSeed, index);
  const fixture = fixtures[seed % fixtures.length]!;
  const original = readFileSync(fixture);
  if (plain) return { c: { index, seed, fixture, mutations: [] }, bytes: original };
  const { bytes, mutations } = mutate(original, seed, extname(fixture).toLowerCase() === '.pdf');
  return { c: { index, seed, fixture, mutations }, bytes };
}

// ---------------------------------------------------------------------------------------------------------------
// The server

interface Server {
  url: string;
  pid: number;
  dataDir: string;
  auth: string;
  /** Last lines of its output, for crash reports. */
  output: () => string;
  alive: () => boolean;
  stop: () => Promise<void>;
}

/** The built server on a fresh data folder, claimed, with a session cookie. */
async function startFuzzServer(): Promise<Server> {
  if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first`);
  const dataDir = await mkdtemp(join(tmpdir(), 'quire-fuzz-data-'));
  const server = await startServer({ dataDir, main: SERVER_MAIN, startTimeoutMs: 60_000, pollMs: 100 });
  // A session cookie: Basic authentication (argon2) on every request would cost more than the checks.
  const auth = await sessionCookie(server.base, await claim(server.base, 'fuzz@example.org', 'fuzz-secret'));
  return {
    url: server.base,
    pid: server.pid,
    dataDir,
    auth,
    output: server.output,
    alive: server.alive,
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The kernel's high-water mark of the process's resident memory (VmHWM), in MiB; 0 once it has gone. */
async function peakRssMb(pid: number): Promise<number> {
  const { hwm } = await memoryMb(pid).catch(() => ({ hwm: 0 }));
  return Number.isFinite(hwm) ? hwm : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// The run

export interface FuzzOptions {
  cases: number;
  seed: number;
  /** Replay only these case numbers (of the same seed). */
  only?: readonly number[];
  /** Books per library: each batch is scanned, checked and deleted before the next. */
  batchSize?: number;
  /** Pages fetched per READY book: first, last and random ones between. */
  pagesPerBook?: number;
  /** A batch whose analysis (and follow-up tasks) has not ended after this long is a hang. */
  batchTimeoutMs?: number;
  /** `/actuator/health` slower than this during a batch is a failure. */
  healthLimitMs?: number;
  /** Peak resident memory allowed, in MiB. */
  rssLimitMb?: number;
  fixturesDir: string;
  /** The fixtures as they are, unmutated: the control run (every one must pass). */
  plain?: boolean;
  /** Where failing mutants are copied (named after their case), for a closer look. */
  keepDir?: string;
  log?: (line: string) => void;
}

export interface FuzzFailure {
  index: number;
  seed: number;
  fixture: string;
  mutations: string[];
  problem: string;
}

export interface FuzzResult {
  cases: number;
  seed: number;
  /** Books by final status (READY, ERROR, UNSUPPORTED; NOT_A_BOOK for mutants the scan did not take). */
  statuses: Record<string, number>;
  /** Error codes of ERROR/UNSUPPORTED books and the ERR_1007 comments of READY ones. */
  codes: Record<string, number>;
  failures: FuzzFailure[];
  peakRssMb: number;
  slowestHealthMs: number;
  pagesChecked: number;
  durationMs: number;
}

interface BookDto {
  id: string;
  url: string;
  media: {
    status: string;
    comment: string;
    pagesCount: number;
    mediaProfile: string | null;
    mediaType: string;
    epubDivinaCompatible: boolean;
  };
}

const TERMINAL = new Set(['READY', 'ERROR', 'UNSUPPORTED']);

export async function runFuzz(opts: FuzzOptions): Promise<FuzzResult> {
  const started = performance.now();
  const log = opts.log ?? (() => undefined);
  const batchSize = opts.batchSize ?? 100;
  const pagesPerBook = opts.pagesPerBook ?? 4;
  const batchTimeoutMs = opts.batchTimeoutMs ?? 10 * 60_000;
  const healthLimitMs = opts.healthLimitMs ?? 5_000;
  const rssLimitMb = opts.rssLimitMb ?? 2048;
  const fixtures = fixtureBooks(opts.fixturesDir);
  const indexes = opts.only?.length ? [...opts.only] : Array.from({ length: opts.cases }, (_, i) => i);

  const result: FuzzResult = {
    cases: indexes.length,
    seed: opts.seed,
    statuses: {},
    codes: {},
    failures: [],
    peakRssMb: 0,
    slowestHealthMs: 0,
    pagesChecked: 0,
    durationMs: 0,
  };
  const count = (table: Record<string, number>, key: string) => (table[key] = (table[key] ?? 0) + 1);

  let server = await startFuzzServer();
  const workDir = await mkdtemp(join(tmpdir(), 'quire-fuzz-books-'));
  try {
    for (let b = 0; b < indexes.length; b += batchSize) {
      const batch = indexes.slice(b, b + batchSize);
      const root = join(workDir, `batch-${b / batchSize}`);
      const cases = new Map<string, FuzzCase>();
      const fail = async (c: FuzzCase, problem: string) => {
        result.failures.push({ index: c.index, seed: c.seed, fixture: c.fixture, mutations: c.mutations, problem });
        log(`FAIL case ${c.index} (${basename(c.fixture)}; ${c.mutations.join('; ')}): ${problem}`);
        if (opts.keepDir) {
          await mkdir(opts.keepDir, { recursive: true });
          await copyFile(c.file, join(opts.keepDir, basename(c.file))).catch(() => undefined);
        }
      };

      // Mutants, 25 to a folder (a folder is a series).
      for (const [i, index] of batch.entries()) {
        const { c, bytes } = makeCase(opts.seed, index, fixtures, opts.plain ?? false);
        const folder = join(root, `series-${Math.floor(i / 25)}`);
        await mkdir(folder, { recursive: true });
        const file = join(folder, `case-${index}${extname(c.fixture).toLowerCase()}`);
        await writeFile(file, bytes);
        cases.set(resolve(file), { ...c, file });
      }

      const call = async (path: string, init: RequestInit = {}) =>
        fetch(`${server.url}${path}`, {
          ...init,
          headers: { cookie: server.auth, 'X-Requested-With': 'XMLHttpRequest', ...init.headers },
        });
      const created = await call('/api/v1/libraries', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `fuzz ${b / batchSize}`, root }),
      });
      if (!created.ok) throw new Error(`library creation: ${created.status} ${await created.text()}`);
      const library = (await created.json()) as { id: string };

      // Wait for the scan, the analyses and their follow-ups (posters, metadata, hashes): the task queue empties.
      const db = openDatabase(server.dataDir);
      const queued = db.prepare('select count(*) from task').pluck();
      const createdAt = Date.now();
      const deadline = createdAt + batchTimeoutMs;
      let hang = false;
      let seenWork = false;
      for (;;) {
        if (!server.alive()) break;
        const t0 = performance.now();
        const health = await fetch(`${server.url}/actuator/health`, { signal: AbortSignal.timeout(healthLimitMs * 4) })
          .then((r) => r.ok)
          .catch(() => false);
        const healthMs = performance.now() - t0;
        result.slowestHealthMs = Math.max(result.slowestHealthMs, healthMs);
        if ((!health || healthMs > healthLimitMs) && server.alive()) {
          log(`health answered ${health ? 'late' : 'no'} (${Math.round(healthMs)} ms) during batch ${b / batchSize}`);
          result.failures.push({
            index: batch[0]!,
            seed: opts.seed,
            fixture: '(batch)',
            mutations: [],
            problem: `/actuator/health ${health ? `took ${Math.round(healthMs)} ms` : 'failed'} during cases ${batch[0]}–${batch.at(-1)}`,
          });
        }
        const n = queued.get() as number;
        if (n > 0) seenWork = true;
        // (a small batch may be done before the first look: an empty queue 3 s after the library's creation is done too)
        if (n === 0 && (seenWork || Date.now() > createdAt + 3_000)) break;
        if (Date.now() > deadline) {
          hang = true;
          break;
        }
        await sleep(250);
      }
      db.close();
      result.peakRssMb = Math.max(result.peakRssMb, await peakRssMb(server.pid));

      if (!server.alive()) {
        const output = server.output();
        let first = true;
        for (const c of cases.values()) {
          // the first failure carries what the process wrote last: a report may be all there is of this death
          const said = first ? `; its last output:\n${output.slice(-2000)}` : '';
          await fail(c, `server died during this batch (cases ${batch[0]}–${batch.at(-1)})${said}`);
          first = false;
        }
        log(`server output:\n${output}`);
        await server.stop();
        server = await startFuzzServer();
        continue;
      }
      if (hang) log(`batch ${b / batchSize}: tasks still queued after ${batchTimeoutMs} ms`);

      // Every book of the batch, checked as a reader would.
      const listed = await call(`/api/v1/books?library_id=${library.id}&size=${batchSize * 2}&unpaged=true`);
      const books = ((await listed.json()) as { content: BookDto[] }).content;
      const seen = new Set<string>();
      /** A reflowable EPUB has no pages: its reading order (resources) must answer instead. */
      const checkPublication = async (book: BookDto, c: FuzzCase, r: () => number) => {
        const manifest = await call(`/api/v1/books/${book.id}/manifest`);
        if (manifest.status !== 200) {
          await fail(c, `READY, but its manifest answers ${manifest.status}`);
          return;
        }
        const { readingOrder } = (await manifest.json()) as { readingOrder: { href: string }[] };
        const hrefs = new Set([readingOrder[0]?.href, readingOrder.at(-1)?.href]);
        while (hrefs.size < Math.min(readingOrder.length, pagesPerBook)) hrefs.add(pick(r, readingOrder).href);
        for (const href of hrefs) {
          if (!href) continue;
          const res = await call(new URL(href).pathname);
          const bytes = await res.arrayBuffer();
          result.pagesChecked++;
          if (res.status !== 200) {
            await fail(
              c,
              `READY, but its resource ${new URL(href).pathname} answers ${res.status} (${bytes.byteLength} bytes)`,
            );
            return;
          }
        }
      };
      const hasDecodablePage = async (bookId: string) => {
        const pages = (await (await call(`/api/v1/books/${bookId}/pages`)).json()) as { mediaType: string }[];
        return pages.some((p) => !UNDECODABLE_PAGE_TYPES.has(p.mediaType));
      };
      const checkBook = async (book: BookDto) => {
        const path = resolve(book.url.startsWith('file:') ? fileURLToPath(book.url) : book.url);
        const c = cases.get(path);
        if (!c) return;
        seen.add(path);
        const { status, comment, pagesCount, mediaProfile } = book.media;
        count(result.statuses, status);
        for (const code of comment.match(/ERR_\d{4}/g) ?? []) count(result.codes, `${status} ${code}`);
        if (!TERMINAL.has(status)) {
          await fail(c, hang ? `analysis did not end (status ${status})` : `status ${status} after analysis`);
          return;
        }
        if (status !== 'READY') {
          if (!/ERR_\d{4}/.test(comment)) await fail(c, `${status} without an ERR code (comment "${comment}")`);
          return;
        }
        const r = rng(c.seed ^ 0x5eed);
        if (mediaProfile === 'EPUB' && !book.media.epubDivinaCompatible) {
          await checkPublication(book, c, r);
          return;
        }
        const wanted = new Set([1, pagesCount]);
        while (wanted.size < Math.min(pagesCount, mediaProfile === 'PDF' ? 2 : pagesPerBook)) {
          wanted.add(int(r, 1, pagesCount));
        }
        for (const n of [...wanted].filter((n) => n >= 1).sort((a, b) => a - b)) {
          const res = await call(`/api/v1/books/${book.id}/pages/${n}`);
          const bytes = await res.arrayBuffer();
          result.pagesChecked++;
          if (res.status !== 200 || bytes.byteLength === 0) {
            await fail(c, `READY, but page ${n}/${pagesCount} answers ${res.status} (${bytes.byteLength} bytes)`);
            return;
          }
        }
        // Every READY book that shows pages has a poster (made from its first page or its EPUB cover), unless no
        // page is in a format the server's image library decodes (a book of JPEG XL or ICO pages is served and
        // read, but gets no poster).
        if (pagesCount > 0) {
          const poster = await call(`/api/v1/books/${book.id}/thumbnail`);
          await poster.arrayBuffer();
          if (poster.status !== 200 && (await hasDecodablePage(book.id)))
            await fail(c, `READY, but its poster answers ${poster.status}`);
        }
      };
      const queue = [...books];
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let book = queue.shift(); book; book = queue.shift()) await checkBook(book);
        }),
      );
      // Mutants that did not become books (a scan only takes files it recognises by name, so all should).
      for (const path of cases.keys()) if (!seen.has(path)) count(result.statuses, 'NOT_A_BOOK');
      result.peakRssMb = Math.max(result.peakRssMb, await peakRssMb(server.pid));
      if (!server.alive()) {
        for (const c of cases.values()) await fail(c, `server died while its pages were read`);
        await server.stop();
        server = await startFuzzServer();
        continue;
      }
      await call(`/api/v1/libraries/${library.id}`, { method: 'DELETE' });
      await rm(root, { recursive: true, force: true });
      log(
        `cases ${Math.min(b + batchSize, indexes.length)}/${indexes.length}: ${JSON.stringify(result.statuses)}, ` +
          `${result.failures.length} failures, peak RSS ${Math.round(result.peakRssMb)} MiB, ` +
          `${Math.round((performance.now() - started) / 1000)} s`,
      );
    }
  } finally {
    result.peakRssMb = Math.max(result.peakRssMb, await peakRssMb(server.pid));
    await server.stop();
    await rm(workDir, { recursive: true, force: true });
  }
  if (result.peakRssMb > rssLimitMb) {
    result.failures.push({
      index: -1,
      seed: opts.seed,
      fixture: '(run)',
      mutations: [],
      problem: `peak RSS ${Math.round(result.peakRssMb)} MiB over the ${rssLimitMb} MiB bound`,
    });
  }
  result.durationMs = performance.now() - started;
  return result;
}

/** The figures of a run, as `npm run fuzz` prints them. */
export function report(r: FuzzResult): string {
  const lines = [
    `cases: ${r.cases} (seed ${r.seed})`,
    `statuses: ${Object.entries(r.statuses)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `codes: ${Object.entries(r.codes)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `pages checked: ${r.pagesChecked}`,
    `slowest /actuator/health: ${Math.round(r.slowestHealthMs)} ms`,
    `peak RSS: ${Math.round(r.peakRssMb)} MiB`,
    `duration: ${(r.durationMs / 1000).toFixed(1)} s`,
    `failures: ${r.failures.length}`,
  ];
  for (const f of r.failures) {
    const replay = f.index >= 0 ? ` — replay: npm run fuzz -- --seed ${r.seed} --case ${f.index}` : '';
    lines.push(`  case ${f.index} [${basename(f.fixture)}] ${f.problem}${replay}`);
    if (f.mutations.length) lines.push(`    ${f.mutations.join('; ')}`);
  }
  return lines.join('\n');
}

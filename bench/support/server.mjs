// Shared by the benchmarks and the tests that need the server in a process of its own (fuzzing, kill -9,
// hostile books): start the BUILT server (packages/server/dist/main.js, run `npm run build` first) on a free
// port with its own data dir, claim it, create libraries, read its database read-only, sample its memory.
// No hook in production code: only the HTTP API, the database file and /proc.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { basename, join, resolve } from 'node:path';
import Database from 'better-sqlite3';

export const SERVER_MAIN = resolve(import.meta.dirname, '../../packages/server/dist/main.js');
export const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A TCP port free right now on 127.0.0.1.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolvePort(port));
    });
  });
}

/**
 * Spawns the server and waits for /actuator/health: the built one by default, or `main` (e.g. the sources with
 * `nodeArgs: ['--import', <tsx loader>]`). `nodeArgs` go before the script (e.g. `--cpu-prof`). Returns
 * `{ child, pid, base, port, dataDir, alive(), output(), stop(), kill() }`: `output()` is the end of what the process
 * wrote; `stop()` sends SIGTERM (the server then exits cleanly, which also writes a CPU profile) and waits for the
 * exit, SIGKILL after `killAfterMs`; `kill()` is `kill -9` (a crash), waiting for the exit.
 * @param {{ dataDir: string, port?: number, main?: string, nodeArgs?: string[], env?: Record<string, string>,
 *   startTimeoutMs?: number, pollMs?: number }} options
 */
export async function startServer({
  dataDir,
  port,
  main = SERVER_MAIN,
  nodeArgs = [],
  env = {},
  startTimeoutMs = 30_000,
  pollMs = 20,
}) {
  port ??= await freePort();
  const child = spawn(process.execPath, [...nodeArgs, main], {
    env: {
      ...process.env,
      QUIRE_PORT: String(port),
      QUIRE_HOST: '127.0.0.1',
      QUIRE_DATA_DIR: dataDir,
      QUIRE_LOG_STDOUT: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (/** @type {Buffer} */ d) => (output = (output + d.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  /** @type {number | NodeJS.Signals | null | undefined} */
  let exitCode;
  /** @type {Promise<void>} */
  const exited = new Promise((r) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? signal;
      r();
    }),
  );
  const alive = () => exitCode === undefined;
  const base = `http://127.0.0.1:${port}`;
  const stop = async (killAfterMs = 15_000) => {
    if (alive()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      await exited;
      clearTimeout(timer);
    }
  };
  const kill = async () => {
    if (alive()) child.kill('SIGKILL');
    await exited;
  };
  const started = Date.now();
  for (;;) {
    if (!alive()) throw new Error(`server exited (${exitCode}) during start-up:\n${output}`);
    try {
      if ((await fetch(`${base}/actuator/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() - started > startTimeoutMs) {
      await stop();
      throw new Error(`server did not start in ${startTimeoutMs} ms:\n${output}`);
    }
    await sleep(pollMs);
  }
  // It answered on its port, so it was spawned and has a pid.
  const pid = /** @type {number} */ (child.pid);
  return { child, pid, base, port, dataDir, alive, stop, kill, output: () => output };
}

/**
 * Claims a fresh server (POST /api/v1/claim); returns the Basic `authorization` header value.
 * @param {string} base
 */
export async function claim(base, email = 'bench@example.org', password = 'bench-secret') {
  const res = await fetch(`${base}/api/v1/claim`, {
    method: 'POST',
    headers: { 'X-Komga-Email': email, 'X-Komga-Password': password },
  });
  if (!res.ok) throw new Error(`claim: ${res.status} ${await res.text()}`);
  return `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
}

/**
 * One JSON API call; throws unless it succeeds. The answer is whatever JSON the route gives.
 * @param {string} base
 * @param {string} authorization
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function call(base, authorization, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

/**
 * PATCH /api/v1/settings (e.g. `{ taskPoolSize: 2 }`).
 * @param {string} base
 * @param {string} authorization
 * @param {Record<string, unknown>} patch
 */
export const patchSettings = (base, authorization, patch) =>
  call(base, authorization, 'PATCH', '/api/v1/settings', patch);

/**
 * POST /api/v1/libraries `{ name, root, ... }`, which queues a scan; returns the library DTO.
 * @param {string} base
 * @param {string} authorization
 * @param {{ name: string, root: string } & Record<string, unknown>} library
 * @returns {Promise<import('@quire/api').LibraryDto>}
 */
export const createLibrary = (base, authorization, library) =>
  call(base, authorization, 'POST', '/api/v1/libraries', library);

/**
 * A session cookie (`name=value`), so that each request does not pay for Basic (argon2) authentication.
 * @param {string} base
 * @param {string} authorization
 */
export async function sessionCookie(base, authorization) {
  const me = await fetch(`${base}/api/v2/users/me`, { headers: { authorization } });
  const cookie = me.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

/**
 * The server's SQLite database, opened read-only (WAL: never blocks the server's writes).
 * @param {string} dataDir
 */
export function openDatabase(dataDir) {
  return new Database(join(dataDir, 'database.sqlite'), { readonly: true, fileMustExist: true });
}

/**
 * The database of a server that is not running, opened to write generated rows fast (no fsync: a crash only loses
 * the benchmark's data), with `insert(table, columns)` preparing an INSERT of those columns.
 * @param {string} dataDir
 */
export function openForBulkWrite(dataDir) {
  const db = new Database(join(dataDir, 'database.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = (/** @type {string} */ table, /** @type {string[]} */ columns) =>
    db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  return { db, insert };
}

/** A time as the database stores it (ISO 8601, UTC). */
export const iso = (/** @type {number} */ ms) => new Date(ms).toISOString();

/**
 * RSS and peak RSS (VmHWM) of a process, in MiB; of the RSS, `anon` is the process's own memory and `file` the
 * pages of files it maps (e.g. a memory-mapped database), which the kernel can reclaim.
 * @param {number} pid
 */
export async function memoryMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (/** @type {string} */ key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024, anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024 };
}

/**
 * The files a process has resident in memory through its mappings (`/proc/<pid>/smaps`), most first, in MB.
 * @param {number} pid
 */
export async function residentFiles(pid) {
  const smaps = await readFile(`/proc/${pid}/smaps`, 'utf8');
  /** @type {Map<string, number>} */
  const byFile = new Map();
  let file = '';
  for (const line of smaps.split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s+(\/\S+)?/.exec(line);
    if (mapping) file = mapping[1] ?? '';
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && file) byFile.set(basename(file), (byFile.get(basename(file)) ?? 0) + Number(rss[1]) / 1024);
  }
  return [...byFile].map(([name, size]) => ({ name, mb: size })).sort((a, b) => b.mb - a.mb);
}

/**
 * CPU time (user + system, all threads) a process has used so far, in seconds (Linux, USER_HZ = 100).
 * @param {number} pid
 */
export async function cpuSeconds(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which is in parentheses and may hold spaces); utime, stime are 14, 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Samples a process's RSS every `intervalMs`. `peak` is the highest sample so far, `hwm` the kernel's own
 * high-water mark (VmHWM) at the last sample; `mark()` returns the peak since the previous `mark()`.
 * @param {number} pid
 */
export function sampleRss(pid, intervalMs = 100) {
  const s = { peak: 0, hwm: 0, last: 0, samples: 0, window: 0 };
  const tick = async () => {
    try {
      const { rss, hwm } = await memoryMb(pid);
      s.last = rss;
      s.hwm = hwm;
      s.samples++;
      s.peak = Math.max(s.peak, rss);
      s.window = Math.max(s.window, rss);
    } catch {
      /* process gone */
    }
  };
  void tick();
  const timer = setInterval(tick, intervalMs);
  return {
    get peak() {
      return s.peak;
    },
    get hwm() {
      return s.hwm;
    },
    get last() {
      return s.last;
    },
    get samples() {
      return s.samples;
    },
    mark() {
      const w = s.window;
      s.window = s.last;
      return w;
    },
    async stop() {
      clearInterval(timer);
      await tick();
      return { peak: s.peak, hwm: s.hwm, samples: s.samples };
    },
  };
}

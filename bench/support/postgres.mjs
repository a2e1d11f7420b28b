// A throw-away PostgreSQL cluster for the benchmarks and the server tests' PostgreSQL project
// (packages/server/test/support/postgres-cluster.ts): initdb into a temp folder, started on a free loopback port as
// the `postgres` user when we are root (PostgreSQL refuses to run as root), one UTF-8 database with the C locale
// (what Quire requires). Durability is off (fsync, synchronous_commit, full_page_writes): a crash only loses the
// benchmark's data, and the benchmarks print that they ran so. `stop()` stops and deletes it; it also runs on
// Ctrl-C and on the process's exit, so that no cluster is left behind.
// To see why a statement is slow: BENCH_PG_EXPLAIN_MS=30 logs the plan (EXPLAIN ANALYZE, through auto_explain) of
// every statement slower than 30 ms, and the cluster's log is copied to BENCH_PG_LOG (default
// /tmp/quire-bench-pg.log) when it stops.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './server.mjs';

/** Debian's package; QUIRE_POSTGRES_BIN elsewhere. */
const BIN = process.env.QUIRE_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/** What the benchmarks print beside PostgreSQL's figures. */
export const POSTGRES_SETTINGS = 'PostgreSQL 15, fsync=off, synchronous_commit=off, full_page_writes=off';

/**
 * @param {string} program
 * @param {string[]} args
 */
function asPostgres(program, args) {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root
    ? ['runuser', ['-u', 'postgres', '--', join(BIN, program), ...args]]
    : [join(BIN, program), args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${program} failed (${r.status}): ${r.stderr || r.stdout}`);
}

/**
 * Starts a cluster and creates one database in it (`quire` unless `database` names another). Returns
 * `{ url, admin, dir, stop() }`: `url` is the database's (QUIRE_DATABASE_URL), `admin` the maintenance database's.
 * @param {{ sharedBuffers?: string, maxConnections?: number, database?: string }} [options]
 */
export async function startPostgres({ sharedBuffers = '256MB', maxConnections = 200, database = 'quire' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'])), 0);
  const port = await freePort();
  let started = false;
  const explainMs = process.env.BENCH_PG_EXPLAIN_MS;
  const stop = () => {
    if (started) asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    if (started && explainMs) {
      const log = process.env.BENCH_PG_LOG ?? '/tmp/quire-bench-pg.log';
      copyFileSync(join(dir, 'log'), log);
      console.log(`PostgreSQL's log (plans of statements over ${explainMs} ms): ${log}`);
    }
    started = false;
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', stop);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  const onSignal = (/** @type {NodeJS.Signals} */ signal) => {
    stop();
    process.kill(process.pid, signal);
  };
  process.once('exit', stop);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C']);
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      `-c listen_addresses=127.0.0.1`,
      `-c max_connections=${maxConnections}`,
      `-c fsync=off`,
      `-c synchronous_commit=off`,
      `-c full_page_writes=off`,
      `-c shared_buffers=${sharedBuffers}`,
      ...(explainMs
        ? [
            `-c shared_preload_libraries=auto_explain`,
            `-c auto_explain.log_min_duration=${Number(explainMs)}`,
            `-c auto_explain.log_analyze=on`,
            `-c auto_explain.log_buffers=on`,
          ]
        : []),
    ].join(' ');
    asPostgres('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', 'start']);
    started = true;
    const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const client = new pg.Client(admin);
    await client.connect();
    await client.query(`CREATE DATABASE ${database} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
    await client.end();
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/${database}`,
      admin,
      dir,
      stop,
      cpuSeconds: () => clusterCpuSeconds(postmaster),
    };
  } catch (e) {
    stop();
    throw e;
  }
}

/**
 * The size of a database on disk (tables, indexes, TOAST), in MB.
 * @param {string} url
 */
export async function postgresSizeMb(url) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query('SELECT pg_database_size(current_database()) AS bytes');
    return Number(rows[0].bytes) / 1e6;
  } finally {
    await client.end();
  }
}

/**
 * The fields of /proc/<pid>/stat after the command name (which is in parentheses and may hold spaces): ppid is
 * [1], utime, stime, cutime, cstime (clock ticks, USER_HZ = 100) are [11]–[14].
 * @param {string} stat
 */
const statFields = (stat) =>
  stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);

/**
 * CPU time (user + system) the whole cluster has used so far, in seconds: the postmaster, its live processes
 * (backends, the WAL writer, autovacuum…) and those that have exited (the postmaster's reaped children).
 * @param {number} postmaster
 */
async function clusterCpuSeconds(postmaster) {
  const own = statFields(await readFile(`/proc/${postmaster}/stat`, 'utf8'));
  let ticks = (own[11] ?? 0) + (own[12] ?? 0) + (own[13] ?? 0) + (own[14] ?? 0);
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const f = statFields(await readFile(`/proc/${entry}/stat`, 'utf8'));
      if (f[1] === postmaster) ticks += (f[11] ?? 0) + (f[12] ?? 0);
    } catch {
      /* exited meanwhile */
    }
  }
  return ticks / 100;
}

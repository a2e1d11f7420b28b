import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { POSTGRES_ADMIN_URL, TEMPLATE_DATABASE, onPostgres } from './postgres.js';

/*
 * vitest's global set-up of the `server-pg` project (its environment sets QUIRE_TEST_DATABASE=postgres): one real
 * cluster for the whole run, in a temporary directory, on a free loopback port, owned by the unprivileged
 * `postgres` user (PostgreSQL refuses to run as root). It holds a migrated template database that every server
 * of the tests copies (support/postgres.ts), and is stopped and removed when the run ends.
 */

const BIN = process.env.QUIRE_TEST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Runs a PostgreSQL program as the `postgres` user when we are root, as ourselves otherwise. */
function asPostgres(program: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root
    ? ['runuser', ['-u', 'postgres', '--', join(BIN, program), ...args]]
    : [join(BIN, program), args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${program} failed (${r.status}): ${r.stderr || r.stdout}`);
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!onPostgres() && project.config.env?.QUIRE_TEST_DATABASE !== 'postgres') return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'quire-test-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'])), 0);
  const port = await freePort();
  let started = false;
  const stopNow = () => {
    if (started) asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    started = false;
    rmSync(dir, { recursive: true, force: true });
  };
  // A run that is interrupted (Ctrl-C, a CI timeout) never reaches the teardown: the cluster goes anyway.
  const onSignal = (signal: NodeJS.Signals) => {
    stopNow();
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const stop = async () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopNow();
  };
  try {
    asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C']);
    // Durability is not what the tests measure: without fsync the cluster keeps up with the suite on a busy disk.
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      `-c listen_addresses=127.0.0.1`,
      `-c max_connections=400`,
      `-c fsync=off`,
      `-c synchronous_commit=off`,
      `-c full_page_writes=off`,
      `-c shared_buffers=64MB`,
    ].join(' ');
    asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
    started = true;
    const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const client = new pg.Client(admin);
    await client.connect();
    await client.query(
      `CREATE DATABASE ${TEMPLATE_DATABASE} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
    );
    await client.end();
    // Migrated once: a server's fresh database is a copy of it, which costs a fraction of migrating.
    const template = await openDatabase(admin.replace(/\/postgres$/, `/${TEMPLATE_DATABASE}`));
    await template.close();
    project.provide(POSTGRES_ADMIN_URL, admin);
    process.env.QUIRE_TEST_POSTGRES_ADMIN_URL = admin;
  } catch (e) {
    await stop();
    throw e;
  }
  return stop;
}

import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A real PostgreSQL 15 cluster for one test file: initdb into a temp dir, started on a free loopback port, stopped
 * and removed by `stop()`. PostgreSQL refuses to run as root, so when the tests run as root the cluster belongs to
 * the unprivileged `postgres` user (Debian's package creates it).
 */
export interface PgCluster {
  /** A connection string to a fresh database of its own. */
  createDatabase(name: string): Promise<string>;
  stop(): void;
}

const BIN = process.env.QUIRE_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export async function startPgCluster(prefix = 'quire-pg'): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? Number(execFileSync('id', ['-u', 'postgres']).toString()) : undefined;
  const group = asRoot ? Number(execFileSync('id', ['-g', 'postgres']).toString()) : undefined;
  if (owner !== undefined && group !== undefined) chownSync(dir, owner, group);
  const as = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(join(BIN, cmd), args, { stdio: 'pipe' });
  const data = join(dir, 'data');
  const port = await freePort();
  as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  as('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', settings, '-w', 'start']);
  const url = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  return {
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`create database "${name}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop() {
      try {
        as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

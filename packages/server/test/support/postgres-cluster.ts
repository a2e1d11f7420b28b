import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../../../bench/support/postgres.mjs';
import { openDatabase } from '../../src/db/database.js';
import { POSTGRES_ADMIN_URL, TEMPLATE_DATABASE, onPostgres } from './postgres.js';

/*
 * vitest's global set-up of the `server-pg` project (its environment sets QUIRE_TEST_DATABASE=postgres): one real
 * cluster for the whole run, started as the benchmarks start theirs (bench/support/postgres.mjs: a temporary
 * directory, a free loopback port, the unprivileged `postgres` user, durability off), stopped and removed when the
 * run ends or is interrupted. It holds a migrated template database that every server of the tests copies
 * (support/postgres.ts).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!onPostgres() && project.config.env?.QUIRE_TEST_DATABASE !== 'postgres') return undefined;
  // Two workers' servers at once, each with its pools (Kysely's, the queue's and the events'), and the tests' own
  // connections.
  const cluster = await startPostgres({ sharedBuffers: '64MB', maxConnections: 400, database: TEMPLATE_DATABASE });
  try {
    // Migrated once: a server's fresh database is a copy of it, which costs a fraction of migrating.
    const template = await openDatabase(cluster.url);
    await template.close();
    project.provide(POSTGRES_ADMIN_URL, cluster.admin);
    process.env.QUIRE_TEST_POSTGRES_ADMIN_URL = cluster.admin;
  } catch (e) {
    cluster.stop();
    throw e;
  }
  return async () => cluster.stop();
}

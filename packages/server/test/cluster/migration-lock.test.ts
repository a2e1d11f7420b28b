import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATION_LOCK, openDatabase } from '../../src/db/database.js';
import { freshDatabase, onPostgres } from '../support/postgres.js';

/**
 * Instances started together on one database migrate one at a time. Kysely's migrator begins by listing every
 * table and column of the database, and failed (`column "job_count" of relation "job_queues" does not exist`, the
 * two-instance test in a CI run) while the other instance's graphile-worker migration dropped that column; both
 * migrations now take one advisory lock (`migrate` in db/database.ts, `ClusterStore.migrating`).
 */
describe.runIf(onPostgres())('migrating a shared PostgreSQL database', () => {
  it('waits while another instance migrates, then migrates', async () => {
    const url = await freshDatabase({ empty: true });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
      let opened = false;
      const opening = openDatabase(url).then((db) => {
        opened = true;
        return db;
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(opened).toBe(false);
      await other.query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK]);
      const db = await opening;
      const { rows } = await other.query<{ n: number }>('SELECT count(*)::int AS n FROM kysely_migration');
      expect(rows[0]!.n).toBeGreaterThan(20);
      await db.close();
    } finally {
      await other.end();
    }
  }, 60_000);
});

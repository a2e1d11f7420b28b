import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { databaseOf, onPostgres } from '../support/postgres.js';

describe('migrations', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('apply in order to an empty database (a file in WAL mode on SQLite), and a second run changes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-db-'));
    dirs.push(dir);
    const { db, close } = await openDatabase(await databaseOf(dir, { empty: true }));
    const applied = await db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect(applied.map((r) => (r as { name: string }).name)).toEqual(Object.keys(migrations).sort());
    if (!onPostgres()) {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
    }
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['user', 'session', 'api_key', 'authentication_activity', 'server_settings']),
    );
    await migrate(db);
    const again = await db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect(again).toHaveLength(applied.length);
    await close();
  });

  it('keep data across a reopen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-db-'));
    dirs.push(dir);
    const file = await databaseOf(dir);
    const first = await openDatabase(file);
    await first.db.insertInto('server_settings').values({ key: 'probe', value: '42' }).execute();
    await first.close();
    const second = await openDatabase(file);
    const row = await second.db.selectFrom('server_settings').selectAll().where('key', '=', 'probe').executeTakeFirst();
    expect(row?.value).toBe('42');
    await second.close();
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledQuery } from '../../src/db/compiled.js';
import { openDatabase, type OpenedDatabase } from '../../src/db/database.js';
import { databaseOf } from '../support/postgres.js';

/*
 * Queries of the per-book write path are built and compiled by Kysely once, then run with each call's values
 * (issue 18). Each call must answer as the same query built for its values would, in and out of a transaction, on
 * either database.
 */
let dir: string;
let opened: OpenedDatabase;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-compiled-'));
  opened = await openDatabase(await databaseOf(dir));
});
afterAll(async () => {
  await opened.close();
  await rm(dir, { recursive: true, force: true });
});

const upsert = compiledQuery((db, key: string, value: string) =>
  db
    .insertInto('server_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql`${value} || '!'` })),
);
const find = compiledQuery((db, prefix: string, limit: number) =>
  db.selectFrom('server_settings').select(['key', 'value']).where('key', 'like', prefix).orderBy('key').limit(limit),
);
const remove = compiledQuery((db, key: string) => db.deleteFrom('server_settings').where('key', '=', key));

describe('a compiled query', () => {
  it('binds each call its own values, an argument used twice included', async () => {
    await upsert(opened.db, 'C1', 'a');
    await upsert(opened.db, 'C2', 'b');
    await upsert(opened.db, 'C1', 'c');
    expect((await find(opened.db, 'C%', 10)).rows).toEqual([
      { key: 'C1', value: 'c!' },
      { key: 'C2', value: 'b' },
    ]);
    expect((await find(opened.db, 'C%', 1)).rows).toEqual([{ key: 'C1', value: 'c!' }]);
    expect((await find(opened.db, 'nothing%', 10)).rows).toEqual([]);
  });

  it('runs in a transaction, which sees its own writes and rolls them back', async () => {
    await expect(
      opened.db.transaction().execute(async (tx) => {
        await upsert(tx, 'C3', 'd');
        expect((await find(tx, 'C3', 10)).rows).toEqual([{ key: 'C3', value: 'd' }]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await find(opened.db, 'C3', 10)).rows).toEqual([]);
  });

  it('counts the rows a write changed', async () => {
    expect(Number((await remove(opened.db, 'C2')).numAffectedRows)).toBe(1);
    expect(Number((await remove(opened.db, 'C2')).numAffectedRows)).toBe(0);
  });

  it('refuses a query that does not bind an argument as a value', async () => {
    const inlined = compiledQuery((db, key: string) =>
      db
        .selectFrom('server_settings')
        .select('key')
        .where('key', '=', sql.lit(String(key))),
    );
    await expect(inlined(opened.db, 'C1')).rejects.toThrow('binds 0 of its 1 arguments');
  });

  it('refuses undefined, which a query built for it would have left out', async () => {
    await expect(upsert(opened.db, 'C4', undefined as unknown as string)).rejects.toThrow('undefined');
    expect((await find(opened.db, 'C4', 10)).rows).toEqual([]);
  });
});

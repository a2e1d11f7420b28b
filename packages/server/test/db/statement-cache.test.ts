import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/db/database.js';

/*
 * The SQLite adapter keeps prepared statements by their SQL (issue 18: preparing every query again was 0.69 s of
 * the main thread in a 300-book import). A kept statement must answer as a fresh one would: with the rows of now,
 * and after a stream of the same query was left unfinished.
 */
let dir: string;
let opened: OpenedDatabase;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-statements-'));
  opened = await openDatabase(join(dir, 'database.sqlite'));
});
afterAll(async () => {
  await opened.close();
  await rm(dir, { recursive: true, force: true });
});

const keys = () =>
  opened.db.selectFrom('server_settings').select('key').orderBy('key').where('key', 'like', 'T%').execute();

describe('prepared statements kept by the SQLite adapter', () => {
  it('answer the same query again with the rows written since', async () => {
    expect(await keys()).toEqual([]);
    await opened.db.insertInto('server_settings').values({ key: 'T1', value: 'a' }).execute();
    expect(await keys()).toEqual([{ key: 'T1' }]);
    await opened.db.insertInto('server_settings').values({ key: 'T2', value: 'b' }).execute();
    expect(await keys()).toEqual([{ key: 'T1' }, { key: 'T2' }]);
  });

  it('answer a query whose stream was left after its first row', async () => {
    const query = opened.db.selectFrom('server_settings').select('key').orderBy('key').where('key', 'like', 'T%');
    for await (const row of query.stream()) {
      expect(row.key).toBe('T1');
      break; // Kysely's one connection is held until then: nothing else can run meanwhile
    }
    expect(await query.execute()).toEqual([{ key: 'T1' }, { key: 'T2' }]);
    const streamed: string[] = [];
    for await (const row of query.stream()) streamed.push(row.key);
    expect(streamed).toEqual(['T1', 'T2']);
  });
});

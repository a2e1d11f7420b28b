import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { databaseOf } from '../support/postgres.js';
import { KyselyTransientBookRepository } from '../../src/db/repositories/transient-books.js';
import type { TransientBook } from '../../src/domain/transient-books.js';

/*
 * The transient-book store (engine.md §9.1, migration 0012): what one instance found is read by another one on the
 * same database, a read pushes the expiry back, and an expired book is gone.
 */
describe('transient book store', () => {
  let dir: string;
  const dbs: { db: Db; close: () => Promise<void> }[] = [];
  let first: KyselyTransientBookRepository;
  let second: KyselyTransientBookRepository;
  const hour = 3_600_000;
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
  const book = (id: string, analysed = false): TransientBook => ({
    id,
    name: id,
    url: `file:///outside/${id}.cbz`,
    path: `/outside/${id}.cbz`,
    fileSize: 1234,
    fileLastModified: 1_700_000_000_000,
    analysis: analysed
      ? {
          status: 'READY',
          mediaType: 'application/zip',
          comment: null,
          pageCount: 1,
          epubDivinaCompatible: false,
          epubIsKepub: false,
          extension: null,
          pages: [{ fileName: '1.png', mediaType: 'image/png', width: 10, height: 20, fileSize: 99 }],
          files: [],
        }
      : null,
    seriesId: analysed ? 'S1' : null,
    number: analysed ? 2.5 : null,
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-transient-'));
    for (let i = 0; i < 2; i++) dbs.push(await openDatabase(await databaseOf(dir)));
    first = new KyselyTransientBookRepository(dbs[0]!.db);
    second = new KyselyTransientBookRepository(dbs[1]!.db);
  });
  afterAll(async () => {
    for (const d of dbs) await d.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets a second connection read what the first stored, analysis included', async () => {
    await first.save([book('a'), book('b', true)], at(0), hour);
    expect(await second.touch('a', at(1000), hour)).toEqual(book('a'));
    expect(await second.touch('b', at(1000), hour)).toEqual(book('b', true));
    expect(await second.touch('missing', at(1000), hour)).toBeNull();
  });

  it('keeps a book an hour after its last read, then forgets it', async () => {
    await first.save([book('c')], at(0), hour);
    expect(await first.touch('c', at(hour - 1), hour)).not.toBeNull(); // pushed to 2 h - 1 ms
    expect(await first.touch('c', at(2 * hour - 2), hour)).not.toBeNull();
    expect(await first.touch('c', at(4 * hour), hour)).toBeNull();
  });

  it('replaces a book saved again (its analysis) and drops expired ones on save', async () => {
    await first.save([book('d')], at(0), hour);
    await first.save([book('d', true)], at(10), hour);
    expect((await first.touch('d', at(20), hour))?.analysis?.status).toBe('READY');
    await first.save([], at(10 * hour), hour);
    const left = await dbs[0]!.db.selectFrom('transient_book').select('id').execute();
    expect(left).toEqual([]);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { databaseOf } from '../support/postgres.js';
import { KyselyPageHashRepository } from '../../src/db/repositories/page-hashes.js';
import { makeBook, makeLibrary, makeSeries } from '../support/factories.js';

/*
 * The page-hash counts behind the unknown list (migration 0011): kept by triggers through every way a page row
 * changes (analysis inserting pages, hashing updating them, a book's deletion cascading to them).
 */
describe('page hash counts', () => {
  let dir: string;
  let db: Db;
  let close: () => Promise<void>;
  let repo: KyselyPageHashRepository;
  let books: string[];

  const page = (bookId: string, number: number, hash: string, size = 100) => ({
    book_id: bookId,
    number,
    file_name: `${number}.png`,
    media_type: 'image/png',
    width: null,
    height: null,
    file_size: size,
    file_hash: hash,
  });
  const unknown = async () => (await repo.listUnknown([], null)).items.map((u) => `${u.hash}×${u.matchCount}`).sort();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-page-hashes-'));
    ({ db, close } = await openDatabase(await databaseOf(dir)));
    repo = new KyselyPageHashRepository(db);
    const libraryId = await makeLibrary(db, { root: dir });
    const seriesId = await makeSeries(db, libraryId, { title: 'S' });
    books = [];
    for (const n of [1, 2, 3]) books.push(await makeBook(db, { libraryId, seriesId }, join(dir, `S/${n}.cbz`)));
  });
  afterAll(async () => {
    await close();
    await rm(dir, { recursive: true, force: true });
  });

  it('counts inserted, re-hashed and deleted pages, blank hashes aside', async () => {
    const [a, b, c] = books as [string, string, string];
    await db
      .insertInto('media_page')
      .values([page(a, 0, 'h1'), page(a, 1, ''), page(b, 0, 'h1'), page(b, 1, 'h2'), page(c, 0, 'h2')])
      .execute();
    expect(await unknown()).toEqual(['h1×2', 'h2×2']);
    // hashing a page that had none, and a page changing hash
    await db
      .updateTable('media_page')
      .set({ file_hash: 'h2' })
      .where('book_id', '=', a)
      .where('number', '=', 1)
      .execute();
    await db
      .updateTable('media_page')
      .set({ file_hash: 'h3' })
      .where('book_id', '=', b)
      .where('number', '=', 0)
      .execute();
    expect(await unknown()).toEqual(['h2×3']);
    // a known hash leaves the unknown list, and counts its matches
    await repo.create({ hash: 'h2', size: 100, action: 'IGNORE', thumbnail: null }, new Date().toISOString());
    expect(await unknown()).toEqual([]);
    expect((await repo.findKnown('h2'))?.matchCount).toBe(3);
    // deleting a book cascades to its pages, which the counts follow
    await db.deleteFrom('book').where('id', '=', c).execute();
    expect((await repo.findKnown('h2'))?.matchCount).toBe(2);
    await db.deleteFrom('media_page').where('book_id', '=', a).execute();
    const counts = await db.selectFrom('page_hash_count').selectAll().orderBy('hash').execute();
    expect(counts.map((r) => [r.hash, r.match_count])).toEqual([
      ['h2', 1],
      ['h3', 1],
    ]);
  });
});

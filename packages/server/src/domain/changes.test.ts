import { describe, expect, it, vi } from 'vitest';
import {
  reconcileLibrary,
  type ReconcileInput,
  type SnapshotBook,
  type SnapshotSeries,
  type WalkedSeries,
} from './changes.js';

const D = new Date('2024-01-01T00:00:00Z');
const dir = (name: string) => `file:///lib/${name}/`;
const file = (series: string, name: string) => `file:///lib/${series}/${name}.cbz`;

const series = (id: string, name: string, t = 1000, deletedDate: Date | null = null): SnapshotSeries => ({
  id,
  url: dir(name),
  fileLastModified: t,
  deletedDate,
});
const book = (
  id: string,
  seriesId: string,
  seriesName: string,
  name: string,
  o: Partial<SnapshotBook> = {},
): SnapshotBook => ({
  id,
  seriesId,
  url: file(seriesName, name),
  fileSize: 100,
  fileLastModified: 1000,
  fileHash: '',
  deletedDate: null,
  ...o,
});
const walked = (name: string, t: number, books: [string, number?, number?][]): WalkedSeries => ({
  url: dir(name),
  name,
  fileLastModified: t,
  oneshot: false,
  books: books.map(([n, size = 100, time = 1000]) => ({
    url: file(name, n),
    name: n,
    fileSize: size,
    fileLastModified: time,
  })),
});

/** Hash = content fingerprint by URL; unknown URLs hash to 'h-<url>'. */
function hasher(table: Record<string, string> = {}) {
  return vi.fn(async (url: string) => table[url] ?? `h-${url}`);
}

const run = (i: Partial<ReconcileInput> & Pick<ReconcileInput, 'library' | 'walk'>) =>
  reconcileLibrary({ deep: false, hash: hasher(), ...i });

describe('reconcileLibrary (engine.md §2.4–2.7)', () => {
  it('first scan: everything added, nothing hashed without candidates', async () => {
    const hash = hasher();
    const r = await run({
      library: { series: [], books: [] },
      walk: { series: [walked('A', 1000, [['a1'], ['a2']])] },
      hash,
    });
    expect(r.series.added.map((s) => s.series.name)).toEqual(['A']);
    expect(r.books.added.map((b) => [b.book.name, b.seriesId, b.fileHash, b.restoredFrom])).toEqual([
      ['a1', null, '', null],
      ['a2', null, '', null],
    ]);
    expect(hash).not.toHaveBeenCalled();
  });

  const base = {
    series: [series('S', 'A')],
    books: [book('b1', 'S', 'A', 'a1', { fileHash: 'H1' }), book('b2', 'S', 'A', 'a2')],
  };

  it('unchanged folder time: books not inspected (a file replaced in place is invisible)', async () => {
    const r = await run({ library: base, walk: { series: [walked('A', 1000, [['a1', 999, 5000], ['a2']])] } });
    expect(r.series.unchanged).toEqual(['S']);
    expect(r.books).toMatchObject({ added: [], changed: [], unchanged: [], missing: [] });
    expect(r.toSort).toEqual([]);
  });

  it('deep scan inspects unchanged series', async () => {
    const r = await run({
      library: base,
      deep: true,
      walk: { series: [walked('A', 1000, [['a1'], ['a2', 200, 2000]])] },
    });
    expect(r.series.unchanged).toEqual(['S']);
    expect(r.books.unchanged).toEqual(['b1']);
    expect(r.books.changed).toEqual([
      {
        id: 'b2',
        seriesId: 'S',
        url: file('A', 'a2'),
        fileSize: 200,
        fileLastModified: 2000,
        fileHash: '',
        outdated: true,
      },
    ]);
    expect(r.toSort).toEqual(['S']);
  });

  it.each([
    // [size, time, hash of the new content, expected change]
    ['time only, same content (hash equal)', 100, 2000, 'H1', { fileHash: 'H1', outdated: false }],
    ['time only, different content', 100, 2000, 'H9', { fileHash: 'H9', outdated: true }],
    ['size and time changed: not hashed', 150, 2000, 'H9', { fileHash: '', outdated: true }],
  ])('changed book (§2.5): %s', async (_l, size, time, newHash, expected) => {
    const hash = hasher({ [file('A', 'a1')]: newHash });
    const r = await run({ library: base, hash, walk: { series: [walked('A', 2000, [['a1', size, time], ['a2']])] } });
    expect(r.series.changed).toEqual([{ id: 'S', url: dir('A'), fileLastModified: 2000, timeChanged: true }]);
    expect(r.books.changed).toEqual([
      { id: 'b1', seriesId: 'S', url: file('A', 'a1'), fileSize: size, fileLastModified: time, ...expected },
    ]);
    expect(r.books.unchanged).toEqual(['b2']);
    expect(hash).toHaveBeenCalledTimes(size === 100 ? 1 : 0);
  });

  it('size change alone never triggers anything', async () => {
    const r = await run({
      library: base,
      deep: true,
      walk: {
        series: [
          walked('A', 1000, [
            ['a1', 5],
            ['a2', 7],
          ]),
        ],
      },
    });
    expect(r.books.changed).toEqual([]);
    expect(r.books.unchanged).toEqual(['b1', 'b2']);
  });

  it('a book without a stored hash whose time changed is outdated without hashing', async () => {
    const hash = hasher();
    const r = await run({ library: base, hash, walk: { series: [walked('A', 2000, [['a1'], ['a2', 100, 3000]])] } });
    expect(r.books.changed).toMatchObject([{ id: 'b2', outdated: true, fileHash: '' }]);
    expect(hash).not.toHaveBeenCalled();
  });

  it('force-modified-time: the walk gives the series the newest book time, which opens inspection', async () => {
    // (the walk computes max(folder, books) when scanForceModifiedTime is on: domain/library seriesLastModified)
    const r = await run({ library: base, walk: { series: [walked('A', 3000, [['a1', 100, 3000], ['a2']])] } });
    expect(r.series.changed).toMatchObject([{ id: 'S', timeChanged: true, fileLastModified: 3000 }]);
    expect(r.books.changed.map((b) => b.id)).toEqual(['b1']);
  });

  it('deleted book: soft-deleted, its series counts as changed even with the same folder time', async () => {
    const r = await run({ library: base, walk: { series: [walked('A', 1000, [['a1']])] } });
    expect(r.books.missing).toEqual(['b2']);
    expect(r.series.changed).toEqual([{ id: 'S', url: dir('A'), fileLastModified: 1000, timeChanged: false }]);
    expect(r.books.unchanged).toEqual(['b1']);
    expect(r.toSort).toEqual(['S']);
  });

  it('deleted folder: series and all its live books missing', async () => {
    const r = await run({
      library: {
        series: [...base.series, series('T', 'B')],
        books: [...base.books, book('t1', 'T', 'B', 'x'), book('t0', 'T', 'B', 'old', { deletedDate: D })],
      },
      walk: { series: [walked('A', 1000, [['a1'], ['a2']])] },
    });
    expect(r.series.missing).toEqual(['T']);
    expect(r.books.missing).toEqual(['t1']);
  });

  it('empty walk: every live series is missing', async () => {
    const r = await run({ library: base, walk: { series: [] } });
    expect(r.series.missing).toEqual(['S']);
    expect(r.books.missing).toEqual(['b1', 'b2']);
  });

  it('rename inside a series: restored from the just-deleted book with the same size and hash', async () => {
    const hash = hasher({ [file('A', 'renamed')]: 'H1' });
    const r = await run({
      library: base,
      hash,
      walk: { series: [walked('A', 2000, [['renamed'], ['a2']])] },
    });
    expect(r.books.missing).toEqual(['b1']);
    expect(r.books.added).toHaveLength(1);
    expect(r.books.added[0]).toMatchObject({ seriesId: 'S', fileHash: 'H1', restoredFrom: { id: 'b1' } });
    expect(hash).toHaveBeenCalledTimes(1);
  });

  it('added book with the same size as a hashed deleted book but other content: hashed, not restored', async () => {
    const r = await run({
      library: base,
      hash: hasher({ [file('A', 'new')]: 'OTHER' }),
      walk: { series: [walked('A', 2000, [['new'], ['a2']])] },
    });
    expect(r.books.added[0]).toMatchObject({ fileHash: 'OTHER', restoredFrom: null });
  });

  it('added book with a different size: no hash, no restore', async () => {
    const hash = hasher();
    const r = await run({ library: base, hash, walk: { series: [walked('A', 2000, [['new', 42], ['a2']])] } });
    expect(r.books.added[0]).toMatchObject({ fileHash: '', restoredFrom: null });
    expect(hash).not.toHaveBeenCalled();
  });

  it('folder renamed/moved: the new series takes over the old one (same sizes, hashes)', async () => {
    const lib = {
      series: [series('S', 'A')],
      books: [
        book('b1', 'S', 'A', 'a1', { fileHash: 'H1', fileSize: 10 }),
        book('b2', 'S', 'A', 'a2', { fileHash: 'H2', fileSize: 20 }),
      ],
    };
    const r = await run({
      library: lib,
      hash: hasher({ [file('Moved', 'a1')]: 'H1', [file('Moved', 'a2')]: 'H2' }),
      walk: {
        series: [
          walked('Moved', 5000, [
            ['a1', 10],
            ['a2', 20],
          ]),
        ],
      },
    });
    expect(r.series.missing).toEqual(['S']);
    expect(r.books.missing).toEqual(['b1', 'b2']);
    expect(r.series.added).toMatchObject([{ series: { name: 'Moved' }, restoredFrom: { id: 'S' } }]);
    expect(r.books.added.map((b) => [b.book.name, b.fileHash, b.restoredFrom?.id])).toEqual([
      ['a1', 'H1', 'b1'],
      ['a2', 'H2', 'b2'],
    ]);
  });

  it('series restore needs every old book hashed and the same count', async () => {
    const lib = {
      series: [series('S', 'A')],
      books: [book('b1', 'S', 'A', 'a1', { fileHash: 'H1' }), book('b2', 'S', 'A', 'a2', { fileHash: '' })],
    };
    const r = await run({
      library: lib,
      hash: hasher({ [file('Moved', 'a1')]: 'H1' }),
      walk: { series: [walked('Moved', 5000, [['a1'], ['a2']])] },
    });
    expect(r.series.added[0]!.restoredFrom).toBeNull();
    // the hashed book is still restored on its own
    expect(r.books.added.map((b) => b.restoredFrom?.id ?? null)).toEqual(['b1', null]);
  });

  it('move across libraries: restored from the other library trash', async () => {
    const otherLibrariesTrash = {
      series: [{ id: 'X', url: 'file:///other/X/', fileLastModified: 1, deletedDate: D }],
      books: [
        {
          id: 'x1',
          seriesId: 'X',
          url: 'file:///other/X/x1.cbz',
          fileSize: 100,
          fileLastModified: 1,
          fileHash: 'HX',
          deletedDate: D,
        },
      ],
    };
    const r = await run({
      library: { series: [], books: [] },
      otherLibrariesTrash,
      hash: hasher({ [file('X', 'x1')]: 'HX' }),
      walk: { series: [walked('X', 1, [['x1']])] },
    });
    expect(r.series.added[0]!.restoredFrom?.id).toBe('X');
    expect(r.books.added[0]!.restoredFrom?.id).toBe('x1');
  });

  it('folder re-appears after a soft delete: new series, merged back by hash only (Komga)', async () => {
    const lib = {
      series: [series('S', 'A', 1000, D)],
      books: [book('b1', 'S', 'A', 'a1', { fileHash: 'H1', deletedDate: D })],
    };
    const r = await run({
      library: lib,
      hash: hasher({ [file('A', 'a1')]: 'H1' }),
      walk: { series: [walked('A', 1000, [['a1']])] },
    });
    expect(r.series.missing).toEqual([]);
    expect(r.series.added[0]).toMatchObject({ restoredFrom: { id: 'S' } });
    expect(r.books.added[0]).toMatchObject({ restoredFrom: { id: 'b1' } });
  });

  it('a deleted candidate is used once; duplicates prefer the same URL, then the latest deletion', async () => {
    const lib = {
      series: [series('S', 'A')],
      books: [
        book('old', 'S', 'A', 'z', { fileHash: 'H', deletedDate: new Date('2020-01-01') }),
        book('newer', 'S', 'A', 'y', { fileHash: 'H', deletedDate: new Date('2023-01-01') }),
        book('same-url', 'S', 'A', 'c2', { fileHash: 'H', deletedDate: new Date('2019-01-01') }),
      ],
    };
    const r = await run({
      library: lib,
      hash: hasher({ [file('A', 'c1')]: 'H', [file('A', 'c2')]: 'H', [file('A', 'c3')]: 'H', [file('A', 'c4')]: 'H' }),
      walk: { series: [walked('A', 2000, [['c1'], ['c2'], ['c3'], ['c4']])] },
    });
    expect(r.books.added.map((b) => b.restoredFrom?.id ?? null)).toEqual(['newer', 'same-url', 'old', null]);
  });

  it('hashes each URL at most once', async () => {
    const lib = {
      series: [series('S', 'A')],
      books: [book('b1', 'S', 'A', 'a1', { fileHash: 'H1', fileSize: 10 })],
    };
    const hash = hasher({ [file('M', 'a1')]: 'H1' });
    await run({ library: lib, hash, walk: { series: [walked('M', 1, [['a1', 10]])] } });
    expect(hash).toHaveBeenCalledTimes(1);
  });

  it('oneshots directory switched on: folder series gone, each book a one-shot restored by hash', async () => {
    const lib = {
      series: [series('S', 'A')],
      books: [book('b1', 'S', 'A', 'a1', { fileHash: 'H1' })],
    };
    const oneshot: WalkedSeries = {
      url: file('A', 'a1'),
      name: 'a1',
      fileLastModified: 1000,
      oneshot: true,
      books: [{ url: file('A', 'a1'), name: 'a1', fileSize: 100, fileLastModified: 1000 }],
    };
    const r = await run({ library: lib, hash: hasher({ [file('A', 'a1')]: 'H1' }), walk: { series: [oneshot] } });
    expect(r.series.missing).toEqual(['S']);
    expect(r.books.missing).toEqual(['b1']);
    expect(r.books.added[0]).toMatchObject({ seriesUrl: file('A', 'a1'), seriesId: null, restoredFrom: { id: 'b1' } });
  });

  it('an unreadable folder protects what is under it (Komga would soft-delete it)', async () => {
    const lib = {
      series: [series('S', 'A'), series('T', 'B')],
      books: [book('b1', 'S', 'A', 'a1'), book('t1', 'T', 'B', 't1')],
    };
    const r = await run({
      library: lib,
      walk: { series: [walked('A', 1000, [['a1']])], unreadableFolders: [{ url: dir('B') }] },
    });
    expect(r.series.missing).toEqual([]);
    expect(r.books.missing).toEqual([]);
    expect(r.series.untouched).toEqual(['T']);
    expect(r.books.untouched).toEqual(['t1']);
  });

  it('books added to an existing series keep its id', async () => {
    const r = await run({ library: base, walk: { series: [walked('A', 2000, [['a1'], ['a2'], ['a3', 55]])] } });
    expect(r.books.added).toMatchObject([{ book: { name: 'a3' }, seriesId: 'S', seriesUrl: dir('A') }]);
  });
});

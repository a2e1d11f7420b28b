import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuireEvent } from '@quire/api';
import type { Task } from '../../src/tasks/definitions.js';
import { fileExtension } from '../../src/domain/library.js';
import { thumbnailFolder } from '../../src/library/thumbnails.js';
import { claim, startServer } from '../support/server.js';
import { fixture } from '../support/fixtures.js';
import { buildLibrary, setTime, writeCbz } from '../support/library-builder.js';

/**
 * Scans go through the real queue (POST …/scan → worker → ScanLibrary handler). Follow-ups that other
 * parts of the engine handle (analysis, refreshes) are recorded and kept out of the workers so that what
 * the scan wrote stays observable; HashBook is run here with the scanner's own `hashBook`.
 */
async function harness() {
  const s = await startServer();
  const admin = await claim(s);
  const { deps } = s.app;
  const submitted: Task[] = [];
  const events: QuireEvent[] = [];
  deps.events.subscribe((e) => void events.push(e));
  const submit = deps.tasks.submit.bind(deps.tasks);
  deps.tasks.submit = async (tasks, priority) => {
    submitted.push(...tasks);
    const mine = tasks.filter((t) => t.kind === 'ScanLibrary' || t.kind === 'EmptyTrash');
    for (const t of tasks) if (t.kind === 'HashBook') await deps.libraries.scanner.hashBook(t.bookId);
    await submit(mine, priority);
  };
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    s.fetch(path, { ...init, headers: { Authorization: admin.authorization } });
  const idle = async (timeoutMs = 30_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { countByType } = await s.app.tasks.counts();
      if (!countByType.ScanLibrary && !countByType.EmptyTrash) return;
      if (Date.now() > until) throw new Error('Timed out waiting for the scan');
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const post = async (path: string) => {
    const res = await api(path, { method: 'POST' });
    expect(res.status).toBe(202);
    await idle();
  };
  const createLibrary = async (body: Record<string, unknown>) => {
    const res = await api('/api/v1/libraries', { method: 'POST', json: body });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    await idle();
    return id;
  };
  return { s, admin, deps, submitted, events, api, idle, post, createLibrary };
}

describe('library scan of a generated library', () => {
  let h: Awaited<ReturnType<typeof harness>>;
  let base: string;
  let root: string;
  let libraryId: string;
  // A file's time is max(mtime, birth time): explicit times must be later than the files' creation.
  const T0 = Math.floor(Date.now() / 1000) * 1000 + 3_600_000;

  const scan = (deep = false) => h.post(`/api/v1/libraries/${libraryId}/scan${deep ? '?deep=true' : ''}`);
  const series = async () =>
    Object.fromEntries((await h.deps.libraries.series.findByLibrary(libraryId)).map((x) => [x.name, x]));
  const books = async () =>
    Object.fromEntries((await h.deps.libraries.books.findByLibrary(libraryId)).map((b) => [b.name, b]));
  const media = async (bookId: string) =>
    (await h.deps.db.selectFrom('media').select('status').where('book_id', '=', bookId).executeTakeFirstOrThrow())
      .status;
  const metadata = async (bookId: string) =>
    h.deps.db.selectFrom('book_metadata').selectAll().where('book_id', '=', bookId).executeTakeFirstOrThrow();

  beforeAll(async () => {
    h = await harness();
    base = await mkdtemp(join(tmpdir(), 'quire-scan-'));
    root = join(base, 'My Library');
    await buildLibrary(root, {
      'root-book.cbz': { seed: 1 },
      'Series A/A 1.cbz': { seed: 2 },
      'Series A/A 2.cbz': { seed: 3, pages: 2 },
      'Series A/A 10.cbz': { seed: 4 },
      'Series A/cover.jpg': Buffer.from('not really a jpeg'),
      'Series A/notes.txt': Buffer.from('not a book'),
      'Series B/Sub/B 1.cbz': { seed: 5 },
      'Series B/Sub/B 2.CBZ': { seed: 6 },
      '_oneshots/One.cbz': { seed: 7 },
      '_oneshots/Two.cbz': { seed: 8, pages: 4 },
      '#recycle/Junk.cbz': { seed: 9 },
      '.hidden/Hidden.cbz': { seed: 10 },
    });
  }, 60_000);
  afterAll(async () => {
    await h.s.close();
    await rm(base, { recursive: true, force: true });
  });

  it('finds series per folder, root files, one-shots; skips exclusions and hidden folders', async () => {
    libraryId = await h.createLibrary({
      name: 'Generated',
      root,
      oneshotsDirectory: '_oneshots',
      scanDirectoryExclusions: ['#recycle'],
    });
    const ss = await series();
    expect(Object.keys(ss).sort()).toEqual(['My Library', 'One', 'Series A', 'Sub', 'Two']);
    expect(ss['One']!.oneshot).toBe(true);
    expect(ss['One']!.url).toBe(pathToFileURL(join(root, '_oneshots/One.cbz')).href);
    expect(ss['Series A']!.oneshot).toBe(false);
    expect(ss['Series A']!.url).toBe(pathToFileURL(join(root, 'Series A')).href + '/');
    expect(ss['Series A']!.bookCount).toBe(3);
    expect(ss['Sub']!.bookCount).toBe(2);

    const bs = await books();
    expect(Object.keys(bs).sort()).toEqual(['A 1', 'A 10', 'A 2', 'B 1', 'B 2', 'One', 'Two', 'root-book']);
    expect(bs['One']!.oneshot).toBe(true);
    // Natural order: A 1, A 2, A 10.
    expect([bs['A 1']!.number, bs['A 2']!.number, bs['A 10']!.number]).toEqual([1, 2, 3]);
    expect((await metadata(bs['A 10']!.id)).number).toBe('3');
    expect((await metadata(bs['A 10']!.id)).title).toBe('A 10');
    for (const b of Object.values(bs)) {
      expect(await media(b.id)).toBe('UNKNOWN');
      expect(b.deletedDate).toBeNull();
      expect(b.fileHash).toMatch(/^[0-9a-f]{32}$/); // HashBook ran
    }
    const titles = await h.deps.db.selectFrom('series_metadata').select(['series_id', 'title', 'title_sort']).execute();
    expect(titles.find((t) => t.series_id === ss['Series A']!.id)).toMatchObject({
      title: 'Series A',
      title_sort: 'Series A',
    });

    const analyzed = h.submitted.filter((t) => t.kind === 'AnalyzeBook').map((t) => (t as { bookId: string }).bookId);
    expect(analyzed.sort()).toEqual(
      Object.values(bs)
        .map((b) => b.id)
        .sort(),
    );
    expect(h.submitted).toContainEqual({ kind: 'RefreshSeriesLocalArtwork', seriesId: ss['Series A']!.id });
    // New books are numbered by the scan; their metadata refresh (every capability) follows their analysis, so the
    // scan queues no NUMBER refresh for them (it would run before the analysis, a no-op), only each series' refresh.
    expect(h.submitted.filter((t) => t.kind === 'RefreshBookMetadata')).toEqual([]);
    expect(h.submitted.flatMap((t) => (t.kind === 'RefreshSeriesMetadata' ? [t.seriesId] : [])).sort()).toEqual(
      Object.values(ss)
        .map((x) => x.id)
        .sort(),
    );
    expect(h.events.filter((e) => e.type === 'SeriesAdded')).toHaveLength(5);
    expect(h.events.filter((e) => e.type === 'BookAdded')).toHaveLength(8);

    // The library as a user sees it.
    const lib = (await (await h.api(`/api/v1/libraries/${libraryId}`)).json()) as { unavailable: boolean };
    expect(lib.unavailable).toBe(false);
  });

  it('changes nothing when nothing changed', async () => {
    const before = await books();
    h.events.length = 0;
    await scan();
    expect(await books()).toEqual(before);
    expect(h.events.filter((e) => e.type.startsWith('Book'))).toEqual([]);
  });

  it('keeps id, metadata and read progress of a renamed book', async () => {
    const { id } = (await books())['A 2']!;
    const me = (await (await h.api('/api/v2/users/me')).json()) as { id: string };
    const now = new Date().toISOString();
    await h.deps.db
      .insertInto('read_progress')
      .values({
        book_id: id,
        user_id: me.id,
        page: 2,
        completed: 0,
        read_date: now,
        created_date: now,
        last_modified_date: now,
      })
      .execute();
    await h.deps.db.updateTable('media').set({ status: 'READY', page_count: 2 }).where('book_id', '=', id).execute();

    await rename(join(root, 'Series A/A 2.cbz'), join(root, 'Series A/A 2 (renamed).cbz'));
    await scan();
    const bs = await books();
    expect(bs['A 2']).toBeUndefined();
    const renamed = bs['A 2 (renamed)']!;
    expect(renamed.id).toBe(id);
    expect(renamed.deletedDate).toBeNull();
    expect(renamed.url).toBe(pathToFileURL(join(root, 'Series A/A 2 (renamed).cbz')).href);
    expect((await metadata(id)).title).toBe('A 2 (renamed)');
    expect(await media(id)).toBe('READY'); // no re-analysis needed
    const progress = await h.deps.db.selectFrom('read_progress').selectAll().where('book_id', '=', id).execute();
    expect(progress).toHaveLength(1);
    expect((await series())['Series A']!.bookCount).toBe(3);
    expect(h.submitted).toContainEqual({
      kind: 'RefreshBookMetadata',
      bookId: id,
      seriesId: renamed.seriesId,
      capabilities: ['TITLE'],
    });
  });

  it('moves a book to another series, keeping its id; both series are renumbered', async () => {
    const { id } = (await books())['A 10']!;
    await rename(join(root, 'Series A/A 10.cbz'), join(root, 'Series B/Sub/A 10.cbz'));
    h.submitted.length = 0;
    await scan();
    const ss = await series();
    const moved = (await books())['A 10']!;
    expect(moved.id).toBe(id);
    expect(moved.seriesId).toBe(ss['Sub']!.id);
    expect(ss['Sub']!.bookCount).toBe(3);
    expect(ss['Series A']!.bookCount).toBe(2);
    const bs = await books();
    expect([bs['A 10']!.number, bs['B 1']!.number, bs['B 2']!.number]).toEqual([1, 2, 3]);
    expect([bs['A 1']!.number, bs['A 2 (renamed)']!.number]).toEqual([1, 2]);
    // books that were there before get their new numbers refreshed from their files
    const numbered = h.submitted.flatMap((t) =>
      t.kind === 'RefreshBookMetadata' && t.capabilities.includes('NUMBER') ? [t.bookId] : [],
    );
    expect(numbered.sort()).toEqual([bs['A 10']!.id, bs['B 1']!.id, bs['B 2']!.id].sort());
  });

  it('soft-deletes missing books and series, which still count until the trash is emptied', async () => {
    h.events.length = 0;
    const before = await books();
    await rm(join(root, 'Series A/A 1.cbz'));
    await rm(join(root, '_oneshots/Two.cbz'));
    await scan();
    const bs = await books();
    expect(bs['A 1']!.deletedDate).toBeInstanceOf(Date);
    expect(bs['Two']!.deletedDate).toBeInstanceOf(Date);
    expect((await series())['Two']!.deletedDate).toBeInstanceOf(Date);
    expect((await series())['Series A']!.bookCount).toBe(2);
    expect(h.events).toContainEqual({
      type: 'BookChanged',
      data: { bookId: before['A 1']!.id, seriesId: before['A 1']!.seriesId, libraryId },
    });
    expect(h.events).toContainEqual({ type: 'SeriesChanged', data: { seriesId: before['Two']!.seriesId, libraryId } });
  });

  it('restores deleted books and series that come back under another name', async () => {
    const before = await books();
    const beforeSeries = await series();
    await writeCbz(join(root, 'Series A/A 1 again.cbz'), { seed: 2 });
    await mkdir(join(root, '_oneshots/more'), { recursive: true });
    await writeCbz(join(root, '_oneshots/more/Two again.cbz'), { seed: 8, pages: 4 });
    await scan();
    const bs = await books();
    expect(bs['A 1']).toBeUndefined();
    expect(bs['A 1 again']!.id).toBe(before['A 1']!.id);
    expect(bs['A 1 again']!.deletedDate).toBeNull();
    expect(bs['Two again']!.id).toBe(before['Two']!.id);
    const ss = await series();
    expect(ss['Two again']!.id).toBe(beforeSeries['Two']!.id);
    expect(ss['Two again']!.deletedDate).toBeNull();
    expect(ss['Two again']!.oneshot).toBe(true);
    expect(Object.keys(ss).sort()).toEqual(['My Library', 'One', 'Series A', 'Sub', 'Two again']);
  });

  it('sees a file replaced in place only when its folder changed, or on a deep scan; its media becomes OUTDATED', async () => {
    const b1 = (await books())['B 1']!;
    await h.deps.db.updateTable('media').set({ status: 'READY' }).where('book_id', '=', b1.id).execute();
    const folder = join(root, 'Series B/Sub');
    const folderTime = (await stat(folder)).mtimeMs;
    // Rewritten in place: the folder's own time does not move.
    await writeCbz(join(folder, 'B 1.cbz'), { seed: 50, pages: 5, mtime: T0 + 5_000 });
    expect((await stat(folder)).mtimeMs).toBe(folderTime);

    h.submitted.length = 0;
    await scan();
    expect(await media(b1.id)).toBe('READY');

    await scan(true);
    expect(await media(b1.id)).toBe('OUTDATED');
    const after = (await books())['B 1']!;
    expect(after.id).toBe(b1.id);
    expect(after.fileLastModified).toBe(T0 + 5_000);
    expect(after.fileSize).toBe((await stat(join(folder, 'B 1.cbz'))).size);
    expect(after.fileHash).not.toBe(b1.fileHash);
    expect(h.submitted).toContainEqual({ kind: 'AnalyzeBook', bookId: b1.id, seriesId: b1.seriesId });
  });

  it('keeps the media of a touched but identical file', async () => {
    const one = (await books())['One']!;
    await h.deps.db.updateTable('media').set({ status: 'READY' }).where('book_id', '=', one.id).execute();
    await setTime(join(root, '_oneshots/One.cbz'), T0 + 9_000);
    await scan(true);
    expect(await media(one.id)).toBe('READY');
    expect((await books())['One']!.fileLastModified).toBe(T0 + 9_000);
  });

  it('marks the library unavailable when its root is gone, deleting nothing, and available again', async () => {
    const before = await books();
    await rename(root, `${root}-away`);
    try {
      await scan();
      const lib = (await (await h.api(`/api/v1/libraries/${libraryId}`)).json()) as { unavailable: boolean };
      expect(lib.unavailable).toBe(true);
      expect(await books()).toEqual(before);
    } finally {
      await rename(`${root}-away`, root);
    }
    await scan();
    const lib = (await (await h.api(`/api/v1/libraries/${libraryId}`)).json()) as { unavailable: boolean };
    expect(lib.unavailable).toBe(false);
  });

  it('empties the trash: hard-deletes, renumbers, removes thumbnail files, never a book file', async () => {
    const bs = await books();
    const gone = bs['root-book']!;
    await rename(join(root, 'root-book.cbz'), join(base, 'outside.cbz'));
    await rm(join(root, 'Series B/Sub/B 1.cbz'));
    await scan();
    const thumbId = 'THUMB0000001';
    const now = new Date().toISOString();
    await h.deps.db
      .insertInto('thumbnail_book')
      .values({
        id: thumbId,
        book_id: gone.id,
        type: 'GENERATED',
        url: null,
        media_type: 'image/jpeg',
        created_date: now,
        last_modified_date: now,
      })
      .execute();
    const thumbFile = join(thumbnailFolder(h.s.dataDir, 'book', gone.id), `${thumbId}.jpg`);
    await mkdir(dirname(thumbFile), { recursive: true });
    await writeFile(thumbFile, 'jpeg');
    h.events.length = 0;

    await h.post(`/api/v1/libraries/${libraryId}/empty-trash`);
    const after = await books();
    expect(after['root-book']).toBeUndefined();
    expect(after['B 1']).toBeUndefined();
    expect((await series())['My Library']).toBeUndefined();
    expect(existsSync(thumbFile)).toBe(false);
    expect(existsSync(join(base, 'outside.cbz'))).toBe(true);
    expect([after['A 10']!.number, after['B 2']!.number]).toEqual([1, 2]);
    expect((await series())['Sub']!.bookCount).toBe(2);
    expect(h.events).toContainEqual({
      type: 'BookDeleted',
      data: { bookId: gone.id, seriesId: gone.seriesId, libraryId },
    });
    expect(h.events).toContainEqual({ type: 'SeriesDeleted', data: { seriesId: gone.seriesId, libraryId } });
  });

  it('empties the trash after the scan when the library says so', async () => {
    await h.api(`/api/v1/libraries/${libraryId}`, { method: 'PATCH', json: { emptyTrashAfterScan: true } });
    await rm(join(root, '_oneshots/One.cbz'));
    await scan();
    expect((await books())['One']).toBeUndefined();
    expect((await series())['One']).toBeUndefined();
  });

  it('deletes the library from the database only: every book file stays', async () => {
    const files = await readdir(join(root, 'Series A'));
    const res = await h.api(`/api/v1/libraries/${libraryId}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await h.deps.libraries.books.findByLibrary(libraryId)).toEqual([]);
    expect(await h.deps.libraries.series.findByLibrary(libraryId)).toEqual([]);
    expect(await readdir(join(root, 'Series A'))).toEqual(files);
  });
});

describe('library scan of the real fixtures', () => {
  let h: Awaited<ReturnType<typeof harness>>;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.s.close();
  });

  it.each([
    ['archives', { cbz: 6, zip: 16, cbr: 2, rar: 15, cb7: 2, '7z': 3, cbt: 1 }],
    ['epub', { epub: 18 }],
    ['pdf', { pdf: 14 }],
  ])(
    'finds every book of %s, by file type',
    async (folder, expected) => {
      const id = await h.createLibrary({ name: folder, root: fixture(folder) });
      const found = await h.deps.libraries.books.findByLibrary(id);
      const byType: Record<string, number> = {};
      for (const b of found) {
        const ext = fileExtension(basename(new URL(b.url).pathname));
        byType[ext] = (byType[ext] ?? 0) + 1;
      }
      expect(byType).toEqual(expected);
      expect(found.every((b) => b.deletedDate === null && b.fileSize > 0)).toBe(true);
      // Read in place: a second copy of nothing was made, and a rescan finds the same books.
      await h.post(`/api/v1/libraries/${id}/scan?deep=true`);
      expect((await h.deps.libraries.books.findByLibrary(id)).map((b) => b.id).sort()).toEqual(
        found.map((b) => b.id).sort(),
      );
    },
    60_000,
  );
});

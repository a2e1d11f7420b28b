import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeImage, writeCbz } from '../support/library-builder.js';
import { claim, startServer, type TestServer } from '../support/server.js';
import { call, eventually, openEvents, type EventStream } from '../reading/helpers.js';

/*
 * POST /api/v1/books/import (api.md §3.3, engine.md §9.2) on the real server: files from a folder outside every
 * library brought into a series folder, each import's outcome seen on the administrator's event stream and in the
 * history, and the files on disk checked.
 */

type Imported = { bookId?: string; sourceFile: string; success: boolean; message?: string };

let s: TestServer;
let admin: string;
let dir: string;
let libraryRoot: string;
let incoming: string;
let seriesId: string;
let otherSeriesId: string;
let events: EventStream;
const sha = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
const series = () => join(libraryRoot, 'Series');

const idle = async () => {
  let quiet = 0;
  for (let i = 0; i < 1200 && quiet < 3; i++) {
    quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Imports, and waits for the BookImported event of that source. */
async function importBooks(
  books: { sourceFile: string; seriesId: string; upgradeBookId?: string; destinationName?: string }[],
  copyMode: string,
): Promise<Imported[]> {
  const before = events.events.length;
  const res = await call(s, admin, 'POST', '/api/v1/books/import', { books, copyMode });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const outcomes = () =>
    events.events
      .slice(before)
      .filter((e) => e.type === 'BookImported')
      .map((e) => e.data as Imported);
  await events.until(() => outcomes().length >= books.length, 30_000);
  await idle();
  return outcomes();
}

const booksOf = async (id: string) => {
  const res = await call(s, admin, 'GET', `/api/v1/series/${id}/books?unpaged=true`);
  return (res.body as { content: { id: string; name: string; url: string; media: { status: string } }[] }).content;
};

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  dir = await realpath(await mkdtemp(join(tmpdir(), 'quire-import-')));
  libraryRoot = join(dir, 'library');
  incoming = join(dir, 'incoming');
  await writeCbz(join(series(), 'Series 1.cbz'), { seed: 1 });
  await writeCbz(join(libraryRoot, 'Other/Other 1.cbz'), { seed: 2 });
  const res = await call(s, admin, 'POST', '/api/v1/libraries', { name: 'Comics', root: libraryRoot });
  expect(res.status).toBe(200);
  await idle();
  const all = (await call(s, admin, 'GET', '/api/v1/series?unpaged=true')).body as {
    content: { id: string; name: string }[];
  };
  seriesId = all.content.find((x) => x.name === 'Series')!.id;
  otherSeriesId = all.content.find((x) => x.name === 'Other')!.id;
  events = await openEvents(s, admin);
});

afterAll(async () => {
  await events?.close();
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await rm(incoming, { recursive: true, force: true });
  await mkdir(incoming, { recursive: true });
});

describe('POST /api/v1/books/import', () => {
  it('copies a book into the series: the source stays, the book is added, analysed, and recorded', async () => {
    const source = join(incoming, 'Series 2.cbz');
    await writeCbz(source, { seed: 3 });
    const [outcome] = await importBooks([{ sourceFile: source, seriesId }], 'COPY');
    expect(outcome).toMatchObject({ sourceFile: source, success: true, bookId: expect.any(String) });
    const target = join(series(), 'Series 2.cbz');
    expect(await sha(target)).toBe(await sha(source));
    const books = await booksOf(seriesId);
    const added = books.find((b) => b.id === outcome!.bookId)!;
    expect(added).toMatchObject({ name: 'Series 2', url: target });
    await eventually(async () => {
      expect((await booksOf(seriesId)).find((b) => b.id === added.id)!.media.status).toBe('READY');
    });
    const history = (await call(s, admin, 'GET', '/api/v1/history?type=BookImported')).body as {
      content: { bookId: string; properties: Record<string, string> }[];
    };
    expect(history.content).toContainEqual(
      expect.objectContaining({ bookId: added.id, properties: { name: target, source, upgrade: 'No' } }),
    );
    expect((await readdir(series())).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('refuses a missing source (ERR_1018), a source inside a library (ERR_1019), an existing destination (ERR_1021)', async () => {
    await writeCbz(join(incoming, 'Series 1.cbz'), { seed: 9 });
    const outcomes = await importBooks(
      [
        { sourceFile: join(incoming, 'missing.cbz'), seriesId },
        { sourceFile: join(libraryRoot, 'Other/Other 1.cbz'), seriesId },
        { sourceFile: join(incoming, 'Series 1.cbz'), seriesId },
      ],
      'MOVE',
    );
    expect(outcomes).toEqual([
      { sourceFile: join(incoming, 'missing.cbz'), success: false, message: 'ERR_1018' },
      { sourceFile: join(libraryRoot, 'Other/Other 1.cbz'), success: false, message: 'ERR_1019' },
      { sourceFile: join(incoming, 'Series 1.cbz'), success: false, message: 'ERR_1021' },
    ]);
    // nothing moved
    await stat(join(libraryRoot, 'Other/Other 1.cbz'));
    await stat(join(incoming, 'Series 1.cbz'));
  });

  it("refuses a link that leads into a library (ERR_1019), an upgrade of another series' book (ERR_1020), a file that is no book (ERR_1022)", async () => {
    await symlink(join(libraryRoot, 'Other/Other 1.cbz'), join(incoming, 'link.cbz'));
    await writeCbz(join(incoming, 'Upgrade.cbz'), { seed: 4 });
    await writeFile(join(incoming, 'notes.txt'), 'not a book');
    const otherBook = (await booksOf(otherSeriesId))[0]!;
    const outcomes = await importBooks(
      [
        { sourceFile: join(incoming, 'link.cbz'), seriesId },
        { sourceFile: join(incoming, 'Upgrade.cbz'), seriesId, upgradeBookId: otherBook.id },
        { sourceFile: join(incoming, 'notes.txt'), seriesId },
      ],
      'COPY',
    );
    expect(outcomes.map((o) => o.message)).toEqual(['ERR_1019', 'ERR_1020', 'ERR_1022']);
    expect(await readdir(series())).toEqual(expect.not.arrayContaining(['Upgrade.cbz', 'notes.txt']));
  });

  it('answers 400 with the validation body for a bad copy mode or a book without its series, and 403 to non-admins', async () => {
    let res = await call(s, admin, 'POST', '/api/v1/books/import', { books: [], copyMode: 'TELEPORT' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ violations: [expect.objectContaining({ fieldName: expect.any(String) })] });
    res = await call(s, admin, 'POST', '/api/v1/books/import', { books: [{ sourceFile: '/x.cbz' }], copyMode: 'COPY' });
    expect(res.status).toBe(400);
    await call(s, admin, 'POST', '/api/v2/users', { email: 'u@example.org', password: 'user-secret', roles: [] });
    res = await call(
      s,
      `Basic ${Buffer.from('u@example.org:user-secret').toString('base64')}`,
      'POST',
      '/api/v1/books/import',
      { books: [], copyMode: 'COPY' },
    );
    expect(res.status).toBe(403);
  });

  it('keeps only the final name component of destinationName, and renames the sidecars with the book', async () => {
    const source = join(incoming, 'scan 07.cbz');
    await writeCbz(source, { seed: 5 });
    await writeFile(join(incoming, 'scan 07.jpg'), await makeImage('jpeg', 1));
    await writeFile(join(incoming, 'SCAN 07-2.png'), await makeImage('png', 2));
    const [outcome] = await importBooks(
      [{ sourceFile: source, seriesId, destinationName: '../../../escaped/Series 7' }],
      'MOVE',
    );
    expect(outcome).toMatchObject({ success: true });
    const names = await readdir(series());
    expect(names).toEqual(expect.arrayContaining(['Series 7.cbz', 'Series 7.jpg', 'Series 7-2.png']));
    await expect(stat(join(dir, 'escaped'))).rejects.toThrow();
    // moved: the sources are gone
    expect(await readdir(incoming)).toEqual([]);
  });

  it('reports an unknown series as a failure, and imports a new book when the book to upgrade is unknown', async () => {
    const source = join(incoming, 'Series 4.cbz');
    await writeCbz(source, { seed: 12 });
    const [unknownSeries] = await importBooks([{ sourceFile: source, seriesId: '0UNKNOWN0SERIES' }], 'COPY');
    expect(unknownSeries).toEqual({ sourceFile: source, success: false, message: 'Series not found: 0UNKNOWN0SERIES' });
    const [unknownBook] = await importBooks([{ sourceFile: source, seriesId, upgradeBookId: '0UNKNOWN0BOOK' }], 'COPY');
    expect(unknownBook).toMatchObject({ success: true });
    expect((await booksOf(seriesId)).find((b) => b.id === unknownBook!.bookId)).toMatchObject({ name: 'Series 4' });
  });

  it('moves the file a link leads to, and takes the link away with it', async () => {
    await mkdir(join(incoming, 'real'), { recursive: true });
    await writeCbz(join(incoming, 'real/Series 5.cbz'), { seed: 13 });
    const bytes = await sha(join(incoming, 'real/Series 5.cbz'));
    await symlink(join(incoming, 'real/Series 5.cbz'), join(incoming, 'Series 5.cbz'));
    const [outcome] = await importBooks([{ sourceFile: join(incoming, 'Series 5.cbz'), seriesId }], 'MOVE');
    expect(outcome).toMatchObject({ success: true });
    expect(await sha(join(series(), 'Series 5.cbz'))).toBe(bytes);
    expect((await stat(join(series(), 'Series 5.cbz'))).isFile()).toBe(true);
    expect(await readdir(incoming)).toEqual(['real']);
    expect(await readdir(join(incoming, 'real'))).toEqual([]);
  });

  it('hard-links with HARDLINK: the series file is the source file', async () => {
    const source = join(incoming, 'Series 3.cbz');
    await writeCbz(source, { seed: 6 });
    const [outcome] = await importBooks([{ sourceFile: source, seriesId }], 'HARDLINK');
    expect(outcome).toMatchObject({ success: true });
    const [a, b] = await Promise.all([stat(source), stat(join(series(), 'Series 3.cbz'))]);
    expect(b.ino).toBe(a.ino);
    expect(a.nlink).toBe(2);
  });

  it('upgrades a book: same id, metadata and locks, progress, read-list place and poster kept; old file gone', async () => {
    const old = (await booksOf(seriesId)).find((b) => b.name === 'Series 1')!;
    expect(
      (await call(s, admin, 'PATCH', `/api/v1/books/${old.id}/metadata`, { title: 'Kept title', titleLock: true }))
        .status,
    ).toBe(204);
    expect((await call(s, admin, 'PATCH', `/api/v1/books/${old.id}/read-progress`, { page: 2 })).status).toBe(204);
    const other = (await booksOf(otherSeriesId))[0]!;
    const list = await call(s, admin, 'POST', '/api/v1/readlists', { name: 'Order', bookIds: [other.id, old.id] });
    expect(list.status).toBe(200);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await makeImage('png', 7))], { type: 'image/png' }), 'p.png');
    const poster = await s.fetch(`/api/v1/books/${old.id}/thumbnails`, {
      method: 'POST',
      headers: { Authorization: admin },
      body: form,
    });
    expect(poster.status).toBe(200);
    const posterId = ((await poster.json()) as { id: string }).id;

    await writeFile(join(series(), 'Series 1.jpg'), await makeImage('jpeg', 11)); // the old book's sidecar
    const source = join(incoming, 'Series 1 (HQ).cbz');
    await writeCbz(source, { seed: 8 }); // three pages, as the old file: progress is kept as it is
    const [outcome] = await importBooks([{ sourceFile: source, seriesId, upgradeBookId: old.id }], 'COPY');
    expect(outcome).toEqual({ bookId: old.id, sourceFile: source, success: true });
    await expect(stat(join(series(), 'Series 1.cbz'))).rejects.toThrow();
    await expect(stat(join(series(), 'Series 1.jpg'))).rejects.toThrow();
    expect(await sha(join(series(), 'Series 1 (HQ).cbz'))).toBe(await sha(source));
    await eventually(async () => {
      const book = (await call(s, admin, 'GET', `/api/v1/books/${old.id}`)).body as Record<string, unknown>;
      expect(book).toMatchObject({
        name: 'Series 1 (HQ)',
        url: join(series(), 'Series 1 (HQ).cbz'),
        media: { status: 'READY', pagesCount: 3 },
        metadata: { title: 'Kept title', titleLock: true },
        readProgress: { page: 2, completed: false },
      });
    });
    const members = (await call(s, admin, 'GET', `/api/v1/readlists/${(list.body as { id: string }).id}/books`))
      .body as { content: { id: string }[] };
    expect(members.content.map((b) => b.id)).toEqual([other.id, old.id]);
    const posters = (await call(s, admin, 'GET', `/api/v1/books/${old.id}/thumbnails`)).body as {
      id: string;
      type: string;
      selected: boolean;
    }[];
    expect(posters).toContainEqual(expect.objectContaining({ id: posterId, type: 'USER_UPLOADED', selected: true }));
    const history = (await call(s, admin, 'GET', '/api/v1/history?unpaged=true')).body as {
      content: { type: string; bookId: string; properties: Record<string, string> }[];
    };
    const mine = history.content.filter((e) => e.bookId === old.id);
    expect(mine).toContainEqual(
      expect.objectContaining({
        type: 'BookFileDeleted',
        properties: { reason: 'File was deleted to import an upgrade', name: join(series(), 'Series 1.cbz') },
      }),
    );
    expect(mine).toContainEqual(
      expect.objectContaining({
        type: 'BookImported',
        properties: { name: join(series(), 'Series 1 (HQ).cbz'), source, upgrade: 'Yes' },
      }),
    );

    // an upgrade whose file has the old one's name replaces it in place
    await writeCbz(source, { seed: 10 });
    const [again] = await importBooks([{ sourceFile: source, seriesId, upgradeBookId: old.id }], 'MOVE');
    expect(again).toMatchObject({ bookId: old.id, success: true });
    expect((await readdir(series())).filter((f) => f.startsWith('Series 1'))).toEqual(['Series 1 (HQ).cbz']);
    await expect(stat(source)).rejects.toThrow();
  });
});

describe('POST /api/v1/books/import into a one-shot', () => {
  it('needs the book to upgrade, and then the series follows its new file, which a scan keeps', async () => {
    const root = join(dir, 'oneshots-library');
    await writeCbz(join(root, '_oneshots/Solo.cbz'), { seed: 40 });
    const created = await call(s, admin, 'POST', '/api/v1/libraries', {
      name: 'One-shots',
      root,
      oneshotsDirectory: '_oneshots',
    });
    expect(created.status).toBe(200);
    const libraryId = (created.body as { id: string }).id;
    await idle();
    const all = (await call(s, admin, 'GET', `/api/v1/series?library_id=${libraryId}`)).body as {
      content: { id: string; name: string; oneshot: boolean }[];
    };
    const solo = all.content.find((x) => x.name === 'Solo')!;
    expect(solo.oneshot).toBe(true);
    const book = (await booksOf(solo.id))[0]!;
    const source = join(incoming, 'Solo (2nd edition).cbz');
    await writeCbz(source, { seed: 41 });

    const [refused] = await importBooks([{ sourceFile: source, seriesId: solo.id }], 'COPY');
    expect(refused).toMatchObject({ success: false, message: expect.stringContaining('one-shot') });
    const [upgraded] = await importBooks([{ sourceFile: source, seriesId: solo.id, upgradeBookId: book.id }], 'COPY');
    expect(upgraded).toMatchObject({ success: true, bookId: book.id });
    expect(await readdir(join(root, '_oneshots'))).toEqual(['Solo (2nd edition).cbz']);
    const seriesUrl = async () =>
      ((await call(s, admin, 'GET', `/api/v1/series/${solo.id}`)).body as { url: string }).url;
    expect(await seriesUrl()).toBe(join(root, '_oneshots/Solo (2nd edition).cbz'));

    expect((await call(s, admin, 'POST', `/api/v1/libraries/${libraryId}/scan`)).status).toBe(202);
    await idle();
    const after = (await call(s, admin, 'GET', `/api/v1/series/${solo.id}`)).body as { deleted: boolean };
    expect(after.deleted).toBe(false);
    expect((await booksOf(solo.id)).map((b) => b.id)).toEqual([book.id]);
  });
});

/*
 * A process killed between two steps of an import leaves files and a journal row (migration 0013); the task runs
 * again at the next start-up. These tests set up exactly what such a crash leaves, then let the import run.
 */
describe('POST /api/v1/books/import after an interrupted run', () => {
  const journal = (row: { task_id: string; stage: string; target_url: string; book_id?: string }) =>
    s.app.deps.db
      .insertInto('book_import')
      .values({ book_id: null, upgraded_url: null, created_date: new Date().toISOString(), ...row })
      .execute();
  const journalRows = () => s.app.deps.db.selectFrom('book_import').selectAll().execute();

  it('finishes a move whose file was placed but not recorded, instead of finding its own file in the way', async () => {
    const source = join(incoming, 'Series 30.cbz');
    await writeCbz(source, { seed: 30 });
    const target = join(series(), 'Series 30.cbz');
    await copyFile(source, target);
    await journal({
      task_id: `IMPORT_BOOK_${seriesId}_${source}`,
      stage: 'PLACING',
      target_url: pathToFileURL(target).href,
    });
    const [outcome] = await importBooks([{ sourceFile: source, seriesId }], 'MOVE');
    expect(outcome).toMatchObject({ success: true });
    expect((await booksOf(seriesId)).filter((b) => b.url === target)).toHaveLength(1);
    await expect(stat(source)).rejects.toThrow();
    expect(await journalRows()).toEqual([]);
  });

  it('only removes the source of a move whose book was recorded', async () => {
    const source = join(incoming, 'Series 31.cbz');
    await writeCbz(source, { seed: 31 });
    const [copied] = await importBooks([{ sourceFile: source, seriesId }], 'COPY');
    const target = join(series(), 'Series 31.cbz');
    await journal({
      task_id: `IMPORT_BOOK_${seriesId}_${source}`,
      stage: 'RECORDED',
      target_url: pathToFileURL(target).href,
      book_id: copied!.bookId!,
    });
    const [moved] = await importBooks([{ sourceFile: source, seriesId }], 'MOVE');
    expect(moved).toEqual({ bookId: copied!.bookId, sourceFile: source, success: true });
    expect((await booksOf(seriesId)).filter((b) => b.url === target)).toHaveLength(1);
    await expect(stat(source)).rejects.toThrow();
    expect(await journalRows()).toEqual([]);
  });

  it('refuses with ERR_1021 a file in the way that the journal does not claim', async () => {
    const source = join(incoming, 'Series 32.cbz');
    await writeCbz(source, { seed: 32 });
    const target = join(series(), 'Series 32.cbz');
    await writeCbz(target, { seed: 33 });
    // the journal claims the name, but its temporary file is still there: the rename never happened, so the file
    // under that name is someone else's
    await journal({
      task_id: `IMPORT_BOOK_${seriesId}_${source}`,
      stage: 'PLACING',
      target_url: pathToFileURL(target).href,
    });
    const temp = join(
      series(),
      `.quire_import_${createHash('sha256').update(`IMPORT_BOOK_${seriesId}_${source}`).digest('hex').slice(0, 20)}.part`,
    );
    await writeFile(temp, 'half');
    const [outcome] = await importBooks([{ sourceFile: source, seriesId }], 'MOVE');
    expect(outcome).toMatchObject({ success: false, message: 'ERR_1021' });
    await stat(source);
    expect(await journalRows()).toEqual([]);
    await rm(target);
    await rm(temp);
  });
});

/*
 * Across file systems: /dev/shm is a tmpfs on most Linux machines, another device than the temporary folder. Where
 * it is not, the link's fallback is covered by test/library/file-transfer.test.ts with an injected EXDEV.
 */
const otherDevice = async () => {
  try {
    const [shm, tmp] = await Promise.all([stat('/dev/shm'), stat(tmpdir())]);
    return shm.dev !== tmp.dev ? await mkdtemp('/dev/shm/quire-import-') : null;
  } catch {
    return null;
  }
};
/** Outside the library either way: on another device when the machine has one, else beside it. */
const sourceFolder = async () => (await otherDevice()) ?? (await mkdtemp(join(tmpdir(), 'quire-import-source-')));

describe('POST /api/v1/books/import across file systems', () => {
  let elsewhere: string | null = null;
  let crossDevice = false;
  beforeAll(async () => {
    elsewhere = await sourceFolder();
    crossDevice = (await stat(elsewhere)).dev !== (await stat(series())).dev;
  });
  afterAll(async () => {
    if (elsewhere) await rm(elsewhere, { recursive: true, force: true });
  });

  it('copies when HARDLINK cannot link, and moves with MOVE (copy, then the source removed)', async () => {
    const linked = join(elsewhere!, 'Series 20.cbz');
    const moved = join(elsewhere!, 'Series 21.cbz');
    await writeCbz(linked, { seed: 20 });
    await writeCbz(moved, { seed: 21 });
    const movedSha = await sha(moved);
    const [a] = await importBooks([{ sourceFile: linked, seriesId }], 'HARDLINK');
    const [b] = await importBooks([{ sourceFile: moved, seriesId }], 'MOVE');
    expect([a, b]).toMatchObject([{ success: true }, { success: true }]);
    expect(await sha(join(series(), 'Series 20.cbz'))).toBe(await sha(linked));
    // Across devices a copy (one name for its data); on one device a link, which the source shares.
    expect((await stat(join(series(), 'Series 20.cbz'))).nlink).toBe(crossDevice ? 1 : 2);
    expect(await sha(join(series(), 'Series 21.cbz'))).toBe(movedSha);
    await expect(stat(moved)).rejects.toThrow();
    expect((await readdir(series())).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});

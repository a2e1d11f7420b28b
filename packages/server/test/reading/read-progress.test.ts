import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim, startServer, type TestServer } from '../support/server.js';
import { makeLibrary, makeSeriesWithBooks } from '../support/factories.js';
import { copyFixture } from '../support/fixtures.js';
import { writeCbz } from '../support/library-builder.js';
import { expectSchema } from '../support/openapi.js';
import { call, createUser, openEvents } from './helpers.js';

let s: TestServer;
let dir: string;
let admin: string;
const users = {
  reader: { id: '', authorization: '' },
  other: { id: '', authorization: '' },
  notShared: { id: '', authorization: '' },
  ageExcluded: { id: '', authorization: '' },
};
/** Saga: 3 books of 3 pages; mature: age 18; epub: reflowable; divina: EPUB of images; pdf: 2 pages. */
const ids = { saga: '', sagaBooks: [] as string[], mature: '', matureBook: '', epub: '', divina: '', pdf: '' };

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  const db = s.app.deps.db;
  dir = await mkdtemp(join(tmpdir(), 'quire-reading-'));
  const comics = await makeLibrary(db, { name: 'Comics', root: join(dir, 'Comics') });
  const other = await makeLibrary(db, { name: 'Other', root: join(dir, 'Other') });
  const files = [1, 2, 3].map((n) => join(dir, 'Comics', 'Saga', `Saga ${n}.cbz`));
  for (const [i, f] of files.entries()) await writeCbz(f, { pages: 3, seed: i + 1 });
  const saga = await makeSeriesWithBooks(db, comics, files, { title: 'Saga' });
  ids.saga = saga.seriesId;
  ids.sagaBooks = saga.bookIds;
  const matureFile = join(dir, 'Comics', 'Mature', 'Mature 1.cbz');
  await writeCbz(matureFile, { pages: 2, seed: 9 });
  const mature = await makeSeriesWithBooks(db, comics, [matureFile], { title: 'Mature', ageRating: 18 });
  ids.mature = mature.seriesId;
  ids.matureBook = mature.bookIds[0]!;
  ids.epub = (
    await makeSeriesWithBooks(db, comics, [
      await copyFixture('epub/The Incomplete Theft - Ralph Burke.epub', join(dir, 'Comics', 'Theft')),
    ])
  ).bookIds[0]!;
  ids.divina = (
    await makeSeriesWithBooks(db, comics, [await copyFixture('epub/epub3.epub', join(dir, 'Comics', 'Divina'))])
  ).bookIds[0]!;
  ids.pdf = (
    await makeSeriesWithBooks(db, other, [await copyFixture('pdf/two_pages.pdf', join(dir, 'Other', 'Pdf'))])
  ).bookIds[0]!;
  for (const id of [...ids.sagaBooks, ids.matureBook, ids.epub, ids.divina, ids.pdf])
    await s.app.deps.books.analyzer.analyzeAndPersist(id);

  users.reader = await createUser(s, admin, 'reader@example.org');
  users.other = await createUser(s, admin, 'other@example.org');
  users.notShared = await createUser(s, admin, 'notshared@example.org', {
    sharedLibraries: { all: false, libraryIds: [other] },
  });
  users.ageExcluded = await createUser(s, admin, 'age@example.org', {
    ageRestriction: { age: 16, restriction: 'EXCLUDE' },
  });
}, 60_000);

afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

type Book = { readProgress: { page: number; completed: boolean; readDate: string } | null };
type Series = { booksCount: number; booksReadCount: number; booksUnreadCount: number; booksInProgressCount: number };

const book = async (authorization: string, id: string) => {
  const res = await call(s, authorization, 'GET', `/api/v1/books/${id}`);
  expect(res.status).toBe(200);
  const found = res.body as Book;
  if (found.readProgress) expectSchema('ReadProgressDto', found.readProgress);
  return found;
};
const series = async (authorization: string, id: string) => {
  const res = await call(s, authorization, 'GET', `/api/v1/series/${id}`);
  expect(res.status).toBe(200);
  return res.body as Series;
};
const patch = (authorization: string, id: string, body: unknown) =>
  call(s, authorization, 'PATCH', `/api/v1/books/${id}/read-progress`, body);

describe('PATCH /api/v1/books/{bookId}/read-progress', () => {
  it('stores the page; the book is in progress, then read when the last page is reached', async () => {
    const { authorization } = await createUser(s, admin, 'pages@example.org');
    const [first] = ids.sagaBooks;
    expect((await patch(authorization, first!, { page: 2 })).status).toBe(204);
    expect((await book(authorization, first!)).readProgress).toMatchObject({ page: 2, completed: false });
    // Whatever `completed` says, reaching the last page completes the book.
    expect((await patch(authorization, first!, { page: 3, completed: false })).status).toBe(204);
    expect((await book(authorization, first!)).readProgress).toMatchObject({ page: 3, completed: true });
    // Going back un-completes it.
    expect((await patch(authorization, first!, { page: 1 })).status).toBe(204);
    expect((await book(authorization, first!)).readProgress).toMatchObject({ page: 1, completed: false });
  });

  it('marks a book read at its last page with completed=true, page left out', async () => {
    const { authorization } = await createUser(s, admin, 'completed@example.org');
    expect((await patch(authorization, ids.sagaBooks[1]!, { completed: true })).status).toBe(204);
    expect((await book(authorization, ids.sagaBooks[1]!)).readProgress).toMatchObject({ page: 3, completed: true });
  });

  it('keeps progress per user', async () => {
    const a = await createUser(s, admin, 'alice@example.org');
    const b = await createUser(s, admin, 'bob@example.org');
    await patch(a.authorization, ids.sagaBooks[2]!, { page: 2 });
    expect((await book(a.authorization, ids.sagaBooks[2]!)).readProgress).toMatchObject({ page: 2 });
    expect((await book(b.authorization, ids.sagaBooks[2]!)).readProgress).toBeNull();
  });

  it('refuses a missing page, a page below 1 and a page past the end with 400', async () => {
    const { authorization } = users.reader;
    const missing = await patch(authorization, ids.sagaBooks[0]!, { completed: false });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      violations: [{ fieldName: 'page', message: 'page must be specified if completed is false or null' }],
    });
    expect((await patch(authorization, ids.sagaBooks[0]!, {})).status).toBe(400);
    expect((await patch(authorization, ids.sagaBooks[0]!, { page: 0 })).status).toBe(400);
    const past = await patch(authorization, ids.sagaBooks[0]!, { page: 4 });
    expect(past.status).toBe(400);
    expect((past.body as { message: string }).message).toBe(
      'Page argument (4) must be within 1 and book page count (3)',
    );
  });

  it('refuses page progress on an EPUB that is not made of images, accepts it on a DiViNa one', async () => {
    const res = await patch(users.reader.authorization, ids.epub, { page: 1 });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toBe('epub book is not Divina compatible');
    expect((await patch(users.reader.authorization, ids.divina, { page: 1 })).status).toBe(204);
    // The position of that page is stored as the progression's locator.
    const progression = await call(s, users.reader.authorization, 'GET', `/api/v1/books/${ids.divina}/progression`);
    expect(progression.status).toBe(200);
    expect((progression.body as { locator: { locations: { position: number } } }).locator.locations.position).toBe(1);
  });

  it('answers 404 for an unknown book and 403 for one the caller may not see', async () => {
    expect((await patch(users.reader.authorization, 'NOPE', { page: 1 })).status).toBe(404);
    expect((await patch(users.notShared.authorization, ids.sagaBooks[0]!, { page: 1 })).status).toBe(403);
    expect((await patch(users.ageExcluded.authorization, ids.matureBook, { page: 1 })).status).toBe(403);
    expect(
      (await call(s, users.notShared.authorization, 'DELETE', `/api/v1/books/${ids.sagaBooks[0]}/read-progress`))
        .status,
    ).toBe(403);
    expect((await patch(users.notShared.authorization, ids.pdf, { page: 1 })).status).toBe(204);
  });
});

describe('DELETE /api/v1/books/{bookId}/read-progress', () => {
  it('makes the book unread again', async () => {
    const { authorization } = await createUser(s, admin, 'unread@example.org');
    await patch(authorization, ids.sagaBooks[0]!, { page: 2 });
    expect((await call(s, authorization, 'DELETE', `/api/v1/books/${ids.sagaBooks[0]}/read-progress`)).status).toBe(
      204,
    );
    expect((await book(authorization, ids.sagaBooks[0]!)).readProgress).toBeNull();
    // Deleting what is not there is fine.
    expect((await call(s, authorization, 'DELETE', `/api/v1/books/${ids.sagaBooks[0]}/read-progress`)).status).toBe(
      204,
    );
  });
});

describe('series read status (engine.md §13.3)', () => {
  it('counts read, in progress and unread books for the caller', async () => {
    const { authorization } = await createUser(s, admin, 'counts@example.org');
    expect(await series(authorization, ids.saga)).toMatchObject({
      booksCount: 3,
      booksReadCount: 0,
      booksUnreadCount: 3,
      booksInProgressCount: 0,
    });
    await patch(authorization, ids.sagaBooks[0]!, { completed: true });
    await patch(authorization, ids.sagaBooks[1]!, { page: 1 });
    expect(await series(authorization, ids.saga)).toMatchObject({
      booksReadCount: 1,
      booksUnreadCount: 1,
      booksInProgressCount: 1,
    });
    // Some read and none in progress is still in progress.
    await call(s, authorization, 'DELETE', `/api/v1/books/${ids.sagaBooks[1]}/read-progress`);
    expect(await series(authorization, ids.saga)).toMatchObject({ booksReadCount: 1, booksUnreadCount: 2 });
  });

  it('POST marks every book read, DELETE marks every book unread', async () => {
    const { authorization } = await createUser(s, admin, 'series@example.org');
    await patch(authorization, ids.sagaBooks[1]!, { page: 2 });
    expect((await call(s, authorization, 'POST', `/api/v1/series/${ids.saga}/read-progress`)).status).toBe(204);
    expect(await series(authorization, ids.saga)).toMatchObject({
      booksReadCount: 3,
      booksUnreadCount: 0,
      booksInProgressCount: 0,
    });
    for (const id of ids.sagaBooks)
      expect((await book(authorization, id)).readProgress).toMatchObject({ page: 3, completed: true });

    expect((await call(s, authorization, 'DELETE', `/api/v1/series/${ids.saga}/read-progress`)).status).toBe(204);
    expect(await series(authorization, ids.saga)).toMatchObject({ booksReadCount: 0, booksUnreadCount: 3 });
    for (const id of ids.sagaBooks) expect((await book(authorization, id)).readProgress).toBeNull();
  });

  it('keeps the date of books already read when the series is marked read', async () => {
    const { authorization } = await createUser(s, admin, 'keep@example.org');
    await patch(authorization, ids.sagaBooks[0]!, { completed: true });
    const before = (await book(authorization, ids.sagaBooks[0]!)).readProgress!.readDate;
    await new Promise((r) => setTimeout(r, 1100));
    await call(s, authorization, 'POST', `/api/v1/series/${ids.saga}/read-progress`);
    expect((await book(authorization, ids.sagaBooks[0]!)).readProgress!.readDate).toBe(before);
  });

  it('answers 404 for an unknown series and 403 for a hidden one', async () => {
    expect((await call(s, users.reader.authorization, 'POST', '/api/v1/series/NOPE/read-progress')).status).toBe(404);
    expect(
      (await call(s, users.ageExcluded.authorization, 'POST', `/api/v1/series/${ids.mature}/read-progress`)).status,
    ).toBe(403);
    expect(
      (await call(s, users.notShared.authorization, 'DELETE', `/api/v1/series/${ids.saga}/read-progress`)).status,
    ).toBe(403);
  });
});

describe('GET/PUT /api/v1/books/{bookId}/progression', () => {
  const progression = (modified: string, position: number, extra: Record<string, unknown> = {}) => ({
    modified,
    device: { id: 'dev-1', name: 'Tablet' },
    locator: { href: 'page', type: 'image/jpeg', locations: { position }, ...extra },
  });

  it('answers 204 without progress, then round-trips what was put', async () => {
    const { authorization } = await createUser(s, admin, 'r2@example.org');
    const id = ids.sagaBooks[0]!;
    expect((await call(s, authorization, 'GET', `/api/v1/books/${id}/progression`)).status).toBe(204);
    const put = await call(
      s,
      authorization,
      'PUT',
      `/api/v1/books/${id}/progression`,
      progression('2024-03-01T10:00:00.250+02:00', 2),
    );
    expect(put.status).toBe(204);
    const got = await call(s, authorization, 'GET', `/api/v1/books/${id}/progression`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toMatch(/^application\/vnd\.readium\.progression\+json/);
    expectSchema('R2Progression', got.body);
    expect(got.body).toEqual({
      modified: '2024-03-01T08:00:00.250Z',
      device: { id: 'dev-1', name: 'Tablet' },
      locator: { href: 'page', type: 'image/jpeg', locations: { fragments: [], position: 2 } },
    });
    expect((await book(authorization, id)).readProgress).toMatchObject({
      page: 2,
      completed: false,
      readDate: '2024-03-01T08:00:00Z',
    });
  });

  it('answers 409 when the progression is not newer than the stored one', async () => {
    const { authorization } = await createUser(s, admin, 'stale@example.org');
    const path = `/api/v1/books/${ids.sagaBooks[1]}/progression`;
    expect((await call(s, authorization, 'PUT', path, progression('2024-03-01T10:00:00Z', 1))).status).toBe(204);
    const same = await call(s, authorization, 'PUT', path, progression('2024-03-01T10:00:00Z', 2));
    expect(same.status).toBe(409);
    expect((same.body as { message: string }).message).toBe('Progression is older than existing');
    expect((await call(s, authorization, 'PUT', path, progression('2024-02-01T10:00:00Z', 2))).status).toBe(409);
    // A page change through PATCH stamps "now": older devices can no longer overwrite it.
    await patch(authorization, ids.sagaBooks[1]!, { page: 2 });
    expect((await call(s, authorization, 'PUT', path, progression('2024-03-02T10:00:00Z', 3))).status).toBe(409);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await call(s, authorization, 'PUT', path, progression(future, 3))).status).toBe(204);
    expect((await book(authorization, ids.sagaBooks[1]!)).readProgress).toMatchObject({ page: 3, completed: true });
  });

  it('accepts the Readium media type and refuses a position outside the book', async () => {
    const { authorization } = await createUser(s, admin, 'r2type@example.org');
    const path = `/api/v1/books/${ids.pdf}/progression`;
    const res = await s.fetch(path, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/vnd.readium.progression+json' },
      body: JSON.stringify(progression('2024-03-01T10:00:00Z', 2)),
    });
    expect(res.status).toBe(204);
    expect((await book(authorization, ids.pdf)).readProgress).toMatchObject({ page: 2, completed: true });
    const out = await call(s, authorization, 'PUT', path, progression('2024-03-02T10:00:00Z', 3));
    expect(out.status).toBe(400);
    expect((out.body as { message: string }).message).toBe(
      'Page argument (3) must be within 1 and book page count (2)',
    );
    expect((await call(s, authorization, 'PUT', path, { device: { id: '', name: '' } })).status).toBe(400);
    expect((await call(s, authorization, 'PUT', path, { ...progression('yesterday', 1) })).status).toBe(400);
  });

  it('maps an EPUB locator onto the book positions; the client total progression is not trusted', async () => {
    const { authorization } = await createUser(s, admin, 'epub@example.org');
    const positions = (await call(s, authorization, 'GET', `/api/v1/books/${ids.epub}/positions`)).body as {
      total: number;
      positions: {
        href: string;
        type: string;
        locations: { position: number; progression: number; totalProgression: number };
      }[];
    };
    const chapter = positions.positions.filter((p) => p.href === positions.positions.at(-1)!.href);
    expect(chapter.length).toBeGreaterThan(2);
    const target = chapter[2]!;
    const path = `/api/v1/books/${ids.epub}/progression`;
    const put = await call(s, authorization, 'PUT', path, {
      modified: '2024-03-01T10:00:00Z',
      device: { id: 'k', name: 'Kobo' },
      locator: {
        href: `${encodeURI(target.href)}#section`,
        type: 'text/html',
        locations: { progression: target.locations.progression + 0.001, totalProgression: 0.01 },
      },
    });
    expect(put.status).toBe(204);
    const got = (await call(s, authorization, 'GET', path)).body as {
      locator: { type: string; koboSpan?: string; locations: { totalProgression: number } };
    };
    expectSchema('R2Progression', got);
    expect(got.locator.type).toBe(target.type);
    expect(got.locator.locations.totalProgression).toBeCloseTo(target.locations.totalProgression, 5);
    const pagesCount = (
      (await call(s, authorization, 'GET', `/api/v1/books/${ids.epub}`)).body as {
        media: { pagesCount: number };
      }
    ).media.pagesCount;
    expect((await book(authorization, ids.epub)).readProgress).toMatchObject({
      page: Math.round(pagesCount * target.locations.totalProgression),
      completed: false,
    });

    // Past the last position of the last chapter: the end of the book, read.
    const end = await call(s, authorization, 'PUT', path, {
      modified: '2024-03-02T10:00:00Z',
      device: { id: 'k', name: 'Kobo' },
      locator: { href: target.href, type: 'text/html', locations: { progression: 0.9999 } },
    });
    expect(end.status).toBe(204);
    expect((await book(authorization, ids.epub)).readProgress).toMatchObject({ completed: true });

    const unknown = await call(s, authorization, 'PUT', path, {
      modified: '2024-03-03T10:00:00Z',
      device: { id: 'k', name: 'Kobo' },
      locator: { href: 'nope.html', type: 'text/html', locations: { progression: 0.5 } },
    });
    expect(unknown.status).toBe(400);
    expect((unknown.body as { message: string }).message).toBe('Resource does not exist in book: nope.html');
    const noProgression = await call(s, authorization, 'PUT', path, {
      modified: '2024-03-03T10:00:00Z',
      device: { id: 'k', name: 'Kobo' },
      locator: { href: target.href, type: 'text/html', locations: { fragments: [] } },
    });
    expect(noProgression.status).toBe(400);
    expect((noProgression.body as { message: string }).message).toBe('location.progression is required');
  });

  it('answers 404 for an unknown book and 403 for a hidden one', async () => {
    expect((await call(s, users.reader.authorization, 'GET', '/api/v1/books/NOPE/progression')).status).toBe(404);
    expect(
      (await call(s, users.ageExcluded.authorization, 'GET', `/api/v1/books/${ids.matureBook}/progression`)).status,
    ).toBe(403);
    expect(
      (
        await call(
          s,
          users.notShared.authorization,
          'PUT',
          `/api/v1/books/${ids.sagaBooks[0]}/progression`,
          progression('2024-03-01T10:00:00Z', 1),
        )
      ).status,
    ).toBe(403);
  });
});

describe('Tachiyomi / Mihon progress', () => {
  it('series v2: counts, last continuous numberSort and max, then marks up to a numberSort', async () => {
    const { authorization } = await createUser(s, admin, 'mihon@example.org');
    const path = `/api/v2/series/${ids.saga}/read-progress/tachiyomi`;
    let res = await call(s, authorization, 'GET', path);
    expect(res.status).toBe(200);
    expectSchema('TachiyomiReadProgressV2Dto', res.body);
    expect(res.body).toEqual({
      booksCount: 3,
      booksReadCount: 0,
      booksUnreadCount: 3,
      booksInProgressCount: 0,
      lastReadContinuousNumberSort: 0,
      maxNumberSort: 3,
    });
    expect((await call(s, authorization, 'PUT', path, { lastBookNumberSortRead: 2 })).status).toBe(204);
    res = await call(s, authorization, 'GET', path);
    expect(res.body).toMatchObject({ booksReadCount: 2, booksUnreadCount: 1, lastReadContinuousNumberSort: 2 });
    // A gap stops the continuous run.
    await call(s, authorization, 'DELETE', `/api/v1/books/${ids.sagaBooks[0]}/read-progress`);
    await patch(authorization, ids.sagaBooks[2]!, { page: 1 });
    res = await call(s, authorization, 'GET', path);
    expect(res.body).toMatchObject({
      booksReadCount: 1,
      booksInProgressCount: 1,
      booksUnreadCount: 1,
      lastReadContinuousNumberSort: 0,
    });
    expect((await call(s, authorization, 'PUT', path, { lastBookNumberSortRead: 10 })).status).toBe(204);
    expect((await call(s, authorization, 'GET', path)).body).toMatchObject({
      booksReadCount: 3,
      lastReadContinuousNumberSort: 3,
    });
  });

  it('series v2: 400 without a value, 404 unknown, 403 hidden', async () => {
    const path = `/api/v2/series/${ids.saga}/read-progress/tachiyomi`;
    expect((await call(s, users.reader.authorization, 'PUT', path, {})).status).toBe(400);
    expect(
      (await call(s, users.reader.authorization, 'GET', '/api/v2/series/NOPE/read-progress/tachiyomi')).status,
    ).toBe(404);
    expect((await call(s, users.notShared.authorization, 'GET', path)).status).toBe(403);
  });

  it('read list: the first N books in list order; only the books the caller may see', async () => {
    const db = s.app.deps.db;
    const now = new Date().toISOString();
    const readListId = 'RL-TACHIYOMI';
    await db
      .insertInto('readlist')
      .values({ id: readListId, name: 'Crossover', created_date: now, last_modified_date: now })
      .execute();
    const order = [ids.sagaBooks[2]!, ids.matureBook, ids.sagaBooks[0]!, ids.sagaBooks[1]!];
    await db
      .insertInto('readlist_book')
      .values(order.map((book_id, number) => ({ readlist_id: readListId, book_id, number })))
      .execute();
    const { authorization } = await createUser(s, admin, 'list@example.org');
    const path = `/api/v1/readlists/${readListId}/read-progress/tachiyomi`;
    let res = await call(s, authorization, 'GET', path);
    expect(res.status).toBe(200);
    expectSchema('TachiyomiReadProgressDto', res.body);
    expect(res.body).toEqual({
      booksCount: 4,
      booksReadCount: 0,
      booksUnreadCount: 4,
      booksInProgressCount: 0,
      lastReadContinuousIndex: 0,
    });
    expect((await call(s, authorization, 'PUT', path, { lastBookRead: 2 })).status).toBe(204);
    expect((await book(authorization, ids.sagaBooks[2]!)).readProgress).toMatchObject({ completed: true });
    expect((await book(authorization, ids.matureBook)).readProgress).toMatchObject({ completed: true });
    expect((await book(authorization, ids.sagaBooks[0]!)).readProgress).toBeNull();
    res = await call(s, authorization, 'GET', path);
    expect(res.body).toMatchObject({ booksReadCount: 2, lastReadContinuousIndex: 2 });

    // The age-restricted user does not see the mature book: it is not counted nor marked.
    const restricted = users.ageExcluded.authorization;
    expect((await call(s, restricted, 'GET', path)).body).toMatchObject({ booksCount: 3 });
    expect((await call(s, restricted, 'PUT', path, { lastBookRead: 2 })).status).toBe(204);
    expect((await book(restricted, ids.sagaBooks[0]!)).readProgress).toMatchObject({ completed: true });
    expect((await call(s, restricted, 'GET', path)).body).toMatchObject({
      booksReadCount: 2,
      lastReadContinuousIndex: 2,
    });
    // Nothing of the list visible, or no list: 404.
    expect((await call(s, users.notShared.authorization, 'GET', path)).status).toBe(404);
    expect((await call(s, authorization, 'GET', '/api/v1/readlists/NOPE/read-progress/tachiyomi')).status).toBe(404);
    expect((await call(s, authorization, 'PUT', path, { lastBookRead: -1 })).status).toBe(400);
  });
});

describe('events', () => {
  it('sends ReadProgress events to the user they concern only', async () => {
    const mine = await openEvents(s, users.reader.authorization);
    const theirs = await openEvents(s, users.other.authorization);
    try {
      const bookId = ids.sagaBooks[0]!;
      const userId = users.reader.id;
      await patch(users.reader.authorization, bookId, { page: 1 });
      await call(s, users.reader.authorization, 'DELETE', `/api/v1/books/${bookId}/read-progress`);
      await call(s, users.reader.authorization, 'POST', `/api/v1/series/${ids.saga}/read-progress`);
      await call(s, users.reader.authorization, 'DELETE', `/api/v1/series/${ids.saga}/read-progress`);
      await mine.until((events) => events.some((e) => e.type === 'ReadProgressSeriesDeleted'));
      const progressEvents = mine.events.filter((e) => e.type.startsWith('ReadProgress'));
      expect(progressEvents.slice(0, 2)).toEqual([
        { type: 'ReadProgressChanged', data: { bookId, userId } },
        { type: 'ReadProgressDeleted', data: { bookId, userId } },
      ]);
      const changed = progressEvents.filter((e) => e.type === 'ReadProgressChanged').map((e) => e.data.bookId);
      expect(changed.slice(1).sort()).toEqual([...ids.sagaBooks].sort());
      expect(progressEvents).toContainEqual({
        type: 'ReadProgressSeriesChanged',
        data: { seriesId: ids.saga, userId },
      });
      expect(progressEvents.at(-1)).toEqual({
        type: 'ReadProgressSeriesDeleted',
        data: { seriesId: ids.saga, userId },
      });
      expect(progressEvents.filter((e) => e.type === 'ReadProgressDeleted')).toHaveLength(4);

      await theirs.drain(300);
      expect(theirs.events.filter((e) => e.type.startsWith('ReadProgress'))).toEqual([]);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });
});

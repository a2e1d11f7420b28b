import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSchema } from '../support/openapi.js';
import { bookKeys, buildFixture, client, withoutNulls, type Fixture, type PageBody } from './support.js';

/** Book lists (api.md §3.3, §5): sorts, deprecated filters, conditions, series books, latest, on deck, siblings. */

let f: Fixture;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  f = await buildFixture();
  c = client(f);
}, 60_000);
afterAll(() => f.s.close());

const is = (value: unknown) => ({ operator: 'is', value });
/** Book keys of POST /api/v1/books/list for a condition, by series title then number. */
const list = async (condition: unknown) =>
  bookKeys(
    f,
    await c.bookPage(f.users.admin, '/api/v1/books/list?unpaged=true&sort=series&sort=metadata.numberSort', {
      condition,
    }),
  );
const get = async (query: string) =>
  bookKeys(f, await c.bookPage(f.users.admin, `/api/v1/books?unpaged=true&${query}`));

type Book = Record<string, unknown> & {
  media: Record<string, unknown>;
  metadata: Record<string, unknown>;
  readProgress: Record<string, unknown> | null;
};

describe('sort properties', () => {
  const page = async (sort: string) =>
    (await c.bookPage(f.users.admin, `/api/v1/books/list?unpaged=true&sort=${sort}`, {})) as unknown as PageBody<Book>;

  it('name and metadata.title ignore case and accents', async () => {
    const byTitle = bookKeys(f, (await page('metadata.title,asc')) as never);
    expect(byTitle).toEqual([
      'acrobat/acrobat tales',
      'batman/Batman 01',
      'batman/Batman 02',
      'batman/Batman 03',
      'elodie/Élodie 1',
      'elodie/Élodie 2',
      'batman/Batman 04',
      'titan/Titan 1',
      'titan/Titan 2',
      'titan/Titan 2.5',
      'xmen/X-Men 1',
      'xmen/X-Men 2',
      'zombie/Zombie 1',
    ]);
    const byName = bookKeys(f, (await page('name,desc')) as never);
    expect(byName.slice(0, 4)).toEqual(['zombie/Zombie 1', 'xmen/X-Men 2', 'xmen/X-Men 1', 'titan/Titan 2.5']);
    expect(byName.indexOf('elodie/Élodie 1')).toBeLessThan(byName.indexOf('batman/Batman 04'));
  });

  it('series (its sort title), then a second order', async () => {
    const keys = bookKeys(f, (await page('series,desc&sort=metadata.numberSort,desc')) as never);
    expect(keys).toEqual([
      'titan/Titan 2.5',
      'titan/Titan 2',
      'titan/Titan 1',
      'zombie/Zombie 1',
      'xmen/X-Men 2',
      'xmen/X-Men 1',
      'elodie/Élodie 2',
      'elodie/Élodie 1',
      'batman/Batman 04',
      'batman/Batman 03',
      'batman/Batman 02',
      'batman/Batman 01',
      'acrobat/acrobat tales',
    ]);
  });

  /** Properties whose order can be read back from the DTO: each answer is ordered by it. */
  const readable: [string, (b: Book) => string | number | null][] = [
    ['created', (b) => b.created as string],
    ['createdDate', (b) => b.created as string],
    ['lastModified', (b) => b.lastModified as string],
    ['lastModifiedDate', (b) => b.lastModified as string],
    ['fileSize', (b) => b.sizeBytes as number],
    ['size', (b) => b.sizeBytes as number],
    ['fileHash', (b) => b.fileHash as string],
    ['url', (b) => (b.url as string).toLowerCase()],
    ['media.status', (b) => (b.media.status as string).toLowerCase()],
    ['media.comment', (b) => (b.media.comment as string).toLowerCase()],
    ['media.mediaType', (b) => (b.media.mediaType as string).toLowerCase() || null],
    ['media.pagesCount', (b) => b.media.pagesCount as number],
    ['metadata.numberSort', (b) => b.metadata.numberSort as number],
    ['metadata.releaseDate', (b) => b.metadata.releaseDate as string | null],
    ['readProgress.readDate', (b) => (b.readProgress?.readDate as string | undefined) ?? null],
    ['readProgress.lastModified', (b) => (b.readProgress?.lastModified as string | undefined) ?? null],
  ];
  const compare = (a: string | number | null, b: string | number | null) =>
    a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;

  it.each(readable)('%s, both directions', async (property, value) => {
    for (const direction of ['asc', 'desc'] as const) {
      const body = await page(`${property},${direction}`);
      expect(body.sort.sorted).toBe(true);
      expect(body.content).toHaveLength(13);
      const values = body.content.map(value);
      const expected = [...values].sort((a, b) => (direction === 'asc' ? compare(a, b) : compare(b, a)));
      expect(values, property).toEqual(expected);
    }
  });

  it('readList.number needs a readListId condition; relevance a full-text search; unknown ones are ignored', async () => {
    const body = await c.bookPage(f.users.admin, '/api/v1/books/list?sort=readList.number,desc', {
      condition: { readListId: is(f.readLists.ordered) },
    });
    expect(bookKeys(f, body)).toEqual([
      'batman/Batman 04',
      'elodie/Élodie 1',
      'titan/Titan 1',
      'batman/Batman 01',
      'xmen/X-Men 2',
    ]);
    for (const sort of ['readList.number', 'relevance', 'nope']) {
      expect((await c.bookPage(f.users.admin, `/api/v1/books/list?sort=${sort}`, {})).sort.sorted).toBe(false);
    }
  });
});

describe('GET /api/v1/books filters (deprecated)', () => {
  it('library_id, media_status, read_status, tag, released_after (strictly after), search', async () => {
    expect(await get(`library_id[]=${f.libraries.B}&sort=name`)).toEqual([
      'acrobat/acrobat tales',
      'titan/Titan 1',
      'titan/Titan 2',
      'titan/Titan 2.5',
    ]);
    expect(await get('media_status=error,outdated&sort=name')).toEqual(['batman/Batman 04', 'zombie/Zombie 1']);
    expect(await get('read_status=IN_PROGRESS')).toEqual(['elodie/Élodie 1']);
    expect(await get('read_status=READ&sort=name')).toEqual([
      'batman/Batman 01',
      'batman/Batman 02',
      'titan/Titan 1',
      'xmen/X-Men 1',
      'xmen/X-Men 2',
    ]);
    expect(await get('read_status=UNREAD')).toHaveLength(7);
    expect(await get('tag=NOIR&sort=name')).toEqual(['batman/Batman 01', 'batman/Batman 02']);
    expect(await get('released_after=2020-01-01&sort=name')).toEqual(['elodie/Élodie 1', 'elodie/Élodie 2']);
    expect(await get('search=miller&sort=name')).toEqual(['batman/Batman 01', 'batman/Batman 02', 'batman/Batman 03']);
    expect((await c.call(f.users.admin, 'GET', '/api/v1/books?released_after=01/02/2020')).status).toBe(400);
  });
});

describe('POST /api/v1/books/list conditions', () => {
  it('libraryId, seriesId, readListId, deleted, oneShot', async () => {
    expect(await list({ seriesId: is(f.series.xmen) })).toEqual(['xmen/X-Men 1', 'xmen/X-Men 2']);
    expect(await list({ libraryId: is(f.libraries.B) })).toEqual([
      'acrobat/acrobat tales',
      'titan/Titan 1',
      'titan/Titan 2',
      'titan/Titan 2.5',
    ]);
    expect(await list({ readListId: is(f.readLists.ordered) })).toEqual([
      'batman/Batman 01',
      'batman/Batman 04',
      'elodie/Élodie 1',
      'xmen/X-Men 2',
      'titan/Titan 1',
    ]);
    expect(await list({ readListId: { operator: 'isNot', value: f.readLists.ordered } })).toHaveLength(8);
    expect(await list({ deleted: { operator: 'isTrue' } })).toEqual(['zombie/Zombie 1']);
    expect(await list({ oneShot: { operator: 'isTrue' } })).toEqual(['acrobat/acrobat tales']);
  });

  it('title (string operators), releaseDate, numberSort (inclusive bounds)', async () => {
    expect(await list({ title: { operator: 'contains', value: 'ELODIE' } })).toEqual([
      'elodie/Élodie 1',
      'elodie/Élodie 2',
    ]);
    expect(await list({ title: is('finale') })).toEqual(['batman/Batman 04']);
    expect(await list({ title: { operator: 'beginsWith', value: 'titan 2' } })).toEqual([
      'titan/Titan 2',
      'titan/Titan 2.5',
    ]);
    expect(await list({ releaseDate: { operator: 'isNull' } })).toEqual(['batman/Batman 04']);
    expect(await list({ releaseDate: { operator: 'before', dateTime: '1987-03-01T10:00:00Z' } })).toEqual([
      'batman/Batman 01',
    ]);
    expect(await list({ numberSort: { operator: 'greaterThan', value: 2 } })).toEqual([
      'batman/Batman 02',
      'batman/Batman 03',
      'batman/Batman 04',
      'elodie/Élodie 2',
      'xmen/X-Men 2',
      'titan/Titan 2',
      'titan/Titan 2.5',
    ]);
    expect(await list({ numberSort: { operator: 'lessThan', value: 1 } })).toHaveLength(6);
    expect(await list({ numberSort: is(2.5) })).toEqual(['titan/Titan 2.5']);
    expect(await list({ numberSort: { operator: 'isNot', value: 1 } })).toHaveLength(7);
  });

  it('tag (book tags only), author, readStatus, mediaStatus, mediaProfile, poster', async () => {
    expect(await list({ tag: is('mutants') })).toEqual(['xmen/X-Men 1']);
    expect(await list({ tag: { operator: 'isNotNull' } })).toEqual([
      'acrobat/acrobat tales',
      'batman/Batman 01',
      'batman/Batman 02',
      'xmen/X-Men 1',
    ]);
    expect(await list({ author: is({ name: 'JIM LEE' }) })).toEqual(['xmen/X-Men 1']);
    expect(await list({ author: is({ name: 'Frank Miller', role: 'writer' }) })).toHaveLength(3);
    expect(await list({ author: { operator: 'isNot', value: { role: 'writer' } } })).toEqual([
      'acrobat/acrobat tales',
      'batman/Batman 04',
      'zombie/Zombie 1',
      'titan/Titan 2.5',
    ]);
    expect(await list({ readStatus: is('IN_PROGRESS') })).toEqual(['elodie/Élodie 1']);
    expect(await list({ readStatus: { operator: 'isNot', value: 'UNREAD' } })).toHaveLength(6);
    expect(await list({ readStatus: { operator: 'isNot', value: 'READ' } })).toHaveLength(8);
    expect(await list({ readStatus: { operator: 'isNot', value: 'IN_PROGRESS' } })).toHaveLength(12);
    expect(await list({ mediaStatus: is('unknown') })).toEqual(['acrobat/acrobat tales']);
    expect(await list({ mediaStatus: { operator: 'isNot', value: 'READY' } })).toHaveLength(3);
    expect(await list({ mediaProfile: is('EPUB') })).toEqual(['elodie/Élodie 1', 'elodie/Élodie 2']);
    expect(await list({ mediaProfile: is('PDF') })).toEqual(['titan/Titan 2.5']);
    expect(await list({ mediaProfile: is('DIVINA') })).toHaveLength(9);
    expect(await list({ mediaProfile: { operator: 'isNot', value: 'DIVINA' } })).toHaveLength(3);
    expect(await list({ poster: is({ type: 'user_uploaded' }) })).toEqual(['batman/Batman 02']);
    expect(await list({ poster: is({ type: 'GENERATED', selected: true }) })).toEqual(['batman/Batman 01']);
    expect(await list({ poster: is({ selected: false }) })).toEqual(['batman/Batman 02']);
    expect(await list({ poster: { operator: 'isNot', value: { type: 'GENERATED' } } })).toHaveLength(11);
    expect(await list({ poster: is({}) })).toHaveLength(13);
  });

  it('allOf / anyOf, and a full-text search ranked by relevance', async () => {
    expect(
      await list({
        anyOf: [{ allOf: [{ seriesId: is(f.series.batman) }, { readStatus: is('UNREAD') }] }, { tag: is('circus') }],
      }),
    ).toEqual(['acrobat/acrobat tales', 'batman/Batman 03', 'batman/Batman 04']);
    const ranked = await c.bookPage(f.users.admin, '/api/v1/books/list', { fullTextSearch: 'titan' });
    expect(ranked.sort.sorted).toBe(true);
    expect(new Set(bookKeys(f, ranked))).toEqual(new Set(['titan/Titan 1', 'titan/Titan 2', 'titan/Titan 2.5']));
    expect(
      (await c.call(f.users.admin, 'POST', '/api/v1/books/list', { condition: { poster: is({ type: 'X' }) } })).status,
    ).toBe(400);
  });
});

describe('GET /api/v1/series/{id}/books', () => {
  it('sorts by numberSort by default and takes the deprecated filters', async () => {
    const path = `/api/v1/series/${f.series.batman}/books`;
    expect(bookKeys(f, await c.bookPage(f.users.admin, path))).toEqual([
      'batman/Batman 01',
      'batman/Batman 02',
      'batman/Batman 03',
      'batman/Batman 04',
    ]);
    expect(bookKeys(f, await c.bookPage(f.users.admin, `${path}?sort=metadata.numberSort,desc&size=1`))).toEqual([
      'batman/Batman 04',
    ]);
    expect(bookKeys(f, await c.bookPage(f.users.admin, `${path}?read_status=UNREAD&media_status=READY`))).toEqual([
      'batman/Batman 03',
    ]);
    expect(bookKeys(f, await c.bookPage(f.users.admin, `${path}?tag=crime`))).toEqual(['batman/Batman 02']);
    expect(bookKeys(f, await c.bookPage(f.users.admin, `${path}?author=David Mazzucchelli,penciller`))).toEqual([
      'batman/Batman 01',
    ]);
    expect(
      bookKeys(f, await c.bookPage(f.users.admin, `/api/v1/series/${f.series.zombie}/books?deleted=false`)),
    ).toEqual([]);
    expect((await c.call(f.users.admin, 'GET', '/api/v1/series/NOPE/books')).status).toBe(404);
  });
});

describe('latest and on deck', () => {
  it('/books/latest: last modified first', async () => {
    const page = await c.bookPage(f.users.admin, '/api/v1/books/latest?size=3');
    expect(bookKeys(f, page)).toEqual(['zombie/Zombie 1', 'acrobat/acrobat tales', 'xmen/X-Men 2']);
    expect(page).toMatchObject({ totalElements: 13, sort: { sorted: true } });
  });

  it('/books/ondeck: first unread book of series read in part with nothing in progress, most recent first', async () => {
    const page = await c.bookPage(f.users.admin, '/api/v1/books/ondeck');
    expect(bookKeys(f, page)).toEqual(['titan/Titan 2', 'batman/Batman 03']);
    expect(page.sort.sorted).toBe(false);
    expect(bookKeys(f, await c.bookPage(f.users.admin, `/api/v1/books/ondeck?library_id=${f.libraries.A}`))).toEqual([
      'batman/Batman 03',
    ]);
    const second = await c.bookPage(f.users.admin, '/api/v1/books/ondeck?page=1&size=1');
    expect(bookKeys(f, second)).toEqual(['batman/Batman 03']);
    expect(second.totalElements).toBe(2);
  });

  it('follows progress: finishing a series removes it, starting a book takes it off deck', async () => {
    const { db } = f;
    const user = await db
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'admin@example.org')
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await db
      .insertInto('read_progress')
      .values({
        book_id: f.books['titan/Titan 2']!,
        user_id: user.id,
        page: 2,
        completed: 0,
        read_date: now,
        created_date: now,
        last_modified_date: now,
      })
      .execute();
    expect(bookKeys(f, await c.bookPage(f.users.admin, '/api/v1/books/ondeck'))).toEqual(['batman/Batman 03']);
    await db
      .deleteFrom('read_progress')
      .where('book_id', '=', f.books['titan/Titan 2']!)
      .where('user_id', '=', user.id)
      .execute();
    expect(bookKeys(f, await c.bookPage(f.users.admin, '/api/v1/books/ondeck'))).toEqual([
      'titan/Titan 2',
      'batman/Batman 03',
    ]);
  });
});

describe('next / previous in the series', () => {
  it('follow numberSort, 404 at the ends and for unknown books', async () => {
    const next = await c.call(f.users.admin, 'GET', `/api/v1/books/${f.books['titan/Titan 2']}/next`);
    expect(next.status).toBe(200);
    expectSchema('BookDto', withoutNulls(next.body));
    expect((next.body as { id: string }).id).toBe(f.books['titan/Titan 2.5']);
    const previous = await c.call(f.users.admin, 'GET', `/api/v1/books/${f.books['titan/Titan 2']}/previous`);
    expect((previous.body as { id: string }).id).toBe(f.books['titan/Titan 1']);
    const end = await c.call(f.users.admin, 'GET', `/api/v1/books/${f.books['titan/Titan 2.5']}/next`);
    expect(end.status).toBe(404);
    expect(end.body).toMatchObject({
      status: 404,
      error: 'Not Found',
      path: `/api/v1/books/${f.books['titan/Titan 2.5']}/next`,
    });
    expect((await c.call(f.users.admin, 'GET', `/api/v1/books/${f.books['titan/Titan 1']}/previous`)).status).toBe(404);
    expect((await c.call(f.users.admin, 'GET', '/api/v1/books/NOPE/next')).status).toBe(404);
  });
});

describe('paging', () => {
  it('counts every matching book on a full page, on the last one and past the end', async () => {
    const all = await c.bookPage(f.users.admin, '/api/v1/books?unpaged=true&sort=metadata.title,asc');
    const total = all.content.length;
    expect(total).toBeGreaterThan(4);
    const first = await c.bookPage(f.users.admin, '/api/v1/books?page=0&size=2&sort=metadata.title,asc');
    expect(first).toMatchObject({ totalElements: total, numberOfElements: 2 });
    expect(bookKeys(f, first)).toEqual(bookKeys(f, all).slice(0, 2));
    const last = await c.bookPage(f.users.admin, `/api/v1/books?page=${Math.ceil(total / 2) - 1}&size=2`);
    expect(last).toMatchObject({ totalElements: total, last: true });
    const past = await c.bookPage(f.users.admin, '/api/v1/books?page=50&size=2');
    expect(past).toMatchObject({ content: [], totalElements: total, empty: true });
  });
});

describe('a changed title', () => {
  it('moves the book in the title sort and the title filter (the sort keys the book row keeps follow the edit)', async () => {
    const id = f.books['acrobat/acrobat tales']!;
    const patch = (title: string) =>
      f.s.fetch(`/api/v1/books/${id}/metadata`, {
        method: 'PATCH',
        headers: { authorization: f.users.admin },
        json: { title },
      });
    const byTitle = async () =>
      bookKeys(f, await c.bookPage(f.users.admin, '/api/v1/books/list?unpaged=true&sort=metadata.title,asc', {}));
    try {
      expect((await patch('Zürich tales')).status).toBe(204);
      const sorted = await byTitle();
      expect(sorted.at(-1)).toBe('acrobat/acrobat tales');
      expect(sorted.at(-2)).toBe('zombie/Zombie 1');
      expect(await list({ title: { operator: 'beginsWith', value: 'ZURICH' } })).toEqual(['acrobat/acrobat tales']);
      expect(await list({ title: { operator: 'contains', value: 'acrobat' } })).toEqual([]);
    } finally {
      expect((await patch('acrobat tales')).status).toBe(204);
    }
    expect((await byTitle())[0]).toBe('acrobat/acrobat tales');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSchema } from '../support/openapi.js';
import { buildFixture, client, seriesKeys, type Fixture } from './support.js';

/** Series lists (api.md §1.4, §1.5, §3.2, §5): envelope, sorts, deprecated filters, conditions, special lists. */

let f: Fixture;
let c: ReturnType<typeof client>;
const ALL = ['acrobat', 'batman', 'elodie', 'titan', 'xmen', 'zombie'];
const sorted = (xs: string[]) => [...xs].sort();

beforeAll(async () => {
  f = await buildFixture();
  c = client(f);
}, 60_000);
afterAll(() => f.s.close());

/** Keys of GET /api/v1/series?<query>, all of them (unpaged), in the answer's order. */
const get = async (query: string) =>
  seriesKeys(f, await c.seriesPage(f.users.admin, `/api/v1/series?unpaged=true&${query}`));
/** Keys of POST /api/v1/series/list for a condition, sorted by title. */
const list = async (condition: unknown, fullTextSearch?: string) =>
  seriesKeys(
    f,
    await c.seriesPage(f.users.admin, '/api/v1/series/list?unpaged=true&sort=metadata.titleSort', {
      condition,
      fullTextSearch,
    }),
  );
const is = (value: unknown) => ({ operator: 'is', value });

describe('page envelope', () => {
  it('is Spring’s PageImpl: paged, with sort flags', async () => {
    const page = await c.seriesPage(f.users.admin, '/api/v1/series/list?page=1&size=2&sort=metadata.titleSort,asc', {});
    expect(seriesKeys(f, page)).toEqual(['elodie', 'xmen']);
    expect(page).toMatchObject({
      totalElements: 6,
      totalPages: 3,
      number: 1,
      size: 2,
      numberOfElements: 2,
      first: false,
      last: false,
      empty: false,
      pageable: { pageNumber: 1, pageSize: 2, offset: 2, paged: true, unpaged: false },
      sort: { empty: false, sorted: true, unsorted: false },
    });
  });

  it('says unsorted when no order applies (none given, or only unknown properties)', async () => {
    for (const path of ['/api/v1/series', '/api/v1/series?sort=nope,desc']) {
      const page = await c.seriesPage(f.users.admin, path);
      expect(page.sort).toEqual({ empty: true, sorted: false, unsorted: true });
      expect(page.pageable.sort).toEqual({ empty: true, sorted: false, unsorted: true });
      expect(sorted(seriesKeys(f, page))).toEqual(ALL);
    }
  });

  it('answers everything with unpaged=true, in a paged-looking envelope', async () => {
    const page = await c.seriesPage(f.users.admin, '/api/v1/series?unpaged=true&page=3&size=2');
    expect(page).toMatchObject({
      totalElements: 6,
      totalPages: 1,
      number: 0,
      size: 20,
      numberOfElements: 6,
      first: true,
      last: true,
    });
    expect(page.pageable).toMatchObject({ pageNumber: 0, pageSize: 20, offset: 0, paged: true, unpaged: false });
  });

  it('reads page and size as Spring does: negative page → 0, size < 1 → 20, size capped at 2000', async () => {
    expect((await c.seriesPage(f.users.admin, '/api/v1/series?page=-3&size=0')).pageable).toMatchObject({
      pageNumber: 0,
      pageSize: 20,
    });
    expect((await c.seriesPage(f.users.admin, '/api/v1/series?size=5000')).size).toBe(2000);
  });

  it('answers an empty page past the end, with the real total', async () => {
    const page = await c.seriesPage(f.users.admin, '/api/v1/series?page=5&size=2');
    expect(page).toMatchObject({ content: [], totalElements: 6, totalPages: 3, empty: true, last: true, number: 5 });
  });
});

describe('sort properties', () => {
  const order = async (sort: string) =>
    seriesKeys(f, await c.seriesPage(f.users.admin, `/api/v1/series/list?unpaged=true&${sort}`, {}));

  it('metadata.titleSort ignores case and accents', async () => {
    expect(await order('sort=metadata.titleSort,asc')).toEqual([
      'acrobat',
      'batman',
      'elodie',
      'xmen',
      'zombie',
      'titan',
    ]);
    expect(await order('sort=metadata.titleSort,desc')).toEqual([
      'titan',
      'zombie',
      'xmen',
      'elodie',
      'batman',
      'acrobat',
    ]);
  });

  it('pages of one series (read along the sort index when most series match) follow the unpaged order', async () => {
    const pages = async (sort: string, condition?: unknown) => {
      const keys: string[] = [];
      for (let page = 0; ; page++) {
        const body = await c.seriesPage(f.users.admin, `/api/v1/series/list?size=1&page=${page}&${sort}`, {
          ...(condition === undefined ? {} : { condition }),
        });
        keys.push(...seriesKeys(f, body));
        if (body.last) return keys;
      }
    };
    const libraryA = { libraryId: { operator: 'is', value: f.libraries.A } };
    for (const sort of ['sort=metadata.titleSort,asc', 'sort=metadata.titleSort,desc', 'sort=name,asc']) {
      expect(await pages(sort)).toEqual(await order(sort));
      const inA = seriesKeys(
        f,
        await c.seriesPage(f.users.admin, `/api/v1/series/list?unpaged=true&${sort}`, { condition: libraryA }),
      );
      expect(await pages(sort, libraryA)).toEqual(inA);
    }
  });

  it('created / createdDate, lastModified / lastModifiedDate', async () => {
    const byCreated = ['batman', 'elodie', 'titan', 'xmen', 'acrobat', 'zombie'];
    expect(await order('sort=created')).toEqual(byCreated);
    expect(await order('sort=createdDate,asc')).toEqual(byCreated);
    const byModified = ['batman', 'xmen', 'zombie', 'acrobat', 'titan', 'elodie'];
    expect(await order('sort=lastModified,desc')).toEqual(byModified);
    expect(await order('sort=lastModifiedDate,desc')).toEqual(byModified);
  });

  it('booksMetadata.releaseDate, name, booksCount (with a second order), readDate, random', async () => {
    expect(await order('sort=booksMetadata.releaseDate')).toEqual([
      'batman',
      'xmen',
      'titan',
      'zombie',
      'acrobat',
      'elodie',
    ]);
    expect(await order('sort=name,desc')).toEqual(['zombie', 'xmen', 'titan', 'elodie', 'batman', 'acrobat']);
    expect(await order('sort=booksCount,desc&sort=metadata.titleSort,asc')).toEqual([
      'batman',
      'titan',
      'elodie',
      'xmen',
      'acrobat',
      'zombie',
    ]);
    expect((await order('sort=readDate,desc')).slice(0, 4)).toEqual(['titan', 'elodie', 'batman', 'xmen']);
    expect(sorted(await order('sort=random'))).toEqual(ALL);
  });

  it('collection.number needs a collectionId condition; relevance needs a full-text search', async () => {
    const inCollection = { collectionId: is(f.collections.ordered) };
    const ordered = await c.seriesPage(f.users.admin, '/api/v1/series/list?sort=collection.number', {
      condition: inCollection,
    });
    expect(seriesKeys(f, ordered)).toEqual(['xmen', 'titan', 'batman', 'elodie']);
    const without = await c.seriesPage(f.users.admin, '/api/v1/series/list?sort=collection.number', {});
    expect(without.sort.sorted).toBe(false);
    const relevance = await c.seriesPage(f.users.admin, '/api/v1/series/list?sort=relevance', {});
    expect(relevance.sort.sorted).toBe(false);
  });
});

describe('GET /api/v1/series filters (deprecated, api.md §5.3)', () => {
  it('library_id: repeated, comma list, PHP brackets', async () => {
    expect(await get(`library_id=${f.libraries.A}&sort=name`)).toEqual(['batman', 'elodie', 'xmen', 'zombie']);
    expect(sorted(await get(`library_id=${f.libraries.A},${f.libraries.B}`))).toEqual(ALL);
    expect(sorted(await get(`library_id=${f.libraries.A}&library_id=${f.libraries.B}`))).toEqual(ALL);
    expect(await get(`library_id[]=${f.libraries.B}&sort=name`)).toEqual(['acrobat', 'titan']);
    expect(sorted(await get(`library_id[]=${f.libraries.B}&library_id=${f.libraries.A}`))).toEqual(ALL);
  });

  it('status, read_status (any case), publisher and language without regard to case, genre, tag', async () => {
    expect(await get('status=ENDED&sort=name')).toEqual(['batman', 'titan']);
    expect(await get('status=ended,hiatus&sort=name')).toEqual(['batman', 'titan', 'xmen']);
    expect(await get('read_status=READ')).toEqual(['xmen']);
    expect(await get('read_status=in_progress&sort=name')).toEqual(['batman', 'elodie', 'titan']);
    expect(await get('read_status=UNREAD&sort=name')).toEqual(['acrobat', 'zombie']);
    expect(await get('publisher=MARVEL&sort=name')).toEqual(['acrobat', 'xmen']);
    expect(await get('language=en&sort=name')).toEqual(['acrobat', 'batman', 'xmen']);
    expect(await get('genre=horror')).toEqual(['titan']);
    // Series tags and the tags of its books.
    expect(await get('tag=noir')).toEqual(['batman']);
    expect(await get('tag=kids&tag=mutants&sort=name')).toEqual(['elodie', 'xmen']);
  });

  it('age_rating (None = no rating), release_year, sharing_label, deleted, complete, oneshot', async () => {
    expect(await get('age_rating=12')).toEqual(['batman']);
    expect(await get('age_rating=None&sort=name')).toEqual(['elodie', 'zombie']);
    expect(await get('age_rating=6,16&sort=name')).toEqual(['acrobat', 'titan']);
    expect(await get('release_year=1987')).toEqual(['batman']);
    expect(await get('release_year=2010&release_year=2020&sort=name')).toEqual(['acrobat', 'titan']);
    expect(await get('sharing_label=gore&sort=name')).toEqual(['titan', 'xmen']);
    expect(await get('deleted=true')).toEqual(['zombie']);
    expect(await get('deleted=false&sort=name')).toEqual(['acrobat', 'batman', 'elodie', 'titan', 'xmen']);
    expect(await get('complete=true')).toEqual(['batman']);
    expect(await get('complete=false&sort=name')).toEqual(['elodie', 'xmen']);
    expect(await get('oneshot=true')).toEqual(['acrobat']);
  });

  it('author=name,role (split on the last comma), collection_id, and several filters together', async () => {
    expect(await get('author=Frank Miller,writer')).toEqual(['batman']);
    expect(await get('author=Zoé Dupont,colorist')).toEqual(['elodie']);
    expect(await get('author=Jim Lee,writer')).toEqual([]);
    expect(await get('author=no comma')).toHaveLength(6);
    expect(await get(`collection_id=${f.collections.hidden}&sort=name`)).toEqual(['titan', 'xmen']);
    expect(await get(`library_id=${f.libraries.A}&sharing_label=gore&status=HIATUS`)).toEqual(['xmen']);
  });

  it('search (full text) and search_regex on the title or sort title', async () => {
    expect(await get('search=titan')).toEqual(['titan']);
    expect(await get('search_regex=^x,TITLE')).toEqual(['xmen']);
    expect(await get('search_regex=TALES$,title_sort')).toEqual(['acrobat']);
    expect(await get('search_regex=[,TITLE')).toEqual([]);
    expect(await get('search_regex=^x,summary')).toHaveLength(6);
  });

  it('rejects an unknown enum value with 400', async () => {
    expect((await c.call(f.users.admin, 'GET', '/api/v1/series?status=DONE')).status).toBe(400);
  });
});

describe('POST /api/v1/series/list conditions (api.md §5.1)', () => {
  it('title and titleSort: every string operator, case- and accent-insensitive', async () => {
    expect(await list({ title: { operator: 'contains', value: 'MEN' } })).toEqual(['xmen']);
    expect(await list({ title: { operator: 'beginsWith', value: 'elo' } })).toEqual(['elodie']);
    expect(await list({ title: { operator: 'endsWith', value: 'ONE' } })).toEqual(['batman']);
    expect(await list({ title: { operator: 'doesNotContain', value: 'a' } })).toEqual(['elodie', 'xmen', 'titan']);
    expect(await list({ title: { operator: 'doesNotBeginWith', value: 'b' } })).toEqual([
      'acrobat',
      'elodie',
      'xmen',
      'zombie',
      'titan',
    ]);
    expect(await list({ title: { operator: 'doesNotEndWith', value: 's' } })).toEqual(['batman', 'xmen', 'titan']);
    expect(await list({ title: is('x-MEN') })).toEqual(['xmen']);
    expect(await list({ title: is('elodie et les etoiles') })).toEqual(['elodie']);
    expect(await list({ title: { operator: 'isNot', value: 'X-Men' } })).toHaveLength(5);
    expect(await list({ titleSort: { operator: 'contains', value: '巨' } })).toEqual(['titan']);
    expect(await list({ title: { operator: 'contains', value: '%' } })).toEqual([]);
  });

  it('releaseDate (the earliest book date): before / after on the UTC date, in the last, null', async () => {
    expect(await list({ releaseDate: { operator: 'before', dateTime: '2000-01-01T00:00:00Z' } })).toEqual([
      'batman',
      'xmen',
    ]);
    expect(await list({ releaseDate: { operator: 'after', dateTime: '2015-10-31T23:00:00-02:00' } })).toEqual([
      'acrobat',
      'elodie',
    ]);
    expect(await list({ releaseDate: { operator: 'after', dateTime: '2015-10-30T23:00:00Z' } })).toEqual([
      'acrobat',
      'elodie',
      'zombie',
    ]);
    const days = Math.ceil((Date.now() - Date.UTC(2016, 0, 1)) / 86400_000);
    expect(await list({ releaseDate: { operator: 'isInTheLast', duration: `P${days}D` } })).toEqual([
      'acrobat',
      'elodie',
    ]);
    expect(await list({ releaseDate: { operator: 'isNotInTheLast', duration: `PT${days * 24}H` } })).toEqual([
      'batman',
      'xmen',
      'zombie',
      'titan',
    ]);
    expect(await list({ releaseDate: { operator: 'isNull' } })).toEqual([]);
    expect(await list({ releaseDate: { operator: 'isNotNull' } })).toHaveLength(6);
  });

  it('tag (series or book tags), sharingLabel, genre: is, isNot, isNull, isNotNull', async () => {
    expect(await list({ tag: is('CRIME') })).toEqual(['batman']);
    expect(await list({ tag: { operator: 'isNot', value: 'noir' } })).toEqual([
      'acrobat',
      'elodie',
      'xmen',
      'zombie',
      'titan',
    ]);
    expect(await list({ tag: { operator: 'isNull' } })).toEqual(['zombie']);
    expect(await list({ tag: { operator: 'isNotNull' } })).toHaveLength(5);
    expect(await list({ sharingLabel: is('kids') })).toEqual(['acrobat', 'elodie']);
    expect(await list({ sharingLabel: { operator: 'isNull' } })).toEqual(['batman', 'zombie']);
    expect(await list({ genre: { operator: 'isNot', value: 'fantasy' } })).toEqual([
      'acrobat',
      'batman',
      'xmen',
      'zombie',
      'titan',
    ]);
    expect(await list({ genre: { operator: 'isNotNull' } })).toEqual(['batman', 'elodie', 'titan']);
  });

  it('publisher, language (ignore case), seriesStatus, libraryId, collectionId', async () => {
    expect(await list({ publisher: is('dc comics') })).toEqual(['batman']);
    expect(await list({ publisher: { operator: 'isNot', value: 'MARVEL' } })).toEqual([
      'batman',
      'elodie',
      'zombie',
      'titan',
    ]);
    expect(await list({ language: is('EN') })).toEqual(['acrobat', 'batman', 'xmen']);
    expect(await list({ seriesStatus: is('ended') })).toEqual(['batman', 'titan']);
    expect(await list({ seriesStatus: { operator: 'isNot', value: 'ONGOING' } })).toEqual([
      'acrobat',
      'batman',
      'xmen',
      'titan',
    ]);
    expect(await list({ libraryId: { operator: 'isNot', value: f.libraries.A } })).toEqual(['acrobat', 'titan']);
    expect(await list({ collectionId: is(f.collections.hidden) })).toEqual(['xmen', 'titan']);
    expect(await list({ collectionId: { operator: 'isNot', value: f.collections.unordered } })).toEqual([
      'acrobat',
      'zombie',
    ]);
  });

  it('ageRating: greaterThan and lessThan include the bound; isNot also matches no rating', async () => {
    expect(await list({ ageRating: is(16) })).toEqual(['titan']);
    expect(await list({ ageRating: { operator: 'greaterThan', value: 12 } })).toEqual(['batman', 'xmen', 'titan']);
    expect(await list({ ageRating: { operator: 'lessThan', value: 12 } })).toEqual(['acrobat', 'batman']);
    expect(await list({ ageRating: { operator: 'isNot', value: 12 } })).toEqual([
      'acrobat',
      'elodie',
      'xmen',
      'zombie',
      'titan',
    ]);
    expect(await list({ ageRating: { operator: 'isNull' } })).toEqual(['elodie', 'zombie']);
    expect(await list({ ageRating: { operator: 'isNotNull' } })).toEqual(['acrobat', 'batman', 'xmen', 'titan']);
  });

  it('readStatus of the caller, deleted, complete, oneShot', async () => {
    expect(await list({ readStatus: is('READ') })).toEqual(['xmen']);
    expect(await list({ readStatus: is('unread') })).toEqual(['acrobat', 'zombie']);
    expect(await list({ readStatus: is('IN_PROGRESS') })).toEqual(['batman', 'elodie', 'titan']);
    expect(await list({ readStatus: { operator: 'isNot', value: 'READ' } })).toHaveLength(5);
    expect(await list({ readStatus: { operator: 'isNot', value: 'UNREAD' } })).toEqual([
      'batman',
      'elodie',
      'xmen',
      'titan',
    ]);
    expect(await list({ readStatus: { operator: 'isNot', value: 'IN_PROGRESS' } })).toEqual([
      'acrobat',
      'xmen',
      'zombie',
    ]);
    expect(await list({ deleted: { operator: 'isTrue' } })).toEqual(['zombie']);
    expect(await list({ deleted: { operator: 'isFalse' } })).toHaveLength(5);
    expect(await list({ complete: { operator: 'isTrue' } })).toEqual(['batman']);
    expect(await list({ complete: { operator: 'isFalse' } })).toEqual(['elodie', 'xmen']);
    expect(await list({ oneShot: { operator: 'isTrue' } })).toEqual(['acrobat']);
    expect(await list({ oneShot: { operator: 'isFalse' } })).toHaveLength(5);
  });

  it('author (aggregated from books): name and/or role; neither = no condition', async () => {
    expect(await list({ author: is({ name: 'frank miller' }) })).toEqual(['batman']);
    expect(await list({ author: is({ role: 'penciller' }) })).toEqual(['batman', 'xmen']);
    expect(await list({ author: is({ name: 'Zoé Dupont', role: 'colorist' }) })).toEqual(['elodie']);
    expect(await list({ author: { operator: 'isNot', value: { role: 'writer' } } })).toEqual(['acrobat', 'zombie']);
    expect(await list({ author: is({}) })).toHaveLength(6);
  });

  it('allOf / anyOf nest; empty ones match everything', async () => {
    expect(
      await list({
        allOf: [{ libraryId: is(f.libraries.A) }, { anyOf: [{ tag: is('noir') }, { tag: is('mutants') }] }],
      }),
    ).toEqual(['batman', 'xmen']);
    expect(
      await list({
        anyOf: [
          { allOf: [{ seriesStatus: is('ENDED') }, { libraryId: is(f.libraries.B) }] },
          { oneShot: { operator: 'isTrue' } },
        ],
      }),
    ).toEqual(['acrobat', 'titan']);
    expect(await list({ allOf: [] })).toHaveLength(6);
    expect(await list({ anyOf: [] })).toHaveLength(6);
    expect(await list({ anyOf: [{ author: is({}) }, { title: is('X-Men') }] })).toEqual(['xmen']);
    expect(await list(undefined)).toHaveLength(6);
  });

  it('answers 400 for a malformed condition', async () => {
    for (const condition of [
      { nope: is('x') },
      { title: { operator: 'greaterThan', value: 'x' } },
      { title: is('x'), libraryId: is('y') },
      { allOf: { title: is('x') } },
      { ageRating: is('twelve') },
      { readStatus: is('DONE') },
      { releaseDate: { operator: 'before', dateTime: 'yesterday' } },
      { releaseDate: { operator: 'isInTheLast', duration: 'P1M' } },
      'title',
    ]) {
      const r = await c.call(f.users.admin, 'POST', '/api/v1/series/list', { condition });
      expect(r.status, JSON.stringify(condition)).toBe(400);
      // Komga's validation body, one violation where the condition is wrong rather than one per union member.
      expect(r.body, JSON.stringify(condition)).toEqual({
        violations: [{ fieldName: expect.stringMatching(/^condition/), message: expect.any(String) }],
      });
    }
  });

  it('combines conditions with a full-text search, relevance first when no sort is given', async () => {
    const page = await c.seriesPage(f.users.admin, '/api/v1/series/list', {
      condition: { deleted: { operator: 'isFalse' } },
      fullTextSearch: 'marvel',
    });
    expect(sorted(seriesKeys(f, page))).toEqual(['acrobat', 'xmen']);
    expect(page.sort.sorted).toBe(true);
  });
});

describe('alphabetical groups', () => {
  it('counts series per lower-cased first character of the sort title (GET and POST)', async () => {
    const expected = [
      { group: 'a', count: 1 },
      { group: 'b', count: 1 },
      { group: 'x', count: 1 },
      { group: 'z', count: 1 },
      { group: 'é', count: 1 },
      { group: '進', count: 1 },
    ];
    const post = await c.call(f.users.admin, 'POST', '/api/v1/series/list/alphabetical-groups', {});
    expect(post.status).toBe(200);
    for (const g of post.body as unknown[]) expectSchema('GroupCountDto', g);
    expect(post.body).toEqual(expected);
    const get = await c.call(f.users.admin, 'GET', `/api/v1/series/alphabetical-groups?library_id=${f.libraries.A}`);
    expect(get.body).toEqual([
      { group: 'b', count: 1 },
      { group: 'x', count: 1 },
      { group: 'z', count: 1 },
      { group: 'é', count: 1 },
    ]);
    const filtered = await c.call(f.users.admin, 'POST', '/api/v1/series/list/alphabetical-groups', {
      condition: { sharingLabel: is('kids') },
    });
    expect(filtered.body).toEqual([
      { group: 'a', count: 1 },
      { group: 'é', count: 1 },
    ]);
  });
});

describe('latest, new, updated', () => {
  it('sort by lastModified desc, created desc, and keep only changed series', async () => {
    const latest = await c.seriesPage(f.users.admin, '/api/v1/series/latest?unpaged=true');
    expect(seriesKeys(f, latest)).toEqual(['batman', 'xmen', 'zombie', 'acrobat', 'titan', 'elodie']);
    expect(latest.sort.sorted).toBe(true);
    const added = await c.seriesPage(f.users.admin, `/api/v1/series/new?library_id=${f.libraries.A}&deleted=false`);
    expect(seriesKeys(f, added)).toEqual(['xmen', 'elodie', 'batman']);
    const updated = await c.seriesPage(f.users.admin, '/api/v1/series/updated');
    expect(seriesKeys(f, updated)).toEqual(['batman', 'xmen']);
    const oneshots = await c.seriesPage(f.users.admin, '/api/v1/series/new?oneshot=true&size=1');
    expect(seriesKeys(f, oneshots)).toEqual(['acrobat']);
  });
});

describe('SeriesDto read counts', () => {
  it('come from the caller’s progress; unread = booksCount − read − in progress', async () => {
    const page = await c.seriesPage(f.users.admin, '/api/v1/series/list?sort=name', {});
    const counts = Object.fromEntries(
      page.content.map((s, i) => [
        seriesKeys(f, page)[i],
        [s.booksCount, s.booksReadCount, s.booksInProgressCount, s.booksUnreadCount],
      ]),
    );
    expect(counts).toEqual({
      acrobat: [1, 0, 0, 1],
      batman: [4, 2, 0, 2],
      elodie: [2, 0, 1, 1],
      titan: [3, 1, 0, 2],
      xmen: [2, 2, 0, 0],
      zombie: [1, 0, 0, 1],
    });
  });
});

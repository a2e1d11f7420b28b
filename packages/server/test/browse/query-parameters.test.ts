import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookKeys, buildFixture, client, seriesKeys, type Fixture } from './support.js';

/**
 * Boolean and enum query parameters of every list, read as Spring reads them (issue 12): `deleted=false` keeps
 * what is not soft-deleted, `deleted=true` only what is, absent both; booleans and enum values in any case; a
 * parameter an endpoint does not declare is ignored, never read raw.
 */

let f: Fixture;
let c: ReturnType<typeof client>;
let collection: string;
let readList: string;

beforeAll(async () => {
  f = await buildFixture();
  c = client(f);
  // A collection and a read list with the soft-deleted series / book as members, beside live ones.
  const admin = f.users.admin;
  const created = await c.call(admin, 'POST', '/api/v1/collections', {
    name: 'With deleted',
    ordered: false,
    seriesIds: [f.series.batman!, f.series.titan!],
  });
  expect(created.status).toBe(200);
  collection = (created.body as { id: string }).id;
  const list = await c.call(admin, 'POST', '/api/v1/readlists', {
    name: 'With deleted',
    ordered: true,
    bookIds: [f.books['batman/Batman 01']!, f.books['titan/Titan 1']!],
  });
  expect(list.status).toBe(200);
  readList = (list.body as { id: string }).id;
  await f.db
    .insertInto('collection_series')
    .values({ collection_id: collection, series_id: f.series.zombie!, number: 2 })
    .execute();
  await f.db
    .insertInto('readlist_book')
    .values({ readlist_id: readList, book_id: f.books['zombie/Zombie 1']!, number: 2 })
    .execute();
}, 60_000);
afterAll(() => f.s.close());

const books = async (path: string) => bookKeys(f, await c.bookPage(f.users.admin, path));
const series = async (path: string) => seriesKeys(f, await c.seriesPage(f.users.admin, path));

describe('deleted=true|false|absent on every list that takes it', () => {
  it('GET /api/v1/books (Mihon sends deleted=false)', async () => {
    const all = await books('/api/v1/books?unpaged=true');
    expect(all).toHaveLength(13);
    expect(all).toContain('zombie/Zombie 1');
    expect(await books('/api/v1/books?deleted=true')).toEqual(['zombie/Zombie 1']);
    const live = await books('/api/v1/books?search=&page=0&size=50&deleted=false&sort=relevance,asc');
    expect(live).toHaveLength(12);
    expect(live).not.toContain('zombie/Zombie 1');
  });

  it('GET /api/v1/series, alphabetical groups, latest, new and updated', async () => {
    expect(await series('/api/v1/series?unpaged=true')).toHaveLength(6);
    expect(await series('/api/v1/series?deleted=true')).toEqual(['zombie']);
    expect(await series('/api/v1/series?deleted=false&unpaged=true')).toHaveLength(5);
    const groups = async (q: string) => {
      const r = await c.call(f.users.admin, 'GET', `/api/v1/series/alphabetical-groups?${q}`);
      return (r.body as { group: string; count: number }[]).find((g) => g.group === 'z')?.count ?? 0;
    };
    expect([await groups(''), await groups('deleted=true'), await groups('deleted=false')]).toEqual([1, 1, 0]);
    for (const path of ['latest', 'new']) {
      expect(await series(`/api/v1/series/${path}?size=50`)).toContain('zombie');
      expect(await series(`/api/v1/series/${path}?deleted=true`)).toEqual(['zombie']);
      expect(await series(`/api/v1/series/${path}?size=50&deleted=false`)).not.toContain('zombie');
    }
  });

  it('GET /api/v1/series/{id}/books', async () => {
    const path = `/api/v1/series/${f.series.zombie}/books`;
    expect(await books(path)).toEqual(['zombie/Zombie 1']);
    expect(await books(`${path}?deleted=true`)).toEqual(['zombie/Zombie 1']);
    expect(await books(`${path}?deleted=false`)).toEqual([]);
    expect(await books(`/api/v1/series/${f.series.batman}/books?deleted=false`)).toHaveLength(4);
  });

  it('GET /api/v1/collections/{id}/series and /api/v1/readlists/{id}/books', async () => {
    const members = `/api/v1/collections/${collection}/series`;
    expect(await series(members)).toEqual(['batman', 'zombie', 'titan']);
    expect(await series(`${members}?deleted=true`)).toEqual(['zombie']);
    expect(await series(`${members}?deleted=false`)).toEqual(['batman', 'titan']);
    const listed = `/api/v1/readlists/${readList}/books`;
    expect(await books(listed)).toEqual(['batman/Batman 01', 'titan/Titan 1', 'zombie/Zombie 1']);
    expect(await books(`${listed}?deleted=true`)).toEqual(['zombie/Zombie 1']);
    expect(await books(`${listed}?deleted=false`)).toEqual(['batman/Batman 01', 'titan/Titan 1']);
  });
});

describe('booleans as Spring converts them', () => {
  it('accept true/false in any case, on/off, yes/no, 1/0; an empty value is no value', async () => {
    for (const yes of ['TRUE', 'True', 'on', 'yes', '1'])
      expect(await series(`/api/v1/series?deleted=${yes}`), yes).toEqual(['zombie']);
    for (const no of ['FALSE', 'off', 'No', '0'])
      expect(await series(`/api/v1/series?unpaged=true&deleted=${no}`), no).toHaveLength(5);
    expect(await series('/api/v1/series?unpaged=true&deleted=')).toHaveLength(6);
    expect((await c.call(f.users.admin, 'GET', '/api/v1/series?page=&size=&unpaged=')).body).toMatchObject({
      number: 0,
      size: 20,
    });
    expect((await c.call(f.users.admin, 'GET', '/api/v1/series?unpaged=TRUE')).body).toMatchObject({
      totalElements: 6,
      numberOfElements: 6,
    });
  });

  it('answer 400 for anything else, never a silent filter', async () => {
    for (const path of ['/api/v1/series?deleted=maybe', '/api/v1/books?deleted=2', '/api/v1/series?oneshot=yep'])
      expect((await c.call(f.users.admin, 'GET', path)).status, path).toBe(400);
  });
});

describe('parameters an endpoint does not declare are ignored', () => {
  it('collection series ignore oneshot, collection_id and sharing_label', async () => {
    const members = `/api/v1/collections/${collection}/series`;
    for (const q of ['oneshot=false', 'oneshot=true', `collection_id=${f.collections.hidden}`, 'sharing_label=x'])
      expect(await series(`${members}?${q}`), q).toEqual(['batman', 'zombie', 'titan']);
  });

  it('series books and read-list books ignore library_id and released_after', async () => {
    const path = `/api/v1/series/${f.series.batman}/books`;
    expect(await books(`${path}?library_id=${f.libraries.B}`)).toHaveLength(4);
    expect(await books(`${path}?released_after=2000-01-01`)).toHaveLength(4);
    const listed = `/api/v1/readlists/${readList}/books`;
    expect(await books(`${listed}?released_after=2000-01-01`)).toHaveLength(3);
  });
});

describe('enum values in any case', () => {
  it('the deprecated filters', async () => {
    expect(await series('/api/v1/series?status=ended&sort=name')).toEqual(['batman', 'titan']);
    expect(await books(`/api/v1/series/${f.series.batman}/books?media_status=error`)).toEqual(['batman/Batman 04']);
    expect(await books(`/api/v1/readlists/${readList}/books?read_status=read`)).toEqual([
      'batman/Batman 01',
      'titan/Titan 1',
    ]);
  });

  it('include of /api/v2/tags; an unknown value is a 400', async () => {
    const tags = async (include: string) => {
      const r = await c.call(f.users.admin, 'GET', `/api/v2/tags?unpaged=true&include=${include}`);
      expect(r.status, include).toBe(200);
      return (r.body as { content: string[] }).content;
    };
    expect(await tags('series')).toEqual(await tags('SERIES'));
    expect(await tags('Book')).toEqual(await tags('BOOK'));
    expect(await tags('book')).not.toEqual(await tags('series'));
    expect((await c.call(f.users.admin, 'GET', '/api/v2/tags?include=ALL')).status).toBe(400);
  });
});

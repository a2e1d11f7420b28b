import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSchema } from '../support/openapi.js';
import { bookKeys, buildFixture, client, seriesKeys, withoutNulls, type Fixture } from './support.js';

/** The series of a collection and the books of a read list (api.md §3.4, §3.5), with neighbours in a read list. */

let f: Fixture;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  f = await buildFixture();
  c = client(f);
}, 60_000);
afterAll(() => f.s.close());

describe('GET /api/v1/collections/{id}/series', () => {
  it('lists in collection order when ordered, else by sort title; ignores sort', async () => {
    const ordered = await c.seriesPage(f.users.admin, `/api/v1/collections/${f.collections.ordered}/series?sort=name`);
    expect(seriesKeys(f, ordered)).toEqual(['xmen', 'titan', 'batman', 'elodie']);
    expect(ordered.sort.sorted).toBe(true);
    const unordered = await c.seriesPage(f.users.admin, `/api/v1/collections/${f.collections.unordered}/series`);
    expect(seriesKeys(f, unordered)).toEqual(['batman', 'elodie', 'xmen', 'titan']);
  });

  it('takes the series filters and paging', async () => {
    const path = `/api/v1/collections/${f.collections.ordered}/series`;
    expect(seriesKeys(f, await c.seriesPage(f.users.admin, `${path}?library_id=${f.libraries.A}`))).toEqual([
      'xmen',
      'batman',
      'elodie',
    ]);
    expect(seriesKeys(f, await c.seriesPage(f.users.admin, `${path}?read_status=IN_PROGRESS`))).toEqual([
      'titan',
      'batman',
      'elodie',
    ]);
    expect(seriesKeys(f, await c.seriesPage(f.users.admin, `${path}?genre=Fantasy&genre=Horror`))).toEqual([
      'titan',
      'elodie',
    ]);
    expect(seriesKeys(f, await c.seriesPage(f.users.admin, `${path}?status=ENDED&complete=true`))).toEqual(['batman']);
    expect(seriesKeys(f, await c.seriesPage(f.users.admin, `${path}?age_rating=None,18`))).toEqual(['xmen', 'elodie']);
    expect(seriesKeys(f, await c.seriesPage(f.users.admin, `${path}?release_year=2010`))).toEqual(['titan']);
    expect(seriesKeys(f, await c.seriesPage(f.users.admin, `${path}?author=Jim Lee,penciller`))).toEqual(['xmen']);
    expect(
      seriesKeys(f, await c.seriesPage(f.users.admin, `${path}?publisher=kodansha&language=ja&tag=titans`)),
    ).toEqual(['titan']);
    const second = await c.seriesPage(f.users.admin, `${path}?page=1&size=3`);
    expect(seriesKeys(f, second)).toEqual(['elodie']);
    expect(second).toMatchObject({ totalElements: 4, totalPages: 2, last: true });
  });

  it('answers 404 for an unknown collection', async () => {
    expect((await c.call(f.users.admin, 'GET', '/api/v1/collections/NOPE/series')).status).toBe(404);
  });
});

describe('GET /api/v1/readlists/{id}/books', () => {
  it('lists in list order when ordered, else by release date', async () => {
    const ordered = await c.bookPage(f.users.admin, `/api/v1/readlists/${f.readLists.ordered}/books`);
    expect(bookKeys(f, ordered)).toEqual([
      'xmen/X-Men 2',
      'batman/Batman 01',
      'titan/Titan 1',
      'elodie/Élodie 1',
      'batman/Batman 04',
    ]);
    const byDate = await c.bookPage(f.users.admin, `/api/v1/readlists/${f.readLists.unordered}/books?unpaged=true`);
    expect(bookKeys(f, byDate)).toEqual([
      'batman/Batman 04',
      'batman/Batman 01',
      'xmen/X-Men 2',
      'titan/Titan 1',
      'elodie/Élodie 1',
    ]);
  });

  it('takes the book filters', async () => {
    const path = `/api/v1/readlists/${f.readLists.ordered}/books`;
    expect(bookKeys(f, await c.bookPage(f.users.admin, `${path}?read_status=READ`))).toEqual([
      'xmen/X-Men 2',
      'batman/Batman 01',
      'titan/Titan 1',
    ]);
    expect(bookKeys(f, await c.bookPage(f.users.admin, `${path}?library_id=${f.libraries.B}`))).toEqual([
      'titan/Titan 1',
    ]);
    expect(bookKeys(f, await c.bookPage(f.users.admin, `${path}?media_status=ERROR`))).toEqual(['batman/Batman 04']);
    expect(bookKeys(f, await c.bookPage(f.users.admin, `${path}?tag=noir`))).toEqual(['batman/Batman 01']);
    expect(bookKeys(f, await c.bookPage(f.users.admin, `${path}?author=Zoé Dupont,writer`))).toEqual([
      'elodie/Élodie 1',
    ]);
    expect(bookKeys(f, await c.bookPage(f.users.admin, `${path}?deleted=true`))).toEqual([]);
  });

  it('answers 404 for an unknown read list', async () => {
    expect((await c.call(f.users.admin, 'GET', '/api/v1/readlists/NOPE/books')).status).toBe(404);
  });
});

describe('GET /api/v1/readlists/{id}/books/{bookId}/next | previous', () => {
  const sibling = async (list: string, key: string, direction: 'next' | 'previous', user = f.users.admin) => {
    const r = await c.call(user, 'GET', `/api/v1/readlists/${list}/books/${f.books[key] ?? key}/${direction}`);
    if (r.status !== 200) return r.status;
    expectSchema('BookDto', withoutNulls(r.body));
    return Object.entries(f.books).find(([, id]) => id === (r.body as { id: string }).id)?.[0];
  };

  it('walks the list order, or the release-date order; 404 at the ends and for non-members', async () => {
    expect(await sibling(f.readLists.ordered, 'batman/Batman 01', 'next')).toBe('titan/Titan 1');
    expect(await sibling(f.readLists.ordered, 'batman/Batman 01', 'previous')).toBe('xmen/X-Men 2');
    expect(await sibling(f.readLists.ordered, 'xmen/X-Men 2', 'previous')).toBe(404);
    expect(await sibling(f.readLists.ordered, 'batman/Batman 04', 'next')).toBe(404);
    expect(await sibling(f.readLists.ordered, 'batman/Batman 02', 'next')).toBe(404);
    expect(await sibling(f.readLists.unordered, 'batman/Batman 04', 'next')).toBe('batman/Batman 01');
    expect(await sibling(f.readLists.unordered, 'elodie/Élodie 1', 'previous')).toBe('titan/Titan 1');
    expect(
      (await c.call(f.users.admin, 'GET', `/api/v1/readlists/NOPE/books/${f.books['batman/Batman 01']}/next`)).status,
    ).toBe(404);
  });

  it('skips books the caller may not see', async () => {
    expect(await sibling(f.readLists.ordered, 'batman/Batman 01', 'next', f.users.excludeGore)).toBe('elodie/Élodie 1');
    expect(await sibling(f.readLists.ordered, 'batman/Batman 01', 'previous', f.users.excludeGore)).toBe(404);
    expect(await sibling(f.readLists.ordered, 'titan/Titan 1', 'next', f.users.excludeGore)).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim, startServer, type TestServer } from '../support/server.js';
import { makeBook, makeLibrary, makeSeries } from '../support/factories.js';
import { expectSchema } from '../support/openapi.js';
import { call, createUser } from '../reading/helpers.js';

let s: TestServer;
let admin: string;
const users = { libraryA: '', ageExcluded: '', ageAllowed: '', labelExcluded: '', labelAllowed: '', none: '' };
const ids = { libA: '', libB: '', alpha: '', bravo: '', charlie: '', delta: '', collection: '', readList: '' };

interface SeriesSpec {
  title: string;
  ageRating: number | null;
  labels?: string[];
  genres: string[];
  tags: string[];
  publisher: string;
  language: string;
  releaseDate: string | null;
  authors: [string, string][];
  bookTags: string[];
}

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  const db = s.app.deps.db;
  const now = new Date().toISOString();
  ids.libA = await makeLibrary(db, { name: 'A', root: '/tmp/ref-a' });
  ids.libB = await makeLibrary(db, { name: 'B', root: '/tmp/ref-b' });

  const make = async (libraryId: string, spec: SeriesSpec) => {
    const seriesId = await makeSeries(db, libraryId, {
      title: spec.title,
      ageRating: spec.ageRating,
      sharingLabels: spec.labels,
    });
    await db
      .updateTable('series_metadata')
      .set({ publisher: spec.publisher, language: spec.language })
      .where('series_id', '=', seriesId)
      .execute();
    for (const [position, genre] of spec.genres.entries())
      await db.insertInto('series_metadata_genre').values({ series_id: seriesId, genre, position }).execute();
    for (const [position, tag] of spec.tags.entries())
      await db.insertInto('series_metadata_tag').values({ series_id: seriesId, tag, position }).execute();
    await db
      .insertInto('book_metadata_aggregation')
      .values({ series_id: seriesId, release_date: spec.releaseDate, created_date: now, last_modified_date: now })
      .execute();
    const bookId = await makeBook(db, { libraryId, seriesId }, `/tmp/${spec.title}/${spec.title} 1.cbz`);
    for (const [position, [name, role]] of spec.authors.entries())
      await db.insertInto('book_metadata_author').values({ book_id: bookId, name, role, position }).execute();
    for (const [position, tag] of spec.bookTags.entries())
      await db.insertInto('book_metadata_tag').values({ book_id: bookId, tag, position }).execute();
    return { seriesId, bookId };
  };

  const alpha = await make(ids.libA, {
    title: 'Alpha',
    ageRating: 10,
    labels: ['kids'],
    genres: ['Action', 'Émotion'],
    tags: ['hero'],
    publisher: 'DC',
    language: 'en',
    releaseDate: '2020-05-01',
    authors: [
      ['Álvaro Ruiz', 'writer'],
      ['Bea', 'penciller'],
    ],
    bookTags: ['cape'],
  });
  const bravo = await make(ids.libA, {
    title: 'Bravo',
    ageRating: 18,
    genres: ['Horror'],
    tags: ['gore'],
    publisher: 'Mature Press',
    language: 'fr',
    releaseDate: '1999-01-01',
    authors: [['Gore Author', 'writer']],
    bookTags: ['blood'],
  });
  const charlie = await make(ids.libA, {
    title: 'Charlie',
    ageRating: null,
    labels: ['secret'],
    genres: ['Mystery'],
    tags: ['spy'],
    publisher: 'Hidden House',
    language: 'de',
    releaseDate: null,
    authors: [['Secret Writer', 'writer']],
    bookTags: ['dagger'],
  });
  const delta = await make(ids.libB, {
    title: 'Delta',
    ageRating: 10,
    genres: ['Comedy'],
    tags: ['fun'],
    publisher: 'Other Pub',
    language: 'ja',
    releaseDate: '2010-07-07',
    authors: [['Other Author', 'colorist']],
    bookTags: ['laugh'],
  });
  ids.alpha = alpha.seriesId;
  ids.bravo = bravo.seriesId;
  ids.charlie = charlie.seriesId;
  ids.delta = delta.seriesId;

  ids.collection = 'COLL-REF';
  await db
    .insertInto('collection')
    .values({ id: ids.collection, name: 'Picks', created_date: now, last_modified_date: now })
    .execute();
  await db
    .insertInto('collection_series')
    .values([
      { collection_id: ids.collection, series_id: ids.bravo, number: 0 },
      { collection_id: ids.collection, series_id: ids.delta, number: 1 },
    ])
    .execute();
  ids.readList = 'RL-REF';
  await db
    .insertInto('readlist')
    .values({ id: ids.readList, name: 'Arc', created_date: now, last_modified_date: now })
    .execute();
  await db
    .insertInto('readlist_book')
    .values([
      { readlist_id: ids.readList, book_id: alpha.bookId, number: 0 },
      { readlist_id: ids.readList, book_id: charlie.bookId, number: 1 },
    ])
    .execute();

  const create = async (key: keyof typeof users, body: Record<string, unknown>) => {
    users[key] = (await createUser(s, admin, `${key.toLowerCase()}@example.org`, body)).authorization;
  };
  await create('libraryA', { sharedLibraries: { all: false, libraryIds: [ids.libA] } });
  await create('ageExcluded', { ageRestriction: { age: 16, restriction: 'EXCLUDE' } });
  await create('ageAllowed', { ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' } });
  await create('labelExcluded', { labelsExclude: ['SECRET'] });
  await create('labelAllowed', { labelsAllow: ['kids'] });
  await create('none', { sharedLibraries: { all: false, libraryIds: [] } });
}, 60_000);

afterAll(() => s.close());

const get = async (authorization: string, path: string) => {
  const res = await call(s, authorization, 'GET', path);
  expect(res.status, path).toBe(200);
  return res.body;
};
type Page<T> = { content: T[]; totalElements: number; totalPages: number; size: number; number: number };
const content = async <T = string>(authorization: string, path: string, schema = 'PageString') => {
  const body = await get(authorization, path);
  expectSchema(schema, body);
  return (body as Page<T>).content;
};

describe('/api/v2 referential values, for an administrator', () => {
  it('lists genres, publishers, languages and sharing labels of every library, by Unicode collation', async () => {
    expect(await content(admin, '/api/v2/genres?unpaged=true')).toEqual([
      'Action',
      'Comedy',
      'Émotion',
      'Horror',
      'Mystery',
    ]);
    expect(await content(admin, '/api/v2/publishers')).toEqual(['DC', 'Hidden House', 'Mature Press', 'Other Pub']);
    expect(await content(admin, '/api/v2/languages')).toEqual(['de', 'en', 'fr', 'ja']);
    expect(await content(admin, '/api/v2/sharing-labels')).toEqual(['kids', 'secret']);
  });

  it('pages with Spring envelope fields; unpaged returns everything', async () => {
    const page = (await get(admin, '/api/v2/genres?size=2&page=1')) as Page<string>;
    expectSchema('PageString', page);
    expect(page).toMatchObject({ content: ['Émotion', 'Horror'], totalElements: 5, totalPages: 3, size: 2, number: 1 });
    const all = (await get(admin, '/api/v2/genres?unpaged=true')) as Page<string>;
    expect(all).toMatchObject({ totalElements: 5, totalPages: 1, size: 20, number: 0 });
  });

  it('searches case- and accent-insensitively, as "contains"', async () => {
    expect(await content(admin, '/api/v2/genres?search=EMO')).toEqual(['Émotion']);
    expect(await content(admin, '/api/v2/publishers?search=press')).toEqual(['Mature Press']);
    const authors = await content<{ name: string; role: string }>(
      admin,
      '/api/v2/authors?search=alvaro',
      'PageAuthorDto',
    );
    expect(authors).toEqual([{ name: 'Álvaro Ruiz', role: 'writer' }]);
  });

  it('lists authors with their roles, filtered by role and by library, collection, series or read list', async () => {
    expect(await content(admin, '/api/v2/authors', 'PageAuthorDto')).toEqual([
      { name: 'Álvaro Ruiz', role: 'writer' },
      { name: 'Bea', role: 'penciller' },
      { name: 'Gore Author', role: 'writer' },
      { name: 'Other Author', role: 'colorist' },
      { name: 'Secret Writer', role: 'writer' },
    ]);
    expect(await content(admin, '/api/v2/authors?role=penciller', 'PageAuthorDto')).toEqual([
      { name: 'Bea', role: 'penciller' },
    ]);
    const names = async (query: string) =>
      (await content<{ name: string }>(admin, `/api/v2/authors?${query}`, 'PageAuthorDto')).map((a) => a.name);
    expect(await names(`library_id=${ids.libB}`)).toEqual(['Other Author']);
    expect(await names(`library_id[]=${ids.libB}`)).toEqual(['Other Author']);
    expect(await names(`collection_id=${ids.collection}`)).toEqual(['Gore Author', 'Other Author']);
    expect(await names(`series_id=${ids.alpha},${ids.charlie}`)).toEqual(['Álvaro Ruiz', 'Bea', 'Secret Writer']);
    expect(await names(`readlist_id=${ids.readList}`)).toEqual(['Álvaro Ruiz', 'Bea', 'Secret Writer']);
    // The first filter given wins: library before series.
    expect(await names(`series_id=${ids.alpha}&library_id=${ids.libB}`)).toEqual(['Other Author']);
    expect(await content(admin, '/api/v2/authors/names?search=author')).toEqual(['Gore Author', 'Other Author']);
    expect(await content(admin, '/api/v2/authors/roles')).toEqual(['colorist', 'penciller', 'writer']);
    expect(await content(admin, `/api/v2/authors/roles?library_id=${ids.libB}`)).toEqual(['colorist']);
  });

  it('lists series tags, book tags or both', async () => {
    expect(await content(admin, '/api/v2/tags?include=SERIES')).toEqual(['fun', 'gore', 'hero', 'spy']);
    expect(await content(admin, '/api/v2/tags?include=BOOK')).toEqual(['blood', 'cape', 'dagger', 'laugh']);
    expect(await content(admin, '/api/v2/tags?unpaged=true')).toEqual([
      'blood',
      'cape',
      'dagger',
      'fun',
      'gore',
      'hero',
      'laugh',
      'spy',
    ]);
    expect(await content(admin, `/api/v2/tags?series_id=${ids.alpha}`)).toEqual(['cape', 'hero']);
    expect(await content(admin, `/api/v2/tags?include=BOOK&readlist_id=${ids.readList}`)).toEqual(['cape', 'dagger']);
    expect(await content(admin, '/api/v2/tags?search=A&include=BOOK')).toEqual(['cape', 'dagger', 'laugh']);
    expect((await call(s, admin, 'GET', '/api/v2/tags?include=NOPE')).status).toBe(400);
  });

  it('lists age ratings as integers and release years newest first', async () => {
    expect(await content<number>(admin, '/api/v2/age-ratings', 'PageInteger')).toEqual([10, 18]);
    expect(await content(admin, '/api/v2/series/release-years')).toEqual(['2020', '2010', '1999']);
    expect(await content(admin, `/api/v2/series/release-years?collection_id=${ids.collection}`)).toEqual([
      '2010',
      '1999',
    ]);
  });
});

describe('/api/v1 referential values (plain arrays)', () => {
  it('answers arrays with the same values', async () => {
    expect(await get(admin, '/api/v1/genres')).toEqual(['Action', 'Comedy', 'Émotion', 'Horror', 'Mystery']);
    expect(await get(admin, `/api/v1/genres?library_id=${ids.libB}`)).toEqual(['Comedy']);
    expect(await get(admin, `/api/v1/genres?collection_id=${ids.collection}`)).toEqual(['Comedy', 'Horror']);
    expect(await get(admin, '/api/v1/publishers')).toEqual(['DC', 'Hidden House', 'Mature Press', 'Other Pub']);
    expect(await get(admin, '/api/v1/languages')).toEqual(['de', 'en', 'fr', 'ja']);
    expect(await get(admin, '/api/v1/sharing-labels')).toEqual(['kids', 'secret']);
    expect(await get(admin, '/api/v1/tags')).toEqual([
      'blood',
      'cape',
      'dagger',
      'fun',
      'gore',
      'hero',
      'laugh',
      'spy',
    ]);
    expect(await get(admin, `/api/v1/tags/series?library_id=${ids.libB}`)).toEqual(['fun']);
    expect(await get(admin, `/api/v1/tags/book?series_id=${ids.alpha}`)).toEqual(['cape']);
    expect(await get(admin, `/api/v1/tags/book?readlist_id=${ids.readList}`)).toEqual(['cape', 'dagger']);
    expect(await get(admin, `/api/v1/tags/book?library_id=${ids.libB}`)).toEqual(['laugh']);
    // Series without a rating show as "None".
    expect(await get(admin, '/api/v1/age-ratings')).toEqual(['None', '10', '18']);
    expect(await get(admin, '/api/v1/series/release-dates')).toEqual(['2020', '2010', '1999']);
    const authors = await get(admin, `/api/v1/authors?search=WRITER&series_id=${ids.charlie}`);
    expect(authors).toEqual([{ name: 'Secret Writer', role: 'writer' }]);
    for (const a of authors as unknown[]) expectSchema('AuthorDto', a);
    expect(await get(admin, '/api/v1/authors/names?search=á')).toEqual([
      'Álvaro Ruiz',
      'Bea',
      'Gore Author',
      'Other Author',
    ]);
    expect(await get(admin, '/api/v1/authors/roles')).toEqual(['colorist', 'penciller', 'writer']);
  });

  it('needs authentication', async () => {
    expect((await s.fetch('/api/v1/genres')).status).toBe(401);
    expect((await s.fetch('/api/v2/authors')).status).toBe(401);
  });
});

describe('restrictions: a value used only by hidden series never appears', () => {
  it('a user shared one library of two sees that library only, even when filtering on the other', async () => {
    const u = users.libraryA;
    expect(await content(u, '/api/v2/genres')).toEqual(['Action', 'Émotion', 'Horror', 'Mystery']);
    expect(await content(u, `/api/v2/genres?library_id=${ids.libB}`)).toEqual([]);
    expect(await get(u, '/api/v1/publishers')).toEqual(['DC', 'Hidden House', 'Mature Press']);
    expect((await content<{ name: string }>(u, '/api/v2/authors', 'PageAuthorDto')).map((a) => a.name)).not.toContain(
      'Other Author',
    );
    expect(await get(u, '/api/v1/authors/roles')).toEqual(['penciller', 'writer']);
    expect(await get(u, '/api/v1/tags/book')).toEqual(['blood', 'cape', 'dagger']);
    expect(await get(u, `/api/v1/genres?collection_id=${ids.collection}`)).toEqual(['Horror']);
    expect(await get(u, '/api/v1/series/release-dates')).toEqual(['2020', '1999']);
  });

  it('an age-restricted user (exclude 16 and over) does not see the adult series values', async () => {
    const u = users.ageExcluded;
    expect(await content(u, '/api/v2/genres')).toEqual(['Action', 'Comedy', 'Émotion', 'Mystery']);
    expect(await get(u, '/api/v1/tags')).toEqual(['cape', 'dagger', 'fun', 'hero', 'laugh', 'spy']);
    expect(await get(u, '/api/v1/age-ratings')).toEqual(['None', '10']);
    expect(await content<number>(u, '/api/v2/age-ratings', 'PageInteger')).toEqual([10]);
    expect(await get(u, '/api/v1/series/release-dates')).toEqual(['2020', '2010']);
    expect(await get(u, '/api/v1/authors/names')).not.toContain('Gore Author');
    expect(await get(u, '/api/v1/languages')).toEqual(['de', 'en', 'ja']);
  });

  it('an age-restricted user (allow only 12 and under) sees rated series of that age only', async () => {
    const u = users.ageAllowed;
    expect(await content(u, '/api/v2/genres')).toEqual(['Action', 'Comedy', 'Émotion']);
    expect(await get(u, '/api/v1/age-ratings')).toEqual(['10']);
  });

  it('a label-excluded user does not see the values of labelled series; label case does not matter', async () => {
    const u = users.labelExcluded;
    expect(await content(u, '/api/v2/genres')).toEqual(['Action', 'Comedy', 'Émotion', 'Horror']);
    expect(await content(u, '/api/v2/sharing-labels')).toEqual(['kids']);
    expect(await content(u, `/api/v2/tags?readlist_id=${ids.readList}`)).toEqual(['cape', 'hero']);
    expect((await content<{ name: string }>(u, '/api/v2/authors', 'PageAuthorDto')).map((a) => a.name)).not.toContain(
      'Secret Writer',
    );
    expect(await get(u, '/api/v1/publishers')).toEqual(['DC', 'Mature Press', 'Other Pub']);
  });

  it('a label-allowed user sees the labelled series only', async () => {
    const u = users.labelAllowed;
    expect(await content(u, '/api/v2/genres')).toEqual(['Action', 'Émotion']);
    expect(await content(u, '/api/v2/sharing-labels')).toEqual(['kids']);
  });

  it('a user shared no library sees nothing', async () => {
    expect(await content(users.none, '/api/v2/genres')).toEqual([]);
    expect(await get(users.none, '/api/v1/authors')).toEqual([]);
    expect(await get(users.none, '/api/v1/age-ratings')).toEqual([]);
  });
});

import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';

/**
 * A library with known metadata for the browse tests, written straight into SQLite (no files: lists only read
 * rows), and the users of the restriction matrix.
 */

export interface BookSpec {
  name: string;
  title?: string;
  numberSort?: number;
  releaseDate?: string | null;
  authors?: [name: string, role: string][];
  tags?: string[];
  isbn?: string;
  summary?: string;
  status?: string;
  mediaType?: string;
  pages?: number;
  comment?: string;
  deleted?: boolean;
  created?: string;
  lastModified?: string;
  fileSize?: number;
  fileHash?: string;
  posters?: { type: string; selected: boolean }[];
}

export interface SeriesSpec {
  key: string;
  library: 'A' | 'B';
  title: string;
  titleSort?: string;
  ageRating?: number | null;
  labels?: string[];
  publisher?: string;
  language?: string;
  status?: string;
  readingDirection?: string | null;
  genres?: string[];
  tags?: string[];
  totalBookCount?: number | null;
  alternateTitles?: [label: string, title: string][];
  summary?: string;
  oneshot?: boolean;
  deleted?: boolean;
  created: string;
  lastModified?: string;
  books: BookSpec[];
}

const T = (day: number) => new Date(Date.UTC(2024, 0, day)).toISOString();

/** The series of every browse test. Days are creation days in January 2024. */
export const SERIES: SeriesSpec[] = [
  {
    key: 'batman',
    library: 'A',
    title: 'Batman: Year One',
    ageRating: 12,
    publisher: 'DC Comics',
    language: 'en',
    status: 'ENDED',
    readingDirection: 'LEFT_TO_RIGHT',
    genres: ['Superhero'],
    tags: ['dark'],
    totalBookCount: 4,
    summary: 'Gotham city in its darkest year.',
    created: T(1),
    lastModified: T(20),
    books: [
      {
        name: 'Batman 01',
        numberSort: 1,
        releaseDate: '1987-02-01',
        authors: [
          ['Frank Miller', 'writer'],
          ['David Mazzucchelli', 'penciller'],
        ],
        tags: ['noir'],
        isbn: '9781401207526',
        pages: 24,
        created: T(1),
        posters: [{ type: 'GENERATED', selected: true }],
      },
      {
        name: 'Batman 02',
        numberSort: 2,
        releaseDate: '1987-03-01',
        authors: [['Frank Miller', 'writer']],
        tags: ['noir', 'crime'],
        pages: 30,
        created: T(2),
        fileSize: 300,
        posters: [
          { type: 'GENERATED', selected: false },
          { type: 'USER_UPLOADED', selected: true },
        ],
      },
      {
        name: 'Batman 03',
        numberSort: 3,
        releaseDate: '1987-04-01',
        authors: [['Frank Miller', 'writer']],
        pages: 28,
        created: T(3),
        fileSize: 100,
        summary: 'The commissioner falls.',
      },
      {
        name: 'Batman 04',
        numberSort: 4,
        releaseDate: null,
        title: 'Finale',
        pages: 26,
        created: T(4),
        fileSize: 200,
        status: 'ERROR',
        comment: 'ERR_1005',
      },
    ],
  },
  {
    key: 'elodie',
    library: 'A',
    title: 'Élodie et les étoiles',
    ageRating: null,
    labels: ['kids'],
    publisher: 'Dargaud',
    language: 'fr',
    status: 'ONGOING',
    readingDirection: null,
    genres: ['Fantasy'],
    tags: ['Kids'],
    totalBookCount: 10,
    created: T(5),
    books: [
      {
        name: 'Élodie 1',
        numberSort: 1,
        releaseDate: '2021-06-15',
        authors: [['Zoé Dupont', 'writer']],
        mediaType: 'application/epub+zip',
        created: T(5),
      },
      {
        name: 'Élodie 2',
        numberSort: 2,
        releaseDate: '2022-06-15',
        authors: [
          ['Zoé Dupont', 'writer'],
          ['Zoé Dupont', 'colorist'],
        ],
        mediaType: 'application/epub+zip',
        created: T(6),
      },
    ],
  },
  {
    key: 'titan',
    library: 'B',
    title: '進撃の巨人',
    ageRating: 16,
    labels: ['gore'],
    publisher: 'Kodansha',
    language: 'ja',
    status: 'ENDED',
    readingDirection: 'RIGHT_TO_LEFT',
    genres: ['Action', 'Horror'],
    tags: ['titans'],
    alternateTitles: [['en', 'Attack on Titan']],
    created: T(7),
    lastModified: T(7),
    books: [
      {
        name: 'Titan 1',
        numberSort: 1,
        releaseDate: '2010-03-17',
        authors: [['Hajime Isayama', 'writer']],
        created: T(7),
      },
      {
        name: 'Titan 2',
        numberSort: 2,
        releaseDate: '2010-07-16',
        authors: [['Hajime Isayama', 'writer']],
        created: T(8),
      },
      { name: 'Titan 2.5', numberSort: 2.5, releaseDate: '2010-12-09', created: T(9), mediaType: 'application/pdf' },
    ],
  },
  {
    key: 'xmen',
    library: 'A',
    title: 'X-Men',
    ageRating: 18,
    labels: ['gore'],
    publisher: 'Marvel',
    language: 'en',
    status: 'HIATUS',
    tags: ['mutants'],
    totalBookCount: 3,
    created: T(10),
    lastModified: T(15),
    books: [
      {
        name: 'X-Men 1',
        numberSort: 1,
        releaseDate: '1991-10-01',
        authors: [
          ['Chris Claremont', 'writer'],
          ['Jim Lee', 'penciller'],
        ],
        tags: ['mutants'],
        created: T(10),
      },
      {
        name: 'X-Men 2',
        numberSort: 2,
        releaseDate: '1991-11-01',
        authors: [['Chris Claremont', 'writer']],
        created: T(11),
      },
    ],
  },
  {
    key: 'acrobat',
    library: 'B',
    title: 'acrobat tales',
    ageRating: 6,
    labels: ['kids'],
    publisher: 'marvel',
    language: 'EN',
    status: 'ABANDONED',
    oneshot: true,
    created: T(12),
    books: [
      {
        name: 'acrobat tales',
        numberSort: 1,
        releaseDate: '2020-01-01',
        tags: ['circus'],
        created: T(12),
        status: 'UNKNOWN',
      },
    ],
  },
  {
    key: 'zombie',
    library: 'A',
    title: 'Zombie Days',
    ageRating: null,
    publisher: '',
    language: '',
    status: 'ONGOING',
    summary: 'A bad year for the living.',
    deleted: true,
    created: T(13),
    books: [
      { name: 'Zombie 1', numberSort: 1, releaseDate: '2015-10-31', deleted: true, created: T(13), status: 'OUTDATED' },
    ],
  },
];

export interface Fixture {
  s: TestServer;
  db: Db;
  libraries: { A: string; B: string };
  series: Record<string, string>;
  /** `seriesKey/bookName` → id. */
  books: Record<string, string>;
  collections: { ordered: string; unordered: string; hidden: string };
  readLists: { ordered: string; unordered: string };
  users: Record<'admin' | 'libA' | 'allowUnder12' | 'excludeOver16' | 'allowKids' | 'excludeGore', string>;
}

/** Starts a server, claims it, writes the SERIES, users, progress, a collection and read lists. */
export async function buildFixture(): Promise<Fixture> {
  const s = await startServer();
  const admin = (await claim(s)).authorization;
  const db = s.app.deps.db;
  const now = new Date().toISOString();
  const libraries = { A: newId(), B: newId() };
  for (const [key, id] of Object.entries(libraries)) {
    await db
      .insertInto('library')
      .values({
        id,
        name: `Library ${key}`,
        root: pathToFileURL(`/data/${key}`).href,
        created_date: now,
        last_modified_date: now,
      })
      .execute();
  }
  const series: Record<string, string> = {};
  const books: Record<string, string> = {};
  for (const spec of SERIES) {
    const id = newId();
    series[spec.key] = id;
    const libraryId = libraries[spec.library];
    const folder = `/data/${spec.library}/${spec.key}`;
    await db
      .insertInto('series')
      .values({
        id,
        library_id: libraryId,
        name: spec.key,
        url: `${pathToFileURL(folder).href}/`,
        file_last_modified: spec.created,
        created_date: spec.created,
        last_modified_date: spec.lastModified ?? spec.created,
        book_count: spec.books.length,
        oneshot: spec.oneshot ? 1 : 0,
        deleted_date: spec.deleted ? now : null,
      })
      .execute();
    await db
      .insertInto('series_metadata')
      .values({
        series_id: id,
        title: spec.title,
        title_sort: spec.titleSort ?? spec.title,
        status: spec.status ?? 'ONGOING',
        summary: spec.summary ?? '',
        reading_direction: spec.readingDirection ?? null,
        publisher: spec.publisher ?? '',
        age_rating: spec.ageRating ?? null,
        language: spec.language ?? '',
        total_book_count: spec.totalBookCount ?? null,
        created_date: spec.created,
        last_modified_date: spec.created,
      })
      .execute();
    const side = async (
      table: 'series_metadata_genre' | 'series_metadata_tag' | 'series_metadata_sharing',
      column: string,
      values: string[] = [],
    ) => {
      for (const [position, value] of values.entries()) {
        await db
          .insertInto(table)
          .values({ series_id: id, position, [column]: value } as never)
          .execute();
      }
    };
    await side('series_metadata_genre', 'genre', spec.genres);
    await side('series_metadata_tag', 'tag', spec.tags);
    await side('series_metadata_sharing', 'label', spec.labels);
    for (const [position, [label, title]] of (spec.alternateTitles ?? []).entries()) {
      await db
        .insertInto('series_metadata_alternate_title')
        .values({ series_id: id, position, label, title })
        .execute();
    }
    const dates: string[] = [];
    const authors = new Map<string, { name: string; role: string }>();
    const tags = new Set<string>();
    for (const [i, b] of spec.books.entries()) {
      const bookId = newId();
      books[`${spec.key}/${b.name}`] = bookId;
      await db
        .insertInto('book')
        .values({
          id: bookId,
          series_id: id,
          library_id: libraryId,
          name: b.name,
          url: pathToFileURL(`${folder}/${b.name}.cbz`).href,
          number: i + 1,
          file_last_modified: b.created ?? spec.created,
          file_size: b.fileSize ?? 1000 + i,
          file_hash: b.fileHash ?? '',
          oneshot: spec.oneshot ? 1 : 0,
          deleted_date: b.deleted ? now : null,
          created_date: b.created ?? spec.created,
          last_modified_date: b.lastModified ?? b.created ?? spec.created,
        })
        .execute();
      await db
        .insertInto('book_metadata')
        .values({
          book_id: bookId,
          title: b.title ?? b.name,
          summary: b.summary ?? '',
          number: String(b.numberSort ?? i + 1),
          number_sort: b.numberSort ?? i + 1,
          release_date: b.releaseDate ?? null,
          isbn: b.isbn ?? '',
          created_date: b.created ?? spec.created,
          last_modified_date: b.created ?? spec.created,
        })
        .execute();
      await db
        .insertInto('media')
        .values({
          book_id: bookId,
          status: b.status ?? 'READY',
          media_type: b.status === 'UNKNOWN' ? null : (b.mediaType ?? 'application/zip'),
          comment: b.comment ?? '',
          page_count: b.pages ?? 20,
          created_date: now,
          last_modified_date: now,
        })
        .execute();
      for (const [position, [name, role]] of (b.authors ?? []).entries()) {
        await db.insertInto('book_metadata_author').values({ book_id: bookId, position, name, role }).execute();
        authors.set(`${name}/${role}`, { name, role });
      }
      for (const [position, tag] of (b.tags ?? []).entries()) {
        await db.insertInto('book_metadata_tag').values({ book_id: bookId, position, tag }).execute();
        tags.add(tag);
      }
      for (const p of b.posters ?? []) {
        await db
          .insertInto('thumbnail_book')
          .values({
            id: newId(),
            book_id: bookId,
            type: p.type,
            url: null,
            selected: p.selected ? 1 : 0,
            media_type: 'image/jpeg',
            created_date: now,
            last_modified_date: now,
          })
          .execute();
      }
      if (b.releaseDate) dates.push(b.releaseDate);
    }
    await db
      .insertInto('book_metadata_aggregation')
      .values({ series_id: id, release_date: dates.sort()[0] ?? null, created_date: now, last_modified_date: now })
      .execute();
    for (const a of authors.values())
      await db
        .insertInto('book_metadata_aggregation_author')
        .values({ series_id: id, ...a })
        .execute();
    for (const tag of tags)
      await db.insertInto('book_metadata_aggregation_tag').values({ series_id: id, tag }).execute();
  }

  const users = { admin } as Fixture['users'];
  const create = async (key: keyof Fixture['users'], body: Record<string, unknown>) => {
    const email = `${key.toLowerCase()}@example.org`;
    const res = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: admin },
      json: { email, password: 'reader-secret', ...body },
    });
    expect(res.status).toBe(201);
    users[key] = basic(email, 'reader-secret');
  };
  await create('libA', { sharedLibraries: { all: false, libraryIds: [libraries.A] } });
  await create('allowUnder12', { ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' } });
  await create('excludeOver16', { ageRestriction: { age: 16, restriction: 'EXCLUDE' } });
  await create('allowKids', { labelsAllow: ['kids'] });
  await create('excludeGore', { labelsExclude: ['GORE'] });

  // Everyone read Batman 01 (day 21) and Titan 1 (day 24); the admin also read Batman 02 (day 22) and both X-Men
  // (days 18-19), and is reading Élodie 1 (day 23). On deck: Titan 2 then Batman 03 for the admin, Titan 2 then
  // Batman 02 for the others (what each may see of it).
  const progress = async (email: string, key: string, page: number, completed: boolean, readDate: string) => {
    const user = await db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await db
      .insertInto('read_progress')
      .values({
        book_id: books[key]!,
        user_id: user.id,
        page,
        completed: completed ? 1 : 0,
        read_date: readDate,
        created_date: readDate,
        last_modified_date: readDate,
      })
      .execute();
  };
  for (const key of Object.keys(users)) {
    const email = key === 'admin' ? 'admin@example.org' : `${key.toLowerCase()}@example.org`;
    await progress(email, 'batman/Batman 01', 24, true, T(21));
    await progress(email, 'titan/Titan 1', 20, true, T(24));
  }
  await progress('admin@example.org', 'batman/Batman 02', 30, true, T(22));
  await progress('admin@example.org', 'elodie/Élodie 1', 3, false, T(23));
  await progress('admin@example.org', 'xmen/X-Men 1', 20, true, T(18));
  await progress('admin@example.org', 'xmen/X-Men 2', 20, true, T(19));

  const collection = async (name: string, ordered: boolean, members: string[]) => {
    const id = newId();
    await db
      .insertInto('collection')
      .values({ id, name, ordered: ordered ? 1 : 0, created_date: now, last_modified_date: now })
      .execute();
    for (const [number, key] of members.entries()) {
      await db.insertInto('collection_series').values({ collection_id: id, series_id: series[key]!, number }).execute();
    }
    return id;
  };
  const collections = {
    ordered: await collection('Ordered', true, ['xmen', 'titan', 'batman', 'elodie']),
    unordered: await collection('Unordered', false, ['xmen', 'titan', 'batman', 'elodie']),
    hidden: await collection('Gore only', false, ['xmen', 'titan']),
  };
  const readList = async (name: string, ordered: boolean, members: string[]) => {
    const id = newId();
    await db
      .insertInto('readlist')
      .values({ id, name, ordered: ordered ? 1 : 0, created_date: now, last_modified_date: now })
      .execute();
    for (const [number, key] of members.entries()) {
      await db.insertInto('readlist_book').values({ readlist_id: id, book_id: books[key]!, number }).execute();
    }
    return id;
  };
  const members = ['xmen/X-Men 2', 'batman/Batman 01', 'titan/Titan 1', 'elodie/Élodie 1', 'batman/Batman 04'];
  const readLists = {
    ordered: await readList('Crossover', true, members),
    unordered: await readList('By date', false, members),
  };
  return { s, db, libraries, series, books, collections, readLists, users };
}

export interface PageBody<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  number: number;
  size: number;
  numberOfElements: number;
  first: boolean;
  last: boolean;
  empty: boolean;
  pageable: {
    pageNumber: number;
    pageSize: number;
    offset: number;
    paged: boolean;
    unpaged: boolean;
    sort: Record<string, boolean>;
  };
  sort: { empty: boolean; sorted: boolean; unsorted: boolean };
}
export interface SeriesBody {
  id: string;
  metadata: { title: string; titleSort: string };
  booksCount: number;
  booksReadCount: number;
  booksUnreadCount: number;
  booksInProgressCount: number;
}
export interface BookBody {
  id: string;
  name: string;
  seriesId: string;
  metadata: { title: string; numberSort: number };
  readProgress: unknown;
}

/**
 * Komga serialises nulls (api.md §1.2: `ageRating`, `totalBookCount`, `releaseDate`, `readProgress`…) but its
 * OpenAPI document does not mark those properties nullable: they are left out before the schema check.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value;
}

/** GET or POST with the given credentials; JSON answers are checked against Komga's schema. */
export function client(f: Fixture) {
  const call = async (authorization: string, method: 'GET' | 'POST', path: string, json?: unknown) => {
    const res = await f.s.fetch(path, { method, headers: { authorization }, json });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  return {
    call,
    async seriesPage(authorization: string, path: string, json?: unknown) {
      const r = await call(authorization, json === undefined ? 'GET' : 'POST', path, json);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expectSchema('PageSeriesDto', withoutNulls(r.body));
      return r.body as PageBody<SeriesBody>;
    },
    async bookPage(authorization: string, path: string, json?: unknown) {
      const r = await call(authorization, json === undefined ? 'GET' : 'POST', path, json);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expectSchema('PageBookDto', withoutNulls(r.body));
      return r.body as PageBody<BookBody>;
    },
  };
}

/** Series keys of a page, in order. */
export const seriesKeys = (f: Fixture, page: PageBody<SeriesBody>) =>
  page.content.map((x) => Object.entries(f.series).find(([, id]) => id === x.id)?.[0] ?? x.id);
/** `seriesKey/bookName` of a page, in order. */
export const bookKeys = (f: Fixture, page: PageBody<BookBody>) =>
  page.content.map((x) => Object.entries(f.books).find(([, id]) => id === x.id)?.[0] ?? x.id);

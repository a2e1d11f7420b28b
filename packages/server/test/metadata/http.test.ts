import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, QuireEvent, SeriesDto } from '@quire/api';
import { fixture } from '../support/fixtures.js';
import { buildLibrary, makeImage, zipBuffer } from '../support/library-builder.js';
import { expectSchema } from '../support/openapi.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { barcodePage } from './ean13.js';

/**
 * Metadata through the real server: a generated library whose CBZs carry ComicInfo.xml, an EPUB and a Mylar
 * series.json is scanned and analysed by the task queue; metadata is read back with GET /books and GET /series,
 * edited with the PATCH endpoints and refreshed with the refresh endpoints.
 */

const comicInfo = (fields: Record<string, string | number>) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<ComicInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n${Object.entries(
    fields,
  )
    .map(([k, v]) => `  <${k}>${v}</${k}>`)
    .join('\n')}\n</ComicInfo>`;

const SAGA_1 = comicInfo({
  Title: 'Chapter One',
  Series: 'Saga',
  Number: 1,
  Volume: 2,
  Summary: 'First summary',
  Year: 2012,
  Month: 3,
  Day: 14,
  Writer: 'Brian K. Vaughan',
  Penciller: 'Fiona Staples',
  Tags: 'Space, Drama',
  Web: 'https://example.org/saga/1',
  GTIN: '978-0-553-89784-5',
  Publisher: 'Image',
  Genre: 'Science Fiction, Fantasy',
  AgeRating: 'Mature 17+',
  LanguageISO: 'en',
  Manga: 'No',
  Count: 54,
  SeriesGroup: 'Image Favourites',
  StoryArc: 'Arc One',
  StoryArcNumber: 1,
});
// April has no 31st: only the release date is left out, the rest of the file counts.
const SAGA_2 = comicInfo({
  Title: 'Chapter Two',
  Series: 'Saga',
  Number: 2,
  Volume: 2,
  Year: 2012,
  Month: 4,
  Day: 31,
  Writer: 'Brian K. Vaughan',
  Colorist: 'Fiona Staples',
  Tags: 'drama, war',
  Publisher: 'Image',
  Genre: 'Romance',
  AgeRating: 'Teen',
  Count: 60,
});

let s: TestServer;
let dir: string;
let admin: string;
let reader: string;
const ids = { saga: '', saga1: '', saga2: '', novel: '', novelSeries: '', mylar: '' };
const events: QuireEvent[] = [];

const api = (path: string, init: RequestInit & { json?: unknown } = {}, authorization = admin) =>
  s.fetch(path, { ...init, headers: { authorization, ...(init.headers as Record<string, string>) } });
const get = async <T>(path: string): Promise<T> => {
  const res = await api(path);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};
const book = (id: string) => get<BookDto>(`/api/v1/books/${id}`);
const series = (id: string) => get<SeriesDto>(`/api/v1/series/${id}`);
const patch = (path: string, json: unknown, authorization = admin) =>
  api(path, { method: 'PATCH', json }, authorization);

/**
 * komga-openapi.json does not mark nullable fields (releaseDate, ageRating, readProgress…): nulls are left out
 * before a body is checked against it.
 */
const withoutNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  return value;
};

/** Waits until every queued task (scan, analysis, refreshes, aggregation…) has run. */
async function settled(timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < 3) {
    quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
    if (Date.now() > until) throw new Error('Timed out waiting for the task queue');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function refreshBook(id: string) {
  const res = await api(`/api/v1/books/${id}/metadata/refresh`, { method: 'POST' });
  expect(res.status).toBe(202);
  await settled();
}
async function refreshSeries(id: string) {
  const res = await api(`/api/v1/series/${id}/metadata/refresh`, { method: 'POST' });
  expect(res.status).toBe(202);
  await settled();
}

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  s.app.deps.events.subscribe((e) => void events.push(e));
  dir = await mkdtemp(join(tmpdir(), 'quire-metadata-'));
  await buildLibrary(dir, {
    'Saga/Saga 01.cbz': { comicInfo: SAGA_1, seed: 1 },
    'Saga/Saga 02.cbz': { comicInfo: SAGA_2, seed: 2 },
    'Vampire/Vampire 01.cbz': { seed: 3 },
  });
  await copyFile(fixture('mylar/series.json'), join(dir, 'Vampire', 'series.json'));
  await mkdir(join(dir, 'Novels'), { recursive: true });
  await copyFile(fixture('epub/TitleWithVolume.epub'), join(dir, 'Novels', 'Accel World 1.epub'));

  const created = await api('/api/v1/libraries', { method: 'POST', json: { name: 'Metadata', root: dir } });
  expect(created.status).toBe(200);
  await settled();

  const all = await s.app.deps.db
    .selectFrom('book')
    .innerJoin('series', 'series.id', 'book.series_id')
    .select(['book.id', 'book.name', 'book.series_id', 'series.name as series_name'])
    .execute();
  const byName = (name: string) => all.find((b) => b.name === name)!;
  ids.saga1 = byName('Saga 01').id;
  ids.saga2 = byName('Saga 02').id;
  ids.saga = byName('Saga 01').series_id;
  ids.novel = byName('Accel World 1').id;
  ids.novelSeries = byName('Accel World 1').series_id;
  ids.mylar = byName('Vampire 01').series_id;

  const user = await api('/api/v2/users', {
    method: 'POST',
    json: { email: 'reader@example.org', password: 'reader-secret' },
  });
  expect(user.status).toBe(201);
  reader = basic('reader@example.org', 'reader-secret');
}, 120_000);

afterAll(async () => {
  await s?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('import from ComicInfo.xml, OPF and series.json', () => {
  it('fills book metadata from ComicInfo.xml', async () => {
    const b = await book(ids.saga1);
    expectSchema('BookDto', withoutNulls(b));
    expect(b.metadata).toMatchObject({
      title: 'Chapter One',
      summary: 'First summary',
      number: '1',
      numberSort: 1,
      releaseDate: '2012-03-14',
      authors: [
        { name: 'Brian K. Vaughan', role: 'writer' },
        { name: 'Fiona Staples', role: 'penciller' },
      ],
      tags: ['drama', 'space'],
      isbn: '9780553897845',
      links: [{ label: 'example.org', url: 'https://example.org/saga/1' }],
      titleLock: false,
      isbnLock: false,
    });
  });

  it('keeps the rest of a ComicInfo.xml whose date is impossible', async () => {
    const b = await book(ids.saga2);
    expect(b.metadata).toMatchObject({
      title: 'Chapter Two',
      number: '2',
      releaseDate: null,
      authors: [
        { name: 'Brian K. Vaughan', role: 'writer' },
        { name: 'Fiona Staples', role: 'colorist' },
      ],
      tags: ['drama', 'war'],
    });
  });

  it('fills series metadata from what its books agree on, and aggregates their metadata', async () => {
    const sr = await series(ids.saga);
    expectSchema('SeriesDto', withoutNulls(sr));
    expect(sr.metadata).toMatchObject({
      title: 'Saga (2)',
      titleSort: 'Saga (2)',
      status: 'ONGOING',
      summary: '',
      readingDirection: 'LEFT_TO_RIGHT',
      publisher: 'Image',
      ageRating: 17,
      language: 'en',
      genres: ['science fiction', 'fantasy', 'romance'],
      totalBookCount: 60,
      tags: [],
    });
    expect(sr.booksMetadata).toMatchObject({
      authors: [
        { name: 'Brian K. Vaughan', role: 'writer' },
        { name: 'Fiona Staples', role: 'penciller' },
        { name: 'Fiona Staples', role: 'colorist' },
      ],
      tags: ['drama', 'space', 'war'],
      releaseDate: '2012-03-14',
      summary: 'First summary',
      summaryNumber: '1',
    });
  });

  it('puts the series in the collections of SeriesGroup and the book in the read lists of its story arcs', async () => {
    const collections = await get<{ content: { name: string; seriesIds: string[] }[] }>(
      '/api/v1/collections?search=Image%20Favourites',
    );
    expect(collections.content).toEqual([expect.objectContaining({ name: 'Image Favourites', seriesIds: [ids.saga] })]);
    const readLists = await get<{ content: { name: string; bookIds: string[] }[] }>(
      '/api/v1/readlists?search=Arc%20One',
    );
    expect(readLists.content).toEqual([expect.objectContaining({ name: 'Arc One', bookIds: [ids.saga1] })]);
  });

  it('reads the OPF of an EPUB, calibre series included', async () => {
    const b = await book(ids.novel);
    expect(b.metadata).toMatchObject({
      title: 'Accel World, Vol 1',
      summary: 'Book Description',
      number: '1',
      numberSort: 1,
      releaseDate: '2021-04-05',
      authors: [
        { name: 'Roger Starbuck', role: 'writer' },
        { name: 'Junya Inoue', role: 'writer' },
      ],
    });
    const sr = await series(ids.novelSeries);
    expect(sr.metadata).toMatchObject({ title: 'Accel World', language: 'en', genres: ['genre1, genre2'] });
  });

  it('reads Mylar series.json beside the books', async () => {
    const sr = await series(ids.mylar);
    expect(sr.metadata).toMatchObject({
      title: 'American Vampire 1976',
      status: 'ONGOING',
      summary: 'Nine issue mini-series, the closing chapter of American Vampire',
      publisher: 'DC Comics',
      ageRating: 18,
      totalBookCount: 9,
    });
  });
});

describe('locks and refresh', () => {
  it('keeps a locked edit through a refresh, and gives the file value back once unlocked', async () => {
    expect((await patch(`/api/v1/books/${ids.saga1}/metadata`, { title: 'My title', titleLock: true })).status).toBe(
      204,
    );
    await refreshBook(ids.saga1);
    expect((await book(ids.saga1)).metadata).toMatchObject({ title: 'My title', titleLock: true });

    expect((await patch(`/api/v1/books/${ids.saga1}/metadata`, { titleLock: false })).status).toBe(204);
    expect((await book(ids.saga1)).metadata).toMatchObject({ title: 'My title', titleLock: false });
    await refreshBook(ids.saga1);
    expect((await book(ids.saga1)).metadata).toMatchObject({ title: 'Chapter One', titleLock: false });
  });

  it('does not lock an edited field by itself (Komga clients send the lock)', async () => {
    expect((await patch(`/api/v1/books/${ids.saga1}/metadata`, { summary: 'Edited' })).status).toBe(204);
    expect((await book(ids.saga1)).metadata).toMatchObject({ summary: 'Edited', summaryLock: false });
    await refreshBook(ids.saga1);
    expect((await book(ids.saga1)).metadata.summary).toBe('First summary');
  });

  it('keeps a locked series field through a series refresh', async () => {
    expect(
      (await patch(`/api/v1/series/${ids.saga}/metadata`, { publisher: 'Mine', publisherLock: true })).status,
    ).toBe(204);
    await refreshSeries(ids.saga);
    expect((await series(ids.saga)).metadata).toMatchObject({ publisher: 'Mine', publisherLock: true });
    expect((await patch(`/api/v1/series/${ids.saga}/metadata`, { publisherLock: false })).status).toBe(204);
    await refreshSeries(ids.saga);
    expect((await series(ids.saga)).metadata).toMatchObject({ publisher: 'Image', publisherLock: false });
  });

  it('queues the refresh tasks of Komga and answers 404 for unknown ids, 403 for non-admins', async () => {
    expect((await api('/api/v1/books/NOPE/metadata/refresh', { method: 'POST' })).status).toBe(404);
    expect((await api('/api/v1/series/NOPE/metadata/refresh', { method: 'POST' })).status).toBe(404);
    expect((await api(`/api/v1/books/${ids.saga1}/metadata/refresh`, { method: 'POST' }, reader)).status).toBe(403);
    expect((await api(`/api/v1/series/${ids.saga}/metadata/refresh`, { method: 'POST' }, reader)).status).toBe(403);
    const library = (await s.app.deps.db.selectFrom('library').select('id').executeTakeFirstOrThrow()).id;
    const res = await api(`/api/v1/libraries/${library}/metadata/refresh`, { method: 'POST' });
    expect(res.status).toBe(202);
    await settled();
    expect((await book(ids.saga1)).metadata.title).toBe('Chapter One');
    expect((await series(ids.mylar)).metadata.title).toBe('American Vampire 1976');
  });
});

describe('PATCH /api/v1/books/{bookId}/metadata', () => {
  it('changes only the fields given, clears with null where Komga does, and tells clients', async () => {
    const before = (await book(ids.saga2)).metadata;
    const seen = events.length;
    const res = await patch(`/api/v1/books/${ids.saga2}/metadata`, {
      number: '2.5',
      numberSort: 2.5,
      numberSortLock: true,
      releaseDate: '2012-04-30',
      authors: [{ name: 'Someone', role: 'Letterer' }],
      tags: ['B', 'a'],
      isbn: '978-0-553-89784-5',
      links: [{ label: 'Shop', url: 'http://shop.example.org/2' }],
      title: null,
    });
    expect(res.status).toBe(204);
    const after = (await book(ids.saga2)).metadata;
    expect(after).toMatchObject({
      title: before.title,
      number: '2.5',
      numberSort: 2.5,
      numberSortLock: true,
      numberLock: false,
      releaseDate: '2012-04-30',
      authors: [{ name: 'Someone', role: 'letterer' }],
      tags: ['a', 'b'],
      isbn: '9780553897845',
      links: [{ label: 'Shop', url: 'http://shop.example.org/2' }],
    });
    expect(events.slice(seen)).toContainEqual({
      type: 'BookChanged',
      data: { bookId: ids.saga2, seriesId: ids.saga, libraryId: expect.any(String) },
    });

    expect(
      (
        await patch(`/api/v1/books/${ids.saga2}/metadata`, {
          releaseDate: null,
          authors: null,
          isbn: null,
          links: null,
        })
      ).status,
    ).toBe(204);
    expect((await book(ids.saga2)).metadata).toMatchObject({ releaseDate: null, authors: [], isbn: '', links: [] });
  });

  it('refreshes the series aggregation after an edit', async () => {
    await patch(`/api/v1/books/${ids.saga1}/metadata`, { summary: null });
    await patch(`/api/v1/books/${ids.saga2}/metadata`, { summary: 'Second summary', summaryLock: true });
    await settled();
    expect((await series(ids.saga)).booksMetadata).toMatchObject({
      summary: 'Second summary',
      summaryNumber: '2.5',
    });
  });

  it('answers 404 for an unknown book and 403 for non-admins', async () => {
    expect((await patch('/api/v1/books/NOPE/metadata', { title: 'x' })).status).toBe(404);
    expect((await patch(`/api/v1/books/${ids.saga1}/metadata`, { title: 'x' }, reader)).status).toBe(403);
  });
});

describe('validation (spec.md §5): 400 with the violations, nothing stored', () => {
  const violations = async (path: string, body: unknown) => {
    const res = await patch(path, body);
    expect(res.status).toBe(400);
    const json = (await res.json()) as { violations: { fieldName: string; message: string }[] };
    expectSchema('ValidationErrorResponse', json);
    return json.violations;
  };
  const bookPath = () => `/api/v1/books/${ids.saga1}/metadata`;
  const seriesPath = () => `/api/v1/series/${ids.saga}/metadata`;

  it('book: ISBN-13 with a valid check digit', async () => {
    for (const isbn of ['9780553897846', '0553897845', '978055389784', 'abc'])
      expect(await violations(bookPath(), { isbn })).toEqual([
        { fieldName: 'isbn', message: 'Must be null or blank or valid ISBN-13' },
      ]);
    expect((await patch(bookPath(), { isbn: ' ' })).status).toBe(204);
    expect((await book(ids.saga1)).metadata.isbn).toBe('');
  });

  it('book: link URLs are http(s) URLs; labels not blank and not repeated', async () => {
    expect(
      await violations(bookPath(), {
        links: [
          { label: 'a', url: 'ftp://example.org/file' },
          { label: 'b', url: 'not a url' },
          { label: ' ', url: 'https://example.org' },
          { label: 'a', url: 'https://example.org/again' },
        ],
      }),
    ).toEqual([
      { fieldName: 'links[0].url', message: 'must be an http or https URL' },
      { fieldName: 'links[1].url', message: 'must be a valid URL' },
      { fieldName: 'links[2].label', message: 'must not be blank' },
      { fieldName: 'links[3].label', message: 'already exists' },
    ]);
  });

  it('book: release dates are real days written YYYY-MM-DD', async () => {
    for (const releaseDate of ['2021-02-30', '12/03/2021', '2021-3-4', '2021-03-04T00:00:00Z'])
      expect(await violations(bookPath(), { releaseDate })).toEqual([
        { fieldName: 'releaseDate', message: 'must be a valid date in YYYY-MM-DD format' },
      ]);
  });

  it('book: an author and role pair given twice; blank names and roles; blank title and number', async () => {
    expect(
      await violations(bookPath(), {
        title: '  ',
        number: '',
        authors: [
          { name: 'A', role: 'writer' },
          { name: 'A', role: 'Writer ' },
          { name: 'A', role: 'penciller' },
          { name: '', role: 'inker' },
          { name: 'B', role: ' ' },
        ],
      }),
    ).toEqual([
      { fieldName: 'title', message: 'Must be null or not blank' },
      { fieldName: 'number', message: 'Must be null or not blank' },
      { fieldName: 'authors[1]', message: 'already exists' },
      { fieldName: 'authors[3].name', message: 'must not be blank' },
      { fieldName: 'authors[4].role', message: 'must not be blank' },
    ]);
  });

  it('book: the same author and role differing only in case, accents or spacing is refused, and nothing changes', async () => {
    const before = (await get<BookDto>(`/api/v1/books/${ids.saga1}`)).metadata;
    expect(
      await violations(bookPath(), {
        authors: [
          { name: 'Frank Miller', role: 'writer' },
          { name: 'frank  miller', role: 'Writer' },
          { name: 'Zoé Dupont', role: 'colorist' },
          { name: 'Zoe DUPONT', role: 'colorist' },
          { name: 'Frank Miller', role: 'penciller' },
        ],
        links: [
          { label: 'Wiki', url: 'https://a.example' },
          { label: 'wiki ', url: 'https://b.example' },
        ],
      }),
    ).toEqual([
      { fieldName: 'authors[1]', message: 'already exists' },
      { fieldName: 'authors[3]', message: 'already exists' },
      { fieldName: 'links[1].label', message: 'already exists' },
    ]);
    const after = (await get<BookDto>(`/api/v1/books/${ids.saga1}`)).metadata;
    expect({ authors: after.authors, links: after.links }).toEqual({ authors: before.authors, links: before.links });
  });

  it('series: age rating ≥ 0, total book count ≥ 1, a BCP 47 language, unique link labels', async () => {
    expect(
      await violations(seriesPath(), {
        ageRating: -1,
        totalBookCount: 0,
        language: 'japanese',
        title: '',
        links: [
          { label: 'x', url: 'https://a.example' },
          { label: 'x', url: 'https://b.example' },
        ],
        alternateTitles: [{ label: 'jp', title: ' ' }],
      }),
    ).toEqual([
      { fieldName: 'title', message: 'Must be null or not blank' },
      { fieldName: 'ageRating', message: 'must be greater than or equal to 0' },
      { fieldName: 'language', message: 'Must be null or blank or valid BCP 47 language tag' },
      { fieldName: 'totalBookCount', message: 'must be greater than 0' },
      { fieldName: 'links[1].label', message: 'already exists' },
      { fieldName: 'alternateTitles[0].title', message: 'must not be blank' },
    ]);
  });

  it('refuses values of the wrong type or outside an enum', async () => {
    const res = await patch(seriesPath(), { readingDirection: 'SIDEWAYS' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { violations: unknown[] }).violations).toEqual([
      expect.objectContaining({ fieldName: 'readingDirection' }),
    ]);
    expect((await patch(bookPath(), { authors: [{ name: 'x' }] })).status).toBe(400);
  });

  it('stores nothing when a body is refused', async () => {
    const before = await series(ids.saga);
    await violations(seriesPath(), { publisher: 'Changed', ageRating: -3 });
    expect((await series(ids.saga)).metadata.publisher).toBe(before.metadata.publisher);
  });
});

describe('PATCH /api/v1/series/{seriesId}/metadata', () => {
  it('sets, clears and locks series fields; the language is stored canonical', async () => {
    const res = await patch(`/api/v1/series/${ids.saga}/metadata`, {
      status: 'hiatus',
      statusLock: true,
      summary: 'Space opera',
      language: 'en-gb',
      readingDirection: 'WEBTOON',
      ageRating: 0,
      totalBookCount: 12,
      totalBookCountLock: true,
      tags: ['Favourite', 'favourite '],
      sharingLabels: ['Kids'],
      links: [{ label: 'Home', url: 'https://saga.example' }],
      alternateTitles: [{ label: 'fr', title: 'La Saga' }],
    });
    expect(res.status).toBe(204);
    const sr = await series(ids.saga);
    expectSchema('SeriesDto', withoutNulls(sr));
    expect(sr.metadata).toMatchObject({
      status: 'HIATUS',
      statusLock: true,
      summary: 'Space opera',
      language: 'en-GB',
      readingDirection: 'WEBTOON',
      ageRating: 0,
      totalBookCount: 12,
      totalBookCountLock: true,
      tags: ['favourite'],
      sharingLabels: ['kids'],
      links: [{ label: 'Home', url: 'https://saga.example' }],
      alternateTitles: [{ label: 'fr', title: 'La Saga' }],
    });

    await refreshSeries(ids.saga);
    expect((await series(ids.saga)).metadata).toMatchObject({ status: 'HIATUS', totalBookCount: 12 });

    expect(
      (
        await patch(`/api/v1/series/${ids.saga}/metadata`, {
          status: null,
          summary: null,
          ageRating: null,
          totalBookCount: null,
          readingDirection: null,
          tags: null,
          links: null,
          alternateTitles: null,
        })
      ).status,
    ).toBe(204);
    expect((await series(ids.saga)).metadata).toMatchObject({
      status: 'HIATUS',
      summary: 'Space opera',
      ageRating: null,
      totalBookCount: null,
      readingDirection: '',
      tags: [],
      links: [],
      alternateTitles: [],
    });
  });

  it('answers 404 for an unknown series and 403 for non-admins', async () => {
    expect((await patch('/api/v1/series/NOPE/metadata', { title: 'x' })).status).toBe(404);
    expect((await patch(`/api/v1/series/${ids.saga}/metadata`, { title: 'x' }, reader)).status).toBe(403);
  });
});

describe('PATCH /api/v1/books/metadata (batch)', () => {
  it('updates every known book, skips unknown ids', async () => {
    const res = await patch('/api/v1/books/metadata', {
      [ids.saga1]: { number: '10', numberLock: true },
      [ids.saga2]: { number: '11', releaseDate: '2013-01-01' },
      UNKNOWN: { title: 'ignored' },
    });
    expect(res.status).toBe(204);
    expect((await book(ids.saga1)).metadata).toMatchObject({ number: '10', numberLock: true });
    expect((await book(ids.saga2)).metadata).toMatchObject({ number: '11', releaseDate: '2013-01-01' });
  });

  it('refuses the whole batch when one update is invalid, naming the book', async () => {
    const res = await patch('/api/v1/books/metadata', {
      [ids.saga1]: { number: '20' },
      [ids.saga2]: { isbn: '123' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      violations: [{ fieldName: `${ids.saga2}.isbn`, message: 'Must be null or blank or valid ISBN-13' }],
    });
    expect((await book(ids.saga1)).metadata.number).toBe('10');
  });

  it('is for admins only', async () => {
    expect((await patch('/api/v1/books/metadata', { [ids.saga1]: { number: '3' } }, reader)).status).toBe(403);
  });
});

describe('barcode ISBN (library option importBarcodeIsbn)', () => {
  it('reads the ISBN printed as an EAN-13 barcode on the last page', async () => {
    const root = await mkdtemp(join(tmpdir(), 'quire-barcode-'));
    try {
      const cbz = zipBuffer([
        { name: '001.jpg', data: await makeImage('jpeg', 7) },
        { name: '002.jpg', data: await makeImage('jpeg', 8) },
        { name: '003.png', data: await barcodePage('9791032305690') },
      ]);
      await mkdir(join(root, 'Barcoded'), { recursive: true });
      await writeFile(join(root, 'Barcoded', 'Barcoded 01.cbz'), cbz);
      const res = await api('/api/v1/libraries', {
        method: 'POST',
        json: { name: 'Barcodes', root, importBarcodeIsbn: true },
      });
      expect(res.status).toBe(200);
      await settled();
      const row = await s.app.deps.db
        .selectFrom('book')
        .select('id')
        .where('name', '=', 'Barcoded 01')
        .executeTakeFirstOrThrow();
      expect((await book(row.id)).metadata.isbn).toBe('9791032305690');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

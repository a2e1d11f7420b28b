import { Uint8ArrayReader, ZipReader } from '@zip.js/zip.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSchema } from '../support/openapi.js';
import { buildWorld, expectColour, json, pixel, posterForm, status, type World } from './world.js';

interface ReadListDto {
  id: string;
  name: string;
  summary: string;
  ordered: boolean;
  bookIds: string[];
  createdDate: string;
  lastModifiedDate: string;
  filtered: boolean;
}
interface Page<T> {
  content: T[];
  totalElements: number;
}

let w: World;
beforeAll(async () => {
  w = await buildWorld();
}, 60_000);
afterAll(() => w.close());

const create = (body: Record<string, unknown>, who = w.users.admin) =>
  w.as(who, '/api/v1/readlists', { method: 'POST', json: body });
const get = (id: string, who = w.users.admin) => w.as(who, `/api/v1/readlists/${id}`);
const patch = (id: string, body: Record<string, unknown>, who = w.users.admin) =>
  w.as(who, `/api/v1/readlists/${id}`, { method: 'PATCH', json: body });
const list = (query = '', who = w.users.admin) => json<Page<ReadListDto>>(w.as(who, `/api/v1/readlists${query}`));

describe('POST /api/v1/readlists', () => {
  it('creates an ordered read list with an empty summary by default, and announces it', async () => {
    w.events.length = 0;
    const r = await json<ReadListDto>(create({ name: 'Crossover', bookIds: [w.books.b1, w.books.a1] }));
    expectSchema('ReadListDto', r);
    expect(r).toMatchObject({
      name: 'Crossover',
      summary: '',
      ordered: true,
      bookIds: [w.books.b1, w.books.a1],
      filtered: false,
    });
    expect(w.events).toContainEqual({
      type: 'ReadListAdded',
      data: { readListId: r.id, bookIds: [w.books.b1, w.books.a1] },
    });
  });

  it('rejects an existing name, whatever its case, with ERR_1009', async () => {
    await json(create({ name: 'Event', summary: 'x', ordered: true, bookIds: [w.books.a1] }));
    const res = await json<{ message: string }>(create({ name: 'EVENT', bookIds: [w.books.b1] }), 400);
    expect(res.message).toBe('ERR_1009');
  });

  it('validates the body and is for administrators only', async () => {
    expect(await status(create({ name: ' ', bookIds: [w.books.a1] }))).toBe(400);
    expect(await status(create({ name: 'No books', bookIds: [] }))).toBe(400);
    expect(await status(create({ name: 'Twice', bookIds: [w.books.a1, w.books.a1] }))).toBe(400);
    expect(await status(create({ name: 'Mine', bookIds: [w.books.a1] }, w.users.reader))).toBe(403);
  });
});

describe('order and members', () => {
  let id = '';
  beforeAll(async () => {
    id = (
      await json<ReadListDto>(
        create({
          name: 'Chronology',
          summary: 'All of it',
          ordered: false,
          bookIds: [w.books.b2, w.books.a1, w.books.c1, w.books.b1, w.books.a2],
        }),
      )
    ).id;
  });

  it('orders an unordered read list by release date (undated first), an ordered one as stored', async () => {
    expect((await json<ReadListDto>(get(id))).bookIds).toEqual([
      w.books.c1,
      w.books.a2,
      w.books.b1,
      w.books.a1,
      w.books.b2,
    ]);
    expect(await status(patch(id, { ordered: true }))).toBe(204);
    expect((await json<ReadListDto>(get(id))).bookIds).toEqual([
      w.books.b2,
      w.books.a1,
      w.books.c1,
      w.books.b1,
      w.books.a2,
    ]);
  });

  it('adds, removes and reorders books through PATCH bookIds and updates name and summary', async () => {
    w.events.length = 0;
    expect(
      await status(patch(id, { bookIds: [w.books.m1, w.books.a2, w.books.a1], name: 'Chrono', summary: 'Less' })),
    ).toBe(204);
    const r = await json<ReadListDto>(get(id));
    expect(r).toMatchObject({ name: 'Chrono', summary: 'Less', bookIds: [w.books.m1, w.books.a2, w.books.a1] });
    expect(w.events).toContainEqual({
      type: 'ReadListChanged',
      data: { readListId: id, bookIds: [w.books.m1, w.books.a2, w.books.a1] },
    });
    await json(create({ name: 'Elsewhere', bookIds: [w.books.a1] }));
    expect((await json<{ message: string }>(patch(id, { name: 'elsewhere' }), 400)).message).toBe('ERR_1009');
    expect(await status(patch(id, { name: 'CHRONO' }))).toBe(204);
  });

  it('GET /api/v1/books/{id}/readlists lists the visible read lists holding the book', async () => {
    const lists = await json<ReadListDto[]>(w.as(w.users.reader, `/api/v1/books/${w.books.a2}/readlists`));
    for (const r of lists) expectSchema('ReadListDto', r);
    expect(lists.map((r) => r.id)).toEqual([id]);
    expect(await status(w.as(w.users.oneLib, `/api/v1/books/${w.books.b1}/readlists`))).toBe(403);
    expect(await status(w.as(w.users.ageExcluded, `/api/v1/books/${w.books.m1}/readlists`))).toBe(403);
    expect(await status(w.as(w.users.reader, '/api/v1/books/unknown/readlists'))).toBe(404);
  });
});

describe('visibility', () => {
  let mixed = '';
  let onlyB = '';
  beforeAll(async () => {
    mixed = (await json<ReadListDto>(create({ name: 'Mixed books', bookIds: [w.books.b1, w.books.m1, w.books.a1] })))
      .id;
    onlyB = (await json<ReadListDto>(create({ name: 'B only', bookIds: [w.books.b2] }))).id;
  });

  it('filters books by library sharing and age restriction, flagging `filtered`', async () => {
    expect(await json<ReadListDto>(get(mixed, w.users.oneLib))).toMatchObject({
      bookIds: [w.books.m1, w.books.a1],
      filtered: true,
    });
    expect(await json<ReadListDto>(get(mixed, w.users.ageExcluded))).toMatchObject({
      bookIds: [w.books.b1, w.books.a1],
      filtered: true,
    });
    expect(await json<ReadListDto>(get(mixed, w.users.reader))).toMatchObject({ filtered: false });
  });

  it('hides read lists without a visible book', async () => {
    expect(await status(get(onlyB, w.users.oneLib))).toBe(404);
    const page = await list('?unpaged=true', w.users.oneLib);
    expectSchema('PageReadListDto', page);
    expect(page.content.map((r) => r.id)).not.toContain(onlyB);
    expect(page.totalElements).toBe(page.content.length);
    expect(await status(w.as(w.users.oneLib, `/api/v1/readlists/${onlyB}/file`))).toBe(404);
  });
});

describe('GET /api/v1/readlists', () => {
  it('sorts by name by default, by dates on request, and searches names', async () => {
    const names = (await list('?unpaged=true')).content.map((r) => r.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    const byCreation = (await list('?unpaged=true&sort=createdDate,desc')).content;
    const created = byCreation.map((r) => r.createdDate);
    expect(created).toEqual([...created].sort().reverse());
    expect((await list('?search=mixed')).content.map((r) => r.name)).toEqual(['Mixed books']);
    const paged = await list('?size=2');
    expect(paged.content).toHaveLength(2);
    expect((await list(`?library_id=${w.libB}&unpaged=true`)).content.every((r) => r.name !== 'Chrono')).toBe(true);
  });
});

describe('downloads', () => {
  let id = '';
  beforeAll(async () => {
    id = (
      await json<ReadListDto>(
        create({ name: 'Export / test', ordered: true, bookIds: [w.books.b2, w.books.m1, w.books.a1] }),
      )
    ).id;
    await w.s.app.deps.db
      .insertInto('book_metadata_link')
      .values({ book_id: w.books.b2, label: 'ComicVine', url: 'https://comicvine.gamespot.com/bravo-2/4000-123456/' })
      .execute();
    await w.s.app.deps.db
      .updateTable('series_metadata')
      .set({ title: 'Bravo (2015)' })
      .where('series_id', '=', w.series.bravo)
      .execute();
  });

  it('zips the visible books in list order as `<n> - <file name>` (FILE_DOWNLOAD)', async () => {
    const res = await w.as(w.users.ageExcluded, `/api/v1/readlists/${id}/file`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''Export%20%2F%20test.zip");
    expect(res.headers.get('etag')).toBeNull();
    const zip = new ZipReader(new Uint8ArrayReader(new Uint8Array(await res.arrayBuffer())));
    expect((await zip.getEntries()).map((e) => e.filename)).toEqual(['1 - b2.cbz', '2 - a1.cbz']);
    await zip.close();
    expect(await status(w.as(w.users.noDownload, `/api/v1/readlists/${id}/file`))).toBe(403);
  });

  it('exports a ComicRack reading list (.cbl) the match import reads back', async () => {
    const res = await w.as(w.users.reader, `/api/v1/readlists/${id}/cbl`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''Export%20%2F%20test.cbl");
    const xml = await res.text();
    expect(xml).toContain('<Name>Export / test</Name>');
    expect(xml).toContain('<NumIssues>3</NumIssues>');
    const books = [...xml.matchAll(/<Book ([^>]*?)\s*\/?>/g)].map((m) => m[1]);
    expect(books).toEqual([
      'Series="Bravo" Number="2" Volume="2015" Year="2002"',
      'Series="Mature" Number="1" Year="2000"',
      'Series="Alpha" Number="1" Year="2001"',
    ]);
    expect(xml).toContain('<Database Name="cv" Issue="123456" />');
    const restricted = await (await w.as(w.users.ageExcluded, `/api/v1/readlists/${id}/cbl`)).text();
    expect(restricted).not.toContain('Mature');
  });
});

describe('posters', () => {
  let id = '';
  beforeAll(async () => {
    id = (await json<ReadListDto>(create({ name: 'Poster list', bookIds: [w.books.a1, w.books.b1, w.books.c1] }))).id;
  });

  it('makes a mosaic of the first books, cycling three as a b c a', async () => {
    const res = await w.as(w.users.reader, `/api/v1/readlists/${id}/thumbnail`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('max-age=3600, private');
    const mosaic = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(mosaic).metadata();
    expect([meta.width, meta.height]).toEqual([212, 300]);
    const poster = async (bookId: string) =>
      pixel(Buffer.from(await (await w.as(w.users.reader, `/api/v1/books/${bookId}/thumbnail`)).arrayBuffer()), 5, 5);
    const [a, b, c] = [await poster(w.books.a1), await poster(w.books.b1), await poster(w.books.c1)];
    expectColour(await pixel(mosaic, 10, 10), a);
    expectColour(await pixel(mosaic, 116, 10), b);
    expectColour(await pixel(mosaic, 10, 160), c);
    expectColour(await pixel(mosaic, 116, 160), a);
  });

  it('serves a selected upload instead, and announces posters', async () => {
    w.events.length = 0;
    const jpeg = await sharp({ create: { width: 50, height: 70, channels: 3, background: '#ff0000' } })
      .jpeg()
      .toBuffer();
    const added = await json<Record<string, unknown>>(
      w.as(w.users.admin, `/api/v1/readlists/${id}/thumbnails`, {
        method: 'POST',
        body: posterForm(jpeg, 'image/jpeg'),
      }),
    );
    expectSchema('ThumbnailReadListDto', added);
    expect(added).toMatchObject({ readListId: id, selected: true, type: 'USER_UPLOADED' });
    expect(w.events).toContainEqual({ type: 'ThumbnailReadListAdded', data: { readListId: id, selected: true } });
    const shown = Buffer.from(await (await w.as(w.users.reader, `/api/v1/readlists/${id}/thumbnail`)).arrayBuffer());
    expectColour(await pixel(shown, 25, 35), [255, 0, 0]);
    const listed = await json<Record<string, unknown>[]>(w.as(w.users.reader, `/api/v1/readlists/${id}/thumbnails`));
    for (const t of listed) expectSchema('ThumbnailReadListDto', t);
    expect(
      await status(w.as(w.users.admin, `/api/v1/readlists/${id}/thumbnails/${String(added.id)}`, { method: 'DELETE' })),
    ).toBe(202);
    expect(w.events).toContainEqual({ type: 'ThumbnailReadListDeleted', data: { readListId: id, selected: true } });
    expect(await json(w.as(w.users.reader, `/api/v1/readlists/${id}/thumbnails`))).toEqual([]);
  });
});

describe('DELETE /api/v1/readlists/{id}', () => {
  it('deletes and announces', async () => {
    const r = await json<ReadListDto>(create({ name: 'Gone soon', bookIds: [w.books.a1, w.books.b1] }));
    w.events.length = 0;
    expect(await status(w.as(w.users.admin, `/api/v1/readlists/${r.id}`, { method: 'DELETE' }))).toBe(204);
    expect(await status(get(r.id))).toBe(404);
    expect(w.events).toContainEqual({
      type: 'ReadListDeleted',
      data: { readListId: r.id, bookIds: [w.books.a1, w.books.b1] },
    });
  });
});

describe('from metadata: addBookByName', () => {
  it('creates an ordered list at the story-arc number, then places books at free numbers or at the end', async () => {
    const { readLists } = w.s.app.deps.collections;
    w.events.length = 0;
    await readLists.addBookByName('Story Arc', w.books.b1, 5);
    await readLists.addBookByName('story arc', w.books.a1, 2);
    await readLists.addBookByName('STORY ARC', w.books.a2, 5);
    await readLists.addBookByName('Story Arc', w.books.a1, 9);
    const found = (await list('?search=story%20arc')).content;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ name: 'Story Arc', ordered: true, bookIds: [w.books.a1, w.books.b1, w.books.a2] });
    expect(w.events.map((e) => e.type)).toEqual(['ReadListAdded', 'ReadListChanged', 'ReadListChanged']);
  });
});

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSchema } from '../support/openapi.js';
import { buildWorld, expectColour, json, pixel, posterForm, status, type World } from './world.js';

interface CollectionDto {
  id: string;
  name: string;
  ordered: boolean;
  seriesIds: string[];
  createdDate: string;
  lastModifiedDate: string;
  filtered: boolean;
}
interface Page<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  size: number;
  number: number;
}

let w: World;
beforeAll(async () => {
  w = await buildWorld();
}, 60_000);
afterAll(() => w.close());

const create = (body: Record<string, unknown>, who = w.users.admin) =>
  w.as(who, '/api/v1/collections', { method: 'POST', json: body });
const get = (id: string, who = w.users.admin) => w.as(who, `/api/v1/collections/${id}`);
const patch = (id: string, body: Record<string, unknown>, who = w.users.admin) =>
  w.as(who, `/api/v1/collections/${id}`, { method: 'PATCH', json: body });
const list = (query = '', who = w.users.admin) => json<Page<CollectionDto>>(w.as(who, `/api/v1/collections${query}`));

describe('POST /api/v1/collections', () => {
  it('creates a collection as Komga answers it and announces it', async () => {
    w.events.length = 0;
    const c = await json<CollectionDto>(
      create({ name: 'Heroes', ordered: true, seriesIds: [w.series.bravo, w.series.alpha] }),
    );
    expectSchema('CollectionDto', c);
    expect(c).toMatchObject({
      name: 'Heroes',
      ordered: true,
      seriesIds: [w.series.bravo, w.series.alpha],
      filtered: false,
    });
    expect(c.createdDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(w.events).toContainEqual({
      type: 'CollectionAdded',
      data: { collectionId: c.id, seriesIds: [w.series.bravo, w.series.alpha] },
    });
    expectSchema('CollectionDto', await json(get(c.id)));
  });

  it('rejects a name that exists, whatever its case', async () => {
    await json(create({ name: 'Clash', ordered: false, seriesIds: [w.series.alpha] }));
    const res = await json<{ message: string }>(
      create({ name: 'cLASH', ordered: false, seriesIds: [w.series.bravo] }),
      400,
    );
    expect(res.message).toBe('Collection name already exists');
  });

  it('validates the body as Komga does', async () => {
    const blank = await json<{ violations: { fieldName: string }[] }>(
      create({ name: '   ', ordered: false, seriesIds: [w.series.alpha] }),
      400,
    );
    expect(blank.violations[0]!.fieldName).toBe('name');
    const empty = await json<{ violations: { fieldName: string }[] }>(
      create({ name: 'Empty', ordered: false, seriesIds: [] }),
      400,
    );
    expect(empty.violations[0]!.fieldName).toBe('seriesIds');
    const twice = await json<{ violations: { fieldName: string; message: string }[] }>(
      create({ name: 'Twice', ordered: false, seriesIds: [w.series.alpha, w.series.alpha] }),
      400,
    );
    expect(twice.violations).toEqual([{ fieldName: 'seriesIds', message: 'must only contain unique elements' }]);
  });

  it('is for administrators only', async () => {
    expect(await status(create({ name: 'Mine', ordered: false, seriesIds: [w.series.alpha] }, w.users.reader))).toBe(
      403,
    );
    expect(await status(w.s.fetch('/api/v1/collections'))).toBe(401);
  });
});

describe('ordering and members', () => {
  let id = '';
  beforeAll(async () => {
    id = (
      await json<CollectionDto>(
        create({ name: 'Order test', ordered: false, seriesIds: [w.series.charlie, w.series.bravo, w.series.alpha] }),
      )
    ).id;
  });

  it('lists the series of an unordered collection by sort title, of an ordered one as stored', async () => {
    expect((await json<CollectionDto>(get(id))).seriesIds).toEqual([w.series.alpha, w.series.bravo, w.series.charlie]);
    expect(await status(patch(id, { ordered: true }))).toBe(204);
    expect((await json<CollectionDto>(get(id))).seriesIds).toEqual([w.series.charlie, w.series.bravo, w.series.alpha]);
  });

  it('adds, removes and reorders series through PATCH seriesIds, and announces the change', async () => {
    w.events.length = 0;
    const before = await json<CollectionDto>(get(id));
    expect(await status(patch(id, { seriesIds: [w.series.alpha, w.series.mature, w.series.charlie] }))).toBe(204);
    const after = await json<CollectionDto>(get(id));
    expect(after.seriesIds).toEqual([w.series.alpha, w.series.mature, w.series.charlie]);
    expect(after.lastModifiedDate >= before.lastModifiedDate).toBe(true);
    expect(w.events).toContainEqual({
      type: 'CollectionChanged',
      data: { collectionId: id, seriesIds: [w.series.alpha, w.series.mature, w.series.charlie] },
    });
  });

  it('renames, keeps a case change of its own name, refuses another collection’s name', async () => {
    expect(await status(patch(id, { name: 'ORDER TEST' }))).toBe(204);
    expect((await json<CollectionDto>(get(id))).name).toBe('ORDER TEST');
    await json(create({ name: 'Taken', ordered: false, seriesIds: [w.series.alpha] }));
    expect((await json<{ message: string }>(patch(id, { name: 'taken' }), 400)).message).toBe(
      'Collection name already exists',
    );
    expect(await status(patch(id, { seriesIds: [] }))).toBe(400);
    expect(await status(patch(id, { name: '' }))).toBe(400);
    expect(await status(patch('nope', { name: 'x' }))).toBe(404);
    expect(await status(patch(id, { name: 'x' }, w.users.reader))).toBe(403);
  });
});

describe('visibility', () => {
  let mixed = '';
  let onlyB = '';
  let withMature = '';
  beforeAll(async () => {
    mixed = (
      await json<CollectionDto>(create({ name: 'Mixed', ordered: true, seriesIds: [w.series.bravo, w.series.alpha] }))
    ).id;
    onlyB = (await json<CollectionDto>(create({ name: 'Only B', ordered: true, seriesIds: [w.series.bravo] }))).id;
    withMature = (
      await json<CollectionDto>(
        create({ name: 'With mature', ordered: true, seriesIds: [w.series.mature, w.series.charlie] }),
      )
    ).id;
  });

  it('shows a user of one library only the series of that library, flagged filtered', async () => {
    const c = await json<CollectionDto>(get(mixed, w.users.oneLib));
    expect(c.seriesIds).toEqual([w.series.alpha]);
    expect(c.filtered).toBe(true);
    expect((await json<CollectionDto>(get(mixed, w.users.reader))).filtered).toBe(false);
  });

  it('hides a collection with no visible series: not listed, 404 by id', async () => {
    expect(await status(get(onlyB, w.users.oneLib))).toBe(404);
    const page = await list('?unpaged=true', w.users.oneLib);
    expect(page.content.map((c) => c.id)).not.toContain(onlyB);
    expect(page.content.map((c) => c.id)).toContain(mixed);
    expect(page.totalElements).toBe(page.content.length);
    expect(await status(w.as(w.users.oneLib, `/api/v1/collections/${onlyB}/thumbnail`))).toBe(404);
    expect(await status(w.as(w.users.oneLib, `/api/v1/collections/${onlyB}/thumbnails`))).toBe(404);
  });

  it('shows nothing to a user without any shared library', async () => {
    const res = await w.as(w.users.admin, '/api/v2/users', {
      method: 'POST',
      json: { email: 'nolib@example.org', password: 'reader-secret', sharedLibraries: { all: false, libraryIds: [] } },
    });
    expect(res.status).toBe(201);
    const noLib = `Basic ${Buffer.from('nolib@example.org:reader-secret').toString('base64')}`;
    const page = await list('', noLib);
    expect(page.totalElements).toBe(0);
    expect(page.content).toEqual([]);
    expect(await status(get(mixed, noLib))).toBe(404);
  });

  it('applies age restrictions to the members', async () => {
    const c = await json<CollectionDto>(get(withMature, w.users.ageExcluded));
    expect(c.seriesIds).toEqual([w.series.charlie]);
    expect(c.filtered).toBe(true);
    expect((await json<CollectionDto>(get(withMature, w.users.oneLib))).seriesIds).toEqual([
      w.series.mature,
      w.series.charlie,
    ]);
  });

  it('keeps the members an administrator cannot see when he replaces the list', async () => {
    // An administrator restricted by age: PATCHing what he sees must not drop the mature series.
    const res = await w.as(w.users.admin, '/api/v2/users', {
      method: 'POST',
      json: {
        email: 'restricted-admin@example.org',
        password: 'reader-secret',
        roles: ['ADMIN'],
        ageRestriction: { age: 16, restriction: 'EXCLUDE' },
      },
    });
    expect(res.status).toBe(201);
    const restrictedAdmin = `Basic ${Buffer.from('restricted-admin@example.org:reader-secret').toString('base64')}`;
    expect(await status(patch(withMature, { seriesIds: [w.series.alpha, w.series.charlie] }, restrictedAdmin))).toBe(
      204,
    );
    expect((await json<CollectionDto>(get(withMature))).seriesIds).toEqual([
      w.series.alpha,
      w.series.charlie,
      w.series.mature,
    ]);
  });

  it('GET /api/v1/series/{id}/collections lists the visible collections holding the series', async () => {
    const all = await json<CollectionDto[]>(w.as(w.users.reader, `/api/v1/series/${w.series.alpha}/collections`));
    for (const c of all) expectSchema('CollectionDto', c);
    expect(all.map((c) => c.name)).toEqual(expect.arrayContaining(['Mixed']));
    expect(all.every((c) => c.seriesIds.includes(w.series.alpha))).toBe(true);
    expect(await status(w.as(w.users.oneLib, `/api/v1/series/${w.series.bravo}/collections`))).toBe(403);
    expect(await status(w.as(w.users.reader, '/api/v1/series/unknown/collections'))).toBe(404);
  });
});

describe('GET /api/v1/collections', () => {
  beforeAll(async () => {
    for (const name of ['Zebra stripes', 'éclair', 'Batman Universe', 'Spider-Verse'])
      await json(create({ name, ordered: false, seriesIds: [w.series.charlie] }));
  });

  it('pages by name, Unicode-collated, in Spring’s envelope', async () => {
    const all = await list('?unpaged=true');
    expectSchema('PageCollectionDto', all);
    const names = all.content.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(names.indexOf('éclair')).toBeLessThan(names.indexOf('Heroes'));
    const first = await list('?size=2&page=1');
    expect(first.size).toBe(2);
    expect(first.number).toBe(1);
    expect(first.totalElements).toBe(all.totalElements);
    expect(first.content.map((c) => c.name)).toEqual(names.slice(2, 4));
  });

  it('searches names by words and word parts, ignoring case and accents', async () => {
    expect((await list('?search=ECLAIR')).content.map((c) => c.name)).toEqual(['éclair']);
    // A whole word ranks before a match inside a word.
    expect((await list('?search=verse')).content.map((c) => c.name)).toEqual(['Spider-Verse', 'Batman Universe']);
    expect((await list('?search=bat%20univ')).content.map((c) => c.name)).toEqual(['Batman Universe']);
    expect((await list('?search=nothing-like-it')).content).toEqual([]);
  });

  it('filters by library (repeated, comma-separated or library_id[])', async () => {
    const inB = await list(`?unpaged=true&library_id=${w.libB}`);
    expect(inB.content.length).toBeGreaterThan(0);
    expect(inB.content.every((c) => c.seriesIds.includes(w.series.bravo))).toBe(true);
    const brackets = await list(`?unpaged=true&library_id[]=${w.libB}`);
    expect(brackets.content.map((c) => c.id)).toEqual(inB.content.map((c) => c.id));
    const both = await list(`?unpaged=true&library_id=${w.libA},${w.libB}`);
    expect(both.totalElements).toBeGreaterThan(inB.totalElements);
  });
});

describe('posters', () => {
  let id = '';
  let other = '';
  beforeAll(async () => {
    id = (
      await json<CollectionDto>(create({ name: 'Poster', ordered: true, seriesIds: [w.series.alpha, w.series.bravo] }))
    ).id;
    other = (await json<CollectionDto>(create({ name: 'Other poster', ordered: true, seriesIds: [w.series.alpha] })))
      .id;
  });

  it('makes a 2×2 mosaic of the series posters, cycling two series as a b a b', async () => {
    const res = await w.as(w.users.reader, `/api/v1/collections/${id}/thumbnail`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('max-age=3600, private');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    const mosaic = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(mosaic).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([212, 300]);

    const poster = async (seriesId: string) =>
      Buffer.from(await (await w.as(w.users.reader, `/api/v1/series/${seriesId}/thumbnail`)).arrayBuffer());
    const alpha = await pixel(await poster(w.series.alpha), 5, 5);
    const bravo = await pixel(await poster(w.series.bravo), 5, 5);
    expectColour(await pixel(mosaic, 10, 10), alpha);
    expectColour(await pixel(mosaic, 106 + 10, 10), bravo);
    expectColour(await pixel(mosaic, 10, 150 + 10), alpha);
    expectColour(await pixel(mosaic, 106 + 10, 150 + 10), bravo);

    const again = await w.as(w.users.reader, `/api/v1/collections/${id}/thumbnail`, {
      headers: { 'If-None-Match': etag! },
    });
    expect(again.status).toBe(304);
  });

  it('uploads, lists, selects and deletes posters; the selected one replaces the mosaic', async () => {
    w.events.length = 0;
    const png = await sharp({ create: { width: 80, height: 120, channels: 3, background: '#00ff00' } })
      .png()
      .toBuffer();
    const added = await json<Record<string, unknown>>(
      w.as(w.users.admin, `/api/v1/collections/${id}/thumbnails`, { method: 'POST', body: posterForm(png) }),
    );
    expectSchema('ThumbnailSeriesCollectionDto', added);
    expect(added).toMatchObject({ collectionId: id, type: 'USER_UPLOADED', selected: true, width: 80, height: 120 });
    expect(w.events).toContainEqual({
      type: 'ThumbnailSeriesCollectionAdded',
      data: { collectionId: id, selected: true },
    });

    const shown = Buffer.from(await (await w.as(w.users.reader, `/api/v1/collections/${id}/thumbnail`)).arrayBuffer());
    expect((await sharp(shown).metadata()).width).toBe(80);
    expectColour(await pixel(shown, 40, 60), [0, 255, 0]);

    const second = await json<{ id: string; selected: boolean }>(
      w.as(w.users.admin, `/api/v1/collections/${id}/thumbnails?selected=false`, {
        method: 'POST',
        body: posterForm(png),
      }),
    );
    expect(second.selected).toBe(false);
    const listed = await json<{ id: string; selected: boolean }[]>(
      w.as(w.users.reader, `/api/v1/collections/${id}/thumbnails`),
    );
    for (const t of listed) expectSchema('ThumbnailSeriesCollectionDto', t);
    expect(listed.map((t) => [t.id, t.selected])).toEqual([
      [added.id, true],
      [second.id, false],
    ]);
    const one = await w.as(w.users.reader, `/api/v1/collections/${id}/thumbnails/${second.id}`);
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('image/jpeg');
    await one.arrayBuffer();
    expect(await status(w.as(w.users.reader, `/api/v1/collections/${other}/thumbnails/${second.id}`))).toBe(400);

    expect(
      await status(
        w.as(w.users.admin, `/api/v1/collections/${id}/thumbnails/${second.id}/selected`, { method: 'PUT' }),
      ),
    ).toBe(202);
    const afterSelect = await json<{ id: string; selected: boolean }[]>(
      w.as(w.users.admin, `/api/v1/collections/${id}/thumbnails`),
    );
    expect(afterSelect.find((t) => t.selected)?.id).toBe(second.id);

    w.events.length = 0;
    expect(
      await status(w.as(w.users.admin, `/api/v1/collections/${id}/thumbnails/${second.id}`, { method: 'DELETE' })),
    ).toBe(202);
    expect(w.events).toContainEqual({
      type: 'ThumbnailSeriesCollectionDeleted',
      data: { collectionId: id, selected: true },
    });
    // The remaining upload takes its place.
    const remaining = await json<{ id: string; selected: boolean }[]>(
      w.as(w.users.admin, `/api/v1/collections/${id}/thumbnails`),
    );
    expect(remaining).toEqual([expect.objectContaining({ id: added.id, selected: true })]);
    expect(
      await status(w.as(w.users.admin, `/api/v1/collections/${id}/thumbnails/${added.id}`, { method: 'DELETE' })),
    ).toBe(202);
    const back = Buffer.from(await (await w.as(w.users.reader, `/api/v1/collections/${id}/thumbnail`)).arrayBuffer());
    expect((await sharp(back).metadata()).width).toBe(212);
  });

  it('refuses what is not an image (415) and non-administrators (403)', async () => {
    const text = Buffer.from('not an image at all');
    expect(
      await status(
        w.as(w.users.admin, `/api/v1/collections/${id}/thumbnails`, {
          method: 'POST',
          body: posterForm(text, 'image/png'),
        }),
      ),
    ).toBe(415);
    expect(
      await status(
        w.as(w.users.reader, `/api/v1/collections/${id}/thumbnails`, { method: 'POST', body: posterForm(text) }),
      ),
    ).toBe(403);
  });
});

describe('DELETE /api/v1/collections/{id}', () => {
  it('deletes the collection and announces it', async () => {
    const c = await json<CollectionDto>(create({ name: 'Doomed', ordered: false, seriesIds: [w.series.alpha] }));
    w.events.length = 0;
    expect(await status(w.as(w.users.reader, `/api/v1/collections/${c.id}`, { method: 'DELETE' }))).toBe(403);
    expect(await status(w.as(w.users.admin, `/api/v1/collections/${c.id}`, { method: 'DELETE' }))).toBe(204);
    expect(await status(get(c.id))).toBe(404);
    expect(w.events).toContainEqual({
      type: 'CollectionDeleted',
      data: { collectionId: c.id, seriesIds: [w.series.alpha] },
    });
    expect(await status(w.as(w.users.admin, `/api/v1/collections/${c.id}`, { method: 'DELETE' }))).toBe(404);
  });
});

describe('from metadata: addSeriesByName', () => {
  it('creates an unordered collection, then appends series once, matching the name case-insensitively', async () => {
    const { collections } = w.s.app.deps.collections;
    w.events.length = 0;
    await collections.addSeriesByName('Story Group', w.series.bravo);
    await collections.addSeriesByName('STORY group', w.series.alpha);
    await collections.addSeriesByName('story group', w.series.alpha);
    const found = (await list('?search=story%20group')).content;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ name: 'Story Group', ordered: false });
    expect(w.events.map((e) => e.type)).toEqual(['CollectionAdded', 'CollectionChanged']);
    expect(await status(patch(found[0]!.id, { ordered: true }))).toBe(204);
    expect((await json<CollectionDto>(get(found[0]!.id))).seriesIds).toEqual([w.series.bravo, w.series.alpha]);
  });
});

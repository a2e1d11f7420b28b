import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLibrary, makeImage } from '../support/library-builder.js';
import { claim, startServer, type TestServer } from '../support/server.js';
import { call, createUser } from '../reading/helpers.js';

/*
 * GET /actuator/metrics and /actuator/metrics/{name} (api.md §9.1) on two real libraries of known size: the gauges
 * (books, bytes, series, sidecars per library; libraries, collections, read lists) and the task figures after their
 * scans, read again after the server restarts on the same data folder.
 */

type Metric = {
  name: string;
  description: string;
  baseUnit: string | null;
  measurements: { statistic: string; value: number }[];
  availableTags: { tag: string; values: string[] }[];
};

let dir: string;
let dataDir: string;
let s: TestServer;
let admin: string;
let reader: string;
const libraries: Record<'comics' | 'manga', string> = { comics: '', manga: '' };
const fileSizes = { comics: 0, manga: 0 };

async function idle() {
  let quiet = 0;
  for (let i = 0; i < 1200 && quiet < 3; i++) {
    quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function metric(name: string, ...tags: string[]) {
  const query = tags.map((t) => `tag=${encodeURIComponent(t)}`).join('&');
  const res = await call(s, admin, 'GET', `/actuator/metrics/${name}${query ? `?${query}` : ''}`);
  return { status: res.status, body: res.body as Metric, type: res.headers.get('content-type') };
}

async function value(name: string, ...tags: string[]) {
  const { status, body } = await metric(name, ...tags);
  expect(status, `${name} ${tags.join(' ')}: ${JSON.stringify(body)}`).toBe(200);
  return Object.fromEntries(body.measurements.map((m) => [m.statistic, m.value]));
}

async function fileSizeOf(libraryId: string) {
  const rows = await s.app.deps.db.selectFrom('book').select('file_size').where('library_id', '=', libraryId).execute();
  return rows.reduce((n, r) => n + r.file_size, 0);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-metrics-'));
  dataDir = join(dir, 'data');
  const cover = await makeImage('jpeg', 7);
  // Comics: 2 series, 3 books, 2 sidecars (a series cover and a book's own poster). Manga: 1 series, 1 book.
  await buildLibrary(join(dir, 'comics'), {
    'Saga/Saga 01.cbz': { pages: 2, seed: 1 },
    'Saga/Saga 02.cbz': { pages: 3, seed: 2 },
    'Saga/cover.jpg': cover,
    'Saga/Saga 01.jpg': cover,
    'Rat Queens/Rat Queens 01.cbz': { pages: 4, seed: 3 },
  });
  await buildLibrary(join(dir, 'manga'), { 'Berserk/Berserk 01.cbz': { pages: 5, seed: 4 } });
  s = await startServer({ QUIRE_DATA_DIR: dataDir });
  admin = (await claim(s)).authorization;
  reader = (await createUser(s, admin, 'reader@example.org')).authorization;
}, 120_000);

afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('metrics', () => {
  it('are for administrators only: 401 anonymous, 403 for a user', async () => {
    for (const path of ['/actuator/metrics', '/actuator/metrics/komga.books']) {
      expect((await s.fetch(path)).status).toBe(401);
      expect((await call(s, reader, 'GET', path)).status).toBe(403);
    }
  });

  it('before any library: no per-library metric yet, zero tasks, zero counts', async () => {
    const names = (await call(s, admin, 'GET', '/actuator/metrics')).body as { names: string[] };
    expect(names.names).toEqual([
      'komga.collections',
      'komga.libraries',
      'komga.readlists',
      'komga.tasks.execution',
      'komga.tasks.failure',
    ]);
    // A MultiGauge without rows is no meter at all, as in the reference.
    expect((await metric('komga.books')).status).toBe(404);
    expect(await value('komga.libraries')).toEqual({ VALUE: 0 });
    const tasks = await metric('komga.tasks.execution');
    expect(tasks.body).toEqual({
      name: 'komga.tasks.execution',
      description: 'Task execution time',
      baseUnit: 'seconds',
      measurements: [
        { statistic: 'COUNT', value: 0 },
        { statistic: 'TOTAL_TIME', value: 0 },
        { statistic: 'MAX', value: 0 },
      ],
      availableTags: [],
    });
    expect(tasks.type).toMatch(/^application\/vnd\.spring-boot\.actuator\.v3\+json/);
  });

  it('count books, bytes, series and sidecars per library', async () => {
    for (const name of ['comics', 'manga'] as const) {
      const res = await call(s, admin, 'POST', '/api/v1/libraries', { name, root: join(dir, name) });
      expect(res.status).toBe(200);
      libraries[name] = (res.body as { id: string }).id;
    }
    await idle();
    fileSizes.comics = await fileSizeOf(libraries.comics);
    fileSizes.manga = await fileSizeOf(libraries.manga);
    expect(fileSizes.comics).toBeGreaterThan(0);

    const books = await metric('komga.books');
    expect(books.body).toMatchObject({ name: 'komga.books', description: 'The number of books', baseUnit: 'count' });
    expect(books.body.measurements).toEqual([{ statistic: 'VALUE', value: 4 }]);
    expect(books.body.availableTags).toEqual([{ tag: 'library', values: [libraries.comics, libraries.manga].sort() }]);
    expect(await value('komga.books', `library:${libraries.comics}`)).toEqual({ VALUE: 3 });
    expect(await value('komga.books', `library:${libraries.manga}`)).toEqual({ VALUE: 1 });
    expect(await value('komga.series', `library:${libraries.comics}`)).toEqual({ VALUE: 2 });
    expect(await value('komga.series', `library:${libraries.manga}`)).toEqual({ VALUE: 1 });
    expect(await value('komga.series')).toEqual({ VALUE: 3 });

    const size = await metric('komga.books.filesize', `library:${libraries.comics}`);
    expect(size.body).toMatchObject({ description: 'The cumulated filesize of books', baseUnit: 'bytes' });
    expect(size.body.measurements).toEqual([{ statistic: 'VALUE', value: fileSizes.comics }]);
    // The tag filtered on is no longer available, as Spring answers.
    expect(size.body.availableTags).toEqual([]);
    expect(await value('komga.books.filesize')).toEqual({ VALUE: fileSizes.comics + fileSizes.manga });

    // Only the comics library has sidecars: the manga one has no row, hence no tag value.
    const sidecars = await metric('komga.sidecars');
    expect(sidecars.body.measurements).toEqual([{ statistic: 'VALUE', value: 2 }]);
    expect(sidecars.body.availableTags).toEqual([{ tag: 'library', values: [libraries.comics] }]);
    expect(await value('komga.libraries')).toEqual({ VALUE: 2 });
  });

  it('count collections and read lists', async () => {
    const series = await s.app.deps.db
      .selectFrom('series')
      .select('id')
      .where('name', '=', 'Saga')
      .executeTakeFirstOrThrow();
    const book = await s.app.deps.db
      .selectFrom('book')
      .select('id')
      .where('name', '=', 'Saga 01')
      .executeTakeFirstOrThrow();
    expect(
      (await call(s, admin, 'POST', '/api/v1/collections', { name: 'Best', ordered: false, seriesIds: [series.id] }))
        .status,
    ).toBe(200);
    expect((await call(s, admin, 'POST', '/api/v1/readlists', { name: 'Order', bookIds: [book.id] })).status).toBe(200);
    expect(await value('komga.collections')).toEqual({ VALUE: 1 });
    expect(await value('komga.readlists')).toEqual({ VALUE: 1 });
  });

  it('count the tasks run by type, with their time, and keep them across a restart', async () => {
    const before = {
      all: await value('komga.tasks.execution'),
      scans: await value('komga.tasks.execution', 'type:ScanLibrary'),
      analyses: await value('komga.tasks.execution', 'type:AnalyzeBook'),
    };
    expect(before.scans.COUNT).toBe(2);
    expect(before.analyses.COUNT).toBe(4);
    expect(before.scans.TOTAL_TIME).toBeGreaterThan(0);
    expect(before.scans.MAX).toBeLessThanOrEqual(before.scans.TOTAL_TIME!);
    const types = (await metric('komga.tasks.execution')).body.availableTags;
    expect(types).toHaveLength(1);
    expect(types[0]!.tag).toBe('type');
    expect(types[0]!.values).toEqual(expect.arrayContaining(['AnalyzeBook', 'ScanLibrary']));
    // Nothing failed: the failure counter has its untagged zero only.
    expect((await metric('komga.tasks.failure')).body).toEqual({
      name: 'komga.tasks.failure',
      description: 'Count of failed tasks',
      baseUnit: null,
      measurements: [{ statistic: 'COUNT', value: 0 }],
      availableTags: [],
    });

    await s.close();
    s = await startServer({ QUIRE_DATA_DIR: dataDir });
    await idle();
    expect(await value('komga.tasks.execution', 'type:ScanLibrary')).toEqual(before.scans);
    expect(await value('komga.tasks.execution', 'type:AnalyzeBook')).toEqual(before.analyses);
    expect((await value('komga.tasks.execution')).COUNT).toBeGreaterThanOrEqual(before.all.COUNT!);
    expect(await value('komga.books', `library:${libraries.comics}`)).toEqual({ VALUE: 3 });
  });

  it('answer 404 for an unknown metric, a tag value or a tag no meter has, and 400 for a tag without a colon', async () => {
    expect((await metric('komga.unknown')).status).toBe(404);
    expect((await metric('jvm.memory.used')).status).toBe(404);
    // Spring's metrics endpoint answers 404 when no meter matches the filter.
    expect((await metric('komga.books', 'library:0000000000000')).status).toBe(404);
    expect((await metric('komga.books', 'type:ScanLibrary')).status).toBe(404);
    expect((await metric('komga.libraries', `library:${libraries.comics}`)).status).toBe(404);
    expect((await metric('komga.tasks.execution', 'type:NoSuchTask')).status).toBe(404);
    expect((await metric('komga.books', `library:${libraries.comics}`, `library:${libraries.manga}`)).status).toBe(404);
    const bad = await metric('komga.books', 'library');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("Each tag parameter must be in the form 'key:value'");
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { databaseOf } from '../support/postgres.js';
import { KyselyHistoryRepository } from '../../src/db/repositories/history.js';
import { bookConverted, bookFileDeleted, DELETION_REASONS, seriesFolderDeleted } from '../../src/domain/history.js';
import type { ContentViewer } from '../../src/domain/restrictions.js';
import { History } from '../../src/library/history.js';

const viewer = (over: Partial<ContentViewer>): ContentViewer => ({
  roles: new Set(),
  sharedAllLibraries: false,
  sharedLibraryIds: [],
  ageRestriction: null,
  labelsAllow: [],
  labelsExclude: [],
  ...over,
});

describe('the history store', () => {
  let dir: string;
  let close: () => Promise<void>;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let history: History;
  const warnings: object[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-history-'));
    database = await openDatabase(await databaseOf(dir));
    close = database.close;
    let clock = Date.parse('2026-01-01T10:00:00.000Z');
    history = new History({
      history: new KyselyHistoryRepository(database.db),
      logger: { warn: (o) => void warnings.push(o) },
      now: () => (clock += 1000),
    });
    const a = { bookId: 'B1', seriesId: 'S1', libraryId: 'L1' };
    const b = { bookId: 'B2', seriesId: 'S2', libraryId: 'L2' };
    await history.record(bookFileDeleted(a, '/lib1/S1/one.cbz', DELETION_REASONS.byUser));
    await history.record(seriesFolderDeleted({ seriesId: 'S1', libraryId: 'L1' }, '/lib1/S1'));
    await history.record(bookConverted(b, '/lib2/S2/two.cbz', '/lib2/S2/two.cbr'));
  });
  afterAll(async () => {
    await close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps each event with its properties, newest first by default order', async () => {
    const { events, total } = await history.list({
      sort: [{ property: 'timestamp', descending: true }],
      offset: 0,
      limit: 20,
    });
    expect(total).toBe(3);
    expect(events.map((e) => e.type)).toEqual(['BookConverted', 'SeriesFolderDeleted', 'BookFileDeleted']);
    expect(events[0]).toMatchObject({
      bookId: 'B2',
      seriesId: 'S2',
      timestamp: '2026-01-01T10:00:03.000Z',
      properties: { name: '/lib2/S2/two.cbz', 'former file': '/lib2/S2/two.cbr' },
    });
    expect(events[1]).toMatchObject({
      bookId: null,
      properties: { reason: 'Folder was deleted because it was empty', name: '/lib1/S1' },
    });
    expect(warnings).toEqual([]);
  });

  it('pages, sorts and filters by type', async () => {
    const asc = await history.list({ sort: [{ property: 'type', descending: false }], offset: 1, limit: 1 });
    expect(asc.total).toBe(3);
    expect(asc.events.map((e) => e.type)).toEqual(['BookFileDeleted']);
    const deletions = await history.list({
      types: ['BookFileDeleted', 'SeriesFolderDeleted'],
      sort: [{ property: 'timestamp', descending: false }],
      offset: 0,
      limit: 20,
    });
    expect(deletions.events.map((e) => e.type)).toEqual(['BookFileDeleted', 'SeriesFolderDeleted']);
  });

  it('shows a user only the libraries shared with him', async () => {
    const page = (v: ContentViewer) =>
      history.list({ viewer: v, sort: [{ property: 'timestamp', descending: true }], offset: 0, limit: 20 });
    expect((await page(viewer({ sharedLibraryIds: ['L2'] }))).events.map((e) => e.seriesId)).toEqual(['S2']);
    expect((await page(viewer({}))).total).toBe(0);
    expect((await page(viewer({ sharedAllLibraries: true }))).total).toBe(3);
    // Age rules cannot be checked against series that no longer exist (none do here): nothing shows.
    expect(
      (await page(viewer({ sharedAllLibraries: true, ageRestriction: { age: 12, restriction: 'EXCLUDE' } }))).total,
    ).toBe(0);
  });

  it('keeps events of the same millisecond in recording order, both ways', async () => {
    const sameMs = new History({
      history: new KyselyHistoryRepository(database.db),
      logger: { warn: (o) => void warnings.push(o) },
      now: () => Date.parse('2026-02-01T00:00:00.000Z'),
    });
    const c = { bookId: 'B3', seriesId: 'S3', libraryId: 'L3' };
    await sameMs.record(bookFileDeleted(c, '/lib3/S3/first.cbz', DELETION_REASONS.byUser));
    await sameMs.record(seriesFolderDeleted({ seriesId: 'S3', libraryId: 'L3' }, '/lib3/S3'));
    const names = async (descending: boolean) =>
      (await history.list({ sort: [{ property: 'timestamp', descending }], offset: 0, limit: 20 })).events
        .filter((e) => e.libraryId === 'L3')
        .map((e) => e.properties.name);
    expect(await names(false)).toEqual(['/lib3/S3/first.cbz', '/lib3/S3']);
    expect(await names(true)).toEqual(['/lib3/S3', '/lib3/S3/first.cbz']);
  });
});

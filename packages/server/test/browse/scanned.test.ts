import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCbz } from '../support/library-builder.js';
import { claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';
import { withoutNulls, type BookBody, type PageBody, type SeriesBody } from './support.js';

/**
 * Lists and search over what the real writers produce: a scanned and analysed library, and read progress set
 * through the API. Nothing here writes search documents or series progress directly: triggers must follow.
 */

let s: TestServer;
let dir: string;
let admin: string;

const json = async <T>(path: string, init: RequestInit & { json?: unknown } = {}) => {
  const res = await s.fetch(path, { ...init, headers: { authorization: admin, ...init.headers } });
  expect(res.status, `${path}: ${res.status}`).toBeLessThan(300);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
};

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-browse-'));
  await writeCbz(join(dir, 'Invincible', 'Invincible 001.cbz'), { seed: 1 });
  await writeCbz(join(dir, 'Invincible', 'Invincible 002.cbz'), { seed: 2 });
  await writeCbz(join(dir, 'Invincible', 'Invincible 003.cbz'), { seed: 3 });
  await writeCbz(join(dir, 'Saga', 'Saga Chapter One.cbz'), { seed: 4 });
  await json('/api/v1/libraries', { method: 'POST', json: { name: 'Comics', root: dir } });
  await until(
    () => json<PageBody<BookBody & { media: { status: string } }>>('/api/v1/books?unpaged=true'),
    (p) => p.totalElements === 4 && p.content.every((b) => b.media.status === 'READY'),
  );
}, 90_000);

afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a scanned library', () => {
  it('lists, sorts and searches what the scanner wrote', async () => {
    const series = await json<PageBody<SeriesBody>>('/api/v1/series/list?sort=metadata.titleSort,desc', {
      method: 'POST',
      json: {},
    });
    expectSchema('PageSeriesDto', withoutNulls(series));
    expect(series.content.map((x) => x.metadata.title)).toEqual(['Saga', 'Invincible']);
    const found = await json<PageBody<BookBody>>('/api/v1/books/list', {
      method: 'POST',
      json: { fullTextSearch: 'chapter' },
    });
    expect(found.content.map((b) => b.name)).toEqual(['Saga Chapter One']);
    const invincible = series.content.find((x) => x.metadata.title === 'Invincible')!;
    const books = await json<PageBody<BookBody>>(`/api/v1/series/${invincible.id}/books?sort=name,desc`);
    expect(books.content.map((b) => b.name)).toEqual(['Invincible 003', 'Invincible 002', 'Invincible 001']);
    expect(await json<{ group: string; count: number }[]>('/api/v1/series/alphabetical-groups')).toEqual([
      { group: 'i', count: 1 },
      { group: 's', count: 1 },
    ]);
  });

  it('follows read progress written through the API: counts, read status, on deck', async () => {
    const books = await json<PageBody<BookBody>>('/api/v1/books?sort=name&unpaged=true');
    const [first, second] = books.content;
    await json(`/api/v1/books/${first!.id}/read-progress`, { method: 'PATCH', json: { completed: true } });
    const series = await json<SeriesBody>(`/api/v1/series/${first!.seriesId}`);
    expect(series).toMatchObject({ booksCount: 3, booksReadCount: 1, booksInProgressCount: 0, booksUnreadCount: 2 });
    const onDeck = await json<PageBody<BookBody>>('/api/v1/books/ondeck');
    expect(onDeck.content.map((b) => b.name)).toEqual(['Invincible 002']);
    await json(`/api/v1/books/${second!.id}/read-progress`, { method: 'PATCH', json: { page: 1 } });
    const reading = await json<PageBody<SeriesBody>>('/api/v1/series/list', {
      method: 'POST',
      json: { condition: { readStatus: { operator: 'is', value: 'IN_PROGRESS' } } },
    });
    expect(reading.content.map((x) => x.metadata.title)).toEqual(['Invincible']);
    expect((await json<PageBody<BookBody>>('/api/v1/books/ondeck')).content).toEqual([]);
    await json(`/api/v1/series/${first!.seriesId}/read-progress`, { method: 'DELETE' });
    const unread = await json<PageBody<SeriesBody>>('/api/v1/series?read_status=UNREAD');
    expect(unread.totalElements).toBe(2);
  });
});

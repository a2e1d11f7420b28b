import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuireEvent } from '@quire/api';
import { writeCbz } from '../support/library-builder.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { eventually, json, status } from './world.js';

/**
 * Scans and trash emptying against a real library: memberships follow hard deletions, the sets that lose
 * members are announced, and empty sets go when the server settings say so (engine.md §12.3).
 */
describe('collections and read lists after scans', () => {
  let s: TestServer;
  let admin: string;
  let dir: string;
  let libraryId = '';
  const events: QuireEvent[] = [];
  const ids = { one: '', two: '', three: '', bookOne: '', bookTwo: '', bookThree: '' };

  const as = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    s.fetch(path, { ...init, headers: { authorization: admin, ...(init.headers ?? {}) } });
  const seriesRow = (name: string) =>
    s.app.deps.db.selectFrom('series').select(['id', 'deleted_date']).where('name', '=', name).executeTakeFirst();
  const bookOf = async (seriesId: string) =>
    (await s.app.deps.db.selectFrom('book').select('id').where('series_id', '=', seriesId).executeTakeFirstOrThrow())
      .id;
  const scan = async () =>
    expect(await status(as(`/api/v1/libraries/${libraryId}/scan`, { method: 'POST' }))).toBe(202);
  const emptyTrash = async () =>
    expect(await status(as(`/api/v1/libraries/${libraryId}/empty-trash`, { method: 'POST' }))).toBe(202);

  beforeAll(async () => {
    s = await startServer();
    admin = (await claim(s)).authorization;
    s.app.deps.events.subscribe((e) => void events.push(e));
    dir = await mkdtemp(join(tmpdir(), 'quire-sets-scan-'));
    for (const [i, name] of ['One', 'Two', 'Three'].entries())
      await writeCbz(join(dir, name, `${name}.cbz`), { seed: i + 1 });
    libraryId = (
      await json<{ id: string }>(as('/api/v1/libraries', { method: 'POST', json: { name: 'Lib', root: dir } }))
    ).id;
    await eventually(async () =>
      Boolean((await seriesRow('One')) && (await seriesRow('Two')) && (await seriesRow('Three'))),
    );
    ids.one = (await seriesRow('One'))!.id;
    ids.two = (await seriesRow('Two'))!.id;
    ids.three = (await seriesRow('Three'))!.id;
    ids.bookOne = await bookOf(ids.one);
    ids.bookTwo = await bookOf(ids.two);
    ids.bookThree = await bookOf(ids.three);
  }, 60_000);
  afterAll(async () => {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  const create = async (kind: 'collections' | 'readlists', name: string, members: string[]) =>
    (
      await json<{ id: string }>(
        as(`/api/v1/${kind}`, {
          method: 'POST',
          json: kind === 'collections' ? { name, ordered: true, seriesIds: members } : { name, bookIds: members },
        }),
      )
    ).id;

  it('keeps memberships of soft-deleted items, drops them and the emptied sets once the trash is emptied', async () => {
    const both = await create('collections', 'Both', [ids.one, ids.two]);
    const onlyOne = await create('collections', 'Only one', [ids.one]);
    const listBoth = await create('readlists', 'Both books', [ids.bookOne, ids.bookTwo]);
    const listOne = await create('readlists', 'Book one', [ids.bookOne]);

    await rm(join(dir, 'One'), { recursive: true });
    await scan();
    await eventually(async () => (await seriesRow('One'))?.deleted_date !== null);
    // Soft deletion keeps the memberships (engine.md §12.3).
    expect((await json<{ seriesIds: string[] }>(as(`/api/v1/collections/${onlyOne}`))).seriesIds).toEqual([ids.one]);

    events.length = 0;
    await emptyTrash();
    await eventually(async () => (await status(as(`/api/v1/collections/${onlyOne}`))) === 404);
    await eventually(async () => (await status(as(`/api/v1/readlists/${listOne}`))) === 404);
    await s.app.deps.collections.settled();

    expect((await json<{ seriesIds: string[] }>(as(`/api/v1/collections/${both}`))).seriesIds).toEqual([ids.two]);
    expect((await json<{ bookIds: string[] }>(as(`/api/v1/readlists/${listBoth}`))).bookIds).toEqual([ids.bookTwo]);
    expect(events).toContainEqual({ type: 'CollectionChanged', data: { collectionId: both, seriesIds: [ids.two] } });
    expect(events).toContainEqual({ type: 'ReadListChanged', data: { readListId: listBoth, bookIds: [ids.bookTwo] } });
    expect(events).toContainEqual({ type: 'CollectionDeleted', data: { collectionId: onlyOne, seriesIds: [] } });
    expect(events).toContainEqual({ type: 'ReadListDeleted', data: { readListId: listOne, bookIds: [] } });
  });

  it('keeps empty collections when deleteEmptyCollections is off, still deleting empty read lists', async () => {
    expect(await status(as('/api/v1/settings', { method: 'PATCH', json: { deleteEmptyCollections: false } }))).toBe(
      204,
    );
    const onlyTwo = await create('collections', 'Only two', [ids.two]);
    const listTwo = await create('readlists', 'Book two', [ids.bookTwo]);
    await rm(join(dir, 'Two'), { recursive: true });
    await scan();
    await eventually(async () => (await seriesRow('Two'))?.deleted_date !== null);
    await emptyTrash();
    await eventually(async () => (await status(as(`/api/v1/readlists/${listTwo}`))) === 404);
    await eventually(async () => !(await seriesRow('Two')));
    const kept = await json<{ seriesIds: string[]; filtered: boolean }>(as(`/api/v1/collections/${onlyTwo}`));
    expect(kept).toMatchObject({ seriesIds: [], filtered: false });
    // Nobody else sees an empty collection.
    const res = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: admin },
      json: {
        email: 'limited@example.org',
        password: 'reader-secret',
        sharedLibraries: { all: false, libraryIds: [libraryId] },
      },
    });
    expect(res.status).toBe(201);
    expect(
      await status(
        s.fetch(`/api/v1/collections/${onlyTwo}`, {
          headers: { authorization: basic('limited@example.org', 'reader-secret') },
        }),
      ),
    ).toBe(404);
  });

  it('streams collection and read list events on /sse/v1/events', async () => {
    const res = await s.fetch('/sse/v1/events', { headers: { authorization: admin, accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (needle: string) => {
      const deadline = Date.now() + 5000;
      while (!text.includes(needle)) {
        if (Date.now() > deadline) throw new Error(`no ${needle} in:\n${text}`);
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`stream ended:\n${text}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
    };
    try {
      const collection = await create('collections', 'Streamed', [ids.three]);
      await until('event:CollectionAdded');
      expect(text).toContain(
        `event:CollectionAdded\ndata:{"collectionId":"${collection}","seriesIds":["${ids.three}"]}\n\n`,
      );
      const readList = await create('readlists', 'Streamed list', [ids.bookThree]);
      await until('event:ReadListAdded');
      expect(text).toContain(
        `event:ReadListAdded\ndata:{"readListId":"${readList}","bookIds":["${ids.bookThree}"]}\n\n`,
      );
      expect(await status(as(`/api/v1/readlists/${readList}`, { method: 'DELETE' }))).toBe(204);
      await until('event:ReadListDeleted');
    } finally {
      await reader.cancel();
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { QuireEvent } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { makeLibrary, makeSeriesWithBooks } from '../support/factories.js';

let servers: TestServer[] = [];
const streams: ReadableStreamDefaultReader<Uint8Array>[] = [];
afterEach(async () => {
  for (const r of streams.splice(0)) await r.cancel().catch(() => {});
  for (const s of servers) await s.close();
  servers = [];
});

async function setup() {
  const s = await startServer();
  servers.push(s);
  const admin = await claim(s);
  const res = await s.fetch('/api/v2/users', {
    method: 'POST',
    headers: { authorization: admin.authorization },
    json: { email: 'reader@example.org', password: 'user-secret', roles: [] },
  });
  expect(res.status).toBe(201);
  const user = {
    id: ((await res.json()) as { id: string }).id,
    authorization: basic('reader@example.org', 'user-secret'),
  };
  return { s, admin, user };
}

/** Opens the event stream; `until` reads until the text received so far satisfies the predicate. */
async function open(s: TestServer, authorization: string) {
  const res = await s.fetch('/sse/v1/events', { headers: { authorization, accept: 'text/event-stream' } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  streams.push(reader);
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  return {
    res,
    get text() {
      return text;
    },
    get done() {
      return done;
    },
    async until(predicate: (text: string) => boolean, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(text)) {
        if (done) throw new Error(`stream ended before the expected text; got:\n${text}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out; got:\n${text}`);
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
        if (chunk === null) continue;
        if (chunk.done) done = true;
        else text += decoder.decode(chunk.value, { stream: true });
      }
      return text;
    },
    /** Resolves once the server ends the stream. */
    async ended(timeoutMs = 3000) {
      await this.until(() => false, timeoutMs).catch((err: Error) => {
        if (!done) throw err;
      });
    },
  };
}

const emit = (s: TestServer, event: QuireEvent) => s.app.deps.events.emit(event);

describe('GET /sse/v1/events', () => {
  it('needs authentication', async () => {
    const { s } = await setup();
    expect((await s.fetch('/sse/v1/events')).status).toBe(401);
  });

  it('streams bus events as Komga formats them, with no-cache headers', async () => {
    const { s, user } = await setup();
    const stream = await open(s, user.authorization);
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.res.headers.get('cache-control')).toBe('no-cache');
    expect(stream.res.headers.get('x-accel-buffering')).toBe('no');

    emit(s, { type: 'LibraryAdded', data: { libraryId: 'lib-1' } });
    const text = await stream.until((t) => t.includes('\n\n'));
    expect(text).toBe('event:LibraryAdded\ndata:{"libraryId":"lib-1"}\n\n');
  });

  it('sends admin events to admins only and self events to their user only', async () => {
    const { s, admin, user } = await setup();
    const asUser = await open(s, user.authorization);
    const asAdmin = await open(s, admin.authorization);

    emit(s, { type: 'TaskQueueStatus', data: { count: 2, countByType: { AnalyzeBook: 2 } } });
    emit(s, { type: 'ReadProgressChanged', data: { bookId: 'b1', userId: 'someone-else' } });
    emit(s, { type: 'ReadProgressChanged', data: { bookId: 'b2', userId: user.id } });
    emit(s, { type: 'LibraryChanged', data: { libraryId: 'lib-1' } });

    const userText = await asUser.until((t) => t.includes('event:LibraryChanged'));
    expect(userText).not.toContain('TaskQueueStatus');
    expect(userText).not.toContain('"b1"');
    expect(userText).toContain(`event:ReadProgressChanged\ndata:{"bookId":"b2","userId":"${user.id}"}\n\n`);

    const adminText = await asAdmin.until((t) => t.includes('event:LibraryChanged'));
    expect(adminText).toContain('event:TaskQueueStatus\ndata:{"count":2,"countByType":{"AnalyzeBook":2}}\n\n');
    expect(adminText).not.toContain('ReadProgressChanged');
  });

  it('ends the stream of the user whose session expired, after telling him', async () => {
    const { s, admin, user } = await setup();
    const asUser = await open(s, user.authorization);
    const asAdmin = await open(s, admin.authorization);

    // An admin changes the user's roles: his sessions end, and his stream with them.
    const patch = await s.fetch(`/api/v2/users/${user.id}`, {
      method: 'PATCH',
      headers: { authorization: admin.authorization },
      json: { roles: ['PAGE_STREAMING'] },
    });
    expect(patch.status).toBe(204);
    await asUser.ended();
    expect(asUser.text).toBe(`event:SessionExpired\ndata:{"userId":"${user.id}"}\n\n`);

    emit(s, { type: 'LibraryDeleted', data: { libraryId: 'lib-1' } });
    const adminText = await asAdmin.until((t) => t.includes('LibraryDeleted'));
    expect(adminText).not.toContain('SessionExpired');
    expect(asAdmin.done).toBe(false);
  });

  it('ends the streams of the sessions a password change ends, and keeps the one it was made from', async () => {
    const { s } = await setup();
    const session = async () => {
      const login = await s.fetch('/api/v2/users/me', {
        headers: {
          authorization: basic('reader@example.org', 'user-secret'),
          'user-agent': `browser ${Math.random()}`,
        },
      });
      return login.headers.getSetCookie()[0]!.split(';')[0]!;
    };
    const here = await session();
    const there = await session();
    const openWithCookie = async (cookie: string) => {
      const res = await s.fetch('/sse/v1/events', { headers: { cookie } });
      const reader = res.body!.getReader();
      streams.push(reader);
      return reader;
    };
    const hereStream = await openWithCookie(here);
    const thereStream = await openWithCookie(there);
    const change = await s.fetch('/api/v2/users/me/password', {
      method: 'PATCH',
      headers: { cookie: here, 'x-requested-with': 'XMLHttpRequest' },
      json: { password: 'user-secret-2', currentPassword: 'user-secret' },
    });
    expect(change.status).toBe(204);
    let text = '';
    for (let chunk = await thereStream.read(); !chunk.done; chunk = await thereStream.read())
      text += new TextDecoder().decode(chunk.value);
    expect(text).toContain('event:SessionExpired');
    emit(s, { type: 'LibraryAdded', data: { libraryId: 'still-here' } });
    const next = new TextDecoder().decode((await hereStream.read()).value);
    expect(next).toBe('event:LibraryAdded\ndata:{"libraryId":"still-here"}\n\n');
  });

  it('completes every stream when the server closes', async () => {
    const { s, user } = await setup();
    const stream = await open(s, user.authorization);
    const closing = s.close();
    servers = [];
    await stream.ended();
    await closing;
    expect(stream.done).toBe(true);
  });
});

describe('GET /sse/v1/events for restricted users', () => {
  /** A library shared with everyone holding a visible and an adults-only series, and a library shared with admins. */
  async function world() {
    const { s, admin } = await setup();
    const db = s.app.deps.db;
    const shared = await makeLibrary(db, { name: 'Shared' });
    const privateLib = await makeLibrary(db, { name: 'Private' });
    const visible = await makeSeriesWithBooks(db, shared, ['/tmp/visible/1.cbz'], { ageRating: 10 });
    const adults = await makeSeriesWithBooks(db, shared, ['/tmp/adults/1.cbz'], { ageRating: 18 });
    const other = await makeSeriesWithBooks(db, privateLib, ['/tmp/other/1.cbz']);
    const user = async (email: string, body: Record<string, unknown>) => {
      const res = await s.fetch('/api/v2/users', {
        method: 'POST',
        headers: { authorization: admin.authorization },
        json: { email, password: 'user-secret', ...body },
      });
      expect(res.status).toBe(201);
      return basic(email, 'user-secret');
    };
    return {
      s,
      admin,
      shared,
      privateLib,
      visible: { seriesId: visible.seriesId, bookId: visible.bookIds[0]! },
      adults: { seriesId: adults.seriesId, bookId: adults.bookIds[0]! },
      other: { seriesId: other.seriesId, bookId: other.bookIds[0]! },
      ageLimited: await user('teen@example.org', { ageRestriction: { age: 18, restriction: 'EXCLUDE' } }),
      libraryLimited: await user('shared@example.org', { sharedLibraries: { all: false, libraryIds: [shared] } }),
    };
  }

  it('sends no id of hidden content, narrows collections and read lists, and keeps admin events for admins', async () => {
    const w = await world();
    const { s } = w;
    const streams = {
      admin: await open(s, w.admin.authorization),
      ageLimited: await open(s, w.ageLimited),
      libraryLimited: await open(s, w.libraryLimited),
    };
    const asAdmin = { authorization: w.admin.authorization };

    // Real changes: metadata edits, a collection and a read list holding visible and hidden members.
    for (const id of [w.adults.seriesId, w.other.seriesId, w.visible.seriesId]) {
      const res = await s.fetch(`/api/v1/series/${id}/metadata`, {
        method: 'PATCH',
        headers: asAdmin,
        json: { summary: 'x' },
      });
      expect(res.status).toBe(204);
    }
    for (const id of [w.adults.bookId, w.other.bookId]) {
      const res = await s.fetch(`/api/v1/books/${id}/metadata`, {
        method: 'PATCH',
        headers: asAdmin,
        json: { summary: 'x' },
      });
      expect(res.status).toBe(204);
    }
    const collection = await s.fetch('/api/v1/collections', {
      method: 'POST',
      headers: asAdmin,
      json: { name: 'Mixed', ordered: true, seriesIds: [w.visible.seriesId, w.adults.seriesId, w.other.seriesId] },
    });
    const collectionId = ((await collection.json()) as { id: string }).id;
    const hiddenList = await s.fetch('/api/v1/readlists', {
      method: 'POST',
      headers: asAdmin,
      json: { name: 'Hidden', summary: '', ordered: true, bookIds: [w.adults.bookId] },
    });
    const hiddenListId = ((await hiddenList.json()) as { id: string }).id;
    // Events other work emits, with the same ids.
    emit(s, { type: 'BookAdded', data: { bookId: w.adults.bookId, seriesId: w.adults.seriesId, libraryId: w.shared } });
    emit(s, {
      type: 'ThumbnailBookAdded',
      data: { bookId: w.other.bookId, seriesId: w.other.seriesId, selected: true },
    });
    emit(s, { type: 'ThumbnailSeriesAdded', data: { seriesId: w.adults.seriesId, selected: true } });
    emit(s, { type: 'ThumbnailReadListAdded', data: { readListId: hiddenListId, selected: true } });
    emit(s, { type: 'SeriesDeleted', data: { seriesId: 'gone-shared', libraryId: w.shared } });
    emit(s, {
      type: 'BookDeleted',
      data: { bookId: 'gone-private', seriesId: 'gone-private-series', libraryId: w.privateLib },
    });
    emit(s, { type: 'LibraryChanged', data: { libraryId: w.privateLib } });
    emit(s, { type: 'TaskQueueStatus', data: { count: 1, countByType: { ScanLibrary: 1 } } });
    emit(s, { type: 'BookImported', data: { bookId: w.other.bookId, sourceFile: '/imports/x.cbz', success: true } });
    emit(s, {
      type: 'BookChanged',
      data: { bookId: w.visible.bookId, seriesId: w.visible.seriesId, libraryId: w.shared },
    });
    const done = (t: string) => t.includes(`"bookId":"${w.visible.bookId}"`);

    const admin = await streams.admin.until(done);
    for (const id of [w.adults.seriesId, w.adults.bookId, w.other.seriesId, w.other.bookId, hiddenListId, w.privateLib])
      expect(admin).toContain(id);
    expect(admin).toContain('event:TaskQueueStatus');
    expect(admin).toContain('event:BookImported');
    expect(admin).toContain(
      `event:CollectionAdded\ndata:{"collectionId":"${collectionId}","seriesIds":["${w.visible.seriesId}","${w.adults.seriesId}","${w.other.seriesId}"]}`,
    );

    const teen = await streams.ageLimited.until(done);
    const inShared = await streams.libraryLimited.until(done);
    for (const [text, hidden] of [
      [teen, [w.adults.seriesId, w.adults.bookId, hiddenListId, 'gone-shared']],
      [inShared, [w.other.seriesId, w.other.bookId, w.privateLib, 'gone-private']],
    ] as const) {
      for (const id of hidden) expect(text).not.toContain(id);
      expect(text).not.toContain('TaskQueueStatus');
      expect(text).not.toContain('BookImported');
      expect(text).toContain(
        `event:SeriesChanged\ndata:{"seriesId":"${w.visible.seriesId}","libraryId":"${w.shared}"}`,
      );
    }
    expect(teen).toContain(
      `event:CollectionAdded\ndata:{"collectionId":"${collectionId}","seriesIds":["${w.visible.seriesId}","${w.other.seriesId}"]}`,
    );
    expect(inShared).toContain(
      `event:CollectionAdded\ndata:{"collectionId":"${collectionId}","seriesIds":["${w.visible.seriesId}","${w.adults.seriesId}"]}`,
    );
    // A user restricted by library only still hears of deletions in his library.
    expect(inShared).toContain('"seriesId":"gone-shared"');
    expect(teen).toContain(`event:LibraryChanged\ndata:{"libraryId":"${w.privateLib}"}`);
  });
});

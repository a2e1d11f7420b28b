import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QuireEvent } from '@quire/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterStore, openPgPool, type PgPool } from '../../src/db/cluster.js';
import { createPgEventBus, type PgEventBus } from '../../src/events/pg-bus.js';
import { PRIORITY } from '../../src/tasks/definitions.js';
import { openPgTaskQueue } from '../../src/tasks/pg-queue.js';
import { buildLibrary, writeCbz } from '../support/library-builder.js';
import { freshDatabase } from '../support/postgres.js';
import { claim, startServer, type TestServer } from '../support/server.js';

/**
 * The real server in PostgreSQL mode (QUIRE_DATABASE_URL), with the test in the place of a second instance on the
 * same database: its tasks run on graphile-worker, a task queued by the other instance runs on it, its events reach
 * the other instance, and the other instance's events reach its SSE clients.
 */

let s: TestServer;
let pool: PgPool;
let other: PgEventBus;
let root: string;
const seenElsewhere: QuireEvent[] = [];

beforeAll(async () => {
  // Empty: this server migrates a new PostgreSQL database itself.
  const url = await freshDatabase({ empty: true });
  s = await startServer({ QUIRE_DATABASE_URL: url });
  pool = openPgPool(url, 4);
  other = await createPgEventBus(await ClusterStore.open(pool), {
    logger: { warn() {} },
    instanceId: 'the-other-instance',
  });
  other.subscribe((event) => seenElsewhere.push(event));
  root = await mkdtemp(join(tmpdir(), 'pgqueue-library-'));
}, 60_000);

afterAll(async () => {
  try {
    await other?.close();
    await s?.close();
    await pool?.end();
  } finally {
    if (root) await rm(root, { recursive: true, force: true });
  }
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('PostgreSQL mode', () => {
  it('scans and analyses on the shared queue, runs what another instance queued, and shares the events', async () => {
    const admin = await claim(s);
    const api = async (path: string, init: RequestInit & { json?: unknown } = {}) => {
      const res = await s.fetch(path, { ...init, headers: { authorization: admin.authorization } });
      expect(res.ok).toBe(true);
      return res.status === 204 ? undefined : ((await res.json()) as unknown);
    };
    await buildLibrary(root, {
      'Alpha/Alpha 1.cbz': {},
      'Alpha/Alpha 2.cbz': { seed: 2 },
      'Beta/Beta 1.cbz': { seed: 3 },
    });
    const library = (await api('/api/v1/libraries', { method: 'POST', json: { name: 'Comics', root } })) as {
      id: string;
    };
    type Page = { content: { id: string; name: string; media: { status: string } }[] };
    const books = async () => ((await api('/api/v1/books?size=100')) as Page).content;
    await until(async () => {
      const all = await books();
      return all.length === 3 && all.every((b) => b.media.status === 'READY');
    });
    await until(async () => (await s.app.tasks.counts()).count === 0);

    // What the server did reached the other instance: every book it added.
    const added = seenElsewhere.filter((e) => e.type === 'BookAdded').map((e) => (e.data as { bookId: string }).bookId);
    expect(added.sort()).toEqual((await books()).map((b) => b.id).sort());

    // A scan queued by the other instance runs on the server and finds the new book.
    await writeCbz(join(root, 'Beta/Beta 2.cbz'), { seed: 4 });
    const queue = await openPgTaskQueue(pool, await ClusterStore.open(pool));
    await queue.submit([{ kind: 'ScanLibrary', libraryId: library.id, deep: false }], PRIORITY.HIGHEST);
    await until(async () => (await books()).some((b) => b.name === 'Beta 2'));

    // An event of the other instance reaches the server's SSE client.
    const res = await s.fetch('/sse/v1/events', {
      headers: { authorization: admin.authorization, accept: 'text/event-stream' },
    });
    const reader = res.body!.getReader();
    try {
      const decoder = new TextDecoder();
      let text = '';
      other.emit({ type: 'LibraryChanged', data: { libraryId: library.id } });
      const end = Date.now() + 10_000;
      while (!text.includes('event:LibraryChanged') && Date.now() < end) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
      }
      expect(text).toContain(`event:LibraryChanged\ndata:{"libraryId":"${library.id}"}`);
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }, 120_000);
});

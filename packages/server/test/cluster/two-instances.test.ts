import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie, sleep, startServer } from '../../../../bench/support/server.mjs';
import { writeCbz } from '../support/library-builder.js';
import { databaseOf, dropDatabaseOf, onPostgres, openDataDirDatabase } from '../support/postgres.js';
import { basic } from '../support/server.js';

/*
 * Several instances behind one address (issue 20): two real server processes (the build, as `npm start` runs it) on
 * one PostgreSQL database, one data dir and one library folder, with a round-robin client in front of them. Only on
 * the PostgreSQL pass (npm run test:server:pg): SQLite is one instance by design.
 */

type Instance = Awaited<ReturnType<typeof startServer>>;
const ADMIN = { email: 'admin@example.org', password: 'admin-secret' };
const auth = basic(ADMIN.email, ADMIN.password);

let dataDir: string;
let library: string;
let databaseUrl: string;
const instances: Instance[] = [];

const start = async () => {
  const instance = await startServer({
    dataDir,
    env: { QUIRE_DATABASE_URL: databaseUrl },
    startTimeoutMs: 60_000,
    pollMs: 100,
  });
  instances.push(instance);
  return instance;
};

/** The proxy in front: each request goes to the next instance still running, in turn. */
let turn = 0;
function roundRobin(path: string, init: RequestInit = {}): Promise<Response> {
  const up = instances.filter((i) => i.alive());
  const instance = up[turn++ % up.length]!;
  return fetch(`${instance.base}${path}`, { ...init, headers: { authorization: auth, ...init.headers } });
}

async function json<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await roundRobin(path, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (res.status === 202 || res.status === 204 ? null : await res.json()) as T;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 90_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

type Book = { id: string; name: string; media: { status: string } };
const books = async () => (await json<{ content: Book[] }>('/api/v1/books?size=2000&unpaged=true')).content;
const ready = async () => (await books()).filter((b) => b.media.status === 'READY').length;

/** Finished runs of a task type over every instance, as the metrics count them (task_metric rows). */
async function runs(type: string): Promise<number> {
  const db = await openDataDirDatabase(dataDir);
  try {
    return Number((await db.value<number | null>('SELECT SUM(count) FROM task_metric WHERE type = ?', type)) ?? 0);
  } finally {
    await db.close();
  }
}

/** Copies of one small CBZ under `folder`: the analysis reads each file, so each is a task of its own. */
async function writeBooks(folder: string, count: number, seed: number) {
  const first = join(library, folder, `${folder} 001.cbz`);
  const bytes = await writeCbz(first, { pages: 3, seed });
  for (let i = 2; i <= count; i++) {
    const dir = join(library, folder);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${folder} ${String(i).padStart(3, '0')}.cbz`), bytes);
  }
}

describe.skipIf(!onPostgres())('two instances on one PostgreSQL database', () => {
  let libraryId: string;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'quire-cluster-'));
    library = await mkdtemp(join(tmpdir(), 'quire-cluster-library-'));
    databaseUrl = await databaseOf(dataDir);
    [a, b] = await Promise.all([start(), start()]);
    const claimed = await fetch(`${a.base}/api/v1/claim`, {
      method: 'POST',
      headers: { 'X-Komga-Email': ADMIN.email, 'X-Komga-Password': ADMIN.password },
    });
    expect(claimed.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await rm(dataDir, { recursive: true, force: true });
    await rm(library, { recursive: true, force: true });
    await dropDatabaseOf(dataDir);
  });

  it('processes a scan queued on one instance once, each book analysed once', async () => {
    await writeBooks('Alpha', 12, 1);
    await writeBooks('Beta', 12, 2);
    const created = await fetch(`${a.base}/api/v1/libraries`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Comics', root: library, scanOnStartup: true }),
    });
    expect(created.status).toBe(200);
    libraryId = ((await created.json()) as { id: string }).id;
    await until('24 books READY', async () => (await ready()) === 24);
    await until('an empty queue', async () => (await runs('AnalyzeBook')) >= 24);
    await sleep(1000);
    expect(await runs('AnalyzeBook')).toBe(24);
    expect(await runs('ScanLibrary')).toBe(1);
  }, 150_000);

  it('lets a session opened on one instance work on the other', async () => {
    const cookie = await sessionCookie(a.base, auth);
    const me = await fetch(`${b.base}/api/v2/users/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(ADMIN.email);
  });

  it('sends a progress saved through one instance to a browser connected to the other', async () => {
    const [book] = await books();
    const cookie = await sessionCookie(b.base, auth);
    const stream = await fetch(`${b.base}/sse/v1/events`, { headers: { cookie, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    try {
      const saved = await fetch(`${a.base}/api/v1/books/${book!.id}/read-progress`, {
        method: 'PATCH',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ page: 2 }),
      });
      expect(saved.status).toBe(204);
      const decoder = new TextDecoder();
      let text = '';
      const end = Date.now() + 15_000;
      while (!text.includes('event:ReadProgressChanged') && Date.now() < end) {
        const chunk = await Promise.race([reader.read(), sleep(1000).then(() => null)]);
        if (chunk?.done) break;
        if (chunk) text += decoder.decode(chunk.value, { stream: true });
      }
      expect(text).toContain('event:ReadProgressChanged');
      expect(text).toContain(`"bookId":"${book!.id}"`);
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }, 60_000);

  it('finishes the queue of an instance killed mid-scan on the other, nothing lost', async () => {
    const before = await runs('AnalyzeBook');
    await writeBooks('Gamma', 150, 3);
    const scan = await fetch(`${a.base}/api/v1/libraries/${libraryId}/scan`, {
      method: 'POST',
      headers: { authorization: auth },
    });
    expect(scan.status).toBe(202);
    // Killed once the scan has added the new books and some, not all, are analysed.
    await until(
      'the analysis under way',
      async () => {
        const all = await fetch(`${b.base}/api/v1/books?size=2000&unpaged=true`, { headers: { authorization: auth } });
        const content = ((await all.json()) as { content: Book[] }).content;
        return content.length === 174 && content.some((x) => x.name.startsWith('Gamma') && x.media.status === 'READY');
      },
      60_000,
    );
    await a.kill();
    // B releases what A held once A's heartbeat is stale (~15 s), and runs the rest.
    await until('every book READY on the survivor', async () => (await ready()) === 174, 120_000);
    expect(await runs('AnalyzeBook')).toBeGreaterThanOrEqual(before + 150);
  }, 240_000);

  it('fires a start-up scan once, whichever instances start', async () => {
    const before = await runs('ScanLibrary');
    // Instances started one after the other: the second finds the first's start-up scan claimed.
    const first = await start();
    await until('the first start-up scan', async () => (await runs('ScanLibrary')) > before, 60_000);
    await start();
    await sleep(5000);
    expect(await runs('ScanLibrary')).toBe(before + 1);
    expect(first.alive()).toBe(true);
  }, 150_000);
});

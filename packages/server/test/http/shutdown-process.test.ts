import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_LOG_FILE, logDirOf } from '../../src/logging.js';
import { makeImage, zipBuffer } from '../support/library-builder.js';
import { api, claim, startChild, type Child } from '../support/child-server.js';
import { openDataDirDatabase } from '../support/postgres.js';

/*
 * POST /actuator/shutdown on a real server process (the build, on a fresh data folder): the
 * process ends by itself with exit code 0, a download under way when it was asked to stop is delivered whole,
 * and the database it leaves is sound and holds what was written.
 */

const BIG = 48 * 1024 * 1024;
const FOLDERS = 40;
const BOOKS_PER_FOLDER = 20;
const BOOKS = FOLDERS * BOOKS_PER_FOLDER;
let dataDir: string;
let root: string;
const children: Child[] = [];
const basicOf = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'quire-shutdown-data-'));
  root = await mkdtemp(join(tmpdir(), 'quire-shutdown-library-'));
  // One book much bigger than the socket buffers, so that its download is still being written when asked to stop.
  const page = await makeImage('jpeg', 1, 8, 12);
  writeFileSync(
    join(root, 'Big.cbz'),
    zipBuffer([
      { name: '001.jpg', data: page },
      { name: 'padding.bin', data: randomBytes(BIG) },
    ]),
  );
}, 60_000);

afterAll(async () => {
  for (const c of children) await c.kill();
  await rm(dataDir, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

/** The error and fatal lines of a data folder's current log file. */
const errorsLogged = (dir: string) =>
  readFileSync(join(logDirOf(dir), CURRENT_LOG_FILE), 'utf8')
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line));

/** Starts a download and reads its first bytes only: the rest waits in the server until `rest()` is called. */
async function startDownload(url: string, authorization: string) {
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    get(url, { headers: { authorization } }, resolve).on('error', reject);
  });
  expect(res.statusCode).toBe(200);
  const expected = Number(res.headers['content-length']);
  let received = 0;
  const first = (await once(res, 'data')) as [Buffer];
  received += first[0].length;
  res.pause();
  return {
    expected,
    /** Reads what is left; resolves with the byte count once the response ended, rejects if it was cut. */
    rest: () =>
      new Promise<number>((resolve, reject) => {
        res.on('data', (chunk: Buffer) => (received += chunk.length));
        res.on('end', () => resolve(received));
        res.on('aborted', () => reject(new Error(`cut after ${received} bytes`)));
        res.on('error', reject);
        res.resume();
      }),
  };
}

describe('POST /actuator/shutdown (server process)', () => {
  it('refuses a user, and for an admin ends the process with code 0 after the downloads under way', async () => {
    const child = await startChild(dataDir);
    children.push(child);
    await claim(child);
    await api(child, '/api/v2/users', {
      method: 'POST',
      body: JSON.stringify({ email: 'reader@example.org', password: 'user-secret', roles: [] }),
    });
    const asUser = await fetch(`${child.base}/actuator/shutdown`, {
      method: 'POST',
      headers: { authorization: basicOf('reader@example.org', 'user-secret') },
    });
    expect(asUser.status).toBe(403);

    const { id: libraryId } = await api<{ id: string }>(child, '/api/v1/libraries', {
      method: 'POST',
      body: JSON.stringify({ name: 'Comics', root }),
    });
    let bookId: string | undefined;
    const until = Date.now() + 60_000;
    while (!bookId) {
      if (Date.now() > until) throw new Error(`no book after the scan:\n${child.output()}`);
      const page = await api<{ content: { id: string }[] }>(child, `/api/v1/books?library_id=${libraryId}`);
      bookId = page.content[0]?.id;
      if (!bookId) await new Promise((r) => setTimeout(r, 200));
    }
    expect(child.alive()).toBe(true);

    const admin = basicOf('admin@example.org', 'admin-secret');
    const download = await startDownload(`${child.base}/api/v1/books/${bookId}/file`, admin);
    expect(download.expected).toBeGreaterThan(BIG);

    const res = await fetch(`${child.base}/actuator/shutdown`, { method: 'POST', headers: { authorization: admin } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Shutting down, bye...' });
    // Give the server time to begin closing while the download is stalled, then take the rest of it.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await download.rest()).toBe(download.expected);

    if (child.alive()) await once(child.child, 'exit');
    expect(child.child.exitCode).toBe(0);
    // Closed cleanly: nothing went wrong on the way, and the next start finds a sound database with its rows.
    expect(errorsLogged(dataDir)).toEqual([]);
    expect(readFileSync(join(logDirOf(dataDir), CURRENT_LOG_FILE), 'utf8')).toContain('Quire is shutting down');
    const db = await openDataDirDatabase(dataDir);
    try {
      db.expectSound((integrity) => expect(integrity).toBe('ok'));
      const emails = (await db.rows<{ email: string }>('SELECT email FROM "user" ORDER BY email')).map((r) => r.email);
      expect(emails).toEqual(['admin@example.org', 'reader@example.org']);
      expect(await db.value('SELECT count(*) FROM book')).toBe(1);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('stops with code 0 while a scan runs; what it left queued runs at the next start, which finishes every book', async () => {
    const data = await mkdtemp(join(tmpdir(), 'quire-shutdown-scan-data-'));
    const big = await mkdtemp(join(tmpdir(), 'quire-shutdown-scan-library-'));
    try {
      const page = await makeImage('jpeg', 2, 8, 12);
      for (let f = 0; f < FOLDERS; f++) {
        const folder = join(big, `Series ${String(f).padStart(3, '0')}`);
        mkdirSync(folder, { recursive: true });
        for (let b = 1; b <= BOOKS_PER_FOLDER; b++)
          writeFileSync(
            join(folder, `Book ${String(b).padStart(2, '0')}.cbz`),
            zipBuffer([
              { name: '001.jpg', data: page },
              { name: 'id.txt', data: Buffer.from(`${f}/${b}`) },
            ]),
          );
      }
      const first = await startChild(data);
      children.push(first);
      await claim(first);
      const { id: libraryId } = await api<{ id: string }>(first, '/api/v1/libraries', {
        method: 'POST',
        body: JSON.stringify({ name: 'Many', root: big }),
      });
      // Asked to stop once the scan has committed part of its books, so while it runs (the database is watched
      // read-only, as in kill-during-scan.test.ts: an HTTP poll may wait behind the scan).
      let seen = 0;
      const deadline = Date.now() + 60_000;
      while (seen === 0 && Date.now() < deadline) {
        try {
          const watcher = await openDataDirDatabase(data, { readonly: true });
          try {
            seen = await watcher.value<number>('SELECT count(*) FROM book');
          } finally {
            await watcher.close();
          }
        } catch {
          // not created yet, or busy for a moment
        }
        if (seen === 0) await new Promise((r) => setTimeout(r, 2));
      }
      expect(seen).toBeGreaterThan(0);
      const res = await fetch(`${first.base}/actuator/shutdown`, {
        method: 'POST',
        headers: { authorization: basicOf('admin@example.org', 'admin-secret') },
      });
      expect(res.status).toBe(200);
      if (first.alive()) await once(first.child, 'exit');
      expect(first.child.exitCode).toBe(0);
      // No task failed on a database closed under it: running ones finished first (or stay queued, owned).
      expect(errorsLogged(data)).toEqual([]);
      const db = await openDataDirDatabase(data);
      try {
        db.expectSound((integrity) => expect(integrity).toBe('ok'));
        console.log(
          `asked to stop at ${seen} books; stopped with ${await db.value<number>('SELECT count(*) FROM book')} of ${BOOKS} books, tasks left:`,
          await db.rows('SELECT kind, count(*) AS n FROM task GROUP BY kind'),
        );
      } finally {
        await db.close();
      }

      const second = await startChild(data);
      children.push(second);
      const until = Date.now() + 120_000;
      const ready = async () =>
        (
          await api<{ totalElements: number }>(
            second,
            `/api/v1/books?library_id=${libraryId}&size=1&media_status=READY`,
          )
        ).totalElements;
      while ((await ready()) < BOOKS) {
        if (Date.now() > until) throw new Error(`not finished after the restart:\n${second.output()}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      await second.stop();
      expect(second.child.exitCode).toBe(0);
    } finally {
      await rm(data, { recursive: true, force: true });
      await rm(big, { recursive: true, force: true });
    }
  }, 240_000);
});

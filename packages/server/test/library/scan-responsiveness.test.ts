import { closeSync, mkdirSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchTurns } from '../support/event-loop.js';
import { claim, startServer, type TestServer } from '../support/server.js';

/*
 * Issue 11 finding 7: a library rooted at `/` was accepted, and its scan made `/actuator/health` time out. Roots
 * like that are refused now (http/libraries.test.ts), but a big library is legitimate: the API must stay
 * responsive while it is scanned. This tree has 200,000 entries, like a large `/usr`: 20,000 folders of nine
 * files, one of them a book (20,000 books to persist). Before the fix the walk queued every folder's calls on
 * libuv's thread pool at once (health waited seconds for its statfs), and the whole outcome was written in one
 * transaction that held the event loop and the database connection.
 */

const FOLDERS = 20_000;
const FILES_PER_FOLDER = 9;
/** The bound: no turn of the event loop may do more work than this, so health answers within it. */
const GOAL_MS = 200;
/**
 * Wall-clock times also count the time this process waits for a core, and this machine's two cores are shared
 * (other test files, other work): with two busy processes beside it, a 10 ms transaction took 200 ms of wall
 * time. So the work the event loop does in one turn is measured as the CPU time of the main thread, which the
 * rest of the machine does not inflate, and held to the goal; health answers are held to looser bounds. Quiet,
 * health answers within 65 ms (99%) and 76 ms at most; before the fix, 7.9 s, and the loop was held 6.7 s.
 */
const HEALTH_MEDIAN_MS = 100;
const HEALTH_MAX_MS = 1_000;

let s: TestServer;
let auth: string;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'quire-big-tree-'));
  // Empty files: this measures the walk and the database writes, not archive reading.
  for (let d = 0; d < FOLDERS; d++) {
    const folder = join(root, `shelf ${Math.floor(d / 200)}`, `Series ${d}`);
    mkdirSync(folder, { recursive: true });
    closeSync(openSync(join(folder, `Book ${d}.cbz`), 'w'));
    for (let f = 1; f < FILES_PER_FOLDER; f++) closeSync(openSync(join(folder, `notes ${f}.txt`), 'w'));
  }
  s = await startServer();
  auth = (await claim(s)).authorization;
}, 300_000);

afterAll(async () => {
  await s?.close();
  await rm(root, { recursive: true, force: true });
});

describe('a scan of a 200,000-entry tree', () => {
  it(`never holds the event loop for more than ${GOAL_MS} ms of work; health keeps answering`, async () => {
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const created = await s.fetch('/api/v1/libraries', {
      method: 'POST',
      headers: { authorization: auth },
      json: { name: 'Big', root },
    });
    expect(created.status).toBe(200);
    const libraryId = ((await created.json()) as { id: string }).id;
    loop.enable();
    const turns = watchTurns();

    const health: number[] = [];
    const scanning = async () => (await s.app.tasks.counts()).countByType.ScanLibrary !== undefined;
    const started = Date.now();
    while ((await scanning()) && Date.now() - started < 240_000) {
      const t = performance.now();
      const res = await s.fetch('/actuator/health');
      await res.text();
      health.push(performance.now() - t);
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 25));
    }
    loop.disable();
    turns.stop();

    const books = await s.fetch(`/api/v1/books?library_id=${libraryId}&size=1`, { headers: { authorization: auth } });
    expect(((await books.json()) as { totalElements: number }).totalElements).toBe(FOLDERS);
    health.sort((a, b) => a - b);
    const figures = {
      scanSeconds: (Date.now() - started) / 1000,
      healthRequests: health.length,
      healthMedianMs: Math.round(health[Math.floor(health.length / 2)]!),
      healthP99Ms: Math.round(health[Math.floor(health.length * 0.99)]!),
      healthMaxMs: Math.round(health[health.length - 1]!),
      loopMaxMs: Math.round(loop.max / 1e6),
      loopP99Ms: Math.round(loop.percentile(99) / 1e6),
      longestTurnWorkMs: Math.round(turns.longest.workMs),
    };
    console.log('scan of 200,000 entries:', figures);
    expect(health.length).toBeGreaterThan(10);
    expect(figures.longestTurnWorkMs).toBeLessThan(GOAL_MS);
    expect(figures.healthMedianMs).toBeLessThan(HEALTH_MEDIAN_MS);
    expect(figures.healthMaxMs).toBeLessThan(HEALTH_MAX_MS);
  }, 300_000);
});

/**
 * Heavy parsing stays off the event loop (issue 11, finding 7): a 10,000-spine EPUB (the most the spine limit
 * allows) takes seconds of analysis, during which the event loop must stay free and `/actuator/health` keep
 * answering.
 *
 * As in scan-responsiveness.test.ts, the work the event loop does in one turn is measured as the CPU time of the
 * main thread (the server runs in this process), which the rest of this shared 2-core machine does not inflate: a
 * whole test run put 568 ms of wall time on one health answer while the loop was free. Health answers are held to
 * looser bounds.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { manySpineItemsEpub } from '../support/hostile-files.js';
import { claim, startServer } from '../support/server.js';

/** The bound: no turn of the event loop may do more work than this while the book is analysed. */
const GOAL_MS = 200;
const HEALTH_MEDIAN_MS = 100;
const HEALTH_MAX_MS = 1_000;

/** CPU time used so far by this process's main thread (the one running the server's event loop), in ms. */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 1/100 s
}

/** CPU time used so far by this whole process (every thread), in ms. */
function processCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The longest turn of the event loop, in main-thread CPU time (the work done in it). */
function watchTurns() {
  let wall = performance.now();
  let cpu = mainThreadCpuMs();
  const longest = { workMs: 0 };
  const timer = setInterval(() => {
    const nowWall = performance.now();
    const nowCpu = mainThreadCpuMs();
    longest.workMs = Math.max(longest.workMs, Math.min(nowWall - wall - 10, nowCpu - cpu));
    wall = nowWall;
    cpu = nowCpu;
  }, 10);
  return { longest, stop: () => clearInterval(timer) };
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

it(`analyses a 10,000-spine EPUB off the main thread, never holding the event loop for ${GOAL_MS} ms`, async () => {
  const root = await mkdtemp(join(tmpdir(), 'quire-epub-spine-'));
  dirs.push(root);
  await manySpineItemsEpub(join(root, 'spine/long-spine.epub'), 10_000);
  const s = await startServer();
  try {
    const { authorization } = await claim(s);
    const created = await s.fetch('/api/v1/libraries', {
      method: 'POST',
      headers: { authorization },
      json: { name: 'Spine', root },
    });
    expect(created.status).toBe(200);
    const turns = watchTurns();
    const cpuBefore = mainThreadCpuMs();
    const processBefore = processCpuMs();
    const health: number[] = [];
    let status = 'UNKNOWN';
    const started = performance.now();
    while (status === 'UNKNOWN' && performance.now() - started < 120_000) {
      const t = performance.now();
      const res = await s.fetch('/actuator/health');
      await res.text();
      health.push(performance.now() - t);
      expect(res.status).toBe(200);
      // the scan queues the analysis: done when neither is left (read in process: no request on the loop)
      const queued = (await s.app.tasks.counts()).countByType;
      if (queued.ScanLibrary === undefined && queued.AnalyzeBook === undefined) status = 'DONE';
      await new Promise((r) => setTimeout(r, 25));
    }
    turns.stop();
    const books = (await (await s.fetch('/api/v1/books?unpaged=true', { headers: { authorization } })).json()) as {
      content: { media: { status: string } }[];
    };
    status = books.content[0]?.media.status ?? 'UNKNOWN';
    const mainThreadMs = mainThreadCpuMs() - cpuBefore;
    const processMs = processCpuMs() - processBefore;
    health.sort((a, b) => a - b);
    const figures = {
      status,
      analysisMs: Math.round(performance.now() - started),
      healthRequests: health.length,
      healthMedianMs: Math.round(health[health.length >> 1]!),
      healthMaxMs: Math.round(health.at(-1)!),
      longestTurnWorkMs: Math.round(turns.longest.workMs),
      mainThreadMs,
      processMs,
    };
    console.log('10,000-spine EPUB analysis:', figures);
    expect(status).toBe('READY');
    expect(health.length).toBeGreaterThan(5); // the analysis was long enough to matter
    expect(figures.longestTurnWorkMs).toBeLessThan(GOAL_MS);
    // The analysis itself runs on a worker thread: the main thread did the requests, not the parsing (16% of the
    // process's CPU measured, where the analysis on the main thread made it 60%; its turns stayed under 70 ms
    // either way, as the analysis awaits its reads, so the share is what tells the two apart).
    expect(mainThreadMs / processMs).toBeLessThan(0.35);
    expect(figures.healthMedianMs).toBeLessThan(HEALTH_MEDIAN_MS);
    expect(figures.healthMaxMs).toBeLessThan(HEALTH_MAX_MS);
  } finally {
    await s.close();
  }
}, 180_000);

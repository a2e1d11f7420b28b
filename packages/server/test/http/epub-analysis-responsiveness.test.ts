/**
 * Heavy parsing stays off the event loop (issue 11, finding 7): a 10,000-spine EPUB (the most the spine limit
 * allows) takes seconds of analysis, during which `/actuator/health` must keep answering quickly. The built server
 * runs as a child process, so that the event loop measured is the server's own.
 *
 * A health answer's wall time also counts the time the server waits for a core, and this machine's two cores are
 * shared (a whole test run put 568 ms on one answer): what the event loop did meanwhile is the CPU time of the
 * server's main thread during the request, which the rest of the machine does not inflate. An answer is late
 * because of the server only if both are long; that is held to 200 ms.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SERVER_MAIN, claim, createLibrary, sleep, startServer } from '../../../../bench/support/server.mjs';
import { manySpineItemsEpub } from '../support/hostile-files.js';

// `npm test` builds first; without a build this fails instead of passing by skipping.
if (!existsSync(SERVER_MAIN)) throw new Error(`Build the server first (npm run build): ${SERVER_MAIN} is missing`);

/** CPU time used so far by a process's main thread (the one running its event loop), in ms. */
async function mainThreadCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 1/100 s
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

it('keeps /actuator/health from waiting 200 ms on the event loop while a 10,000-spine EPUB is analysed', async () => {
  const root = await mkdtemp(join(tmpdir(), 'quire-epub-spine-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'quire-epub-spine-data-'));
  dirs.push(root, dataDir);
  await manySpineItemsEpub(join(root, 'spine/long-spine.epub'), 10_000);
  const server = await startServer({ dataDir });
  try {
    const authorization = await claim(server.base);
    await createLibrary(server.base, authorization, { name: 'Spine', root });
    const health: number[] = [];
    /** Per answer: the shorter of its wall time and the main thread's CPU time during it. */
    const blocked: number[] = [];
    let status = 'UNKNOWN';
    const started = performance.now();
    while (status === 'UNKNOWN' && performance.now() - started < 120_000) {
      const t = performance.now();
      const cpu = await mainThreadCpuMs(server.pid);
      expect((await fetch(`${server.base}/actuator/health`)).status).toBe(200);
      const wall = performance.now() - t;
      health.push(wall);
      blocked.push(Math.min(wall, (await mainThreadCpuMs(server.pid)) - cpu));
      const books = (await (
        await fetch(`${server.base}/api/v1/books?unpaged=true`, { headers: { authorization } })
      ).json()) as { content: { media: { status: string } }[] };
      status = books.content[0]?.media.status ?? 'UNKNOWN';
      await sleep(50);
    }
    const analysisMs = performance.now() - started;
    console.log(
      `10,000-spine EPUB: ${status} after ${Math.round(analysisMs)} ms; health over ${health.length} probes:`,
      `median ${Math.round(health.sort((a, b) => a - b)[health.length >> 1]!)} ms, worst ${Math.round(health.at(-1)!)} ms;`,
      `blocked at worst ${Math.max(...blocked)} ms`,
    );
    expect(status).toBe('READY');
    // the analysis was long enough to matter: many probes ran while it did
    expect(health.length).toBeGreaterThan(5);
    expect(Math.max(...blocked)).toBeLessThan(200);
  } finally {
    await server.stop();
  }
}, 180_000);

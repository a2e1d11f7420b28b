/**
 * Hostile RAR and 7z books (issue 11, findings 3 and 7), beside the ZIP ones of hostile-books.test.ts: bombs by
 * ratio and by size, and archives of more entries than the limit, each refused at analysis with `ERR_1008
 * [reason]`; and a 7z page that inflates past the entry limit, which must answer at once and leave no 7-Zip
 * decoding behind. The built server runs as a child process, so that its memory and CPU time are its own (/proc).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVER_MAIN,
  claim,
  cpuSeconds,
  createLibrary,
  memoryMb,
  sleep,
  startServer,
} from '../../../../bench/support/server.mjs';
import { rar5, sevenZip } from '../support/hostile-archives.js';
import { smallPng } from '../support/hostile-files.js';

const MiB = 1024 * 1024;
/** The entry limit of these tests' server (QUIRE_MAX_ENTRY_MB): bombs of real data stay quick to generate. */
const ENTRY_LIMIT_MB = 64;
/** What the whole run may cost the server at its peak, in MiB (as hostile-books.test.ts). */
const PEAK_RSS_BOUND_MB = 350;

interface Book {
  id: string;
  name: string;
  media: { status: string; comment: string; pagesCount: number };
}

type Server = Awaited<ReturnType<typeof startServer>>;

async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every book of the server once `count` are analysed, by name. */
async function analysed(server: Server, authorization: string, count: number): Promise<Map<string, Book>> {
  const books = await waitFor(async () => {
    const res = await fetch(`${server.base}/api/v1/books?unpaged=true`, { headers: { authorization } });
    const page = (await res.json()) as { content: Book[] };
    const done = page.content.filter((b) => b.media.status !== 'UNKNOWN');
    return done.length === count && page.content;
  }, 90_000);
  return new Map(books.map((b) => [b.name, b]));
}

/** Until the process has used less than 50 ms of CPU in half a second. */
async function quiet(pid: number): Promise<void> {
  const until = Date.now() + 60_000;
  for (let cpu = await cpuSeconds(pid); Date.now() < until;) {
    await sleep(500);
    const now = await cpuSeconds(pid);
    if (now - cpu < 0.05) return;
    cpu = now;
  }
  throw new Error('the server did not go quiet');
}

/** A PNG whose entry goes on with `padding` zero bytes: typed and sized from its header, however long it is. */
const paddedPng = async (padding: number) => Buffer.concat([await smallPng(), Buffer.alloc(padding)]);

// `npm test` builds first; without a build this fails instead of passing by skipping.
if (!existsSync(SERVER_MAIN)) throw new Error(`Build the server first (npm run build): ${SERVER_MAIN} is missing`);

const dirs: string[] = [];
const tempDir = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('hostile RAR and 7z books (built server in a child process)', () => {
  let server: Server;
  let authorization: string;
  let books: Map<string, Book>;
  const book = (name: string) => {
    const b = books.get(name);
    if (!b) throw new Error(`no book ${name}`);
    return b;
  };

  beforeAll(async () => {
    const root = await tempDir('quire-hostile-archives-');
    const png = await smallPng();
    const tiny = await smallPng(1, 1);
    const many = Array.from({ length: 20_001 }, (_, i) => ({ name: `${String(i).padStart(6, '0')}.png`, data: tiny }));
    // RAR headers declaring what a bomb would unpack (see support/hostile-archives.ts for why forged)
    await rar5(join(root, 'rar-ratio/rar-ratio-bomb.cbr'), [
      { name: '001.png', data: png },
      { name: '002.png', data: png, declaredSize: 40 * MiB },
    ]);
    await rar5(join(root, 'rar-size/rar-size-bomb.cbr'), [
      { name: '001.png', data: png },
      { name: '002.png', data: png, declaredSize: 1024 * MiB },
    ]);
    await rar5(join(root, 'rar-entries/rar-many-entries.cbr'), many);
    // real 7z bombs: 40 MiB and 100 MiB of zeros after a PNG header, a few kilobytes each on disk
    await sevenZip(join(root, '7z-ratio/7z-ratio-bomb.cb7'), [
      { name: '001.png', data: png },
      { name: '002.png', data: await paddedPng(40 * MiB) },
    ]);
    await sevenZip(join(root, '7z-size/7z-size-bomb.cb7'), [
      { name: '001.png', data: png },
      { name: '002.png', data: await paddedPng(100 * MiB) },
    ]);
    await sevenZip(join(root, '7z-entries/7z-many-entries.cb7'), many);

    server = await startServer({
      dataDir: await tempDir('quire-hostile-archives-data-'),
      env: { QUIRE_MAX_ENTRY_MB: String(ENTRY_LIMIT_MB) },
    });
    authorization = await claim(server.base);
    await createLibrary(server.base, authorization, { name: 'Hostile archives', root });
    books = await analysed(server, authorization, 6);
  }, 180_000);

  afterAll(async () => {
    if (server) console.log('hostile-archives peak RSS (MiB):', (await memoryMb(server.pid)).hwm);
    await server?.stop();
  });

  it('refuses a RAR bomb by ratio from its headers', () => {
    const b = book('rar-ratio-bomb');
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toMatch(/^ERR_1008 \[entry "002\.png": 40\.0 MiB from .* over the ratio limit of 100\]$/);
  });

  it('refuses a RAR bomb by declared size from its headers', () => {
    const b = book('rar-size-bomb');
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toBe('ERR_1008 [entry "002.png": 1.0 GiB uncompressed, over the 64.0 MiB limit]');
  });

  it('refuses a 7z bomb by ratio (solid: the whole archive against its file)', () => {
    const b = book('7z-ratio-bomb');
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toMatch(
      /^ERR_1008 \[40\.0 MiB uncompressed from a .* archive \(ratio \d+\), over the ratio limit of 100\]$/,
    );
  });

  it('refuses a 7z bomb by size', () => {
    const b = book('7z-size-bomb');
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toBe('ERR_1008 [entry "002.png": 100.0 MiB uncompressed, over the 64.0 MiB limit]');
  });

  it.each(['rar-many-entries', '7z-many-entries'])('refuses %s (20,001 entries) at analysis', (name) => {
    const b = book(name);
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toBe('ERR_1008 [more than 20000 entries]');
  });

  it('keeps the server under its memory bound through all of the above', async () => {
    expect((await memoryMb(server.pid)).hwm).toBeLessThan(PEAK_RSS_BOUND_MB);
  });
});

describe('a 7z page that inflates past the entry limit', () => {
  it('answers 422 at once, and 7-Zip stops decoding (also when the client leaves)', async () => {
    const root = await tempDir('quire-7z-cap-');
    const dataDir = await tempDir('quire-7z-cap-data-');
    await sevenZip(join(root, 'capped/capped.cb7'), [
      { name: '001.png', data: await smallPng() },
      { name: '002.png', data: await paddedPng(100 * MiB) },
    ]);
    // Analysed under limits it passes; then the server restarts with a 4 MiB entry limit (as if the file had been
    // swapped after analysis): page 2 is READY, and reading it inflates past the limit.
    const lenient = await startServer({
      dataDir,
      env: { QUIRE_MAX_ENTRY_MB: '512', QUIRE_MAX_ENTRY_RATIO: '1000000' },
    });
    const authorization = await claim(lenient.base);
    await createLibrary(lenient.base, authorization, { name: 'Capped', root });
    const b = (await analysed(lenient, authorization, 1)).get('capped')!;
    expect(b.media.status).toBe('READY');
    expect(b.media.pagesCount).toBe(2);
    // the tasks that follow analysis (poster, hashes) read the pages too: wait for them to end
    await quiet(lenient.pid);
    // A client that leaves while the page inflates: the decode stops with it (the thread running it is ended).
    const leaving = new AbortController();
    const request = fetch(`${lenient.base}/api/v1/books/${b.id}/pages/2`, {
      headers: { authorization },
      signal: leaving.signal,
    }).catch(() => undefined);
    await sleep(300);
    leaving.abort();
    await request;
    await sleep(500);
    const cpuAfterLeaving = await cpuSeconds(lenient.pid);
    await sleep(1000);
    expect((await cpuSeconds(lenient.pid)) - cpuAfterLeaving).toBeLessThan(0.2);
    await lenient.stop();

    const server = await startServer({ dataDir, env: { QUIRE_MAX_ENTRY_MB: '4' } });
    try {
      await quiet(server.pid);
      const started = performance.now();
      const res = await fetch(`${server.base}/api/v1/books/${b.id}/pages/2`, { headers: { authorization } });
      const ms = performance.now() - started;
      expect(res.status).toBe(422);
      expect(await res.text()).toMatch(/inflates past the 4\.0 MiB limit/);
      // decoding the whole entry takes seconds (100 MiB through 7-Zip's stdout); the first 4 MiB a fraction
      expect(ms).toBeLessThan(1500);
      // and nothing goes on decoding once answered
      const cpu = await cpuSeconds(server.pid);
      await sleep(1000);
      expect((await cpuSeconds(server.pid)) - cpu).toBeLessThan(0.2);
    } finally {
      await server.stop();
    }
  }, 180_000);
});

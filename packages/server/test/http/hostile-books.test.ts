/**
 * Hostile books (issue 11, findings 3 and 7): small files that would cost the server gigabytes or minutes are
 * refused at analysis with a comment saying which limit, or served without decoding what is too big; the built
 * server runs as a child process so that its memory (VmHWM, the peak resident set) is its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from '../support/server.js';
import {
  declaredHuge,
  giantJpeg,
  giantPng,
  manyEntriesCbz,
  manySpineItemsEpub,
  onePageCbz,
  paddedJpegCbz,
  zipBomb,
} from '../support/hostile-files.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const MiB = 1024 * 1024;
/** What the whole run may cost the server at its peak: an idle server with libvips loaded is ~150 MB. */
const PEAK_RSS_BOUND = 450 * MiB;

const ADMIN = { email: 'admin@example.org', password: 'admin-secret' };
const auth = { Authorization: basic(ADMIN.email, ADMIN.password) };

interface Book {
  id: string;
  name: string;
  media: { status: string; comment: string; pagesCount: number };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A `/proc/<pid>/status` field in bytes (VmRSS: now; VmHWM: the peak so far). */
function memory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!existsSync(MAIN))('hostile books (built server in a child process)', () => {
  let child: ChildProcess;
  let url: string;
  let root: string;
  let dataDir: string;
  const books = new Map<string, Book>();
  /** Milliseconds each timed request took, for the report. */
  const timings: Record<string, number> = {};

  const get = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${url}${path}`, { headers: auth });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, body, type: res.headers.get('content-type'), ms: performance.now() - started };
  };
  const book = (name: string) => {
    const b = books.get(name);
    if (!b) throw new Error(`no book ${name}`);
    return b;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'quire-hostile-'));
    dataDir = await mkdtemp(join(tmpdir(), 'quire-hostile-data-'));
    await zipBomb(join(root, 'ratio/ratio-bomb.cbz'), 200 * MiB); // ~200 KB on disk
    await zipBomb(join(root, 'size/size-bomb.cbz'), 1024 * MiB); // ~1 MB on disk
    await declaredHuge(join(root, 'declared/declared-huge.cbz'), 0xf0000000);
    await onePageCbz(join(root, 'png/giant-png.cbz'), '001.png', giantPng(16000, 16000));
    await onePageCbz(join(root, 'jpeg/giant-jpeg.cbz'), '001.jpg', await giantJpeg(16000, 16000));
    await paddedJpegCbz(join(root, 'poster/padded-poster.cbz'), 900 * 1024);
    await manyEntriesCbz(join(root, 'entries/many-entries.cbz'), 100_000);
    await manySpineItemsEpub(join(root, 'spine/many-spine.epub'), 50_000);

    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        QUIRE_PORT: String(port),
        QUIRE_HOST: '127.0.0.1',
        QUIRE_DATA_DIR: dataDir,
        QUIRE_LOG_STDOUT: 'false',
      },
      stdio: 'ignore',
    });
    await waitFor(
      () =>
        fetch(`${url}/actuator/health`).then(
          (r) => r.ok,
          () => false,
        ),
      20_000,
    );
    const claimed = await fetch(`${url}/api/v1/claim`, {
      method: 'POST',
      headers: { 'X-Komga-Email': ADMIN.email, 'X-Komga-Password': ADMIN.password },
    });
    expect(claimed.status).toBe(200);
    const library = await fetch(`${url}/api/v1/libraries`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Hostile', root }),
    });
    expect(library.status).toBe(200);
    const scanned = performance.now();
    const analysed = await waitFor(async () => {
      const page = (await (await fetch(`${url}/api/v1/books?unpaged=true`, { headers: auth })).json()) as {
        content: Book[];
      };
      const done = page.content.filter((b) => b.media.status !== 'UNKNOWN');
      return done.length === 8 && page.content;
    }, 40_000);
    timings['scan and analysis of the 8 books'] = performance.now() - scanned;
    for (const b of analysed) books.set(b.name, b);
  }, 90_000);

  afterAll(async () => {
    console.log(
      'hostile-books timings (ms):',
      timings,
      'peak RSS (MB):',
      child?.pid && memory(child.pid, 'VmHWM') / MiB,
    );
    child?.kill('SIGTERM');
    await rm(root, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a ZIP bomb by ratio at analysis, saying which entry and limit', async () => {
    const b = book('ratio-bomb');
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toMatch(/^ERR_1008 \[entry "002\.png": 200\.0 MiB from .* over the ratio limit of 100\]$/);
    const page = await get(`/api/v1/books/${b.id}/pages/2`);
    timings['ratio-bomb page 2'] = page.ms;
    expect(page.status).toBe(404);
  });

  it('refuses a 1 GiB entry at analysis; its page answers at once without inflating it', async () => {
    const b = book('size-bomb');
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toBe('ERR_1008 [entry "002.png": 1.0 GiB uncompressed, over the 256.0 MiB limit]');
    const page = await get(`/api/v1/books/${b.id}/pages/2`);
    timings['size-bomb page 2'] = page.ms;
    expect(page.status).toBe(404);
    expect(page.ms).toBeLessThan(2000);
    const poster = await get(`/api/v1/books/${b.id}/thumbnail`);
    expect(poster.body.length).toBeLessThan(200 * 1024);
  });

  it('refuses an entry whose header declares 3.75 GiB', async () => {
    const b = book('declared-huge');
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toBe('ERR_1008 [entry "002.png": 3.8 GiB uncompressed, over the 256.0 MiB limit]');
  });

  it.each([
    ['giant-png', 'jpeg'],
    ['giant-jpeg', 'png'],
  ])('serves %s (16000×16000 declared) as it is, and refuses to convert or thumbnail it', async (name, to) => {
    const b = book(name);
    expect(b.media.status).toBe('READY');
    const raw = await get(`/api/v1/books/${b.id}/pages/1`);
    expect(raw.status).toBe(200);
    expect(raw.body.length).toBeLessThan(1 * MiB);
    const converted = await get(`/api/v1/books/${b.id}/pages/1?convert=${to}`);
    timings[`${name} convert=${to}`] = converted.ms;
    expect(converted.status).toBe(422);
    expect(converted.body.toString()).toMatch(/16000×16000 pixels is over the limit of 100 megapixels/);
    expect(converted.ms).toBeLessThan(2000);
    const thumbnail = await get(`/api/v1/books/${b.id}/pages/1/thumbnail`);
    timings[`${name} page thumbnail`] = thumbnail.ms;
    expect(thumbnail.status).toBe(422);
    // no poster could be made from it: none is served
    expect((await get(`/api/v1/books/${b.id}/thumbnail`)).type).not.toMatch(/^image\/jpeg/);
  });

  it('makes a small poster from a page padded with a megabyte after its picture', async () => {
    const b = book('padded-poster');
    expect(b.media.status).toBe('READY');
    const poster = await waitFor(async () => {
      const r = await get(`/api/v1/books/${b.id}/thumbnail`);
      return r.status === 200 && r.type?.startsWith('image/jpeg') && r;
    }, 15_000);
    expect(poster.body.length).toBeLessThan(100 * 1024);
  });

  it('refuses a CBZ of 100,000 entries at analysis; its pages answer at once', async () => {
    const b = book('many-entries');
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toBe('ERR_1008 [more than 20000 entries]');
    const list = await get(`/api/v1/books/${b.id}/pages`);
    timings['many-entries /pages'] = list.ms;
    expect(list.status).toBe(404);
    const last = await get(`/api/v1/books/${b.id}/pages/100000`);
    timings['many-entries /pages/100000'] = last.ms;
    expect(last.status).toBe(404);
    expect(last.ms).toBeLessThan(1000);
  });

  it('refuses an EPUB of 50,000 spine items at analysis', async () => {
    const b = book('many-spine');
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toBe('ERR_1008 [50000 spine items, over the limit of 10000]');
  });

  it('keeps the server under its memory bound through all of the above', () => {
    expect(memory(child.pid!, 'VmHWM')).toBeLessThan(PEAK_RSS_BOUND);
  });
});

/**
 * Hostile books (issue 11, findings 3 and 7): small files that would cost the server gigabytes or minutes are
 * refused at analysis with a comment saying which limit, or served without decoding what is too big; the built
 * server runs as a child process so that its memory (VmHWM, the peak resident set) is its own.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MAIN, claim, createLibrary, memoryMb, startServer } from '../../../../bench/support/server.mjs';
import {
  declaredHuge,
  deeplyNestedEpub,
  entityBombEpub,
  giantJpeg,
  giantPng,
  manyEntriesCbz,
  manySpineItemsEpub,
  onePageCbz,
  paddedJpegCbz,
  zipBomb,
} from '../support/hostile-files.js';
import { writeCbz } from '../support/library-builder.js';

const MiB = 1024 * 1024;
/** What the whole run may cost the server at its peak, in MiB: an idle server with libvips loaded is ~150. */
const PEAK_RSS_BOUND_MB = 350;
const BOOKS = 11;
const SECRET = 'root:x:0:0:the-secret-of-the-server';

interface Book {
  id: string;
  name: string;
  media: { status: string; comment: string; pagesCount: number };
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

// `npm test` builds first; without a build this fails instead of passing by skipping.
if (!existsSync(SERVER_MAIN)) throw new Error(`Build the server first (npm run build): ${SERVER_MAIN} is missing`);

describe('hostile books (built server in a child process)', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let authorization: string;
  let root: string;
  let dataDir: string;
  const books = new Map<string, Book>();
  /** Milliseconds each timed request took, for the report. */
  const timings: Record<string, number> = {};

  const get = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${server.base}${path}`, { headers: { authorization } });
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
    // a file no book may read, and what it holds
    await writeFile(join(dataDir, 'secret.txt'), SECRET);
    await entityBombEpub(join(root, 'entities/entity-bomb.epub'), join(dataDir, 'secret.txt'));
    await writeCbz(join(root, 'entities-comic/entity-bomb-comic.cbz'), {
      comicInfo: `<?xml version="1.0"?><!DOCTYPE ComicInfo [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY xxe SYSTEM "file://${join(dataDir, 'secret.txt')}">]><ComicInfo><Title>Laughs &lol1; &xxe;</Title></ComicInfo>`,
    });
    await deeplyNestedEpub(join(root, 'nested/deeply-nested.epub'), 100_000);

    server = await startServer({ dataDir });
    authorization = await claim(server.base);
    const scanned = performance.now();
    await createLibrary(server.base, authorization, { name: 'Hostile', root });
    const analysed = await waitFor(async () => {
      const page = (await (
        await fetch(`${server.base}/api/v1/books?unpaged=true`, { headers: { authorization } })
      ).json()) as {
        content: Book[];
      };
      const done = page.content.filter((b) => b.media.status !== 'UNKNOWN');
      return done.length === BOOKS && page.content;
    }, 40_000);
    timings[`scan and analysis of the ${BOOKS} books`] = performance.now() - scanned;
    for (const b of analysed) books.set(b.name, b);
  }, 90_000);

  afterAll(async () => {
    if (server)
      console.log('hostile-books timings (ms):', timings, 'peak RSS (MiB):', (await memoryMb(server.pid)).hwm);
    await server?.stop();
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

  it('reads markup without expanding the entities a book declares, nor reading the files they name', async () => {
    for (const [name, title] of [
      ['entity-bomb', 'Laughs &lol9; &xxe;'],
      ['entity-bomb-comic', 'Laughs &lol1; &xxe;'],
    ]) {
      const b = book(name!);
      expect(b.media.status).toBe('READY');
      // the title comes from the OPF or ComicInfo.xml once the metadata refresh has run: as written
      const read = await waitFor(async () => {
        const r = JSON.parse((await get(`/api/v1/books/${b.id}`)).body.toString()) as { metadata: { title: string } };
        return r.metadata.title === title && r;
      }, 15_000);
      expect(JSON.stringify(read)).not.toContain('the-secret-of-the-server');
    }
  });

  it('refuses an EPUB whose package document nests 100,000 elements deep', async () => {
    const b = book('deeply-nested');
    expect(b.media.status).toBe('ERROR');
    expect(b.media.comment).toBe('ERR_1008 [markup nested more than 512 elements deep]');
  });

  it('keeps the server under its memory bound through all of the above', async () => {
    expect((await memoryMb(server.pid)).hwm).toBeLessThan(PEAK_RSS_BOUND_MB);
  });
});

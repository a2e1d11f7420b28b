import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipReader } from '../../src/media/archives/index.js';
import { hashFile, hashPage } from '../../src/media/hash.js';
import { makeImage, zipBuffer } from '../support/library-builder.js';
import { claim, startServer, type TestServer } from '../support/server.js';

/*
 * Issue 18: a ZIP's analysis reads every page whole to check it, so the poster is made from the first page it
 * read, in the same task, instead of a GenerateBookThumbnail task opening the archive again for the same bytes;
 * and in a library that hashes pages, the page hashes come from the same bytes. What a user sees must not change:
 * the poster is the book's first page in reading order (natural order of the names, not the order of the
 * archive's entries), and the page hashes are those HashBookPages computes from the pages as they stream. A first
 * page that cannot make a poster: unservable-pages.test.ts. The file hash (engine.md §5.1) comes from the same read
 * too: HashBook, which the scan still queues, then finds it set and reads nothing. So does ComicInfo.xml for the
 * metadata refresh that follows the analysis.
 */

let s: TestServer;
let admin: string;
let dir: string;
let libraryId: string;
let hashingLibraryId: string;
let comicInfoLibraryId: string;
const comicInfoBook = (title: string) =>
  zipBuffer([
    { name: '1.png', data: PNG_PAGE },
    { name: 'ComicInfo.xml', data: Buffer.from(`<ComicInfo><Title>${title}</Title></ComicInfo>`) },
  ]);
let PNG_PAGE: Buffer;

const solidJpeg = (rgb: [number, number, number], width = 800, height = 1200) =>
  sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .jpeg()
    .toBuffer();
/** Mean colour of an image: tells posters made from differently coloured pages apart. */
const colour = async (b: Uint8Array) => (await sharp(b).stats()).channels.slice(0, 3).map((c) => Math.round(c.mean));
const RED: [number, number, number] = [220, 20, 20];
const BLUE: [number, number, number] = [20, 20, 220];

const get = (path: string) => s.fetch(path, { headers: { authorization: admin } });
async function settled(timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < 3) {
    quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
    if (Date.now() > until) throw new Error('Timed out waiting for the task queue');
    await new Promise((r) => setTimeout(r, 20));
  }
}
const bookNamed = async (name: string, library = libraryId) => {
  const res = await get(`/api/v1/books?library_id=${library}&unpaged=true`);
  const books = ((await res.json()) as { content: { id: string; name: string; media: { status: string } }[] }).content;
  return books.find((b) => b.name === name)!;
};
const taskRuns = async (type: string) => {
  const res = await get(`/actuator/metrics/komga.tasks.execution?tag=type:${type}`);
  if (res.status === 404) return 0;
  const body = (await res.json()) as { measurements: { statistic: string; value: number }[] };
  return body.measurements.find((m) => m.statistic === 'COUNT')?.value ?? 0;
};

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-analysis-poster-'));
  await mkdir(join(dir, 'posters', 'Series'), { recursive: true });
  // Archive order: page 10 (blue) before page 2 (red); reading order: 2 first.
  await writeFile(
    join(dir, 'posters', 'Series', 'Ordered.cbz'),
    zipBuffer([
      { name: 'page 10.jpg', data: await solidJpeg(BLUE) },
      { name: 'page 2.jpg', data: await solidJpeg(RED) },
    ]),
  );
  // Eight pages: the first and last three are hashed.
  await mkdir(join(dir, 'hashing', 'Series'), { recursive: true });
  const pages = await Promise.all(Array.from({ length: 8 }, (_, i) => makeImage('png', i + 1)));
  await writeFile(
    join(dir, 'hashing', 'Series', 'Hashed.cbz'),
    zipBuffer(pages.map((data, i) => ({ name: `${i + 1}.png`, data }))),
  );
  const create = async (name: string, root: string, options: object = {}) => {
    const created = await s.fetch('/api/v1/libraries', {
      method: 'POST',
      headers: { authorization: admin },
      json: { name, root, ...options },
    });
    expect(created.status).toBe(200);
    return ((await created.json()) as { id: string }).id;
  };
  PNG_PAGE = await makeImage('png', 1);
  await mkdir(join(dir, 'comicinfo', 'Series'), { recursive: true });
  await writeFile(join(dir, 'comicinfo', 'Series', 'Titled.cbz'), comicInfoBook('As scanned'));
  libraryId = await create('Posters', join(dir, 'posters'));
  await settled();
  hashingLibraryId = await create('Hashing', join(dir, 'hashing'), { hashPages: true });
  await settled();
  comicInfoLibraryId = await create('ComicInfo', join(dir, 'comicinfo'));
  await settled();
}, 120_000);

afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a ZIP book gets its poster from its analysis', () => {
  it('made from the first page in reading order, with no poster task opening the book again', async () => {
    const book = await bookNamed('Ordered');
    expect(book.media.status).toBe('READY');
    const poster = await get(`/api/v1/books/${book.id}/thumbnail`);
    expect(poster.status).toBe(200);
    const bytes = new Uint8Array(await poster.arrayBuffer());
    const [r, , b] = await colour(bytes);
    expect(r).toBeGreaterThan(150);
    expect(b).toBeLessThan(100);
    const { width, height } = await sharp(bytes).metadata();
    expect(Math.max(width!, height!)).toBe(300);
    expect(await taskRuns('AnalyzeBook')).toBe(3); // this book, the hashing library's and the ComicInfo library's
    expect(await taskRuns('GenerateBookThumbnail')).toBe(0);
  });

  it('and in a library that hashes pages, the hashes of the first and last three pages, from the same bytes', async () => {
    const book = await bookNamed('Hashed', hashingLibraryId);
    const file = join(dir, 'hashing', 'Series', 'Hashed.cbz');
    const stored = await s.app.deps.books.media.pages(book.id);
    const expected = await Promise.all(
      stored.map(async (p) =>
        [0, 1, 2, 5, 6, 7].includes(p.number) ? hashPage((await zipReader.stream(file, p.fileName)).stream) : '',
      ),
    );
    expect(stored.map((p) => p.fileHash)).toEqual(expected);
    expect(expected.filter(Boolean)).toHaveLength(6);
  });
});

describe('a ZIP book gets its file hash from its analysis', () => {
  it('the streamed XXH3-128 of the whole file, stored by the analysis itself', async () => {
    const book = await bookNamed('Ordered');
    const file = join(dir, 'posters', 'Series', 'Ordered.cbz');
    const expected = await hashFile(file);
    const fileHash = async () =>
      ((await (await get(`/api/v1/books/${book.id}`)).json()) as { fileHash: string }).fileHash;
    expect(await fileHash()).toBe(expected);
    // blank again, as a changed file leaves it: the analysis alone, with no HashBook after it, stores it again
    await s.app.deps.books.media.setFileHash(book.id, '');
    expect(await fileHash()).toBe('');
    await s.app.deps.books.analyzer.analyzeAndPersist(book.id);
    expect(await fileHash()).toBe(expected);
  });
});

describe("a ZIP book's metadata refresh gets ComicInfo.xml from its analysis", () => {
  const title = async (id: string) =>
    ((await (await get(`/api/v1/books/${id}`)).json()) as { metadata: { title: string } }).metadata.title;

  it('applies the ComicInfo.xml the analysis read, without opening the book again', async () => {
    const book = await bookNamed('Titled', comicInfoLibraryId);
    expect(await title(book.id)).toBe('As scanned');
    const file = join(dir, 'comicinfo', 'Series', 'Titled.cbz');
    // The file as the analysis reads it, then changed again before its refresh runs (no scan in between, so the
    // book's stored file attributes stay as they were): the refresh applies what the analysis read.
    await writeFile(file, comicInfoBook('As analysed'));
    await s.app.deps.books.analyzer.analyzeAndPersist(book.id);
    await writeFile(file, comicInfoBook('On disk later'));
    await s.app.deps.metadata.refresh.refreshBook(book.id, ['TITLE']);
    expect(await title(book.id)).toBe('As analysed');
  });
});

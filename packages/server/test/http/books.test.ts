import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';
import { imageSize } from 'image-size';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectBuffer } from '../../src/media/detect.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { makeLibrary, makeSeriesWithBooks } from '../support/factories.js';
import { copyFixture, fixture } from '../support/fixtures.js';
import { expectSchema } from '../support/openapi.js';

/** A file name with non-ASCII letters, spaces and a double quote (api.md §1.8). */
const FANCY = 'Ünïcode "quoted" book #1.cbz';

let s: TestServer;
let dir: string;
let admin: string;
let comicsLib: string;
let otherLib: string;
const ids = { cbz: '', zip: '', pdf: '', epub: '', divina: '', other: '', comicSeries: '' };
const users: Record<'noRoles' | 'reader' | 'ageExcluded' | 'labelExcluded' | 'notShared', string> = {
  noRoles: '',
  reader: '',
  ageExcluded: '',
  labelExcluded: '',
  notShared: '',
};

/** The status of a response whose body is not needed (read and dropped, so no connection stays busy). */
const status = async (res: Promise<Response>) => {
  const r = await res;
  await r.arrayBuffer();
  return r.status;
};

const as = (authorization: string, path: string, headers: Record<string, string> = {}) =>
  s.fetch(path, { headers: { authorization, ...headers } });

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  const db = s.app.deps.db;
  dir = await mkdtemp(join(tmpdir(), 'quire-books-'));
  const comics = join(dir, 'Comics', 'Série A');
  await mkdir(comics, { recursive: true });
  await copyFile(fixture('archives/Captain Science #001.cbz'), join(comics, FANCY));
  await copyFile(fixture('archives/book-image-format-test.zip'), join(comics, 'formats.cbz'));
  comicsLib = await makeLibrary(db, { name: 'Comics', root: join(dir, 'Comics') });
  otherLib = await makeLibrary(db, { name: 'Other', root: join(dir, 'Other') });
  const comicSeries = await makeSeriesWithBooks(db, comicsLib, [join(comics, FANCY), join(comics, 'formats.cbz')], {
    title: 'Série A',
    ageRating: 16,
    sharingLabels: ['gore'],
  });
  ids.comicSeries = comicSeries.seriesId;
  [ids.cbz = '', ids.zip = ''] = comicSeries.bookIds;
  // Each book in its own folder (a series per folder, as a scan would make them), inside its library's root.
  const inLibrary = (relative: string, folder: string) => copyFixture(relative, join(dir, folder));
  const single = async (libraryId: string, file: string) =>
    (await makeSeriesWithBooks(db, libraryId, [file])).bookIds[0]!;
  ids.pdf = await single(comicsLib, await inLibrary('pdf/two_pages.pdf', 'Comics/Pdf'));
  ids.epub = await single(comicsLib, await inLibrary('epub/The Incomplete Theft - Ralph Burke.epub', 'Comics/Epub'));
  ids.divina = await single(comicsLib, await inLibrary('epub/epub3.epub', 'Comics/Divina'));
  ids.other = await single(otherLib, await inLibrary('archives/zip.zip', 'Other/Zip'));
  for (const id of Object.values(ids)) await s.app.deps.books.analyzer.analyzeAndPersist(id);

  const create = async (key: keyof typeof users, body: Record<string, unknown>) => {
    const email = `${key.toLowerCase()}@example.org`;
    const res = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: admin },
      json: { email, password: 'reader-secret', ...body },
    });
    expect(res.status).toBe(201);
    users[key] = basic(email, 'reader-secret');
  };
  await create('noRoles', { roles: [] });
  await create('reader', {});
  await create('ageExcluded', { ageRestriction: { age: 16, restriction: 'EXCLUDE' } });
  await create('labelExcluded', { labelsExclude: ['gore'] });
  await create('notShared', { sharedLibraries: { all: false, libraryIds: [otherLib] } });
}, 60_000);

afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

describe('GET /api/v1/books/{bookId}', () => {
  it('answers a BookDto; non-admins see the file name only as url', async () => {
    const res = await as(admin, `/api/v1/books/${ids.cbz}`);
    expect(res.status).toBe(200);
    const book = (await res.json()) as Record<string, unknown> & { media: Record<string, unknown> };
    expect(book).toMatchObject({ id: ids.cbz, seriesId: ids.comicSeries, seriesTitle: 'Série A', sizeBytes: 0 });
    expect(book.url).toBe(join(dir, 'Comics', 'Série A', FANCY));
    expect(book.media).toEqual({
      status: 'READY',
      mediaType: 'application/zip',
      pagesCount: 5,
      comment: '',
      epubDivinaCompatible: false,
      epubIsKepub: false,
      mediaProfile: 'DIVINA',
    });
    expect(book.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(res.headers.get('etag')).toMatch(/^"0[0-9a-f]{32}"$/);
    const reader = (await (await as(users.reader, `/api/v1/books/${ids.cbz}`)).json()) as { url: string };
    expect(reader.url).toBe(FANCY);
  });

  it('answers 404 with an empty body for an unknown book or series', async () => {
    for (const path of ['/api/v1/books/NOPE', '/api/v1/series/NOPE']) {
      const res = await as(admin, path);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('');
    }
  });

  it('answers a SeriesDto with the caller read counts; non-admins get url ""', async () => {
    const res = await as(admin, `/api/v1/series/${ids.comicSeries}`);
    expect(res.status).toBe(200);
    const series = (await res.json()) as Record<string, unknown> & { metadata: Record<string, unknown> };
    expect(series).toMatchObject({
      booksCount: 2,
      booksUnreadCount: 2,
      booksReadCount: 0,
      url: join(dir, 'Comics', 'Série A'),
    });
    expect(series.metadata).toMatchObject({ title: 'Série A', ageRating: 16, sharingLabels: ['gore'] });
    const reader = (await (await as(users.reader, `/api/v1/series/${ids.comicSeries}`)).json()) as { url: string };
    expect(reader.url).toBe('');
  });
});

describe('pages', () => {
  it('lists pages with 1-based numbers and real media types', async () => {
    const res = await as(admin, `/api/v1/books/${ids.zip}/pages`);
    expect(res.status).toBe(200);
    const pages = (await res.json()) as { number: number; mediaType: string; fileName: string }[];
    expect(pages.map((p) => p.number)).toEqual([1, 2, 3, 4, 5]);
    expect(pages.map((p) => p.mediaType)).toEqual(['image/avif', 'image/jpeg', 'image/jxl', 'image/png', 'image/webp']);
    for (const p of pages) expectSchema('PageDto', p);
  });

  it('serves each page with bytes matching its content type', async () => {
    const pages = (await (await as(admin, `/api/v1/books/${ids.zip}/pages`)).json()) as { mediaType: string }[];
    for (const [i, p] of pages.entries()) {
      const res = await as(admin, `/api/v1/books/${ids.zip}/pages/${i + 1}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(p.mediaType);
      expect(detectBuffer(new Uint8Array(await res.arrayBuffer()))).toBe(p.mediaType);
    }
  });

  it('counts from 0 with zero_based=true, names the page inline, sends Last-Modified', async () => {
    const one = await as(admin, `/api/v1/books/${ids.zip}/pages/2`);
    const zero = await as(admin, `/api/v1/books/${ids.zip}/pages/1?zero_based=true`);
    expect(Buffer.from(await zero.arrayBuffer())).toEqual(Buffer.from(await one.arrayBuffer()));
    expect(one.headers.get('content-disposition')).toMatch(/^inline; filename="formats-2\.jpg"/);
    expect(one.headers.get('last-modified')).toMatch(/GMT$/);
  });

  it('converts to PNG and JPEG, ignores an empty convert and refuses an unknown one', async () => {
    const png = await as(admin, `/api/v1/books/${ids.zip}/pages/2?convert=PNG`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(detectBuffer(new Uint8Array(await png.arrayBuffer()))).toBe('image/png');
    const jpeg = await as(admin, `/api/v1/books/${ids.zip}/pages/5?convert=jpeg`);
    expect(detectBuffer(new Uint8Array(await jpeg.arrayBuffer()))).toBe('image/jpeg');
    const empty = await as(admin, `/api/v1/books/${ids.zip}/pages/5?convert=`);
    expect(empty.headers.get('content-type')).toBe('image/webp');
    await empty.arrayBuffer();
    const bad = await as(admin, `/api/v1/books/${ids.zip}/pages/1?convert=gif`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe('Invalid conversion format: gif');
  });

  it('refuses page numbers out of range with 400', async () => {
    for (const n of ['0', '6', '99']) {
      const res = await as(admin, `/api/v1/books/${ids.zip}/pages/${n}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('Page number does not exist');
    }
    expect(await status(as(admin, `/api/v1/books/${ids.zip}/pages/5?zero_based=true`))).toBe(400);
  });

  it('answers 304 to If-Modified-Since and to If-None-Match', async () => {
    const first = await as(admin, `/api/v1/books/${ids.cbz}/pages/1`);
    const lastModified = first.headers.get('last-modified')!;
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    expect(etag).toBeTruthy();
    const byDate = await as(admin, `/api/v1/books/${ids.cbz}/pages/1`, { 'if-modified-since': lastModified });
    expect(byDate.status).toBe(304);
    expect(await byDate.text()).toBe('');
    const byTag = await as(admin, `/api/v1/books/${ids.cbz}/pages/1`, { 'if-none-match': etag });
    expect(byTag.status).toBe(304);
    const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect(await status(as(admin, `/api/v1/books/${ids.cbz}/pages/1`, { 'if-modified-since': older }))).toBe(200);
  });

  it('serves the raw page and a 300 px JPEG thumbnail', async () => {
    const raw = await as(admin, `/api/v1/books/${ids.zip}/pages/4/raw`);
    expect(raw.headers.get('content-type')).toBe('image/png');
    await raw.arrayBuffer();
    const thumb = await as(admin, `/api/v1/books/${ids.cbz}/pages/1/thumbnail`);
    const bytes = new Uint8Array(await thumb.arrayBuffer());
    expect(detectBuffer(bytes)).toBe('image/jpeg');
    const size = imageSize(bytes);
    expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(300);
  });

  it('renders PDF pages as JPEG, or answers a one-page PDF when Accept prefers it', async () => {
    const list = (await (await as(admin, `/api/v1/books/${ids.pdf}/pages`)).json()) as {
      mediaType: string;
      width: number;
    }[];
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ mediaType: 'image/jpeg', width: 3200 });
    const jpeg = await as(admin, `/api/v1/books/${ids.pdf}/pages/2`, { accept: 'image/*,*/*;q=0.8' });
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect(imageSize(new Uint8Array(await jpeg.arrayBuffer()))).toMatchObject({
      type: 'jpg',
      width: 3200,
      height: 4141,
    });
    const pdf = await as(admin, `/api/v1/books/${ids.pdf}/pages/2`, { accept: 'application/pdf, image/*;q=0.9' });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    const noNegotiation = await as(admin, `/api/v1/books/${ids.pdf}/pages/2?contentNegotiation=false`, {
      accept: 'application/pdf',
    });
    expect(noNegotiation.headers.get('content-type')).toBe('image/jpeg');
    await noNegotiation.arrayBuffer();
    const raw = await as(admin, `/api/v1/books/${ids.pdf}/pages/1/raw`);
    expect(raw.headers.get('content-type')).toBe('application/pdf');
    await raw.arrayBuffer();
  });

  it('renders a PDF page at the width the reader asks for (rounded up to 256 px, never wider than without it)', async () => {
    const narrow = await as(admin, `/api/v1/books/${ids.pdf}/pages/2?width=700`);
    expect(narrow.headers.get('content-type')).toBe('image/jpeg');
    expect(imageSize(new Uint8Array(await narrow.arrayBuffer()))).toMatchObject({ width: 768, height: 994 });
    const wide = await as(admin, `/api/v1/books/${ids.pdf}/pages/2?width=9000`);
    expect(imageSize(new Uint8Array(await wide.arrayBuffer()))).toMatchObject({ width: 3200, height: 4141 });
    expect(await status(as(admin, `/api/v1/books/${ids.pdf}/pages/2?width=0`))).toBe(400);
    // other pages are served as they are
    const cbz = await as(admin, `/api/v1/books/${ids.cbz}/pages/1`);
    const cbzNarrow = await as(admin, `/api/v1/books/${ids.cbz}/pages/1?width=100`);
    expect(Buffer.from(await cbzNarrow.arrayBuffer())).toEqual(Buffer.from(await cbz.arrayBuffer()));
  });

  it('serves the pages of a Divina EPUB', async () => {
    const res = await as(admin, `/api/v1/books/${ids.divina}/pages/2`);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(detectBuffer(new Uint8Array(await res.arrayBuffer()))).toBe('image/png');
  });
});

describe('downloads', () => {
  it('streams the file with its analysed type, length and a UTF-8 attachment name', async () => {
    const res = await as(admin, `/api/v1/books/${ids.cbz}/file`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const original = await readFile(fixture('archives/Captain Science #001.cbz'));
    expect(res.headers.get('content-length')).toBe(String(original.length));
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="_n_code \\"quoted\\" book #1.cbz"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20%22quoted%22%20book%20%231.cbz`,
    );
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('accept-ranges')).toBeNull();
    expect(Buffer.from(await res.arrayBuffer())).toEqual(original);
    const named = await as(admin, `/api/v1/books/${ids.cbz}/file/anything.cbz`, { range: 'bytes=0-9' });
    expect(named.status).toBe(200);
    expect(Buffer.from(await named.arrayBuffer()).length).toBe(original.length);
  });

  it('zips every book of a series, stored', async () => {
    const res = await as(admin, `/api/v1/series/${ids.comicSeries}/file`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''S%C3%A9rie%20A.zip`);
    const zip = new ZipReader(new Uint8ArrayReader(new Uint8Array(await res.arrayBuffer())));
    const entries = await zip.getEntries();
    expect(entries.map((e) => e.filename).sort()).toEqual([FANCY, 'formats.cbz'].sort());
    for (const e of entries) {
      expect(e.compressionMethod).toBe(0);
      if (e.directory) continue;
      const bytes = await e.getData(new Uint8ArrayWriter());
      const original = await readFile(join(dir, 'Comics', 'Série A', e.filename));
      expect(Buffer.from(bytes)).toEqual(original);
    }
    await zip.close();
  });
});

describe('roles and content restrictions', () => {
  it('requires PAGE_STREAMING for pages and FILE_DOWNLOAD for files', async () => {
    expect(await status(as(users.noRoles, `/api/v1/books/${ids.cbz}/pages/1`))).toBe(403);
    expect(await status(as(users.noRoles, `/api/v1/books/${ids.cbz}/pages/1/raw`))).toBe(403);
    expect(await status(as(users.noRoles, `/api/v1/books/${ids.cbz}/file`))).toBe(403);
    expect(await status(as(users.noRoles, `/api/v1/series/${ids.comicSeries}/file`))).toBe(403);
    // neither the list of pages nor page thumbnails need a role
    expect(await status(as(users.noRoles, `/api/v1/books/${ids.cbz}/pages`))).toBe(200);
    expect(await status(as(users.noRoles, `/api/v1/books/${ids.cbz}/pages/1/thumbnail`))).toBe(200);
    expect(await status(as(users.reader, `/api/v1/books/${ids.cbz}/pages/1`))).toBe(200);
    expect(await status(as(users.reader, `/api/v1/books/${ids.cbz}/file`))).toBe(200);
    expect(await status(s.fetch(`/api/v1/books/${ids.cbz}/pages/1`))).toBe(401);
  });

  it.each(['ageExcluded', 'labelExcluded', 'notShared'] as const)(
    'refuses a restricted book to %s with 403',
    async (who) => {
      for (const path of [
        `/api/v1/books/${ids.cbz}`,
        `/api/v1/books/${ids.cbz}/pages`,
        `/api/v1/books/${ids.cbz}/pages/1`,
        `/api/v1/books/${ids.cbz}/file`,
        `/api/v1/books/${ids.cbz}/manifest`,
        `/api/v1/series/${ids.comicSeries}`,
        `/api/v1/series/${ids.comicSeries}/file`,
      ]) {
        expect(await status(as(users[who], path)), path).toBe(403);
      }
      expect(await status(as(users[who], `/api/v1/books/NOPE/pages/1`))).toBe(404);
    },
  );

  it('still shows unrestricted content to restricted users', async () => {
    expect(await status(as(users.ageExcluded, `/api/v1/books/${ids.pdf}`))).toBe(200);
    expect(await status(as(users.notShared, `/api/v1/books/${ids.other}`))).toBe(200);
    expect(await status(as(users.notShared, `/api/v1/books/${ids.pdf}`))).toBe(403);
  });

  it('lets only admins queue analysis and list duplicates', async () => {
    expect(
      await status(
        s.fetch(`/api/v1/books/${ids.cbz}/analyze`, { method: 'POST', headers: { authorization: users.reader } }),
      ),
    ).toBe(403);
    expect(
      await status(s.fetch(`/api/v1/books/${ids.cbz}/analyze`, { method: 'POST', headers: { authorization: admin } })),
    ).toBe(202);
    expect(
      await status(
        s.fetch(`/api/v1/series/${ids.comicSeries}/analyze`, { method: 'POST', headers: { authorization: admin } }),
      ),
    ).toBe(202);
    expect(
      await status(s.fetch(`/api/v1/books/NOPE/analyze`, { method: 'POST', headers: { authorization: admin } })),
    ).toBe(404);
    expect(await status(as(users.reader, '/api/v1/books/duplicates'))).toBe(403);
  });

  it('lists books sharing a file hash as duplicates', async () => {
    const db = s.app.deps.db;
    await db
      .updateTable('book')
      .set({ file_hash: 'aa', file_size: 10 })
      .where('id', 'in', [ids.cbz, ids.other])
      .execute();
    const res = await as(admin, '/api/v1/books/duplicates');
    const page = (await res.json()) as { totalElements: number; content: { id: string }[] };
    expect(page.totalElements).toBe(2);
    expect(page.content.map((b) => b.id).sort()).toEqual([ids.cbz, ids.other].sort());
    await db.updateTable('book').set({ file_hash: '', file_size: 0 }).where('id', 'in', [ids.cbz, ids.other]).execute();
  });
});

describe('WebPub', () => {
  it('answers the EPUB manifest as application/webpub+json, valid against WPPublicationDto', async () => {
    for (const path of [`/api/v1/books/${ids.epub}/manifest`, `/api/v1/books/${ids.epub}/manifest/epub`]) {
      const res = await as(admin, path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/webpub\+json/);
      const manifest = (await res.json()) as { readingOrder: { href: string }[]; context: string };
      expectSchema('WPPublicationDto', manifest);
      expect(manifest.context).toBe('https://readium.org/webpub-manifest/context.jsonld');
      expect(manifest.readingOrder.length).toBeGreaterThan(0);
      expect(manifest.readingOrder[0]!.href).toContain(`${s.url}/api/v1/books/${ids.epub}/resource/`);
    }
    expect(await status(as(admin, `/api/v1/books/${ids.epub}/manifest/pdf`))).toBe(400);
  });

  it('answers DiViNa manifests for archives and PDF manifests for PDFs', async () => {
    const divina = await as(admin, `/api/v1/books/${ids.zip}/manifest`);
    expect(divina.headers.get('content-type')).toMatch(/^application\/divina\+json/);
    const d = (await divina.json()) as { readingOrder: { href: string; type: string; alternate?: unknown[] }[] };
    expectSchema('WPPublicationDto', d);
    expect(d.readingOrder).toHaveLength(5);
    expect(d.readingOrder[0]!.href).toMatch(/\/pages\/1\?contentNegotiation=false$/);
    expect(d.readingOrder[0]!.alternate).toHaveLength(1); // AVIF gets a JPEG alternate
    const pdf = (await (await as(admin, `/api/v1/books/${ids.pdf}/manifest`)).json()) as {
      readingOrder: { href: string; type: string }[];
    };
    expectSchema('WPPublicationDto', pdf);
    expect(pdf.readingOrder.map((l) => l.type)).toEqual(['application/pdf', 'application/pdf']);
  });

  it('answers EPUB positions, with Last-Modified', async () => {
    const res = await as(admin, `/api/v1/books/${ids.epub}/positions`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { total: number; positions: unknown[] };
    expectSchema('R2Positions', body);
    expect(body.total).toBe(35);
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(await status(as(admin, `/api/v1/books/${ids.cbz}/positions`))).toBe(404);
  });

  it('serves EPUB resources: authenticated, exact names, nothing outside the EPUB', async () => {
    const manifest = (await (await as(admin, `/api/v1/books/${ids.epub}/manifest`)).json()) as {
      readingOrder: { href: string }[];
    };
    const path = manifest.readingOrder[0]!.href.split('/resource/')[1]!;
    const res = await as(users.reader, `/api/v1/books/${ids.epub}/resource/${path}`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(res.headers.get('content-type')).toMatch(/xhtml|html/);
    expect(await status(s.fetch(`/api/v1/books/${ids.epub}/resource/${path}`))).toBe(401);
    expect(await status(as(admin, `/api/v1/books/${ids.epub}/resource/META-INF/container.xml`))).toBe(404);
    expect(await status(as(admin, `/api/v1/books/${ids.epub}/resource/..%2F..%2Fetc%2Fpasswd`))).toBe(400);
  });
});

import { chmod, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCbz } from '../support/library-builder.js';
import { expectSchema } from '../support/openapi.js';
import { eventually } from '../reading/helpers.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

/* The import screen's folder scan (api.md §3.11, engine.md §9.1): a folder outside every library, walked like one. */
describe('POST /api/v1/transient-books', () => {
  let s: TestServer;
  let admin: { authorization: string };
  let dir: string;
  const scan = (path: unknown, who?: { authorization: string }) =>
    s.fetch('/api/v1/transient-books', {
      method: 'POST',
      json: { path },
      headers: { Authorization: (who ?? admin).authorization },
    });
  const errorOf = async (res: Response) => ({
    status: res.status,
    message: ((await res.json()) as { message: string }).message,
  });

  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    dir = await realpath(await mkdtemp(join(tmpdir(), 'quire-transient-')));
    await writeCbz(join(dir, 'library/Series/1.cbz'));
    await writeCbz(join(dir, 'library/Élan Vital/1.cbz'));
    await writeCbz(join(dir, 'library/The Long Night Saga/1.cbz'));
    await writeCbz(join(dir, 'incoming/Zeta/2.cbz'), { pages: 2 });
    await writeCbz(join(dir, 'incoming/Alpha 1.cbz'), { pages: 1 });
    await writeCbz(join(dir, 'incoming/b/Beta.cbz'));
    await writeFile(join(dir, 'incoming/notes.txt'), 'not a book');
    await writeFile(join(dir, 'a-file.cbz'), 'x');
    await symlink(join(dir, 'incoming'), join(dir, 'link-to-incoming'));
    await symlink(join(dir, 'library/Series'), join(dir, 'link-into-library'));
    const res = await s.fetch('/api/v1/libraries', {
      method: 'POST',
      json: { name: 'Comics', root: join(dir, 'library') },
      headers: { Authorization: admin.authorization },
    });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await s.close();
    await chmod(join(dir, 'incoming'), 0o755).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the books of the folder and its sub-folders, sorted by path, in Komga shape', async () => {
    const res = await scan(join(dir, 'incoming'));
    expect(res.status).toBe(200);
    const books = (await res.json()) as Record<string, unknown>[];
    for (const b of books) expectSchema('TransientBookDto', b);
    expect(books.map((b) => b.url)).toEqual([
      join(dir, 'incoming/Alpha 1.cbz'),
      join(dir, 'incoming/Zeta/2.cbz'),
      join(dir, 'incoming/b/Beta.cbz'),
    ]);
    expect(books[1]).toMatchObject({
      name: '2',
      // the later of modification and birth time (engine.md §1.1), as a local date-time
      fileLastModified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/),
      sizeBytes: expect.any(Number),
      status: 'UNKNOWN',
      mediaType: '',
      pages: [],
      files: [],
      comment: '',
    });
    expect(books[1]).not.toHaveProperty('seriesId');
    expect(new Set(books.map((b) => b.id)).size).toBe(3);
  });

  it('walks a symbolic link to a folder as the folder it leads to', async () => {
    const res = await scan(join(dir, 'link-to-incoming'));
    expect(res.status).toBe(200);
    const books = (await res.json()) as { url: string }[];
    expect(books.map((b) => b.url)[0]).toBe(join(dir, 'incoming/Alpha 1.cbz'));
  });

  it('refuses a folder that is missing, a file, a relative path or unreadable with ERR_1016', async () => {
    for (const path of [join(dir, 'missing'), join(dir, 'a-file.cbz'), 'incoming']) {
      expect(await errorOf(await scan(path))).toEqual({ status: 400, message: 'ERR_1016' });
    }
    if (process.getuid?.() !== 0) {
      await chmod(join(dir, 'incoming'), 0o000);
      try {
        expect(await errorOf(await scan(join(dir, 'incoming')))).toEqual({ status: 400, message: 'ERR_1016' });
      } finally {
        await chmod(join(dir, 'incoming'), 0o755);
      }
    }
  });

  it('refuses a library root, a folder inside one, and a link leading into one with ERR_1017', async () => {
    for (const path of [join(dir, 'library'), join(dir, 'library/Series'), join(dir, 'link-into-library')]) {
      expect(await errorOf(await scan(path))).toEqual({ status: 400, message: 'ERR_1017' });
    }
  });

  it('analyses a scanned book fully: status, type, pages with dimensions, other files', async () => {
    await writeFile(join(dir, 'incoming/b/broken.cbz'), 'not an archive');
    const books = (await (await scan(join(dir, 'incoming'))).json()) as { id: string; url: string }[];
    const analyze = (id: string) =>
      s.fetch(`/api/v1/transient-books/${id}/analyze`, {
        method: 'POST',
        headers: { Authorization: admin.authorization },
      });
    const zeta = books.find((b) => b.url.endsWith('Zeta/2.cbz'))!;
    let res = await analyze(zeta.id);
    expect(res.status).toBe(200);
    const analysed = (await res.json()) as Record<string, unknown>;
    expectSchema('TransientBookDto', analysed);
    expect(analysed).toMatchObject({
      id: zeta.id,
      url: zeta.url,
      status: 'READY',
      mediaType: 'application/zip',
      files: ['ComicInfo.xml'],
      comment: '',
      pages: [
        { number: 1, fileName: '001.jpg', mediaType: 'image/jpeg', width: 60, height: 90 },
        { number: 2, fileName: '002.png', mediaType: 'image/png', width: 60, height: 90 },
      ],
    });
    const broken = books.find((b) => b.url.endsWith('broken.cbz'))!;
    res = await analyze(broken.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'UNSUPPORTED', pages: [] });
    expect((await analyze('0UNKNOWN0ID0')).status).toBe(404);
  });

  it('serves the pages of an analysed book like a library book, and refuses the others', async () => {
    const books = (await (await scan(join(dir, 'incoming'))).json()) as { id: string; url: string }[];
    const [alpha, zeta] = [books[0]!, books.find((b) => b.url.endsWith('Zeta/2.cbz'))!];
    const page = (id: string, n: number) =>
      s.fetch(`/api/v1/transient-books/${id}/pages/${n}`, { headers: { Authorization: admin.authorization } });
    expect((await page(zeta.id, 1)).status).toBe(404); // not analysed yet
    const analyze = await s.fetch(`/api/v1/transient-books/${zeta.id}/analyze`, {
      method: 'POST',
      headers: { Authorization: admin.authorization },
    });
    expect(analyze.status).toBe(200);
    let res = await page(zeta.id, 2);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    // as the reference: no file name for a transient book's page
    expect(res.headers.get('content-disposition')).toBeNull();
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect((await page(zeta.id, 3)).status).toBe(400);
    expect((await page(zeta.id, 0)).status).toBe(400);
    expect((await page('0UNKNOWN0ID0', 1)).status).toBe(404);

    // a file swapped for a link into a library after the analysis is not read
    await s.fetch(`/api/v1/transient-books/${alpha.id}/analyze`, {
      method: 'POST',
      headers: { Authorization: admin.authorization },
    });
    expect((await page(alpha.id, 1)).status).toBe(200);
    await rm(alpha.url);
    await symlink(join(dir, 'library/Series/1.cbz'), alpha.url);
    res = await page(alpha.id, 1);
    expect(res.status).toBe(404);
  });

  it('guesses the series by title (volume appended first, case and accents ignored, else contained) and the number', async () => {
    const seriesIds = async () => {
      const res = await s.fetch('/api/v1/series?unpaged=true', { headers: { Authorization: admin.authorization } });
      return new Map(
        ((await res.json()) as { content: { id: string; name: string }[] }).content.map((x) => [x.name, x.id]),
      );
    };
    await eventually(async () => expect((await seriesIds()).size).toBe(3));
    const ids = await seriesIds();
    const info = (series: string, extra = '') =>
      `<ComicInfo><Series>${series}</Series><Number>7.5</Number>${extra}</ComicInfo>`;
    await writeCbz(join(dir, 'guesses/a.cbz'), { comicInfo: info('ELAN VITAL', '<Volume>2</Volume>') });
    await writeCbz(join(dir, 'guesses/b.cbz'), { comicInfo: info('Long Night') });
    await writeCbz(join(dir, 'guesses/c.cbz'), { comicInfo: info('Nothing Like It') });
    await writeCbz(join(dir, 'guesses/d.cbz'));
    const books = (await (await scan(join(dir, 'guesses'))).json()) as { id: string; name: string }[];
    const analysed: Record<string, Record<string, unknown>> = {};
    for (const b of books) {
      const res = await s.fetch(`/api/v1/transient-books/${b.id}/analyze`, {
        method: 'POST',
        headers: { Authorization: admin.authorization },
      });
      analysed[b.name] = (await res.json()) as Record<string, unknown>;
      expectSchema('TransientBookDto', analysed[b.name]);
    }
    expect(analysed.a).toMatchObject({ seriesId: ids.get('Élan Vital'), number: 7.5 });
    expect(analysed.b).toMatchObject({ seriesId: ids.get('The Long Night Saga'), number: 7.5 });
    expect(analysed.c).toMatchObject({ number: 7.5 });
    expect(analysed.c).not.toHaveProperty('seriesId');
    expect(analysed.d).not.toHaveProperty('seriesId');
    expect(analysed.d).not.toHaveProperty('number');
  });

  it('is for administrators only, and a body without a path is a 400', async () => {
    await s.fetch('/api/v2/users', {
      method: 'POST',
      json: { email: 'u@example.org', password: 'u-secret' },
      headers: { Authorization: admin.authorization },
    });
    expect((await scan(join(dir, 'incoming'), { authorization: basic('u@example.org', 'u-secret') })).status).toBe(403);
    const res = await s.fetch('/api/v1/transient-books', {
      method: 'POST',
      json: {},
      headers: { Authorization: admin.authorization },
    });
    expect(res.status).toBe(400);
  });
});

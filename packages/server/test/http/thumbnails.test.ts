import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBodyDto, QuireEvent, ThumbnailBookDto, ThumbnailSeriesDto, UserDto } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';
import { fixture } from '../support/fixtures.js';
import { makeBook, makeLibrary, makeSeries, setProgress, setSeriesCover } from '../support/thumbnail-factories.js';

const CBZ = fixture('archives/futuristic_tales.cbz'); // first page 654×1040 JPEG

type Admin = Awaited<ReturnType<typeof claim>>;

const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
const solid = (width: number, height: number, rgb: [number, number, number]) =>
  sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
const redOf = async (b: Uint8Array) => Math.round((await sharp(b).stats()).channels[0]!.mean);

async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('book and series posters over HTTP', () => {
  let s: TestServer;
  let admin: Admin;
  let adminId: string;
  let libraryId: string;
  let seriesId: string;
  let bookId: string;
  let book2Id: string;
  const reader = { email: 'reader@example.org', password: 'reader-pw' };
  const outsider = { email: 'outsider@example.org', password: 'outsider-pw' };
  const kid = { email: 'kid@example.org', password: 'kid-password' };
  let adultSeriesId: string;
  let adultBookId: string;

  const as = (user: { email: string; password: string } | Admin) =>
    'authorization' in user ? user.authorization : basic(user.email, user.password);
  const get = (path: string, user: { email: string; password: string } | Admin = admin, headers = {}) =>
    s.fetch(path, { headers: { Authorization: as(user), ...headers } });
  const upload = async (
    path: string,
    bytes: Uint8Array,
    opts: { user?: { email: string; password: string } | Admin; selected?: string; type?: string } = {},
  ) => {
    const form = new FormData();
    if (opts.selected !== undefined) form.append('selected', opts.selected);
    form.append('file', new Blob([new Uint8Array(bytes)], { type: opts.type ?? 'image/png' }), 'poster.png');
    return s.fetch(path, { method: 'POST', headers: { Authorization: as(opts.user ?? admin) }, body: form });
  };

  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    adminId = ((await (await get('/api/v2/users/me')).json()) as UserDto).id;
    const db = s.app.deps.db;
    libraryId = await makeLibrary(db);
    seriesId = await makeSeries(db, libraryId);
    bookId = await makeBook(db, seriesId, CBZ, { numberSort: 1 });
    book2Id = await makeBook(db, seriesId, CBZ, { numberSort: 2 });
    adultSeriesId = await makeSeries(db, libraryId, { ageRating: 18 });
    adultBookId = await makeBook(db, adultSeriesId, CBZ);
    for (const id of [bookId, book2Id, adultBookId]) await s.app.deps.thumbnails.generateForBook(id);

    const users: [typeof reader, Record<string, unknown>][] = [
      [reader, {}],
      [outsider, { sharedLibraries: { all: false, libraryIds: [] } }],
      [kid, { ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' } }],
    ];
    for (const [u, extra] of users) {
      const res = await s.fetch('/api/v2/users', {
        method: 'POST',
        headers: { Authorization: admin.authorization },
        json: { email: u.email, password: u.password, ...extra },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => s.close());

  describe('GET /api/v1/books/{bookId}/thumbnail', () => {
    it('answers the poster as image/jpeg with JPEG bytes and an ETag honoured with 304', async () => {
      const res = await get(`/api/v1/books/${bookId}/thumbnail`, reader);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(isJpeg(bytes)).toBe(true);
      const meta = await sharp(bytes).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBe(300);
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^"0[0-9a-f]{32}"$/);
      const again = await get(`/api/v1/books/${bookId}/thumbnail`, reader, { 'If-None-Match': etag! });
      expect(again.status).toBe(304);
      expect((await again.arrayBuffer()).byteLength).toBe(0);
    });

    it('answers 404 for an unknown book and for a book without poster', async () => {
      expect((await get('/api/v1/books/NOPE/thumbnail')).status).toBe(404);
      const bare = await makeBook(s.app.deps.db, seriesId, CBZ, { numberSort: 99, status: 'UNKNOWN' });
      const res = await get(`/api/v1/books/${bare}/thumbnail`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as ErrorBodyDto).status).toBe(404);
    });

    it('refuses users without the library and users restricted from the content with 403', async () => {
      expect((await get(`/api/v1/books/${bookId}/thumbnail`, outsider)).status).toBe(403);
      expect((await get(`/api/v1/books/${bookId}/thumbnails`, outsider)).status).toBe(403);
      expect((await get(`/api/v1/series/${seriesId}/thumbnail`, outsider)).status).toBe(403);
      expect((await get(`/api/v1/books/${adultBookId}/thumbnail`, kid)).status).toBe(403);
      expect((await get(`/api/v1/series/${adultSeriesId}/thumbnails`, kid)).status).toBe(403);
      expect((await get(`/api/v1/books/${bookId}/thumbnail`, kid)).status).toBe(403); // no age rating: not allowed
      expect((await get(`/api/v1/books/${adultBookId}/thumbnail`, reader)).status).toBe(200);
    });

    it('needs authentication', async () => {
      expect((await s.fetch(`/api/v1/books/${bookId}/thumbnail`)).status).toBe(401);
    });
  });

  describe('GET /api/v1/books/{bookId}/thumbnails', () => {
    it('lists ThumbnailBookDto', async () => {
      const res = await get(`/api/v1/books/${bookId}/thumbnails`, reader);
      expect(res.status).toBe(200);
      const list = (await res.json()) as ThumbnailBookDto[];
      expect(list).toHaveLength(1);
      for (const t of list) expectSchema('ThumbnailBookDto', t);
      expect(list[0]).toMatchObject({
        bookId,
        type: 'GENERATED',
        selected: true,
        mediaType: 'image/jpeg',
        height: 300,
      });
      const one = await get(`/api/v1/books/${bookId}/thumbnails/${list[0]!.id}`, reader);
      expect(one.headers.get('content-type')).toBe('image/jpeg');
      expect(one.headers.get('etag')).toBeTruthy();
      expect((await one.arrayBuffer()).byteLength).toBe(list[0]!.fileSize);
      expect((await get(`/api/v1/books/${book2Id}/thumbnails/${list[0]!.id}`)).status).toBe(404);
    });
  });

  describe('POST, PUT selected, DELETE /api/v1/books/{bookId}/thumbnails', () => {
    it('an upload (selected by default) becomes the poster; selecting another and deleting fall back', async () => {
      const events: QuireEvent[] = [];
      const stop = s.app.deps.events.subscribe((e) => events.push(e));
      try {
        const res = await upload(`/api/v1/books/${book2Id}/thumbnails`, await solid(500, 700, [255, 0, 0]));
        expect(res.status).toBe(200);
        const red = (await res.json()) as ThumbnailBookDto;
        expectSchema('ThumbnailBookDto', red);
        expect(red).toMatchObject({ bookId: book2Id, type: 'USER_UPLOADED', selected: true, width: 500, height: 700 });
        expect(events).toContainEqual({
          type: 'ThumbnailBookAdded',
          data: { bookId: book2Id, seriesId, selected: true },
        });
        const poster = new Uint8Array(await (await get(`/api/v1/books/${book2Id}/thumbnail`)).arrayBuffer());
        expect(isJpeg(poster)).toBe(true);
        expect(await redOf(poster)).toBeGreaterThan(240);

        // selected=false as a form field
        const blueRes = await upload(`/api/v1/books/${book2Id}/thumbnails`, await solid(50, 50, [0, 0, 255]), {
          selected: 'false',
        });
        const blue = (await blueRes.json()) as ThumbnailBookDto;
        expect(blue.selected).toBe(false);

        const list = (await (await get(`/api/v1/books/${book2Id}/thumbnails`)).json()) as ThumbnailBookDto[];
        const generated = list.find((t) => t.type === 'GENERATED')!;
        const sel = await s.fetch(`/api/v1/books/${book2Id}/thumbnails/${generated.id}/selected`, {
          method: 'PUT',
          headers: { Authorization: admin.authorization },
        });
        expect(sel.status).toBe(202);
        const now = (await (await get(`/api/v1/books/${book2Id}/thumbnails`)).json()) as ThumbnailBookDto[];
        expect(now.filter((t: { selected: boolean }) => t.selected).map((t: { id: string }) => t.id)).toEqual([
          generated.id,
        ]);
        expect(
          await redOf(new Uint8Array(await (await get(`/api/v1/books/${book2Id}/thumbnail`)).arrayBuffer())),
        ).toBeLessThan(240);

        // deleting a generated poster is refused; deleting the selected upload selects another upload
        const refused = await s.fetch(`/api/v1/books/${book2Id}/thumbnails/${generated.id}`, {
          method: 'DELETE',
          headers: { Authorization: admin.authorization },
        });
        expect(refused.status).toBe(400);
        expect(((await refused.json()) as ErrorBodyDto).message).toBe('Only uploaded thumbnails can be deleted');
        await s.fetch(`/api/v1/books/${book2Id}/thumbnails/${red.id}/selected`, {
          method: 'PUT',
          headers: { Authorization: admin.authorization },
        });
        const del = await s.fetch(`/api/v1/books/${book2Id}/thumbnails/${red.id}`, {
          method: 'DELETE',
          headers: { Authorization: admin.authorization },
        });
        expect(del.status).toBe(202);
        expect(events).toContainEqual({
          type: 'ThumbnailBookDeleted',
          data: { bookId: book2Id, seriesId, selected: true },
        });
        const after = (await (await get(`/api/v1/books/${book2Id}/thumbnails`)).json()) as ThumbnailBookDto[];
        expect(after.map((t: { id: string; selected: boolean }) => [t.id, t.selected])).toEqual([
          [generated.id, false],
          [blue.id, true],
        ]);
      } finally {
        stop();
      }
    });

    it('refuses non-admins with 403', async () => {
      const res = await upload(`/api/v1/books/${bookId}/thumbnails`, await solid(10, 10, [0, 0, 0]), { user: reader });
      expect(res.status).toBe(403);
      const list = (await (await get(`/api/v1/books/${bookId}/thumbnails`)).json()) as ThumbnailBookDto[];
      const sel = await s.fetch(`/api/v1/books/${bookId}/thumbnails/${list[0]!.id}/selected`, {
        method: 'PUT',
        headers: { Authorization: basic(reader.email, reader.password) },
      });
      expect(sel.status).toBe(403);
      const del = await s.fetch(`/api/v1/books/${bookId}/thumbnails/${list[0]!.id}`, {
        method: 'DELETE',
        headers: { Authorization: basic(reader.email, reader.password) },
      });
      expect(del.status).toBe(403);
      const regen = await s.fetch('/api/v1/books/thumbnails', {
        method: 'PUT',
        headers: { Authorization: basic(reader.email, reader.password) },
      });
      expect(regen.status).toBe(403);
    });

    it('refuses a file that is not an image with 415 and a file over 10 MB with 400', async () => {
      const notImage = await upload(`/api/v1/books/${bookId}/thumbnails`, Buffer.from('just some text'), {
        type: 'text/plain',
      });
      expect(notImage.status).toBe(415);
      expect(((await notImage.json()) as ErrorBodyDto).status).toBe(415);
      const tooBig = await upload(`/api/v1/books/${bookId}/thumbnails`, Buffer.alloc(10 * 1024 * 1024 + 1, 1));
      expect(tooBig.status).toBe(400);
      expect(((await tooBig.json()) as ErrorBodyDto).message).toMatch(/Maximum upload size exceeded/);
      const noFile = await s.fetch(`/api/v1/books/${bookId}/thumbnails`, {
        method: 'POST',
        headers: { Authorization: admin.authorization },
        body: new FormData(),
      });
      expect(noFile.status).toBe(400);
      expect((await upload('/api/v1/books/NOPE/thumbnails', await solid(10, 10, [0, 0, 0]))).status).toBe(404);
      expect(await (await get(`/api/v1/books/${bookId}/thumbnails`)).json()).toHaveLength(1);
    });
  });

  describe('series posters', () => {
    it('follow the library seriesCover rule and the caller’s read progress', async () => {
      const db = s.app.deps.db;
      const series = await makeSeries(db, libraryId);
      const first = await makeBook(db, series, CBZ, { numberSort: 1 });
      const second = await makeBook(db, series, CBZ, { numberSort: 2 });
      await upload(`/api/v1/books/${first}/thumbnails`, await solid(40, 60, [255, 0, 0]));
      await upload(`/api/v1/books/${second}/thumbnails`, await solid(40, 60, [0, 0, 255]));
      const red = async (user: typeof reader | Admin) => {
        const res = await get(`/api/v1/series/${series}/thumbnail`, user);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/jpeg');
        return (await redOf(new Uint8Array(await res.arrayBuffer()))) > 200;
      };

      expect(await red(admin)).toBe(true);
      await setSeriesCover(db, libraryId, 'FIRST_UNREAD_OR_FIRST');
      await setProgress(db, adminId, first, true);
      expect(await red(admin)).toBe(false); // the admin read the first book
      expect(await red(reader)).toBe(true); // the reader did not
      await setSeriesCover(db, libraryId, 'LAST');
      expect(await red(reader)).toBe(false);
      await setSeriesCover(db, libraryId, 'FIRST');
    });

    it('upload, list (ThumbnailSeriesDto), and the selected series poster wins', async () => {
      const res = await upload(`/api/v1/series/${seriesId}/thumbnails?selected=true`, await solid(60, 90, [255, 0, 0]));
      expect(res.status).toBe(200);
      const dto = (await res.json()) as ThumbnailSeriesDto;
      expectSchema('ThumbnailSeriesDto', dto);
      expect(dto).toMatchObject({ seriesId, type: 'USER_UPLOADED', selected: true });
      const list = (await (await get(`/api/v1/series/${seriesId}/thumbnails`, reader)).json()) as ThumbnailSeriesDto[];
      for (const t of list) expectSchema('ThumbnailSeriesDto', t);
      expect(list.map((t: { id: string }) => t.id)).toEqual([dto.id]);
      const poster = new Uint8Array(await (await get(`/api/v1/series/${seriesId}/thumbnail`, reader)).arrayBuffer());
      expect(await redOf(poster)).toBeGreaterThan(240);
      const one = await get(`/api/v1/series/${seriesId}/thumbnails/${dto.id}`, reader);
      expect(one.status).toBe(200);
      expect(one.headers.get('content-type')).toBe('image/jpeg');

      const del = await s.fetch(`/api/v1/series/${seriesId}/thumbnails/${dto.id}`, {
        method: 'DELETE',
        headers: { Authorization: admin.authorization },
      });
      expect(del.status).toBe(202);
      // back to the first book's generated poster
      const fallback = new Uint8Array(await (await get(`/api/v1/series/${seriesId}/thumbnail`, reader)).arrayBuffer());
      expect(await redOf(fallback)).toBeLessThan(240);
    });

    it('refuses uploads for oneshot series with 400', async () => {
      const oneshot = await makeSeries(s.app.deps.db, libraryId, { oneshot: true });
      const res = await upload(`/api/v1/series/${oneshot}/thumbnails`, await solid(10, 10, [0, 0, 0]));
      expect(res.status).toBe(400);
    });
  });

  describe('PUT /api/v1/books/thumbnails (regeneration after a size change)', () => {
    const generatedOf = async (id: string) =>
      (
        (await (await get(`/api/v1/books/${id}/thumbnails`)).json()) as { id: string; type: string; height: number }[]
      ).find((t) => t.type === 'GENERATED')!;

    it('only bigger regenerates the smaller posters; all regenerates every one', async () => {
      const db = s.app.deps.db;
      const series = await makeSeries(db, libraryId);
      const small = await makeBook(db, series, CBZ);
      await s.app.deps.thumbnails.generateForBook(small); // at 300
      const patch = (thumbnailSize: string) =>
        s.fetch('/api/v1/settings', {
          method: 'PATCH',
          headers: { Authorization: admin.authorization },
          json: { thumbnailSize },
        });
      expect((await patch('MEDIUM')).status).toBe(204);
      const big = await makeBook(db, series, CBZ);
      await s.app.deps.thumbnails.generateForBook(big); // at 600
      const bigBefore = await generatedOf(big);
      expect(bigBefore.height).toBe(600);

      const res = await s.fetch('/api/v1/books/thumbnails?for_bigger_result_only=true', {
        method: 'PUT',
        headers: { Authorization: admin.authorization },
      });
      expect(res.status).toBe(202);
      await waitFor(async () => (await generatedOf(small)).height === 600);
      await waitFor(async () => (await generatedOf(bookId)).height === 600);
      expect((await generatedOf(big)).id).toBe(bigBefore.id); // not regenerated

      const all = await s.fetch('/api/v1/books/thumbnails?for_bigger_result_only=false', {
        method: 'PUT',
        headers: { Authorization: admin.authorization },
      });
      expect(all.status).toBe(202);
      await waitFor(async () => (await generatedOf(big)).id !== bigBefore.id);
      expect((await generatedOf(big)).height).toBe(600);
      expect((await patch('DEFAULT')).status).toBe(204);
    });
  });
});

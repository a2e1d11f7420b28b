import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../support/fixtures.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

/*
 * KOReader's progress sync (api.md §8.1) as KOReader's kosync plugin speaks it (koreader-client.md): its exact
 * requests (lua-Spore's headers, the API key as `x-auth-user`, the MD5 of the password as `x-auth-key`), its
 * document hash of real files computed here from KOReader's algorithm, and its reading of each answer (a JSON body
 * it cannot decode on a 200 is a failure; a status outside the call's list is a failure; a push counts only on 200).
 */

/**
 * `util.partialMD5` as KOReader runs it: LuaJIT's `bit.lshift(1024, 2 * i)` for i = -1 … 10 (JavaScript's `<<` is
 * the same 32-bit shift, so i = -1 shifts by 30 and gives 0), `file:read(1024)` at each offset, stop at the first
 * read that returns nothing, MD5 of what was read.
 */
function koreaderPartialMd5(path: string): string {
  const md5 = createHash('md5');
  const fd = openSync(path, 'r');
  try {
    for (let i = -1; i <= 10; i++) {
      const sample = Buffer.alloc(1024);
      const read = readSync(fd, sample, 0, 1024, 1024 << (2 * i));
      if (read === 0) break;
      md5.update(sample.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  return md5.digest('hex');
}

const DEVICE = { device: 'Kobo_io', device_id: '0F1E2D3C4B5A69788796A5B4C3D2E1F0' };
const PASSWORD_MD5 = createHash('md5').update('anything').digest('hex');

interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** What lua-Spore hands the plugin: the decoded JSON when typed JSON, else the raw text. */
  body: unknown;
  /** lua-Spore raised (an undecodable 200, or a status the call does not accept): "no answer" to the plugin. */
  raised: boolean;
}

describe('KOReader sync', () => {
  let s: TestServer;
  let dir: string;
  let admin: string;
  let key: string;
  let libraryId: string;
  const bookIds: Record<string, string> = {};
  const hashes: Record<string, string> = {};

  /** One kosync call, with the headers lua-Spore sends (node:http: fetch refuses `connection` and `te`). */
  const kosync = (
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    opts: { key?: string | null; json?: unknown; raw?: string; accepted: number[] },
  ): Promise<Answer> => {
    const body = opts.raw ?? (opts.json === undefined ? undefined : JSON.stringify(opts.json));
    const url = new URL(`${s.url}/koreader${path}`);
    const headers: Record<string, string> = {
      'user-agent': 'lua-Spore v0.4.2',
      accept: 'application/vnd.koreader.v1+json',
      connection: 'close, TE',
      te: 'trailers',
    };
    const apiKey = opts.key === undefined ? key : opts.key;
    if (apiKey !== null) Object.assign(headers, { 'x-auth-user': apiKey, 'x-auth-key': PASSWORD_MD5 });
    if (body !== undefined)
      Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const contentType = res.headers['content-type'] ?? '';
          const status = res.statusCode ?? 0;
          let decoded: unknown = text;
          let raised = !opts.accepted.includes(status);
          // koreader-base's Format.JSON: `application/<letters, digits, dots>[+]json` bodies are decoded.
          if (/^application\/[A-Za-z0-9.]*\+?json/.test(contentType)) {
            try {
              decoded = JSON.parse(text);
            } catch {
              if (status === 200) raised = true;
            }
          }
          resolve({ status, contentType, text, body: decoded, raised });
        });
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  };
  const PULL = [200, 401];
  const PUSH = [200, 202, 401];
  /** Without `apiKey`, the admin's key; null sends no credentials. */
  const pull = (document: string, apiKey?: string | null) =>
    kosync('GET', `/syncs/progress/${document}`, { key: apiKey, accepted: PULL });
  const push = (json: unknown, apiKey?: string | null) =>
    kosync('PUT', '/syncs/progress', { key: apiKey, json, accepted: PUSH });

  const api = async (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) => {
    const res = await s.fetch(path, {
      method,
      headers: { authorization: admin, ...headers },
      ...(json === undefined ? {} : { json }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  };
  const idle = async () => {
    let quiet = 0;
    for (let i = 0; i < 1200 && quiet < 3; i++) {
      quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const newKey = async (authorization: string, comment = 'KOReader') => {
    const res = await s.fetch('/api/v2/users/me/api-keys', {
      method: 'POST',
      headers: { authorization },
      json: { comment },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { key: string }).key;
  };
  const newUser = async (email: string, extra: Record<string, unknown>) => {
    const res = await api('POST', '/api/v2/users', { email, password: 'reader-secret', ...extra });
    expect(res.status).toBe(201);
    return { id: res.body!.id as string, authorization: basic(email, 'reader-secret') };
  };
  const readProgress = async (book: string) =>
    (await api('GET', `/api/v1/books/${bookIds[book]}`)).body!.readProgress as Record<string, unknown> | null;
  const progression = async (book: string) => (await api('GET', `/api/v1/books/${bookIds[book]}/progression`)).body;
  const later = () => new Promise((r) => setTimeout(r, 5));

  // Real files: a CBZ, a PDF, an EPUB, and a CBZ of 1,290 bytes whose second sample (at 1 KiB) is a short read,
  // where Komga's hash (the whole stale buffer) differs from KOReader's. zip.zip twice: one hash, two books.
  const FILES: [book: string, fixture: string, folder: string][] = [
    ['cbz', 'archives/Captain Science #001.cbz', 'Comics'],
    ['pdf', 'pdf/labelled_pages.pdf', 'Documents'],
    ['epub', 'epub/The Incomplete Theft - Ralph Burke.epub', 'Novels'],
    ['small', 'archives/Captain Science #001-metron.cbz', 'Small'],
    ['copyA', 'archives/zip.zip', 'Copies A'],
    ['copyB', 'archives/zip.zip', 'Copies B'],
  ];

  beforeAll(async () => {
    s = await startServer();
    admin = (await claim(s)).authorization;
    key = await newKey(admin);
    dir = await mkdtemp(join(tmpdir(), 'quire-kosync-'));
    for (const [book, file, folder] of FILES) {
      await mkdir(join(dir, folder), { recursive: true });
      const name = book.startsWith('copy') ? 'zip.zip' : file.split('/').pop()!;
      await copyFile(fixture(file), join(dir, folder, name));
      hashes[book] = koreaderPartialMd5(fixture(file));
    }
    // hashKoreader off at first: switching it on later must hash the books already there.
    const res = await api('POST', '/api/v1/libraries', { name: 'Books', root: dir, hashKoreader: false });
    expect(res.status).toBe(200);
    libraryId = res.body!.id as string;
    await idle();
    const books = await api('GET', `/api/v1/books?library_id=${libraryId}&unpaged=true`);
    // One book per folder (the admin sees the file's path).
    for (const b of books.body!.content as { id: string; url: string }[])
      bookIds[FILES.find(([, , folder]) => folder === b.url.split('/').at(-2))![0]] = b.id;
    expect(Object.keys(bookIds).sort()).toEqual(FILES.map(([b]) => b).sort());
  }, 120_000);

  afterAll(async () => {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('accounts', () => {
    it('register is refused (403): users are made in Quire', async () => {
      const res = await kosync('POST', '/users/create', {
        key: null,
        json: { username: key, password: PASSWORD_MD5 },
        accepted: [201, 402],
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ status: 403, message: 'User creation is disabled' });
    });

    it('login with the API key as username answers 200 {"authorized":"OK"}', async () => {
      const res = await kosync('GET', '/users/auth', { accepted: PULL });
      expect(res).toMatchObject({ status: 200, raised: false, body: { authorized: 'OK' } });
      expect(res.contentType).toMatch(/^application\/vnd\.koreader\.v1\+json/);
    });

    it('a missing or unknown key, a user without KOREADER_SYNC, a deleted user: 401 with a message', async () => {
      const reader = await newUser('noroles@example.org', {});
      const withoutRole = await newKey(reader.authorization);
      const gone = await newUser('gone@example.org', { roles: ['KOREADER_SYNC'] });
      const goneKey = await newKey(gone.authorization);
      expect((await kosync('GET', '/users/auth', { key: goneKey, accepted: PULL })).status).toBe(200);
      expect((await api('DELETE', `/api/v2/users/${gone.id}`)).status).toBe(204);
      for (const k of [null, '', 'f'.repeat(32), withoutRole, goneKey]) {
        const login = await kosync('GET', '/users/auth', { key: k, accepted: PULL });
        expect(login, String(k)).toMatchObject({ status: 401, raised: false });
        expect((login.body as { message: string }).message).toBeTruthy();
        // A push refused 401 is not queued for ever, unlike any other failure.
        const pushed = await push({ document: hashes.cbz, progress: '1', percentage: 0.2, ...DEVICE }, k);
        expect(pushed.status).toBe(401);
        expect((await pull(hashes.cbz!, k)).status).toBe(401);
      }
    });
  });

  describe('document hash', () => {
    it('books are unknown (404) while the library does not compute KOReader hashes', async () => {
      expect((await pull(hashes.cbz!)).status).toBe(404);
    });

    it('switching hashKoreader on hashes the books already there, as KOReader does, small files included', async () => {
      const res = await api('PATCH', `/api/v1/libraries/${libraryId}`, { hashKoreader: true });
      expect(res.status).toBe(204);
      await idle();
      for (const book of ['cbz', 'pdf', 'epub', 'small']) {
        const res = await pull(hashes[book]!);
        // Known, no progress yet: Komga's 200 error body, in which KOReader finds no percentage.
        expect(res, book).toMatchObject({
          status: 200,
          raised: false,
          body: { message: 'No progress found for this book' },
        });
        expect((res.body as Record<string, unknown>).percentage, book).toBeUndefined();
      }
    });

    it('a hash two books share is a 409; an unknown one a 404', async () => {
      expect(hashes.copyA).toBe(hashes.copyB);
      expect((await pull(hashes.copyA!)).status).toBe(409);
      expect((await push({ document: hashes.copyA, progress: '1', percentage: 1, ...DEVICE })).status).toBe(409);
      expect((await pull('0123456789abcdef0123456789abcdef')).status).toBe(404);
      expect(
        (await push({ document: '0123456789abcdef0123456789abcdef', progress: '1', percentage: 1, ...DEVICE })).status,
      ).toBe(404);
    });
  });

  describe('paged documents', () => {
    it('a push of page 3 of 5 is the read progress and Readium progression the REST API shows', async () => {
      const res = await push({ document: hashes.cbz, progress: '3', percentage: 0.6, ...DEVICE });
      // 200 with no body, as Komga answers, and not typed JSON: KOReader fails to decode an empty JSON body.
      expect(res).toMatchObject({ status: 200, raised: false, text: '' });
      expect(res.contentType).not.toMatch(/json/);
      expect(await readProgress('cbz')).toMatchObject({
        page: 3,
        completed: false,
        deviceId: DEVICE.device_id,
        deviceName: DEVICE.device,
      });
      expect(await progression('cbz')).toMatchObject({
        device: { id: DEVICE.device_id, name: DEVICE.device },
        locator: { locations: { position: 3, totalProgression: 0.6 } },
      });
      expect((await pull(hashes.cbz!)).body).toEqual({
        document: hashes.cbz,
        progress: '3',
        percentage: 0.6,
        ...DEVICE,
      });
    });

    it('the last page marks the book read', async () => {
      await later();
      expect((await push({ document: hashes.cbz, progress: '5', percentage: 1, ...DEVICE })).status).toBe(200);
      expect(await readProgress('cbz')).toMatchObject({ page: 5, completed: true });
    });

    it('progress set in Quire (Readium progression, or a page) is what KOReader pulls', async () => {
      // A minute ahead: the push of the next test must still be older on a loaded machine (1 s was not, once).
      const modified = new Date(Date.now() + 60_000).toISOString();
      const put = await api('PUT', `/api/v1/books/${bookIds.pdf}/progression`, {
        modified,
        device: { id: 'web', name: 'Quire web reader' },
        locator: { href: '', type: '', locations: { position: 7, totalProgression: 7 / 11 } },
      });
      expect(put.status).toBe(204);
      expect((await pull(hashes.pdf!)).body).toEqual({
        document: hashes.pdf,
        progress: '7',
        percentage: 7 / 11,
        device: 'Quire web reader',
        device_id: 'web',
      });
      // A page marked through the REST API has no locator: the percentage is the page's share of the book.
      expect((await api('PATCH', `/api/v1/books/${bookIds.cbz}/read-progress`, { page: 2 })).status).toBe(204);
      expect((await pull(hashes.cbz!)).body).toMatchObject({
        progress: '2',
        percentage: 0.4,
        device: '',
        device_id: '',
      });
    });

    it('a push older than what is stored is a 409 (then retried by KOReader)', async () => {
      // The web reader saved a progression dated ahead of the server's clock (PUT above: now + 1 min).
      const res = await push({ document: hashes.pdf, progress: '2', percentage: 2 / 11, ...DEVICE });
      expect(res.status).toBe(409);
      expect(res.raised).toBe(true);
      expect(await readProgress('pdf')).toMatchObject({ page: 7 });
    });
  });

  describe('EPUB', () => {
    let resources: string[];
    let positions: { href: string; locations: { position: number; progression: number; totalProgression: number } }[];
    beforeAll(async () => {
      positions = (await api('GET', `/api/v1/books/${bookIds.epub}/positions`)).body!.positions as typeof positions;
      resources = [...new Set(positions.map((p) => p.href))];
      expect(resources.length).toBeGreaterThanOrEqual(4);
    });

    it('DocFragment[n] (1-based) is the n-th spine resource, at the position of the percentage', async () => {
      const chapter = positions.filter((p) => p.href === resources[3]);
      const middle = chapter[Math.floor(chapter.length / 2)]!;
      const percentage = Math.floor((middle.locations.totalProgression + 0.001) * 10000) / 10000;
      const res = await push({
        document: hashes.epub,
        progress: '/body/DocFragment[4]/body/div/p[12]/text().37',
        percentage,
        ...DEVICE,
      });
      expect(res.status).toBe(200);
      expect(await progression('epub')).toMatchObject({
        device: { name: DEVICE.device },
        locator: {
          href: resources[3],
          locations: { progression: middle.locations.progression, totalProgression: middle.locations.totalProgression },
        },
      });
      expect(await readProgress('epub')).toMatchObject({ completed: false, deviceName: DEVICE.device });
      // KOReader is sent to the start of that resource, with the stored share of the book.
      expect((await pull(hashes.epub!)).body).toEqual({
        document: hashes.epub,
        progress: '/body/DocFragment[4].0',
        percentage: middle.locations.totalProgression,
        ...DEVICE,
      });
    });

    it('#_doc_fragment_n_ (0-based) names the same resources', async () => {
      await later();
      const res = await push({ document: hashes.epub, progress: '#_doc_fragment_1_', percentage: 0, ...DEVICE });
      expect(res.status).toBe(200);
      expect(await progression('epub')).toMatchObject({
        locator: { href: resources[1], locations: { progression: 0 } },
      });
      expect((await pull(hashes.epub!)).body).toMatchObject({ progress: '/body/DocFragment[2].0' });
    });

    it('a Readium progression saved in Quire is pulled as its resource’s DocFragment', async () => {
      const put = await api('PUT', `/api/v1/books/${bookIds.epub}/progression`, {
        modified: new Date(Date.now() + 1000).toISOString(),
        device: { id: 'web', name: 'Quire web reader' },
        locator: { href: resources[2], type: 'application/xhtml+xml', locations: { progression: 0 } },
      });
      expect(put.status).toBe(204);
      const first = positions.find((p) => p.href === resources[2])!;
      expect((await pull(hashes.epub!)).body).toEqual({
        document: hashes.epub,
        progress: '/body/DocFragment[3].0',
        percentage: first.locations.totalProgression,
        device: 'Quire web reader',
        device_id: 'web',
      });
    });
  });

  describe('malformed pushes are 400', () => {
    const good = () => ({ document: hashes.cbz, progress: '2', percentage: 0.4, ...DEVICE });
    it.each([
      ['not JSON', '{"document": '],
      ['no document', JSON.stringify({ ...good(), document: undefined })],
      ['an empty document', JSON.stringify({ ...good(), document: '' })],
      ['no percentage', JSON.stringify({ ...good(), percentage: undefined })],
      ['a percentage that is no number', JSON.stringify({ ...good(), percentage: 'half' })],
      ['a percentage over 1', JSON.stringify({ ...good(), percentage: 1.5 })],
      ['no device_id', JSON.stringify({ ...good(), device_id: undefined })],
      ['a page that is no number', JSON.stringify({ ...good(), progress: 'two' })],
      ['a page beyond the book', JSON.stringify({ ...good(), progress: '6' })],
      ['a page 0', JSON.stringify({ ...good(), progress: '0' })],
    ])('%s', async (_what, raw) => {
      const res = await kosync('PUT', '/syncs/progress', { raw, accepted: PUSH });
      expect(res.status).toBe(400);
    });

    it.each([
      ['no DocFragment', '/body/div/p[3]/text().2'],
      ['a DocFragment past the last resource', '/body/DocFragment[99]/body/p/text().0'],
    ])('EPUB: %s', async (_what, progress) => {
      const res = await push({ document: hashes.epub, progress, percentage: 0.5, ...DEVICE });
      expect(res.status).toBe(400);
    });
  });

  describe('content restrictions', () => {
    it('a book the user may not see is unknown (404), and his progress is his own', async () => {
      const outsider = await newUser('outsider@example.org', {
        roles: ['KOREADER_SYNC'],
        sharedLibraries: { all: false, libraryIds: [] },
      });
      const outsiderKey = await newKey(outsider.authorization);
      expect((await pull(hashes.cbz!, outsiderKey)).status).toBe(404);
      expect(
        (await push({ document: hashes.cbz, progress: '1', percentage: 0.2, ...DEVICE }, outsiderKey)).status,
      ).toBe(404);
      const reader = await newUser('reader@example.org', { roles: ['KOREADER_SYNC'] });
      const readerKey = await newKey(reader.authorization);
      expect((await pull(hashes.cbz!, readerKey)).body).toMatchObject({ message: 'No progress found for this book' });
    });
  });

  describe('a changed file', () => {
    it('is hashed again, so the device that opens the new file finds the book', async () => {
      const comics = join(dir, 'Comics');
      const replacement = join(dir, 'replacement.tmp');
      await copyFile(fixture('archives/futuristic_tales.cbz'), replacement);
      await rename(replacement, join(comics, 'Captain Science #001.cbz'));
      expect((await api('POST', `/api/v1/libraries/${libraryId}/scan`)).status).toBe(202);
      await idle();
      const newHash = koreaderPartialMd5(fixture('archives/futuristic_tales.cbz'));
      expect((await pull(newHash)).status).toBe(200);
      expect((await pull(hashes.cbz!)).status).toBe(404);
    });
  });
});

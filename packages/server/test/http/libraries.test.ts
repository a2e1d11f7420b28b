import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuireEvent } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';

/** Komga serialises nulls but its OpenAPI document does not mark fields nullable. */
const withoutNulls = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
const expectLibrary = (body: unknown) => expectSchema('LibraryDto', withoutNulls(body as Record<string, unknown>));

describe('/api/v1/libraries', () => {
  let s: TestServer;
  let admin: { authorization: string };
  let user: { authorization: string };
  let dir: string;
  const events: QuireEvent[] = [];
  const submitted: { kind: string; priority: number | undefined }[] = [];

  const as = (who: { authorization: string }, path: string, init: RequestInit & { json?: unknown } = {}) =>
    s.fetch(path, { ...init, headers: { Authorization: who.authorization, ...(init.headers ?? {}) } });
  const create = (body: Record<string, unknown>) => as(admin, '/api/v1/libraries', { method: 'POST', json: body });

  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    dir = await mkdtemp(join(tmpdir(), 'quire-libraries-'));
    for (const d of ['comics', 'comics2', 'manga', 'comics/nested', 'browse/Beta', 'browse/alpha', 'browse/.hidden'])
      await mkdir(join(dir, d), { recursive: true });
    await writeFile(join(dir, 'a-file.txt'), 'x');
    await writeFile(join(dir, 'browse/Zeta.cbz'), 'x');
    await writeFile(join(dir, 'browse/.secret.cbz'), 'x');
    s.app.deps.events.subscribe((e) => void events.push(e));
    // Keep every queued task out of the workers: these tests look at what is queued, not at scans.
    s.app.deps.tasks.submit = async (tasks, priority) => {
      for (const t of tasks) submitted.push({ kind: t.kind, priority });
    };
    const res = await as(admin, '/api/v2/users', {
      method: 'POST',
      json: { email: 'reader@example.org', password: 'reader-secret', sharedLibraries: { all: false, libraryIds: [] } },
    });
    expect(res.status).toBe(201);
    user = { authorization: basic('reader@example.org', 'reader-secret') };
  });
  afterAll(async () => {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  let comicsId = '';
  let mangaId = '';

  it('creates a library with Komga defaults, queues its scan and announces it', async () => {
    submitted.length = 0;
    const res = await create({ name: 'Comics', root: join(dir, 'comics') });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expectLibrary(body);
    comicsId = body.id as string;
    expect(body).toMatchObject({
      name: 'Comics',
      root: join(dir, 'comics'),
      scanInterval: 'EVERY_6H',
      seriesCover: 'FIRST',
      hashFiles: true,
      hashPages: false,
      scanDirectoryExclusions: [],
      oneshotsDirectory: null,
      unavailable: false,
    });
    expect(submitted).toEqual([{ kind: 'ScanLibrary', priority: 4 }]);
    expect(events).toContainEqual({ type: 'LibraryAdded', data: { libraryId: comicsId } });
  });

  it('accepts every option, enum values in any case, and blank one-shots folder as none', async () => {
    const res = await create({
      name: 'Manga',
      root: join(dir, 'manga'),
      scanInterval: 'daily',
      seriesCover: 'last',
      oneshotsDirectory: '  ',
      scanDirectoryExclusions: ['#recycle', '@eaDir'],
      hashFiles: false,
      emptyTrashAfterScan: true,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expectLibrary(body);
    mangaId = body.id as string;
    expect(body).toMatchObject({
      scanInterval: 'DAILY',
      seriesCover: 'LAST',
      oneshotsDirectory: null,
      scanDirectoryExclusions: ['#recycle', '@eaDir'],
      hashFiles: false,
      emptyTrashAfterScan: true,
    });
    expect(s.app.deps.libraries.repository).toBeDefined();
  });

  it.each([
    ['a missing root', { name: 'X', root: 'nope' }, 'ERR_1016'],
    ['a file as root', { name: 'X', root: 'a-file.txt' }, 'ERR_1016'],
    ['a root inside another library', { name: 'X', root: 'comics/nested' }, 'ERR_1017'],
    ['a root around another library', { name: 'X', root: '.' }, 'ERR_1017'],
    ['the same root', { name: 'X', root: 'comics/' }, 'ERR_1017'],
    ['a duplicate name', { name: 'Comics', root: 'comics2' }, 'Library name already exists'],
  ])('refuses %s (400)', async (_what, body, message) => {
    const res = await create({ ...body, root: join(dir, body.root) + (body.root.endsWith('/') ? '/' : '') });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(message);
  });

  // [what, root (read when the test runs: s and dir are set in beforeAll), expected message or 'data']
  it.each<[string, () => string, string]>([
    ['the file system root', () => '/', 'The file system root cannot be a library root'],
    ...['/proc', '/sys', '/dev', '/run', '/boot'].map((f): [string, () => string, string] => [
      f,
      () => f,
      `${f} is a system folder: it cannot hold a library`,
    ]),
    ['a folder in /proc', () => '/proc/self/fd', '/proc is a system folder: it cannot hold a library'],
    ['a folder in /dev', () => '/dev/shm', '/dev is a system folder: it cannot hold a library'],
    ['the data folder', () => s.dataDir, 'data'],
    ['a folder in the data folder', () => join(s.dataDir, 'thumbnails'), 'data'],
    ['a parent of the data folder', () => dirname(s.dataDir), 'data'],
    ['a link to the data folder', () => join(dir, 'data-link'), 'data'],
  ])('refuses %s as a root, on create and on update (400)', async (_what, root, message) => {
    await symlink(s.dataDir, join(dir, 'data-link')).catch(() => undefined);
    const expected =
      message === 'data'
        ? `A library root cannot be in or around Quire's data folder (${await realpath(s.dataDir)})`
        : message;
    const created = await create({ name: 'System', root: root() });
    expect([created.status, ((await created.json()) as { message: string }).message]).toEqual([400, expected]);
    const updated = await as(admin, `/api/v1/libraries/${comicsId}`, { method: 'PATCH', json: { root: root() } });
    expect([updated.status, ((await updated.json()) as { message: string }).message]).toEqual([400, expected]);
    expect(((await (await as(admin, `/api/v1/libraries/${comicsId}`)).json()) as { root: string }).root).toBe(
      join(dir, 'comics'),
    );
  });

  it('compares roots through links: a link into another library is inside it (ERR_1017)', async () => {
    await symlink(join(dir, 'comics', 'nested'), join(dir, 'nested-link'));
    const res = await create({ name: 'Linked', root: join(dir, 'nested-link') });
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([400, 'ERR_1017']);
  });

  it('refuses a relative root (400)', async () => {
    const res = await create({ name: 'X', root: 'comics' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('ERR_1016');
  });

  it('does not confuse /comics2 with /comics', async () => {
    const res = await create({ name: 'Comics 2', root: join(dir, 'comics2') });
    expect(res.status).toBe(200);
    expectLibrary(await res.json());
  });

  it('refuses an empty name or a body without root (400)', async () => {
    expect((await create({ name: '', root: join(dir, 'comics2') })).status).toBe(400);
    expect((await create({ name: 'Y' })).status).toBe(400);
  });

  it('lists libraries sorted by name for admins, with their roots', async () => {
    const res = await as(admin, '/api/v1/libraries');
    expect(res.status).toBe(200);
    const list = (await res.json()) as Record<string, unknown>[];
    list.forEach(expectLibrary);
    expect(list.map((l) => l.name)).toEqual(['Comics', 'Comics 2', 'Manga']);
    expect(list[0]!.root).toBe(join(dir, 'comics'));
  });

  it('shows a non-admin only the shared libraries, with root redacted; 403 for the others, 404 when unknown', async () => {
    expect(((await (await as(user, '/api/v1/libraries')).json()) as unknown[]).length).toBe(0);
    const me = (await (await as(user, '/api/v2/users/me')).json()) as { id: string };
    const share = await as(admin, `/api/v2/users/${me.id}`, {
      method: 'PATCH',
      json: { sharedLibraries: { all: false, libraryIds: [mangaId] } },
    });
    expect(share.status).toBe(204);
    const list = (await (await as(user, '/api/v1/libraries')).json()) as Record<string, unknown>[];
    expect(list.map((l) => [l.id, l.root])).toEqual([[mangaId, '']]);
    list.forEach(expectLibrary);

    const one = await as(user, `/api/v1/libraries/${mangaId}`);
    expect(one.status).toBe(200);
    const body = (await one.json()) as Record<string, unknown>;
    expectLibrary(body);
    expect(body.root).toBe('');
    expect((await as(user, `/api/v1/libraries/${comicsId}`)).status).toBe(403);
    expect((await as(user, '/api/v1/libraries/NOPE')).status).toBe(404);
    expect((await as(admin, '/api/v1/libraries/NOPE')).status).toBe(404);
    expect((await s.fetch('/api/v1/libraries')).status).toBe(401);
  });

  it('keeps writes and tasks for admins (403)', async () => {
    expect((await as(user, '/api/v1/libraries', { method: 'POST', json: { name: 'Z', root: dir } })).status).toBe(403);
    expect((await as(user, `/api/v1/libraries/${mangaId}`, { method: 'PATCH', json: {} })).status).toBe(403);
    expect((await as(user, `/api/v1/libraries/${mangaId}`, { method: 'DELETE' })).status).toBe(403);
    for (const action of ['scan', 'analyze', 'metadata/refresh', 'empty-trash'])
      expect((await as(user, `/api/v1/libraries/${mangaId}/${action}`, { method: 'POST' })).status).toBe(403);
  });

  it('updates only what is given; a scan-relevant change queues a scan, a cosmetic one does not', async () => {
    submitted.length = 0;
    events.length = 0;
    let res = await as(admin, `/api/v1/libraries/${comicsId}`, {
      method: 'PATCH',
      json: { importEpubBook: false, scanInterval: 'WEEKLY' },
    });
    expect(res.status).toBe(204);
    expect(submitted).toEqual([]);
    expect(events).toEqual([{ type: 'LibraryChanged', data: { libraryId: comicsId } }]);
    let body = (await (await as(admin, `/api/v1/libraries/${comicsId}`)).json()) as Record<string, unknown>;
    expectLibrary(body);
    expect(body).toMatchObject({
      name: 'Comics',
      importEpubBook: false,
      scanInterval: 'WEEKLY',
      importEpubSeries: true,
    });
    expect(s.app.deps.libraries).toBeDefined();

    res = await as(admin, `/api/v1/libraries/${comicsId}`, {
      method: 'PATCH',
      json: { scanDirectoryExclusions: ['@Recycle'], oneshotsDirectory: '_oneshots' },
    });
    expect(res.status).toBe(204);
    expect(submitted).toEqual([{ kind: 'ScanLibrary', priority: 4 }]);
    body = (await (await as(admin, `/api/v1/libraries/${comicsId}`)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ scanDirectoryExclusions: ['@Recycle'], oneshotsDirectory: '_oneshots' });

    // null clears exclusions and the one-shots folder.
    res = await as(admin, `/api/v1/libraries/${comicsId}`, {
      method: 'PATCH',
      json: { scanDirectoryExclusions: null, oneshotsDirectory: null },
    });
    expect(res.status).toBe(204);
    body = (await (await as(admin, `/api/v1/libraries/${comicsId}`)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ scanDirectoryExclusions: [], oneshotsDirectory: null });
  });

  it('validates updates like creations', async () => {
    const patch = (json: unknown) => as(admin, `/api/v1/libraries/${comicsId}`, { method: 'PATCH', json });
    expect(((await (await patch({ name: 'Manga' })).json()) as { message: string }).message).toBe(
      'Library name already exists',
    );
    expect(((await (await patch({ root: join(dir, 'manga') })).json()) as { message: string }).message).toBe(
      'ERR_1017',
    );
    expect(((await (await patch({ root: join(dir, 'nope') })).json()) as { message: string }).message).toBe('ERR_1016');
    expect((await patch({ name: 'Comics' })).status).toBe(204); // its own name is fine
    expect((await as(admin, '/api/v1/libraries/NOPE', { method: 'PATCH', json: {} })).status).toBe(404);
  });

  it('queues hashing jobs when hashFiles is switched on', async () => {
    submitted.length = 0;
    const res = await as(admin, `/api/v1/libraries/${mangaId}`, {
      method: 'PATCH',
      json: { hashFiles: true, hashPages: true },
    });
    expect(res.status).toBe(204);
    expect(submitted).toEqual([{ kind: 'FindBooksWithMissingPageHash', priority: 0 }]);
  });

  it('queues scans (HIGHEST, deep or not), analysis, refreshes and trash emptying; 404 for unknown libraries', async () => {
    submitted.length = 0;
    expect((await as(admin, `/api/v1/libraries/${comicsId}/scan`, { method: 'POST' })).status).toBe(202);
    expect((await as(admin, `/api/v1/libraries/${comicsId}/scan?deep=true`, { method: 'POST' })).status).toBe(202);
    expect((await as(admin, `/api/v1/libraries/${comicsId}/empty-trash`, { method: 'POST' })).status).toBe(202);
    expect((await as(admin, `/api/v1/libraries/${comicsId}/analyze`, { method: 'POST' })).status).toBe(202);
    expect((await as(admin, `/api/v1/libraries/${comicsId}/metadata/refresh`, { method: 'POST' })).status).toBe(202);
    expect(submitted).toEqual([
      { kind: 'ScanLibrary', priority: 8 },
      { kind: 'ScanLibrary', priority: 8 },
      { kind: 'EmptyTrash', priority: 6 },
    ]);
    for (const action of ['scan', 'analyze', 'metadata/refresh', 'empty-trash'])
      expect((await as(admin, `/api/v1/libraries/NOPE/${action}`, { method: 'POST' })).status).toBe(404);
  });

  it('deletes a library (204), disarms its timer and announces it; 404 afterwards', async () => {
    events.length = 0;
    expect(s.app.deps.libraries.repository).toBeDefined();
    const res = await as(admin, `/api/v1/libraries/${mangaId}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(events).toContainEqual({ type: 'LibraryDeleted', data: { libraryId: mangaId } });
    expect((await as(admin, `/api/v1/libraries/${mangaId}`)).status).toBe(404);
    expect((await as(admin, `/api/v1/libraries/${mangaId}`, { method: 'DELETE' })).status).toBe(404);
    expect((await as(user, '/api/v1/libraries')).status).toBe(200);
  });
});

describe('POST /api/v1/filesystem', () => {
  let s: TestServer;
  let admin: { authorization: string };
  let dir: string;
  const browse = (json?: unknown, who?: { authorization: string }) =>
    s.fetch('/api/v1/filesystem', { method: 'POST', json, headers: { Authorization: (who ?? admin).authorization } });

  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    dir = await mkdtemp(join(tmpdir(), 'quire-fs-'));
    for (const d of ['Beta', 'alpha', '.hidden', 'gamma/inner']) await mkdir(join(dir, d), { recursive: true });
    await writeFile(join(dir, 'Zeta.cbz'), 'x');
    await writeFile(join(dir, 'book.CBZ'), 'x');
    await writeFile(join(dir, '.secret.cbz'), 'x');
    await symlink(join(dir, 'gamma'), join(dir, 'link-to-gamma'));
  });
  afterAll(async () => {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists the roots for a request without a body, or with an empty JSON one, as Komga does', async () => {
    for (const headers of [{}, { 'Content-Type': 'application/json' }] as Record<string, string>[]) {
      const res = await s.fetch('/api/v1/filesystem', {
        method: 'POST',
        headers: { Authorization: admin.authorization, ...headers },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ directories: [{ type: 'directory', name: '/', path: '/' }], files: [] });
    }
  });

  it('lists the roots for an empty path (and an empty body)', async () => {
    for (const body of [{ path: '' }, {}]) {
      const res = await browse(body);
      expect(res.status).toBe(200);
      const listing = (await res.json()) as Record<string, unknown>;
      expectSchema('DirectoryListingDto', listing);
      expect(listing).toEqual({ directories: [{ type: 'directory', name: '/', path: '/' }], files: [] });
    }
  });

  it('lists folders case-insensitively, skipping hidden entries; files only when asked', async () => {
    let res = await browse({ path: dir, showFiles: false });
    expect(res.status).toBe(200);
    let listing = (await res.json()) as {
      parent: string;
      directories: { name: string; path: string }[];
      files: unknown[];
    };
    expectSchema('DirectoryListingDto', listing);
    expect(listing.directories.map((d) => d.name)).toEqual(['alpha', 'Beta', 'gamma', 'link-to-gamma']);
    expect(listing.directories[0]!.path).toBe(join(dir, 'alpha'));
    expect(listing.files).toEqual([]);
    expect(listing.parent).toBe(join(dir, '..'));

    res = await browse({ path: dir, showFiles: true });
    listing = (await res.json()) as typeof listing;
    expectSchema('DirectoryListingDto', listing);
    expect(listing.files).toEqual([
      { type: 'file', name: 'book.CBZ', path: join(dir, 'book.CBZ') },
      { type: 'file', name: 'Zeta.cbz', path: join(dir, 'Zeta.cbz') },
    ]);
  });

  it('lists the folder of a file, and resolves `..`', async () => {
    let listing = (await (await browse({ path: join(dir, 'Zeta.cbz'), showFiles: false })).json()) as {
      directories: { name: string }[];
    };
    expect(listing.directories.map((d) => d.name)).toContain('alpha');
    const res = await browse({ path: `${dir}/gamma/../alpha/..`, showFiles: false });
    expect(res.status).toBe(200);
    listing = (await res.json()) as typeof listing;
    expect(listing.directories.map((d) => d.name)).toEqual(['alpha', 'Beta', 'gamma', 'link-to-gamma']);
  });

  it('gives "" as the parent of /', async () => {
    const listing = (await (await browse({ path: '/', showFiles: false })).json()) as { parent: string };
    expect(listing.parent).toBe('');
  });

  it('refuses relative and missing paths (400)', async () => {
    let res = await browse({ path: 'relative/path', showFiles: false });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('Path must be absolute');
    res = await browse({ path: '../etc', showFiles: false });
    expect(res.status).toBe(400);
    res = await browse({ path: join(dir, 'missing'), showFiles: false });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('Path does not exist');
  });

  it('is for admins only', async () => {
    await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { Authorization: admin.authorization },
      json: { email: 'u@example.org', password: 'u-secret' },
    });
    expect((await browse({ path: '' }, { authorization: basic('u@example.org', 'u-secret') })).status).toBe(403);
    expect((await s.fetch('/api/v1/filesystem', { method: 'POST', json: {} })).status).toBe(401);
  });
});

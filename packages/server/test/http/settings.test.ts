import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsDto, SettingsRestartRequiredDto, ViolationsDto } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';
import { defaultTaskPoolSize } from '../../src/settings/server-settings.js';

/** Komga serialises nulls, but its OpenAPI document does not mark those fields nullable. */
const withoutNulls = (value: unknown): unknown =>
  value && typeof value === 'object'
    ? Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v !== null)
          .map(([k, v]) => [k, withoutNulls(v)]),
      )
    : value;

let servers: TestServer[] = [];
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of servers.reverse()) await s.close();
  for (const c of cleanups) await c();
  servers = [];
  cleanups = [];
});
const start = async (env: Record<string, string> = {}) => {
  const s = await startServer(env);
  servers.push(s);
  return s;
};

async function createUser(s: TestServer, admin: { authorization: string }, email: string, roles: string[] = []) {
  const res = await s.fetch('/api/v2/users', {
    method: 'POST',
    headers: { authorization: admin.authorization },
    json: { email, password: 'user-secret', roles },
  });
  expect(res.status).toBe(201);
  return { authorization: basic(email, 'user-secret') };
}

const patch = (s: TestServer, authorization: string, json: unknown) =>
  s.fetch('/api/v1/settings', { method: 'PATCH', headers: { authorization }, json });

describe('GET /api/v1/settings', () => {
  it('reports QUIRE_KEPUBIFY_PATH as the configured kepubify path, which a stored one overrides', async () => {
    const s = await start({ QUIRE_KEPUBIFY_PATH: '/opt/kepubify' });
    const admin = await claim(s);
    const read = async () =>
      (
        (await (
          await s.fetch('/api/v1/settings', { headers: { authorization: admin.authorization } })
        ).json()) as SettingsDto
      ).kepubifyPath;
    expect(await read()).toEqual({
      configurationSource: '/opt/kepubify',
      databaseSource: null,
      effectiveValue: '/opt/kepubify',
    });
    expect((await patch(s, admin.authorization, { kepubifyPath: '/usr/bin/kepubify' })).status).toBe(204);
    expect(await read()).toEqual({
      configurationSource: '/opt/kepubify',
      databaseSource: '/usr/bin/kepubify',
      effectiveValue: '/usr/bin/kepubify',
    });
    expect((await patch(s, admin.authorization, { kepubifyPath: null })).status).toBe(204);
    expect((await read()).effectiveValue).toBe('/opt/kepubify');
  });

  it('answers the defaults as a SettingsDto', async () => {
    const s = await start();
    const admin = await claim(s);
    const res = await s.fetch('/api/v1/settings', { headers: { authorization: admin.authorization } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as SettingsDto;
    expectSchema('SettingsDto', withoutNulls(body));
    expect(body).toEqual({
      deleteEmptyCollections: true,
      deleteEmptyReadLists: true,
      rememberMeDurationDays: 365,
      thumbnailSize: 'DEFAULT',
      taskPoolSize: defaultTaskPoolSize(),
      serverPort: { configurationSource: 0, databaseSource: null, effectiveValue: 0 },
      serverContextPath: { configurationSource: '', databaseSource: null, effectiveValue: '' },
      koboProxy: false,
      koboPort: null,
      kepubifyPath: { configurationSource: null, databaseSource: null, effectiveValue: null },
    });
  });

  it('reports the configured context path as the configuration source', async () => {
    const s = await start({ QUIRE_CONTEXT_PATH: '/quire' });
    const admin = await claim(s);
    const res = await s.fetch('/api/v1/settings', { headers: { authorization: admin.authorization } });
    const body = (await res.json()) as SettingsDto;
    expect(body.serverContextPath).toEqual({
      configurationSource: '/quire',
      databaseSource: null,
      effectiveValue: '/quire',
    });
  });

  it('is for admins only', async () => {
    const s = await start();
    const admin = await claim(s);
    const user = await createUser(s, admin, 'reader@example.org');
    expect((await s.fetch('/api/v1/settings')).status).toBe(401);
    expect((await s.fetch('/api/v1/settings', { headers: { authorization: user.authorization } })).status).toBe(403);
    expect((await patch(s, user.authorization, { taskPoolSize: 3 })).status).toBe(403);
    expect(
      (await s.fetch('/api/v1/settings/restart-required', { headers: { authorization: user.authorization } })).status,
    ).toBe(403);
    expect((await s.app.deps.settings.get()).taskPoolSize).toBe(defaultTaskPoolSize());
  });
});

describe('PATCH /api/v1/settings validation', () => {
  const invalid: [string, unknown][] = [
    ['serverContextPath', 'quire'],
    ['serverContextPath', '/quire/'],
    ['serverContextPath', '/quire-'],
    ['serverContextPath', '/qu ire'],
    ['serverContextPath', '/'],
    ['serverPort', 0],
    ['serverPort', 65536],
    ['serverPort', 'http'],
    ['koboPort', 0],
    ['koboPort', 70000],
    ['taskPoolSize', 0],
    ['taskPoolSize', -2],
    ['rememberMeDurationDays', -1],
    ['thumbnailSize', 'HUGE'],
    ['deleteEmptyCollections', 'maybe'],
  ];

  it.each(invalid)('rejects %s = %j with a violation and changes nothing', async (field, value) => {
    const s = await start();
    const admin = await claim(s);
    const before = await s.app.deps.settings.get();
    const res = await patch(s, admin.authorization, { deleteEmptyReadLists: false, [field]: value });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ViolationsDto;
    expect(body.violations).toEqual(expect.arrayContaining([expect.objectContaining({ fieldName: field })]));
    expect(typeof body.violations[0]!.message).toBe('string');
    expect(await s.app.deps.settings.get()).toEqual(before);
  });

  it('accepts the boundaries (port 1 and 65535, pool size 1, remember-me 0 days)', async () => {
    const s = await start();
    const admin = await claim(s);
    const ok = {
      serverPort: 65535,
      koboPort: 1,
      taskPoolSize: 1,
      rememberMeDurationDays: 0,
      serverContextPath: '/a_b-c/d9',
    };
    expect((await patch(s, admin.authorization, ok)).status).toBe(204);
    const stored = await s.app.deps.settings.get();
    expect(stored).toMatchObject(ok);
  });
});

describe('PATCH /api/v1/settings', () => {
  it('persists changes across a restart, and null deletes the database value', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'quire-settings-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const first = await start({ QUIRE_DATA_DIR: dataDir });
    const admin = await claim(first);
    const keyBefore = (await first.app.deps.settings.get()).rememberMeKey;
    expect(keyBefore).toMatch(/^[\w-]{40,}$/);

    const res = await patch(first, admin.authorization, {
      deleteEmptyCollections: false,
      deleteEmptyReadLists: false,
      rememberMeDurationDays: 30,
      renewRememberMeKey: true,
      thumbnailSize: 'LARGE',
      taskPoolSize: 4,
      serverPort: 8080,
      serverContextPath: '/komga',
      koboProxy: true,
      koboPort: 443,
      kepubifyPath: '/usr/local/bin/kepubify',
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('x-quire-restart-required')?.split(',').sort()).toEqual(
      // The remember-me duration and key apply at once in Quire, so only these two wait for a restart.
      ['serverContextPath', 'serverPort'],
    );
    const pending = await first.fetch('/api/v1/settings/restart-required', {
      headers: { authorization: admin.authorization },
    });
    expect(pending.status).toBe(200);
    expect(((await pending.json()) as SettingsRestartRequiredDto).restartRequired).toBe(true);
    const keyAfter = (await first.app.deps.settings.get()).rememberMeKey;
    expect(keyAfter).not.toBe(keyBefore);
    await first.close();
    servers = [];

    // The database context path wins over the (empty) configuration at the next start.
    const second = await start({ QUIRE_DATA_DIR: dataDir });
    expect(second.app.contextPath).toBe('/komga');
    expect(second.url.endsWith('/komga')).toBe(true);
    const reread = await second.fetch('/api/v1/settings', { headers: { authorization: admin.authorization } });
    const body = (await reread.json()) as SettingsDto;
    expectSchema('SettingsDto', withoutNulls(body));
    expect(body).toEqual({
      deleteEmptyCollections: false,
      deleteEmptyReadLists: false,
      rememberMeDurationDays: 30,
      thumbnailSize: 'LARGE',
      taskPoolSize: 4,
      serverPort: { configurationSource: 0, databaseSource: 8080, effectiveValue: 8080 },
      serverContextPath: { configurationSource: '', databaseSource: '/komga', effectiveValue: '/komga' },
      koboProxy: true,
      koboPort: 443,
      kepubifyPath: {
        configurationSource: null,
        databaseSource: '/usr/local/bin/kepubify',
        effectiveValue: '/usr/local/bin/kepubify',
      },
    });
    expect((await second.app.deps.settings.get()).rememberMeKey).toBe(keyAfter);
    const fresh = await second.fetch('/api/v1/settings/restart-required', {
      headers: { authorization: admin.authorization },
    });
    expect(await fresh.json()).toEqual({ restartRequired: false, settings: [] });

    // Omitted fields stay; null deletes port, context path, Kobo port and kepubify path.
    const cleared = await patch(second, admin.authorization, {
      serverPort: null,
      serverContextPath: null,
      koboPort: null,
      kepubifyPath: null,
    });
    expect(cleared.status).toBe(204);
    expect(cleared.headers.get('x-quire-restart-required')?.split(',').sort()).toEqual([
      'serverContextPath',
      'serverPort',
    ]);
    const reread2 = await second.fetch('/api/v1/settings', { headers: { authorization: admin.authorization } });
    const after = (await reread2.json()) as SettingsDto;
    expect(after.serverPort).toEqual({ configurationSource: 0, databaseSource: null, effectiveValue: 0 });
    expect(after.serverContextPath).toEqual({ configurationSource: '', databaseSource: null, effectiveValue: '' });
    expect(after.koboPort).toBeNull();
    expect(after.kepubifyPath.databaseSource).toBeNull();
    expect(after.taskPoolSize).toBe(4);
    expect(after.thumbnailSize).toBe('LARGE');
  });

  it('changes only what the body names', async () => {
    const s = await start();
    const admin = await claim(s);
    const before = await s.app.deps.settings.get();
    const res = await patch(s, admin.authorization, { taskPoolSize: 2 });
    expect(res.status).toBe(204);
    expect(res.headers.get('x-quire-restart-required')).toBeNull();
    expect(await s.app.deps.settings.get()).toEqual({ ...before, taskPoolSize: 2 });
  });
});

describe('remember-me settings (docs/architecture.md: they apply at once)', () => {
  const rememberMeCookie = (res: Response) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith('komga-remember-me='))
      ?.split(';')
      .map((p) => p.trim());
  const rememberedLogin = async (s: TestServer, authorization: string) => {
    const res = await s.fetch('/api/v2/users/me?remember-me=true', { headers: { authorization } });
    expect(res.status).toBe(200);
    return rememberMeCookie(res)!;
  };
  const restartRequired = async (s: TestServer, authorization: string) =>
    (await s.fetch('/api/v1/settings/restart-required', { headers: { authorization } })).json();

  it('a new duration is what the next remember-me login gets, with no restart pending', async () => {
    const s = await start();
    const admin = await claim(s);
    expect(await rememberedLogin(s, admin.authorization)).toContain(`Max-Age=${365 * 24 * 3600}`);

    const res = await patch(s, admin.authorization, { rememberMeDurationDays: 2 });
    expect(res.status).toBe(204);
    expect(res.headers.get('x-quire-restart-required')).toBeNull();
    expect(await restartRequired(s, admin.authorization)).toEqual({ restartRequired: false, settings: [] });

    const cookie = await rememberedLogin(s, admin.authorization);
    expect(cookie).toContain(`Max-Age=${2 * 24 * 3600}`);
    // The stored token expires with the cookie, so the duration holds on the server side too.
    const stored = await s.app.deps.db
      .selectFrom('remember_me_token')
      .select('expires_date')
      .orderBy('created_date', 'desc')
      .executeTakeFirstOrThrow();
    const expiresAt = Date.parse(stored.expires_date);
    expect(Math.abs(expiresAt - (Date.now() + 2 * 24 * 3600 * 1000))).toBeLessThan(60_000);
  });

  it('renewing the key signs remembered browsers out at once, with no restart pending', async () => {
    const s = await start();
    const admin = await claim(s);
    const remembered = (await rememberedLogin(s, admin.authorization))[0]!;
    expect((await s.fetch('/api/v2/users/me', { headers: { cookie: remembered } })).status).toBe(200);

    const res = await patch(s, admin.authorization, { renewRememberMeKey: true });
    expect(res.status).toBe(204);
    expect(res.headers.get('x-quire-restart-required')).toBeNull();
    expect(await restartRequired(s, admin.authorization)).toEqual({ restartRequired: false, settings: [] });
    expect((await s.fetch('/api/v2/users/me', { headers: { cookie: remembered } })).status).toBe(401);
  });
});

describe('default task pool size', () => {
  it('is one runner per core, at most 4, with 1 GiB of memory each, and never below one', () => {
    const GiB = 1024 ** 3;
    expect(defaultTaskPoolSize(2, 24 * GiB)).toBe(2);
    expect(defaultTaskPoolSize(16, 64 * GiB)).toBe(4);
    expect(defaultTaskPoolSize(8, 3 * GiB)).toBe(3);
    expect(defaultTaskPoolSize(4, 0.5 * GiB)).toBe(1);
    expect(defaultTaskPoolSize(1, 8 * GiB)).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViolationsDto } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

const DAY = 24 * 3600_000;
const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

const sessionRows = async (s: TestServer) =>
  Number(
    (
      await s.app.deps.db
        .selectFrom('session')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** `name=value` of each cookie a response sets. */
const setCookies = (res: Response) =>
  Object.fromEntries(
    res.headers.getSetCookie().map((line) => {
      const pair = line.split(';')[0]!;
      return [pair.slice(0, pair.indexOf('=')), pair];
    }),
  );

async function createUser(s: TestServer, admin: { authorization: string }, email: string, password: string) {
  const res = await s.fetch('/api/v2/users', {
    method: 'POST',
    headers: { Authorization: admin.authorization },
    json: { email, password },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** Logs in as a browser does (Basic, optionally remember-me), then uses the session once. */
async function browserLogin(s: TestServer, authorization: string, opts: { rememberMe?: boolean; agent?: string } = {}) {
  const agent = { 'User-Agent': opts.agent ?? 'browser' };
  const res = await s.fetch(`/api/v2/users/me${opts.rememberMe ? '?remember-me=true' : ''}`, {
    headers: { Authorization: authorization, ...agent, ...XHR },
  });
  expect(res.status).toBe(200);
  const cookies = setCookies(res);
  const session = cookies['KOMGA-SESSION']!;
  expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: session, ...agent } })).status).toBe(200);
  return { session, rememberMe: cookies['komga-remember-me'] };
}

describe('sessions', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  beforeAll(async () => {
    s = await startServer({ QUIRE_SESSION_LIFETIME_DAYS: '2' });
    admin = await claim(s);
  });
  afterAll(() => s.close());

  it('keeps one row for a client that sends Basic on every call and never the cookie', async () => {
    await s.app.deps.db.deleteFrom('session').execute();
    for (let i = 0; i < 50; i++) {
      const res = await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization } });
      expect(res.status).toBe(200);
    }
    expect(await sessionRows(s)).toBe(1);
    // The same with X-Auth-Token asked for and never sent back.
    for (let i = 0; i < 20; i++) {
      const res = await s.fetch('/api/v2/users/me', {
        headers: { Authorization: admin.authorization, 'X-Auth-Token': '' },
      });
      expect(res.headers.get('x-auth-token')).toBeTruthy();
    }
    expect(await sessionRows(s)).toBe(1);
  });

  it('keeps the session of a client that comes back with its cookie or token (the web UI, Mihon, X-Auth-Token apps)', async () => {
    await s.app.deps.db.deleteFrom('session').execute();
    const { session } = await browserLogin(s, admin.authorization, { agent: 'mihon' });
    const header = await s.fetch('/api/v2/users/me', {
      headers: { Authorization: admin.authorization, 'X-Auth-Token': '', 'User-Agent': 'mihon' },
    });
    const token = header.headers.get('x-auth-token')!;
    expect((await s.fetch('/api/v2/users/me', { headers: { 'X-Auth-Token': token } })).status).toBe(200);
    // More logins from that client do not take the sessions it kept.
    for (let i = 0; i < 5; i++)
      await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization, 'User-Agent': 'mihon' } });
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: session } })).status).toBe(200);
    expect((await s.fetch('/api/v2/users/me', { headers: { 'X-Auth-Token': token } })).status).toBe(200);
    expect(await sessionRows(s)).toBe(3);
  });

  it('ends a session never used again after 10 minutes', async () => {
    const res = await s.fetch('/api/v2/users/me', {
      headers: { Authorization: admin.authorization, 'User-Agent': 'late' },
    });
    const cookie = setCookies(res)['KOMGA-SESSION']!;
    await s.app.deps.db
      .updateTable('session')
      .set({ last_access_date: new Date(Date.now() - 11 * 60_000).toISOString() })
      .where('user_agent', '=', 'late')
      .execute();
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it('ends a session however busy once its lifetime (QUIRE_SESSION_LIFETIME_DAYS) is over', async () => {
    const { session } = await browserLogin(s, admin.authorization, { agent: 'busy' });
    const openedAgo = async (ms: number) =>
      s.app.deps.db
        .updateTable('session')
        .set({ created_date: new Date(Date.now() - ms).toISOString() })
        .where('user_agent', '=', 'busy')
        .execute();
    await openedAgo(2 * DAY - 60_000);
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: session } })).status).toBe(200);
    await openedAgo(2 * DAY + 60_000);
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: session } })).status).toBe(401);
  });

  it('removes the rows of sessions that are over, and no other', async () => {
    await s.app.deps.db.deleteFrom('session').execute();
    const live = await browserLogin(s, admin.authorization, { agent: 'live' });
    for (const agent of ['idle', 'old', 'unconfirmed']) {
      await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization, 'User-Agent': agent } });
    }
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const db = s.app.deps.db;
    await db
      .updateTable('session')
      .set({ confirmed: 1, last_access_date: ago(8 * DAY) })
      .where('user_agent', '=', 'idle')
      .execute();
    await db
      .updateTable('session')
      .set({ confirmed: 1, created_date: ago(3 * DAY) })
      .where('user_agent', '=', 'old')
      .execute();
    await db
      .updateTable('session')
      .set({ last_access_date: ago(11 * 60_000) })
      .where('user_agent', '=', 'unconfirmed')
      .execute();
    expect(await sessionRows(s)).toBe(4);

    const purged = await s.app.deps.accounts.housekeeping();
    expect(purged.sessions).toBe(3);
    expect(await db.selectFrom('session').select('user_agent').execute()).toEqual([{ user_agent: 'live' }]);
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: live.session } })).status).toBe(200);
  });
});

describe('remember-me', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
  });
  afterAll(() => s.close());

  it('carries a random token, not the e-mail', async () => {
    const { rememberMe } = await browserLogin(s, admin.authorization, { rememberMe: true });
    const value = rememberMe!.slice('komga-remember-me='.length);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const encoding of ['base64', 'base64url', 'utf8'] as const)
      expect(Buffer.from(value, encoding).toString('utf8').toLowerCase()).not.toContain('admin@example.org');
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: rememberMe! } })).status).toBe(200);
  });

  it('stops working after logout', async () => {
    const { session, rememberMe } = await browserLogin(s, admin.authorization, { rememberMe: true });
    const logout = await s.fetch('/api/logout', {
      method: 'POST',
      headers: { Cookie: `${session}; ${rememberMe}`, ...XHR },
    });
    expect(logout.status).toBe(204);
    const res = await s.fetch('/api/v2/users/me', { headers: { Cookie: rememberMe! } });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie().some((c) => /^komga-remember-me=;/.test(c))).toBe(true);
  });

  it('stops working once expired, and its row goes', async () => {
    const { rememberMe } = await browserLogin(s, admin.authorization, { rememberMe: true });
    await s.app.deps.db
      .updateTable('remember_me_token')
      .set({ expires_date: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: rememberMe! } })).status).toBe(401);
    await s.app.deps.accounts.housekeeping();
    expect(await s.app.deps.db.selectFrom('remember_me_token').selectAll().execute()).toEqual([]);
  });

  it('stops working for everyone when the key is renewed', async () => {
    const { rememberMe } = await browserLogin(s, admin.authorization, { rememberMe: true });
    const renew = await s.fetch('/api/v1/settings', {
      method: 'PATCH',
      headers: { Authorization: admin.authorization },
      json: { renewRememberMeKey: true },
    });
    expect(renew.status).toBe(204);
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: rememberMe! } })).status).toBe(401);
  });
});

describe('changing one’s own password', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
  });
  afterAll(() => s.close());

  const change = (headers: Record<string, string>, body: Record<string, string>, path = '/api/v2/users/me/password') =>
    s.fetch(path, { method: 'PATCH', headers: { ...XHR, ...headers }, json: body });

  it('needs the current password from a session, and ends the other sessions and every remember-me cookie', async () => {
    const id = await createUser(s, admin, 'self@example.org', 'first-secret');
    const auth = basic('self@example.org', 'first-secret');
    const here = await browserLogin(s, auth, { rememberMe: true, agent: 'laptop' });
    const phone = await browserLogin(s, auth, { rememberMe: true, agent: 'phone' });

    const missing = await change({ Cookie: here.session }, { password: 'second-secret' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      violations: [{ fieldName: 'currentPassword', message: 'must not be blank' }],
    });
    const wrong = await change({ Cookie: here.session }, { password: 'second-secret', currentPassword: 'guess' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as ViolationsDto).violations[0]!.fieldName).toBe('currentPassword');
    // The wrong guess is recorded like a failed login.
    const activity = await s.app.deps.db
      .selectFrom('authentication_activity')
      .selectAll()
      .where('user_id', '=', id)
      .where('success', '=', 0)
      .execute();
    expect(activity).toHaveLength(1);

    const ok = await change(
      { Cookie: here.session },
      { password: 'second-secret', currentPassword: 'first-secret' },
      `/api/v2/users/${id}/password`,
    );
    expect(ok.status).toBe(204);
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: here.session } })).status).toBe(200);
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: phone.session } })).status).toBe(401);
    for (const rememberMe of [here.rememberMe!, phone.rememberMe!])
      expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: rememberMe } })).status).toBe(401);
    expect(
      (await s.fetch('/api/v2/users/me', { headers: { Authorization: basic('self@example.org', 'second-secret') } }))
        .status,
    ).toBe(200);
  });

  it('needs it from X-Auth-Token sessions and API keys too, but not when the request sent it (Basic)', async () => {
    await createUser(s, admin, 'token@example.org', 'first-secret');
    const login = await s.fetch('/api/v2/users/me', {
      headers: { Authorization: basic('token@example.org', 'first-secret'), 'X-Auth-Token': '' },
    });
    const token = login.headers.get('x-auth-token')!;
    expect((await change({ 'X-Auth-Token': token }, { password: 'second-secret' })).status).toBe(400);
    const key = await s.fetch('/api/v2/users/me/api-keys', {
      method: 'POST',
      headers: { Authorization: basic('token@example.org', 'first-secret') },
      json: { comment: 'app' },
    });
    const apiKey = ((await key.json()) as { key: string }).key;
    expect((await change({ 'X-API-Key': apiKey }, { password: 'second-secret' })).status).toBe(400);
    expect(
      (await change({ Authorization: basic('token@example.org', 'first-secret') }, { password: 'second-secret' }))
        .status,
    ).toBe(204);
  });

  it('slows down guesses of the current password', async () => {
    await createUser(s, admin, 'guessed@example.org', 'first-secret');
    const { session } = await browserLogin(s, basic('guessed@example.org', 'first-secret'));
    const statuses = [];
    for (let i = 0; i < 8; i++)
      statuses.push(
        (await change({ Cookie: session }, { password: 'second-secret', currentPassword: `guess-${i}` })).status,
      );
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses).toContain(429);
  });
});

describe('minimum password length', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it('is 8 characters for the claim, new users and password changes', async () => {
    const claimShort = await s.fetch('/api/v1/claim', {
      method: 'POST',
      headers: { 'X-Komga-Email': 'admin@example.org', 'X-Komga-Password': 'seven77' },
    });
    expect(claimShort.status).toBe(400);
    expect(await claimShort.json()).toEqual({
      violations: [{ fieldName: 'claimServer.password', message: 'must be at least 8 characters long' }],
    });
    const admin = await claim(s, 'admin@example.org', 'eight888');

    const create = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { Authorization: admin.authorization },
      json: { email: 'short@example.org', password: 'short' },
    });
    expect(create.status).toBe(400);
    expect(await create.json()).toEqual({
      violations: [{ fieldName: 'password', message: 'must be at least 8 characters long' }],
    });
    // Characters, not bytes: eight letters of any script are enough.
    const created = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { Authorization: admin.authorization },
      json: { email: 'unicode@example.org', password: 'ąęśćżźół' },
    });
    expect(created.status).toBe(201);

    const changed = await s.fetch('/api/v2/users/me/password', {
      method: 'PATCH',
      headers: { Authorization: admin.authorization },
      json: { password: '1234567' },
    });
    expect(changed.status).toBe(400);
    expect(((await changed.json()) as ViolationsDto).violations).toEqual([
      { fieldName: 'password', message: 'must be at least 8 characters long' },
    ]);
  });

  it('follows QUIRE_PASSWORD_MIN_LENGTH', async () => {
    const strict = await startServer({ QUIRE_PASSWORD_MIN_LENGTH: '12' });
    try {
      const res = await strict.fetch('/api/v1/claim', {
        method: 'POST',
        headers: { 'X-Komga-Email': 'admin@example.org', 'X-Komga-Password': 'eleven-char' },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ViolationsDto).violations[0]!.message).toBe('must be at least 12 characters long');
    } finally {
      await strict.close();
    }
  });
});

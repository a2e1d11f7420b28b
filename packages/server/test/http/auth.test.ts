import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyDto, PageAuthenticationActivityDto, UserDto } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';

/** Set-Cookie headers of a response, by cookie name. */
function cookiesOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) out[line.slice(0, line.indexOf('='))] = line;
  return out;
}
const valueOf = (setCookie: string | undefined) => setCookie?.split(';')[0]?.split('=').slice(1).join('=') ?? '';

async function activity(s: TestServer, authorization: string) {
  const res = await s.fetch('/api/v2/users/authentication-activity?unpaged=true', {
    headers: { Authorization: authorization },
  });
  expect(res.status).toBe(200);
  const page = (await res.json()) as PageAuthenticationActivityDto;
  expectSchema('PageAuthenticationActivityDto', page);
  return page.content;
}

describe('authentication', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
  });
  afterAll(() => s.close());

  describe('without credentials', () => {
    it('answers 401 with a Basic challenge and the Spring error body', async () => {
      const res = await s.fetch('/api/v2/users/me');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="Realm"');
      expect(await res.json()).toEqual({
        timestamp: expect.any(String),
        status: 401,
        error: 'Unauthorized',
        message: 'Unauthorized',
        path: '/api/v2/users/me',
      });
    });

    it('leaves the challenge out for XHR requests', async () => {
      const res = await s.fetch('/api/v2/users/me', { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBeNull();
    });

    it('refuses a wrong password and an unknown e-mail', async () => {
      for (const authorization of [basic(admin.email, 'wrong'), basic('nobody@example.org', 'x')]) {
        const res = await s.fetch('/api/v2/users/me', { headers: { Authorization: authorization } });
        expect(res.status).toBe(401);
      }
    });

    it('refuses an unknown API key', async () => {
      const res = await s.fetch('/api/v2/users/me', { headers: { 'X-API-Key': 'deadbeef' } });
      expect(res.status).toBe(401);
    });
  });

  describe('HTTP Basic', () => {
    it('opens a session kept in the KOMGA-SESSION cookie, which then works alone', async () => {
      const before = (await activity(s, admin.authorization)).length;
      const res = await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization } });
      expect(res.status).toBe(200);
      const me = (await res.json()) as UserDto;
      expectSchema('UserDto', me);
      expect(me.roles).toContain('USER');
      const cookie = cookiesOf(res)['KOMGA-SESSION'];
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\/(;|$)/);
      expect(res.headers.get('x-auth-token')).toBeNull();
      const sessionId = Buffer.from(valueOf(cookie), 'base64').toString('utf8');
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

      const again = await s.fetch('/api/v2/users/me', { headers: { Cookie: `KOMGA-SESSION=${valueOf(cookie)}` } });
      expect(again.status).toBe(200);
      expect(again.headers.getSetCookie()).toEqual([]);

      // One Password row for the Basic login and one for this listing's own Basic; none for the session reuse.
      const rows = await activity(s, admin.authorization);
      expect(rows.length - before).toBe(2);
      expect(rows[0]).toMatchObject({ source: 'Password', success: true, email: admin.email });
    });

    it('stores only a hash of the session id', async () => {
      const res = await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization } });
      const id = Buffer.from(valueOf(cookiesOf(res)['KOMGA-SESSION']), 'base64').toString('utf8');
      const rows = await s.app.deps.db.selectFrom('session').select('id_hash').execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.id_hash.includes(id))).toBe(false);
    });

    it('answers with X-Auth-Token and no cookie when the request carries that header', async () => {
      const res = await s.fetch('/api/v2/users/me', {
        headers: { Authorization: admin.authorization, 'X-Auth-Token': '' },
      });
      expect(res.status).toBe(200);
      const token = res.headers.get('x-auth-token');
      expect(token).toBeTruthy();
      expect(res.headers.getSetCookie()).toEqual([]);

      const again = await s.fetch('/api/v2/users/me', { headers: { 'X-Auth-Token': token! } });
      expect(again.status).toBe(200);
      expect(again.headers.get('x-auth-token')).toBeNull();

      // set-cookie turns the header session into a cookie for <img> URLs.
      const set = await s.fetch('/api/v1/login/set-cookie', { headers: { 'X-Auth-Token': token! } });
      expect(set.status).toBe(204);
      const cookie = cookiesOf(set)['KOMGA-SESSION'];
      expect(Buffer.from(valueOf(cookie), 'base64').toString('utf8')).toBe(token);
    });

    it('switches to another user when Basic names someone else than the session', async () => {
      await s.fetch('/api/v2/users', {
        method: 'POST',
        headers: { Authorization: admin.authorization },
        json: { email: 'reader@example.org', password: 'reader-secret' },
      });
      const login = await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization } });
      const cookie = `KOMGA-SESSION=${valueOf(cookiesOf(login)['KOMGA-SESSION'])}`;
      const res = await s.fetch('/api/v2/users/me', {
        headers: { Cookie: cookie, Authorization: basic('reader@example.org', 'reader-secret') },
      });
      expect(((await res.json()) as UserDto).email).toBe('reader@example.org');
    });

    it('forgets a session idle for more than 7 days', async () => {
      const login = await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization } });
      const value = valueOf(cookiesOf(login)['KOMGA-SESSION']);
      await s.app.deps.db
        .updateTable('session')
        .set({ last_access_date: new Date(Date.now() - 8 * 24 * 3600_000).toISOString() })
        .execute();
      const res = await s.fetch('/api/v2/users/me', { headers: { Cookie: `KOMGA-SESSION=${value}` } });
      expect(res.status).toBe(401);
    });
  });

  describe('remember-me', () => {
    it('issues the cookie on Basic with remember-me=true and logs back in with it alone', async () => {
      const res = await s.fetch('/api/v2/users/me?remember-me=true', {
        headers: { Authorization: admin.authorization },
      });
      expect(res.status).toBe(200);
      const remember = cookiesOf(res)['komga-remember-me'];
      expect(remember).toMatch(/Max-Age=31536000/);
      expect(remember).toMatch(/HttpOnly/i);

      // The session is gone (say, another instance, or a restart): the remember-me cookie alone suffices.
      await s.app.deps.db.deleteFrom('session').execute();
      const back = await s.fetch('/api/v2/users/me', { headers: { Cookie: `komga-remember-me=${valueOf(remember)}` } });
      expect(back.status).toBe(200);
      expect(((await back.json()) as UserDto).email).toBe(admin.email);
      expect(cookiesOf(back)['KOMGA-SESSION']).toBeDefined();

      const rows = await activity(s, admin.authorization);
      expect(rows.find((r) => r.source === 'RememberMe')).toMatchObject({ success: true, email: admin.email });
    });

    it('is not issued without the parameter', async () => {
      const res = await s.fetch('/api/v2/users/me?remember-me=false', {
        headers: { Authorization: admin.authorization },
      });
      expect(cookiesOf(res)['komga-remember-me']).toBeUndefined();
    });

    it('reads the parameter as a boolean: on/yes/1 in any case issue the cookie, anything else is a 400', async () => {
      for (const yes of ['TRUE', 'on', 'Yes', '1']) {
        const res = await s.fetch(`/api/v2/users/me?remember-me=${yes}`, {
          headers: { Authorization: admin.authorization },
        });
        expect(res.status, yes).toBe(200);
        expect(cookiesOf(res)['komga-remember-me'], yes).toMatch(/Max-Age=31536000/);
      }
      for (const no of ['off', '0', '']) {
        const res = await s.fetch(`/api/v2/users/me?remember-me=${no}`, {
          headers: { Authorization: admin.authorization },
        });
        expect(res.status, no).toBe(200);
        expect(cookiesOf(res)['komga-remember-me'], no).toBeUndefined();
      }
      const wrong = await s.fetch('/api/v2/users/me?remember-me=maybe', {
        headers: { Authorization: admin.authorization },
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({ violations: [{ fieldName: 'remember-me', message: expect.any(String) }] });
      expect(cookiesOf(wrong)['komga-remember-me']).toBeUndefined();
    });

    it('refuses a tampered cookie, clears it and records the failure', async () => {
      const res = await s.fetch('/api/v2/users/me?remember-me=yes', {
        headers: { Authorization: admin.authorization },
      });
      const token = Buffer.from(valueOf(cookiesOf(res)['komga-remember-me']), 'base64url').toString('utf8');
      const forged = token.replace(/:(\d+):/, (_m, n: string) => `:${Number(n) + 1000}:`);
      const back = await s.fetch('/api/v2/users/me', {
        headers: { Cookie: `komga-remember-me=${Buffer.from(forged).toString('base64url')}` },
      });
      expect(back.status).toBe(401);
      expect(cookiesOf(back)['komga-remember-me']).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
      const rows = await activity(s, admin.authorization);
      expect(rows.find((r) => r.source === 'RememberMe' && !r.success)).toMatchObject({
        error: 'Invalid remember-me token',
      });
    });
  });

  describe('API key', () => {
    it('authenticates every request statelessly and records each one', async () => {
      const created = await s.fetch('/api/v2/users/me/api-keys', {
        method: 'POST',
        headers: { Authorization: admin.authorization },
        json: { comment: 'auth test' },
      });
      const key = (await created.json()) as ApiKeyDto;
      for (let i = 0; i < 2; i++) {
        const res = await s.fetch('/api/v2/users/me', { headers: { 'X-API-Key': key.key } });
        expect(res.status).toBe(200);
        expect(res.headers.getSetCookie()).toEqual([]);
      }
      const rows = (await activity(s, admin.authorization)).filter((r) => r.apiKeyId === key.id);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({ source: 'ApiKey', success: true, apiKeyComment: 'auth test' });
    });
  });

  describe('logout', () => {
    it('ends the session and clears both cookies; XHR gets 204', async () => {
      const login = await s.fetch('/api/v2/users/me?remember-me=true', {
        headers: { Authorization: admin.authorization },
      });
      const cookie = `KOMGA-SESSION=${valueOf(cookiesOf(login)['KOMGA-SESSION'])}`;
      const res = await s.fetch('/api/logout', {
        method: 'POST',
        headers: { Cookie: cookie, 'X-Requested-With': 'XMLHttpRequest' },
      });
      expect(res.status).toBe(204);
      const cleared = cookiesOf(res);
      expect(cleared['KOMGA-SESSION']).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
      expect(cleared['komga-remember-me']).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
      expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: cookie } })).status).toBe(401);
    });

    it('redirects a browser navigation to the login page', async () => {
      const res = await s.fetch('/api/logout', { headers: { Accept: 'text/html' }, redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/login?logout');
    });
  });
});

describe('authentication under a context path', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ QUIRE_CONTEXT_PATH: '/komga' });
  });
  afterAll(() => s.close());

  it('scopes the session cookie to the context path', async () => {
    const admin = await claim(s);
    const res = await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization } });
    expect(res.status).toBe(200);
    expect(cookiesOf(res)['KOMGA-SESSION']).toMatch(/Path=\/komga\/(;|$)/);
  });
});

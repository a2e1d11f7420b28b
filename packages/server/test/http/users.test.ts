import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBodyDto, QuireEvent, UserDto, ViolationsDto } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';

type Admin = Awaited<ReturnType<typeof claim>>;

/** Posts a new user; `T` is the body expected back (the user, or an error for a refused request). */
async function createUser<T = UserDto>(s: TestServer, admin: Admin, body: Record<string, unknown>) {
  const res = await s.fetch('/api/v2/users', {
    method: 'POST',
    headers: { Authorization: admin.authorization },
    json: body,
  });
  return { res, body: (await res.json()) as T };
}

/** Opens a session for the user, uses it once as a browser would, and returns its cookie header. */
async function sessionOf(s: TestServer, email: string, password: string) {
  const res = await s.fetch('/api/v2/users/me', { headers: { Authorization: basic(email, password) } });
  expect(res.status).toBe(200);
  const line = res.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='))!;
  const cookie = line.split(';')[0]!;
  expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: cookie } })).status).toBe(200);
  return cookie;
}

function recordEvents(s: TestServer) {
  const events: QuireEvent[] = [];
  const stop = s.app.deps.events.subscribe((e) => events.push(e));
  return { events, stop, expired: () => events.filter((e) => e.type === 'SessionExpired').map((e) => e.data) };
}

describe('/api/v2/users', () => {
  let s: TestServer;
  let admin: Admin;
  let adminId: string;
  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    const me = await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization } });
    adminId = ((await me.json()) as UserDto).id;
  });
  afterAll(() => s.close());

  describe('POST (create)', () => {
    it('creates a user with the default roles and every library, 201', async () => {
      const { res, body } = await createUser(s, admin, { email: 'reader1@example.org', password: 'reader-secret' });
      expect(res.status).toBe(201);
      expectSchema('UserDto', body);
      expect(body.roles.sort()).toEqual(['FILE_DOWNLOAD', 'PAGE_STREAMING', 'USER']);
      expect(body.sharedAllLibraries).toBe(true);
      expect(body).not.toHaveProperty('ageRestriction');
    });

    it('keeps the roles given, drops unknown ones, and stores restrictions', async () => {
      const { res, body } = await createUser(s, admin, {
        email: 'reader2@example.org',
        password: 'reader-secret',
        roles: ['PAGE_STREAMING', 'WIZARD', 'kobo_sync'],
        ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' },
        labelsAllow: ['Kids', ' kids '],
        labelsExclude: ['Gore'],
        sharedLibraries: { all: false, libraryIds: ['LIB1', 'LIB2'] },
      });
      expect(res.status).toBe(201);
      expectSchema('UserDto', body);
      expect(body.roles.sort()).toEqual(['KOBO_SYNC', 'PAGE_STREAMING', 'USER']);
      expect(body.ageRestriction).toEqual({ age: 12, restriction: 'ALLOW_ONLY' });
      expect(body.labelsAllow).toEqual(['kids']);
      expect(body.labelsExclude).toEqual(['gore']);
      expect(body.sharedAllLibraries).toBe(false);
      expect(body.sharedLibrariesIds).toEqual(['LIB1', 'LIB2']);
    });

    it('gives no role at all for an empty list', async () => {
      const { body } = await createUser(s, admin, {
        email: 'noroles@example.org',
        password: 'reader-secret',
        roles: [],
      });
      expect(body.roles).toEqual(['USER']);
    });

    it('refuses an invalid e-mail with a violation', async () => {
      const { res, body } = await createUser<ViolationsDto>(s, admin, { email: 'nope', password: 'reader-secret' });
      expect(res.status).toBe(400);
      expectSchema('ValidationErrorResponse', body);
      expect(body.violations[0]!.fieldName).toBe('email');
    });

    it('refuses an e-mail already taken, whatever its case', async () => {
      const { res, body } = await createUser<ErrorBodyDto>(s, admin, {
        email: 'READER1@example.org',
        password: 'reader-secret',
      });
      expect(res.status).toBe(400);
      expect(body.message).toBe('A user with this email already exists');
    });

    it('refuses a missing password', async () => {
      const { res } = await createUser(s, admin, { email: 'x@example.org' });
      expect(res.status).toBe(400);
    });
  });

  describe('GET (list)', () => {
    it('lists every user for an admin', async () => {
      const res = await s.fetch('/api/v2/users', { headers: { Authorization: admin.authorization } });
      expect(res.status).toBe(200);
      const users = (await res.json()) as UserDto[];
      for (const u of users) expectSchema('UserDto', u);
      expect(users.map((u: { email: string }) => u.email)).toEqual(
        expect.arrayContaining([admin.email, 'reader1@example.org', 'reader2@example.org']),
      );
    });
  });

  describe('PATCH /{id}', () => {
    it('changes roles, sharing and restrictions, and expires the user’s sessions', async () => {
      const { body: user } = await createUser(s, admin, { email: 'patched@example.org', password: 'reader-secret' });
      const cookie = await sessionOf(s, 'patched@example.org', 'reader-secret');
      const rec = recordEvents(s);
      const res = await s.fetch(`/api/v2/users/${user.id}`, {
        method: 'PATCH',
        headers: { Authorization: admin.authorization },
        json: {
          roles: ['FILE_DOWNLOAD'],
          sharedLibraries: { all: false, libraryIds: ['L1'] },
          ageRestriction: { age: 16, restriction: 'exclude' },
          labelsAllow: ['A', 'b'],
        },
      });
      rec.stop();
      expect(res.status).toBe(204);
      expect(rec.expired()).toEqual([{ userId: user.id }]);
      expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: cookie } })).status).toBe(401);

      const me = await (
        await s.fetch('/api/v2/users/me', { headers: { Authorization: basic('patched@example.org', 'reader-secret') } })
      ).json();
      expectSchema('UserDto', me);
      expect(me).toMatchObject({
        roles: ['FILE_DOWNLOAD', 'USER'],
        sharedAllLibraries: false,
        sharedLibrariesIds: ['L1'],
        ageRestriction: { age: 16, restriction: 'EXCLUDE' },
        labelsAllow: ['a', 'b'],
        labelsExclude: [],
      });

      // null clears the age restriction and the labels; omitted fields stay.
      await s.fetch(`/api/v2/users/${user.id}`, {
        method: 'PATCH',
        headers: { Authorization: admin.authorization },
        json: { ageRestriction: null, labelsAllow: null },
      });
      const after = (await (
        await s.fetch('/api/v2/users/me', { headers: { Authorization: basic('patched@example.org', 'reader-secret') } })
      ).json()) as UserDto;
      expect(after).not.toHaveProperty('ageRestriction');
      expect(after.labelsAllow).toEqual([]);
      expect(after.roles).toEqual(['FILE_DOWNLOAD', 'USER']);
    });

    it('keeps sessions when nothing that restricts access changed', async () => {
      const { body: user } = await createUser(s, admin, { email: 'same@example.org', password: 'reader-secret' });
      const cookie = await sessionOf(s, 'same@example.org', 'reader-secret');
      const rec = recordEvents(s);
      await s.fetch(`/api/v2/users/${user.id}`, {
        method: 'PATCH',
        headers: { Authorization: admin.authorization },
        json: { roles: ['PAGE_STREAMING', 'FILE_DOWNLOAD'] },
      });
      rec.stop();
      expect(rec.expired()).toEqual([]);
      expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: cookie } })).status).toBe(200);
    });

    it('refuses an admin changing himself (403), so he cannot demote himself', async () => {
      const res = await s.fetch(`/api/v2/users/${adminId}`, {
        method: 'PATCH',
        headers: { Authorization: admin.authorization },
        json: { roles: [] },
      });
      expect(res.status).toBe(403);
      const me = (await (
        await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization } })
      ).json()) as UserDto;
      expect(me.roles).toContain('ADMIN');
    });

    it('answers 404 for an unknown user', async () => {
      const res = await s.fetch('/api/v2/users/NOPE', {
        method: 'PATCH',
        headers: { Authorization: admin.authorization },
        json: {},
      });
      expect(res.status).toBe(404);
    });
  });

  describe('DELETE /{id}', () => {
    it('deletes the user and expires his sessions', async () => {
      const { body: user } = await createUser(s, admin, { email: 'gone@example.org', password: 'reader-secret' });
      const cookie = await sessionOf(s, 'gone@example.org', 'reader-secret');
      const rec = recordEvents(s);
      const res = await s.fetch(`/api/v2/users/${user.id}`, {
        method: 'DELETE',
        headers: { Authorization: admin.authorization },
      });
      rec.stop();
      expect(res.status).toBe(204);
      expect(rec.expired()).toEqual([{ userId: user.id }]);
      expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: cookie } })).status).toBe(401);
      expect(
        (await s.fetch('/api/v2/users/me', { headers: { Authorization: basic('gone@example.org', 'reader-secret') } }))
          .status,
      ).toBe(401);
    });

    it('refuses an admin deleting himself', async () => {
      const res = await s.fetch(`/api/v2/users/${adminId}`, {
        method: 'DELETE',
        headers: { Authorization: admin.authorization },
      });
      expect(res.status).toBe(403);
    });
  });

  describe('passwords', () => {
    it('lets a user change his own password with the current one, keeping this session and ending the others', async () => {
      await createUser(s, admin, { email: 'own@example.org', password: 'old-secret' });
      const here = await sessionOf(s, 'own@example.org', 'old-secret');
      const elsewhere = await sessionOf(s, 'own@example.org', 'old-secret');
      const rec = recordEvents(s);
      const res = await s.fetch('/api/v2/users/me/password', {
        method: 'PATCH',
        headers: { Cookie: here, 'X-Requested-With': 'XMLHttpRequest' },
        json: { password: 'new-secret', currentPassword: 'old-secret' },
      });
      rec.stop();
      expect(res.status).toBe(204);
      expect(rec.expired()).toHaveLength(1);
      expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: here } })).status).toBe(200);
      expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: elsewhere } })).status).toBe(401);
      expect(
        (await s.fetch('/api/v2/users/me', { headers: { Authorization: basic('own@example.org', 'new-secret') } }))
          .status,
      ).toBe(200);
      expect(
        (await s.fetch('/api/v2/users/me', { headers: { Authorization: basic('own@example.org', 'old-secret') } }))
          .status,
      ).toBe(401);
    });

    it('expires the sessions when an admin changes another user’s password, and says so on the bus', async () => {
      const { body: user } = await createUser(s, admin, { email: 'victim@example.org', password: 'old-secret' });
      const cookie = await sessionOf(s, 'victim@example.org', 'old-secret');
      const rec = recordEvents(s);
      const res = await s.fetch(`/api/v2/users/${user.id}/password`, {
        method: 'PATCH',
        headers: { Authorization: admin.authorization },
        json: { password: 'reset-secret' },
      });
      rec.stop();
      expect(res.status).toBe(204);
      expect(rec.events).toContainEqual({ type: 'SessionExpired', data: { userId: user.id } });
      expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: cookie } })).status).toBe(401);
      expect(
        (await s.fetch('/api/v2/users/me', { headers: { Authorization: basic('victim@example.org', 'reset-secret') } }))
          .status,
      ).toBe(200);
    });

    it('lets a user change his password through /{id}/password too, but not someone else’s', async () => {
      const { body: a } = await createUser(s, admin, { email: 'pa@example.org', password: 'reader-secret' });
      const { body: b } = await createUser(s, admin, { email: 'pb@example.org', password: 'reader-secret' });
      const auth = { Authorization: basic('pa@example.org', 'reader-secret') };
      expect(
        (
          await s.fetch(`/api/v2/users/${a.id}/password`, {
            method: 'PATCH',
            headers: auth,
            json: { password: 'reader-secret-2' },
          })
        ).status,
      ).toBe(204);
      const other = await s.fetch(`/api/v2/users/${b.id}/password`, {
        method: 'PATCH',
        headers: { Authorization: basic('pa@example.org', 'reader-secret-2') },
        json: { password: 'another-secret' },
      });
      expect(other.status).toBe(403);
    });

    it('refuses a blank password', async () => {
      const res = await s.fetch('/api/v2/users/me/password', {
        method: 'PATCH',
        headers: { Authorization: admin.authorization },
        json: { password: '' },
      });
      expect(res.status).toBe(400);
      expectSchema('ValidationErrorResponse', await res.json());
    });
  });

  describe('as a user without ADMIN', () => {
    let user: { authorization: string; id: string };
    let otherId: string;
    beforeAll(async () => {
      const { body } = await createUser(s, admin, {
        email: 'plain@example.org',
        password: 'reader-secret',
        roles: ['FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC', 'KOREADER_SYNC'],
      });
      user = { authorization: basic('plain@example.org', 'reader-secret'), id: body.id };
      otherId = (await createUser(s, admin, { email: 'other@example.org', password: 'reader-secret' })).body.id;
    });

    it.each([
      ['GET', '/api/v2/users', undefined],
      ['POST', '/api/v2/users', { email: 'z@example.org', password: 'reader-secret' }],
      ['PATCH', '/api/v2/users/{other}', { roles: ['ADMIN'] }],
      ['PATCH', '/api/v2/users/{self}', { roles: ['ADMIN'] }],
      ['DELETE', '/api/v2/users/{other}', undefined],
      ['PATCH', '/api/v2/users/{other}/password', { password: 'another-secret' }],
      ['GET', '/api/v2/users/authentication-activity', undefined],
      ['GET', '/api/v2/users/{other}/authentication-activity/latest', undefined],
    ])('refuses %s %s with 403', async (method, path, json) => {
      const url = path.replace('{other}', otherId).replace('{self}', user.id);
      const res = await s.fetch(url, { method, headers: { Authorization: user.authorization }, json });
      expect(res.status).toBe(403);
      const body = await res.json();
      expect(body).toMatchObject({ status: 403, error: 'Forbidden' });
    });

    it('still reads his own account', async () => {
      const res = await s.fetch('/api/v2/users/me', { headers: { Authorization: user.authorization } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as UserDto).roles).not.toContain('ADMIN');
    });
  });
});

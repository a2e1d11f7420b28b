import { mkdtemp, rm } from 'node:fs/promises';
import type { LibraryDto } from '@quire/api';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

/** The cookie header of a session opened with Basic (and used once, as a browser would). */
async function browserSession(s: TestServer, authorization: string, query = '') {
  const res = await s.fetch(`/api/v2/users/me${query}`, { headers: { Authorization: authorization } });
  expect(res.status).toBe(200);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const session = cookies.find((c) => c.startsWith('KOMGA-SESSION='))!;
  expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: session } })).status).toBe(200);
  return { session, rememberMe: cookies.find((c) => c.startsWith('komga-remember-me=')) };
}

const EVIL = { Origin: 'http://evil.example', 'Content-Type': 'text/plain' };

describe('cross-site requests', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  let cookie: string;
  let libraryId: string;
  let root: string;
  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    cookie = (await browserSession(s, admin.authorization)).session;
    root = await mkdtemp(join(tmpdir(), 'quire-csrf-'));
    const library = await s.fetch('/api/v1/libraries', {
      method: 'POST',
      headers: { Authorization: admin.authorization },
      json: { name: 'Comics', root },
    });
    expect(library.status).toBe(200);
    libraryId = ((await library.json()) as LibraryDto).id;
  });
  afterAll(async () => {
    await s.close();
    await rm(root, { recursive: true, force: true });
  });

  const apiKeys = async () =>
    (await (
      await s.fetch('/api/v2/users/me/api-keys', { headers: { Authorization: admin.authorization } })
    ).json()) as {
      id: string;
    }[];
  const newApiKey = async (comment: string) => {
    const res = await s.fetch('/api/v2/users/me/api-keys', {
      method: 'POST',
      headers: { Authorization: admin.authorization },
      json: { comment },
    });
    return ((await res.json()) as { id: string; key: string }).id;
  };

  it('refuses a cookie POST from another site to /actuator/shutdown, and the server keeps running', async () => {
    const res = await s.fetch('/actuator/shutdown', { method: 'POST', headers: { Cookie: cookie, ...EVIL }, body: '' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ status: 403, error: 'Forbidden', path: '/actuator/shutdown' });
    await new Promise((r) => setTimeout(r, 100));
    expect((await s.fetch('/actuator/health')).status).toBe(200);
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it('refuses other state-changing requests from another site, whatever tells it so', async () => {
    const keyId = await newApiKey('kept');
    const signals: Record<string, string>[] = [
      EVIL,
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://quire.example.evil.example' },
    ];
    for (const signal of signals) {
      const scan = await s.fetch(`/api/v1/libraries/${libraryId}/scan`, {
        method: 'POST',
        headers: { Cookie: cookie, ...signal },
      });
      expect(scan.status, JSON.stringify(signal)).toBe(403);
      const del = await s.fetch(`/api/v2/users/me/api-keys/${keyId}`, {
        method: 'DELETE',
        headers: { Cookie: cookie, ...signal },
      });
      expect(del.status, JSON.stringify(signal)).toBe(403);
    }
    expect((await apiKeys()).map((k) => k.id)).toContain(keyId);
  });

  it('accepts the same requests from the app: X-Requested-With, its own Origin, or Sec-Fetch-Site same-origin', async () => {
    const own = new URL(s.url).origin;
    const proofs: Record<string, string>[] = [
      { 'X-Requested-With': 'XMLHttpRequest' },
      { 'X-Requested-With': 'XMLHttpRequest', Origin: 'http://localhost:5173' }, // the Vite dev server's proxy
      { Origin: own },
      { 'Sec-Fetch-Site': 'same-origin' },
      {}, // no browser header at all: a native client keeping the cookie (Mihon)
    ];
    for (const proof of proofs) {
      const keyId = await newApiKey(`gone ${JSON.stringify(proof)}`);
      const del = await s.fetch(`/api/v2/users/me/api-keys/${keyId}`, {
        method: 'DELETE',
        headers: { Cookie: cookie, ...proof },
      });
      expect(del.status, JSON.stringify(proof)).toBe(204);
      expect((await apiKeys()).map((k) => k.id)).not.toContain(keyId);
      const scan = await s.fetch(`/api/v1/libraries/${libraryId}/scan`, {
        method: 'POST',
        headers: { Cookie: cookie, ...proof },
      });
      expect(scan.status, JSON.stringify(proof)).toBe(202);
    }
  });

  it('refuses a remember-me cookie from another site', async () => {
    const { rememberMe } = await browserSession(s, admin.authorization, '?remember-me=true');
    expect(rememberMe).toBeDefined();
    const res = await s.fetch(`/api/v1/libraries/${libraryId}/scan`, {
      method: 'POST',
      headers: { Cookie: rememberMe!, ...EVIL },
    });
    expect(res.status).toBe(403);
  });

  it('leaves API keys, X-Auth-Token and Basic clients alone', async () => {
    const created = await s.fetch('/api/v2/users/me/api-keys', {
      method: 'POST',
      headers: { Authorization: admin.authorization },
      json: { comment: 'app' },
    });
    const { key } = (await created.json()) as { key: string };
    // Browsers never add these headers on their own, so their origin does not matter.
    const byKey = await s.fetch(`/api/v1/libraries/${libraryId}/scan`, {
      method: 'POST',
      headers: { 'X-API-Key': key, ...EVIL },
    });
    expect(byKey.status).toBe(202);
    const login = await s.fetch('/api/v2/users/me', {
      headers: { Authorization: admin.authorization, 'X-Auth-Token': '' },
    });
    const token = login.headers.get('x-auth-token')!;
    const byToken = await s.fetch(`/api/v1/libraries/${libraryId}/scan`, {
      method: 'POST',
      headers: { 'X-Auth-Token': token, ...EVIL },
    });
    expect(byToken.status).toBe(202);
    const byBasic = await s.fetch(`/api/v1/libraries/${libraryId}/scan`, {
      method: 'POST',
      headers: { Authorization: admin.authorization },
    });
    expect(byBasic.status).toBe(202);
    // Basic credentials a browser cached after its login dialog are sent by it on its own, like a cookie.
    const cachedBasic = await s.fetch(`/api/v1/libraries/${libraryId}/scan`, {
      method: 'POST',
      headers: { Authorization: basic(admin.email, admin.password), ...EVIL },
    });
    expect(cachedBasic.status).toBe(403);
  });

  it('lets only the app and plain navigation log out, not another site', async () => {
    const { session } = await browserSession(s, admin.authorization);
    const foreign = await s.fetch('/api/logout', { method: 'POST', headers: { Cookie: session, ...EVIL } });
    expect(foreign.status).toBe(403);
    const navigation = await s.fetch('/api/logout', { headers: { Cookie: session, 'Sec-Fetch-Site': 'cross-site' } });
    expect(navigation.status).toBe(403);
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: session } })).status).toBe(200);

    const own = await s.fetch('/api/logout', {
      method: 'POST',
      headers: { Cookie: session, 'X-Requested-With': 'XMLHttpRequest' },
    });
    expect(own.status).toBe(204);
    expect((await s.fetch('/api/v2/users/me', { headers: { Cookie: session } })).status).toBe(401);
  });

  it('shuts down when the app asks', async () => {
    const res = await s.fetch('/actuator/shutdown', {
      method: 'POST',
      headers: { Cookie: cookie, 'X-Requested-With': 'XMLHttpRequest' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Shutting down, bye...' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

/** Numbers from accounts/login-throttle.ts: 10 failures within 5 minutes, per ip and per e-mail. */
const MAX_FAILURES = 10;

describe('throttling of failed logins', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { Authorization: admin.authorization },
      json: { email: 'target@example.org', password: 'right' },
    });
  });
  afterAll(() => s.close());

  // The server trusts the proxy headers, so each test can play a different client address.
  const from = (ip: string, headers: Record<string, string> = {}) => ({ 'X-Forwarded-For': ip, ...headers });
  const me = (headers: Record<string, string>) => s.fetch('/api/v2/users/me', { headers });
  const failures = async () =>
    Number(
      (
        await s.app.deps.db
          .selectFrom('authentication_activity')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('success', '=', 0)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('blocks an e-mail after 10 failures, even with the right password and from other addresses', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await me(from(`10.0.0.${i}`, { Authorization: basic('target@example.org', `guess${i}`) }));
      expect(res.status).toBe(401);
    }
    const before = await failures();
    const res = await me(from('10.0.1.1', { Authorization: basic('TARGET@example.org', 'right') }));
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(await res.json()).toMatchObject({ status: 429, error: 'Too Many Requests', path: '/api/v2/users/me' });
    // The refused attempt is not recorded, so waiting is enough to be let in again.
    expect(await failures()).toBe(before);

    // Other accounts from fresh addresses are unaffected.
    expect((await me(from('10.0.1.2', { Authorization: admin.authorization }))).status).toBe(200);

    // Once the failures are older than the window, the right password works again.
    await s.app.deps.db
      .updateTable('authentication_activity')
      .set({ date_time: new Date(Date.now() - 6 * 60_000).toISOString() })
      .where('email', '=', 'target@example.org')
      .execute();
    expect((await me(from('10.0.1.3', { Authorization: basic('target@example.org', 'right') }))).status).toBe(200);
  });

  it('blocks an address after 10 failures on any accounts, API keys included', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) {
      const headers = i % 2 ? { Authorization: basic(`nobody${i}@example.org`, 'x') } : { 'X-API-Key': `bad${i}` };
      expect((await me(from('192.0.2.7', headers))).status).toBe(401);
    }
    const blocked = await me(from('192.0.2.7', { Authorization: admin.authorization }));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await me(from('192.0.2.7', { 'X-API-Key': 'whatever' }))).status).toBe(429);

    // The same account from another address is fine.
    expect((await me(from('192.0.2.8', { Authorization: admin.authorization }))).status).toBe(200);
  });

  it('never throttles an established session', async () => {
    const login = await me(from('198.51.100.1', { Authorization: admin.authorization }));
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('KOMGA-SESSION='))!
      .split(';')[0]!;
    for (let i = 0; i < MAX_FAILURES; i++)
      await me(from('198.51.100.1', { Authorization: basic(`x${i}@example.org`, 'x') }));
    expect((await me(from('198.51.100.1', { Authorization: admin.authorization }))).status).toBe(429);
    expect((await me(from('198.51.100.1', { Cookie: cookie }))).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

/** Numbers from accounts/login-throttle.ts: free failures within the last hour, then 1 s, 2 s, 4 s… */
const FREE = { addressAndEmail: 5, address: 10, email: 10 };

async function failedAttempts(s: TestServer, where: { email?: string; ip?: string } = {}) {
  let q = s.app.deps.db
    .selectFrom('authentication_activity')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('success', '=', 0);
  if (where.email) q = q.where('email', '=', where.email);
  if (where.ip) q = q.where('ip', '=', where.ip);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Moves every recorded attempt `seconds` into the past: the test's stand-in for waiting. */
async function waitSeconds(s: TestServer, seconds: number) {
  const rows = await s.app.deps.db.selectFrom('authentication_activity').select(['id', 'date_time']).execute();
  for (const r of rows) {
    const earlier = new Date(Date.parse(r.date_time) - seconds * 1000).toISOString();
    await s.app.deps.db
      .updateTable('authentication_activity')
      .set({ date_time: earlier })
      .where('id', '=', r.id)
      .execute();
  }
}

async function latestActivity(s: TestServer) {
  return s.app.deps.db
    .selectFrom('authentication_activity')
    .selectAll()
    .orderBy('date_time', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

describe('throttling of failed logins (the server trusts the loopback proxy, so tests play many addresses)', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  const owner = { email: 'owner@example.org', password: 'right-password' };
  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    for (const email of [owner.email, 'typo@example.org']) {
      const res = await s.fetch('/api/v2/users', {
        method: 'POST',
        headers: { Authorization: admin.authorization },
        json: { email, password: owner.password },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => s.close());

  const me = (ip: string, headers: Record<string, string>) =>
    s.fetch('/api/v2/users/me', { headers: { 'X-Forwarded-For': ip, ...headers } });

  it('lets the owner in while an attacker rotating addresses is slowed down', async () => {
    // The owner has logged in from home before.
    expect((await me('10.1.0.1', { Authorization: basic(owner.email, owner.password) })).status).toBe(200);

    // An attacker tries 30 passwords, each from a new address.
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await me(`10.9.0.${i}`, { Authorization: basic(owner.email, `guess-${i}`) });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses.filter((st) => st !== 401 && st !== 429)).toEqual([]);
    // Once the account's free failures are spent, guesses wait: only about the free ones were checked.
    const checked = statuses.filter((st) => st === 401).length;
    expect(checked).toBeGreaterThanOrEqual(FREE.email);
    expect(checked).toBeLessThanOrEqual(FREE.email + 2);
    expect(await failedAttempts(s, { email: owner.email })).toBe(checked);

    // The owner, from home, is not held back by it.
    expect((await me('10.1.0.1', { Authorization: basic(owner.email, owner.password) })).status).toBe(200);

    // From an address he never used, he waits like everyone (a delay, not a lock-out)…
    const fromCafe = await me('10.1.0.2', { Authorization: basic(owner.email, owner.password) });
    expect(fromCafe.status).toBe(429);
    const retryAfter = Number(fromCafe.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(await fromCafe.json()).toMatchObject({ status: 429, error: 'Too Many Requests', path: '/api/v2/users/me' });
    // … and is let in once it has passed.
    await waitSeconds(s, retryAfter);
    expect((await me('10.1.0.2', { Authorization: basic(owner.email, owner.password) })).status).toBe(200);
  });

  it('makes one client wait longer after each failure for one account, then lets the right password in', async () => {
    const attempt = (password: string) => me('10.2.0.1', { Authorization: basic('typo@example.org', password) });
    for (let i = 0; i < FREE.addressAndEmail; i++) expect((await attempt(`typo-${i}`)).status).toBe(401);
    const first = await attempt('typo-again');
    expect(first.status).toBe(429);
    expect(Number(first.headers.get('retry-after'))).toBe(1);
    // A refused attempt is neither checked nor recorded, so waiting is always enough.
    expect(await failedAttempts(s, { email: 'typo@example.org' })).toBe(FREE.addressAndEmail);

    await waitSeconds(s, 1);
    expect((await attempt('typo-again')).status).toBe(401);
    const second = await attempt('typo-once-more');
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBe(2);

    // Another client of the same account is not slowed by this one.
    expect((await me('10.2.0.2', { Authorization: basic('typo@example.org', owner.password) })).status).toBe(200);
    await waitSeconds(s, 2);
    expect((await attempt(owner.password)).status).toBe(200);
  });

  it('slows an address trying many accounts, API keys included', async () => {
    for (let i = 0; i < FREE.address; i++) {
      const headers: Record<string, string> =
        i % 2 ? { Authorization: basic(`nobody${i}@example.org`, 'x') } : { 'X-API-Key': `bad${i}` };
      expect((await me('192.0.2.7', headers)).status).toBe(401);
    }
    const slowed = await me('192.0.2.7', { Authorization: admin.authorization });
    expect(slowed.status).toBe(429);
    expect(slowed.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await me('192.0.2.7', { 'X-API-Key': 'whatever' })).status).toBe(429);

    // The same account from another address is fine.
    expect((await me('192.0.2.8', { Authorization: admin.authorization })).status).toBe(200);
  });

  it('never throttles an established session', async () => {
    const login = await me('198.51.100.1', { Authorization: admin.authorization });
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('KOMGA-SESSION='))!
      .split(';')[0]!;
    for (let i = 0; i < FREE.address; i++) await me('198.51.100.1', { Authorization: basic(`x${i}@example.org`, 'x') });
    expect((await me('198.51.100.1', { Authorization: admin.authorization })).status).toBe(429);
    expect((await me('198.51.100.1', { Cookie: cookie })).status).toBe(200);
  });

  it('records the address a trusted proxy forwards, and its scheme', async () => {
    const res = await me('203.0.113.50', {
      Authorization: basic(owner.email, owner.password),
      'User-Agent': 'proxied-client',
      'X-Forwarded-Proto': 'https',
    });
    expect(res.status).toBe(200);
    const activity = await latestActivity(s);
    // 1 on SQLite, true on PostgreSQL
    expect({ ...activity, success: Boolean(activity.success) }).toMatchObject({
      ip: '203.0.113.50',
      user_agent: 'proxied-client',
      success: true,
    });
    expect(res.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='))).toMatch(/; Secure/i);
  });
});

describe('X-Forwarded-* from a peer that is not a trusted proxy', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  beforeAll(async () => {
    // Tests reach the server over loopback; trusting only another address makes them an ordinary client.
    s = await startServer({ QUIRE_TRUSTED_PROXIES: '10.255.255.1' });
    admin = await claim(s);
  });
  afterAll(() => s.close());

  it('does not make a plain HTTP request look like HTTPS', async () => {
    const res = await s.fetch('/api/v2/users/me', {
      headers: { 'X-Forwarded-Proto': 'https', 'User-Agent': 'plain-http', Authorization: admin.authorization },
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='))).not.toMatch(/; Secure/i);
  });

  it('is ignored: activity records the real address, and throttling counts it', async () => {
    for (let i = 0; i < FREE.addressAndEmail; i++) {
      const res = await s.fetch('/api/v2/users/me', {
        headers: { 'X-Forwarded-For': `203.0.113.${i}`, Authorization: basic(admin.email, `guess-${i}`) },
      });
      expect(res.status).toBe(401);
      expect((await latestActivity(s)).ip).toBe('127.0.0.1');
    }
    // Rotating the header does not give the attacker a fresh address.
    const res = await s.fetch('/api/v2/users/me', {
      headers: { 'X-Forwarded-For': '203.0.113.99', Authorization: basic(admin.email, 'guess-again') },
    });
    expect(res.status).toBe(429);
    expect(await failedAttempts(s, { ip: '127.0.0.1' })).toBe(FREE.addressAndEmail);
  });
});

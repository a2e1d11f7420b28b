import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyDto, AuthenticationActivityDto, PageAuthenticationActivityDto, UserDto } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';
import { newId } from '../../src/domain/ids.js';

const UTC_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
type Row = AuthenticationActivityDto;

describe('authentication activity', () => {
  let s: TestServer;
  let auth: { Authorization: string };
  let adminId: string;
  let reader: { Authorization: string };
  let readerId: string;

  const page = async (path: string, headers = auth) => {
    const res = await s.fetch(path, { headers });
    expect(res.status).toBe(200);
    const body = (await res.json()) as PageAuthenticationActivityDto;
    expectSchema('PageAuthenticationActivityDto', body);
    for (const row of body.content) expectSchema('AuthenticationActivityDto', row);
    return body;
  };

  beforeAll(async () => {
    s = await startServer();
    auth = { Authorization: (await claim(s)).authorization };
    adminId = ((await (await s.fetch('/api/v2/users/me', { headers: auth })).json()) as UserDto).id;
    const created = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: auth,
      json: { email: 'reader@example.org', password: 'reader-secret' },
    });
    readerId = ((await created.json()) as UserDto).id;
    reader = { Authorization: basic('reader@example.org', 'reader-secret') };
    await s.fetch('/api/v2/users/me', { headers: { ...reader, 'User-Agent': 'TestAgent/1.0' } });
    await s.fetch('/api/v2/users/me', { headers: { Authorization: basic('Reader@example.org', 'wrong') } });
  });
  afterAll(() => s.close());

  it('records failures with the attempted e-mail, the error, ip and user agent', async () => {
    const body = await page('/api/v2/users/authentication-activity?unpaged=true');
    const failure = body.content.find((r: Row) => !r.success) as Row;
    expect(failure).toMatchObject({
      success: false,
      email: 'reader@example.org',
      userId: readerId,
      error: 'Bad credentials',
      source: 'Password',
      ip: '127.0.0.1',
    });
    const success = body.content.find((r: Row) => r.userAgent === 'TestAgent/1.0') as Row;
    expect(success).toMatchObject({ success: true, userId: readerId, source: 'Password' });
    expect(success.dateTime).toMatch(UTC_SECONDS);
  });

  it('pages with Spring’s envelope, newest first by default', async () => {
    const body = await page('/api/v2/users/authentication-activity?size=2');
    expect(body).toMatchObject({
      size: 2,
      number: 0,
      first: true,
      numberOfElements: 2,
      empty: false,
      pageable: { pageNumber: 0, pageSize: 2, offset: 0, paged: true, unpaged: false },
      sort: { sorted: true, unsorted: false, empty: false },
    });
    expect(body.totalElements).toBeGreaterThanOrEqual(4);
    expect(body.totalPages).toBe(Math.ceil(body.totalElements / 2));
    const dates = body.content.map((r: Row) => r.dateTime);
    expect([...dates].sort().reverse()).toEqual(dates);

    const second = await page('/api/v2/users/authentication-activity?size=2&page=1');
    expect(second.number).toBe(1);
    expect(second.first).toBe(false);
    expect(second.pageable.offset).toBe(2);
  });

  it('sorts by the documented properties and ignores unknown ones', async () => {
    const asc = await page('/api/v2/users/authentication-activity?unpaged=true&sort=success,asc&sort=dateTime,desc');
    const flags = asc.content.map((r: Row) => r.success);
    expect(flags).toEqual([...flags].sort((a: boolean, b: boolean) => Number(a) - Number(b)));
    expect(flags[0]).toBe(false);

    const desc = await page('/api/v2/users/authentication-activity?unpaged=true&sort=success,desc');
    expect(desc.content[0]!.success).toBe(true);

    const unknown = await page('/api/v2/users/authentication-activity?sort=bogus,asc');
    expect(unknown.content.length).toBeGreaterThan(0);
  });

  it('answers unpaged lists with a paged-looking envelope', async () => {
    const body = await page('/api/v2/users/authentication-activity?unpaged=true');
    expect(body.number).toBe(0);
    expect(body.size).toBe(Math.max(body.totalElements, 20));
    expect(body.totalPages).toBe(1);
    expect(body.content).toHaveLength(body.totalElements);
  });

  it('shows a user only his own rows', async () => {
    const body = await page('/api/v2/users/me/authentication-activity?unpaged=true', reader);
    expect(body.content.length).toBeGreaterThan(0);
    for (const row of body.content) expect(row.userId).toBe(readerId);
  });

  describe('latest', () => {
    it('gives the latest row to the user himself and to an admin', async () => {
      for (const headers of [reader, auth]) {
        const res = await s.fetch(`/api/v2/users/${readerId}/authentication-activity/latest`, { headers });
        expect(res.status).toBe(200);
        const row = (await res.json()) as AuthenticationActivityDto;
        expectSchema('AuthenticationActivityDto', row);
        expect(row.userId).toBe(readerId);
      }
    });

    it('filters by API key', async () => {
      const key = (await (
        await s.fetch('/api/v2/users/me/api-keys', { method: 'POST', headers: auth, json: { comment: 'k' } })
      ).json()) as ApiKeyDto;
      const none = await s.fetch(`/api/v2/users/${adminId}/authentication-activity/latest?apikey_id=${key.id}`, {
        headers: auth,
      });
      expect(none.status).toBe(404);
      await s.fetch('/api/v2/users/me', { headers: { 'X-API-Key': key.key } });
      await s.fetch('/api/v2/users/me', { headers: auth });
      const res = await s.fetch(`/api/v2/users/${adminId}/authentication-activity/latest?apikey_id=${key.id}`, {
        headers: auth,
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ apiKeyId: key.id, source: 'ApiKey', apiKeyComment: 'k' });
    });

    it('answers 404 when the user has no activity', async () => {
      const created = await s.fetch('/api/v2/users', {
        method: 'POST',
        headers: auth,
        json: { email: 'quiet@example.org', password: 'reader-secret' },
      });
      const { id } = (await created.json()) as UserDto;
      const res = await s.fetch(`/api/v2/users/${id}/authentication-activity/latest`, { headers: auth });
      expect(res.status).toBe(404);
    });
  });

  it('purges rows older than a month', async () => {
    const old = new Date(Date.now() - 40 * 24 * 3600_000).toISOString();
    const recent = new Date(Date.now() - 20 * 24 * 3600_000).toISOString();
    for (const [id, date] of [
      [newId(), old],
      [newId(), recent],
    ] as const)
      await s.app.deps.db
        .insertInto('authentication_activity')
        .values({
          id,
          user_id: readerId,
          email: 'reader@example.org',
          success: 1,
          source: 'Password',
          date_time: date,
          api_key_id: null,
          api_key_comment: null,
          ip: null,
          user_agent: null,
          error: null,
        })
        .execute();
    const result = await s.app.deps.accounts.housekeeping();
    expect(result.activity).toBe(1);
    const dates = (await s.app.deps.db.selectFrom('authentication_activity').select('date_time').execute()).map(
      (r) => r.date_time,
    );
    expect(dates).toContain(recent);
    expect(dates).not.toContain(old);
  });
});

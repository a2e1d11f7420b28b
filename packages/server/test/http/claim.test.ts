import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimStatusDto, UserDto, ViolationsDto } from '@quire/api';
import { basic, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';

const claimHeaders = (email: string, password: string) => ({ 'X-Komga-Email': email, 'X-Komga-Password': password });

describe('/api/v1/claim', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it('says the server is not claimed on first run', async () => {
    const res = await s.fetch('/api/v1/claim');
    expect(res.status).toBe(200);
    const body = await res.json();
    expectSchema('ClaimStatus', body);
    expect(body).toEqual({ isClaimed: false });
  });

  it('refuses a malformed e-mail and a blank password with violations named like Komga', async () => {
    const res = await s.fetch('/api/v1/claim', { method: 'POST', headers: claimHeaders('not-an-email', '  ') });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ViolationsDto;
    expectSchema('ValidationErrorResponse', body);
    expect(body.violations.map((v: { fieldName: string }) => v.fieldName).sort()).toEqual([
      'claimServer.email',
      'claimServer.password',
    ]);
    expect(((await (await s.fetch('/api/v1/claim')).json()) as ClaimStatusDto).isClaimed).toBe(false);
  });

  it('refuses missing headers', async () => {
    const res = await s.fetch('/api/v1/claim', { method: 'POST' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ViolationsDto).violations).toHaveLength(2);
  });

  it('creates the first user with every role and does not log the caller in', async () => {
    const res = await s.fetch('/api/v1/claim', {
      method: 'POST',
      headers: claimHeaders('Admin@Example.org', 'admin-secret'),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    const user = (await res.json()) as UserDto;
    expectSchema('UserDto', user);
    expect(user.email).toBe('Admin@Example.org');
    expect([...user.roles].sort()).toEqual(
      ['ADMIN', 'FILE_DOWNLOAD', 'KOBO_SYNC', 'KOREADER_SYNC', 'PAGE_STREAMING', 'USER'].sort(),
    );
    expect(user.sharedAllLibraries).toBe(true);
    expect(user).not.toHaveProperty('ageRestriction');

    const status = await (await s.fetch('/api/v1/claim')).json();
    expect(status).toEqual({ isClaimed: true });

    // The claimed account works, with its e-mail in any case.
    const me = await s.fetch('/api/v2/users/me', {
      headers: { Authorization: basic('admin@EXAMPLE.org', 'admin-secret') },
    });
    expect(me.status).toBe(200);
  });

  it('refuses a second claim with the Spring error body', async () => {
    const res = await s.fetch('/api/v1/claim', {
      method: 'POST',
      headers: claimHeaders('other@example.org', 'other-secret'),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toEqual({
      timestamp: expect.any(String),
      status: 400,
      error: 'Bad Request',
      message: 'This server has already been claimed',
      path: '/api/v1/claim',
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyDto } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';

const ZONED = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

describe('/api/v2/users/me/api-keys', () => {
  let s: TestServer;
  let auth: { Authorization: string };
  beforeAll(async () => {
    s = await startServer();
    auth = { Authorization: (await claim(s)).authorization };
  });
  afterAll(() => s.close());

  const create = (comment: unknown, headers: Record<string, string> = auth) =>
    s.fetch('/api/v2/users/me/api-keys', { method: 'POST', headers, json: { comment } });

  it('creates a key shown once in plain, 32 lowercase hex characters', async () => {
    const res = await create('  Tablet  ');
    expect(res.status).toBe(200);
    const key = (await res.json()) as ApiKeyDto;
    expectSchema('ApiKeyDto', key);
    expect(key.key).toMatch(/^[0-9a-f]{32}$/);
    expect(key.comment).toBe('Tablet');
    expect(key.createdDate).toMatch(ZONED);
    expect(key.lastModifiedDate).toBe(key.createdDate);

    const list = (await (await s.fetch('/api/v2/users/me/api-keys', { headers: auth })).json()) as ApiKeyDto[];
    expect(list).toHaveLength(1);
    expectSchema('ApiKeyDto', list[0]);
    expect(list[0]).toMatchObject({ id: key.id, key: '******', comment: 'Tablet' });

    // Only the SHA-512 is stored.
    const rows = await s.app.deps.db.selectFrom('api_key').select('key_hash').execute();
    expect(rows[0]!.key_hash).toMatch(/^[0-9a-f]{128}$/);
    expect(rows[0]!.key_hash).not.toContain(key.key);
  });

  it('refuses a comment already used by the same user with ERR_1034', async () => {
    const res = await create('Tablet');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400, message: 'ERR_1034' });
  });

  it('refuses a blank comment', async () => {
    for (const comment of ['', '   ']) {
      const res = await create(comment);
      expect(res.status).toBe(400);
      expectSchema('ValidationErrorResponse', await res.json());
    }
  });

  it('lets another user use the same comment, and keeps each user’s keys apart', async () => {
    await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: auth,
      json: { email: 'r@example.org', password: 'reader-secret' },
    });
    const reader = { Authorization: basic('r@example.org', 'reader-secret') };
    expect((await create('Tablet', reader)).status).toBe(200);
    const mine = (await (await s.fetch('/api/v2/users/me/api-keys', { headers: reader })).json()) as ApiKeyDto[];
    expect(mine).toHaveLength(1);

    // Deleting someone else's key: 404, and the key keeps working.
    const adminKeys = (await (await s.fetch('/api/v2/users/me/api-keys', { headers: auth })).json()) as ApiKeyDto[];
    const res = await s.fetch(`/api/v2/users/me/api-keys/${adminKeys[0]!.id}`, { method: 'DELETE', headers: reader });
    expect(res.status).toBe(404);
    expect(await (await s.fetch('/api/v2/users/me/api-keys', { headers: auth })).json()).toHaveLength(1);
  });

  it('deletes a key, which then stops authenticating', async () => {
    const key = (await (await create('Phone')).json()) as ApiKeyDto;
    expect((await s.fetch('/api/v2/users/me', { headers: { 'X-API-Key': key.key } })).status).toBe(200);
    const res = await s.fetch(`/api/v2/users/me/api-keys/${key.id}`, { method: 'DELETE', headers: auth });
    expect(res.status).toBe(204);
    expect((await s.fetch('/api/v2/users/me', { headers: { 'X-API-Key': key.key } })).status).toBe(401);
  });

  it('grants the owner’s roles, ADMIN included', async () => {
    const key = (await (await create('Script')).json()) as ApiKeyDto;
    const res = await s.fetch('/api/v2/users', { headers: { 'X-API-Key': key.key } });
    expect(res.status).toBe(200);
  });

  it('needs authentication', async () => {
    expect((await s.fetch('/api/v2/users/me/api-keys')).status).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientSettingsDto } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';

describe('/api/v1/client-settings', () => {
  let s: TestServer;
  let admin: { authorization: string };
  let reader: string;

  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    const created = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: admin.authorization },
      json: { email: 'reader@example.org', password: 'reader-pw', roles: [] },
    });
    expect(created.status).toBe(201);
    reader = basic('reader@example.org', 'reader-pw');
  });
  afterAll(() => s.close());

  const get = (path: string, authorization?: string) =>
    s
      .fetch(path, { headers: authorization ? { authorization } : {} })
      .then(async (r) => ({ status: r.status, body: (await r.json()) as ClientSettingsDto }));

  it('lets an admin save global settings; anonymous callers see only those allowed', async () => {
    const saved = await s.fetch('/api/v1/client-settings/global', {
      method: 'PATCH',
      headers: { authorization: admin.authorization },
      json: {
        'webui.oauth2.hide_login': { value: 'false', allowUnauthorized: true },
        'webui.series_groups': { value: '{"name":"alpha"}', allowUnauthorized: false },
      },
    });
    expect(saved.status).toBe(204);
    const anonymous = await get('/api/v1/client-settings/global/list');
    expect(anonymous).toEqual({
      status: 200,
      body: { 'webui.oauth2.hide_login': { value: 'false', allowUnauthorized: true } },
    });
    const signedIn = await get('/api/v1/client-settings/global/list', reader);
    expect(Object.keys(signedIn.body).sort()).toEqual(['webui.oauth2.hide_login', 'webui.series_groups']);
    for (const value of Object.values(signedIn.body)) expectSchema('ClientSettingDto', value);
  });

  it('keeps allowUnauthorized of an existing key and updates only its value', async () => {
    await s.fetch('/api/v1/client-settings/global', {
      method: 'PATCH',
      headers: { authorization: admin.authorization },
      json: { 'webui.oauth2.hide_login': { value: 'true', allowUnauthorized: false } },
    });
    const anonymous = await get('/api/v1/client-settings/global/list');
    expect(anonymous.body['webui.oauth2.hide_login']).toEqual({ value: 'true', allowUnauthorized: true });
  });

  it('refuses global writes to non-admins and bad keys', async () => {
    const forbidden = await s.fetch('/api/v1/client-settings/global', {
      method: 'PATCH',
      headers: { authorization: reader },
      json: { 'webui.x': { value: 'a', allowUnauthorized: false } },
    });
    expect(forbidden.status).toBe(403);
    const badKey = await s.fetch('/api/v1/client-settings/global', {
      method: 'PATCH',
      headers: { authorization: admin.authorization },
      json: { 'Bad Key': { value: 'a', allowUnauthorized: false } },
    });
    expect(badKey.status).toBe(400);
    const blank = await s.fetch('/api/v1/client-settings/user', {
      method: 'PATCH',
      headers: { authorization: reader },
      json: { 'webui.poster.stretch': { value: '' } },
    });
    expect(blank.status).toBe(400);
  });

  it('keeps user settings per user, and deletes them', async () => {
    await s.fetch('/api/v1/client-settings/user', {
      method: 'PATCH',
      headers: { authorization: reader },
      json: { 'webui.poster.stretch': { value: 'true' }, 'webui.poster.blur_unread': { value: 'false' } },
    });
    expect((await get('/api/v1/client-settings/user/list', reader)).body).toEqual({
      'webui.poster.blur_unread': { value: 'false' },
      'webui.poster.stretch': { value: 'true' },
    });
    expect((await get('/api/v1/client-settings/user/list', admin.authorization)).body).toEqual({});
    const deleted = await s.fetch('/api/v1/client-settings/user', {
      method: 'DELETE',
      headers: { authorization: reader },
      json: ['webui.poster.stretch'],
    });
    expect(deleted.status).toBe(204);
    expect((await get('/api/v1/client-settings/user/list', reader)).body).toEqual({
      'webui.poster.blur_unread': { value: 'false' },
    });
    expect((await get('/api/v1/client-settings/user/list')).status).toBe(401);
  });
});

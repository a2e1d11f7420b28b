import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientSettingsDto } from '@quire/api';
import { claim, startServer, type TestServer } from '../support/server.js';

/**
 * Public endpoints answer a caller whose session or remember-me cookie the server does not know (logged out,
 * expired, forged) as they answer an anonymous one: Komga's web UI asks for the global client settings right
 * after logging out, with the cookie it just gave up.
 */
describe('public endpoints with credentials the server does not know', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  const stale: Record<string, Record<string, string>> = {};
  let fontFile: string;
  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    await s.fetch('/api/v1/client-settings/global', {
      method: 'PATCH',
      headers: { Authorization: admin.authorization },
      json: {
        'webui.public': { value: 'yes', allowUnauthorized: true },
        'webui.private': { value: 'no', allowUnauthorized: false },
      },
    });
    const css = await (await s.fetch('/api/v1/fonts/resource/OpenDyslexic/css')).text();
    fontFile = /url\('([^']+)'\)/.exec(css)![1]!;

    const login = async () => {
      const res = await s.fetch('/api/v2/users/me?remember-me=true', {
        headers: { Authorization: admin.authorization },
      });
      const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
      return {
        session: cookies.find((c) => c.startsWith('KOMGA-SESSION='))!,
        rememberMe: cookies.find((c) => c.startsWith('komga-remember-me='))!,
      };
    };
    const out = await login();
    await s.fetch('/api/logout', { method: 'POST', headers: { Cookie: `${out.session}; ${out.rememberMe}` } });
    const old = await login();
    await s.app.deps.db
      .updateTable('session')
      .set({ last_access_date: new Date(Date.now() - 8 * 24 * 3600_000).toISOString() })
      .execute();
    await s.app.deps.db
      .updateTable('remember_me_token')
      .set({ expires_date: new Date(Date.now() - 1000).toISOString() })
      .execute();

    stale['logged-out session'] = { Cookie: out.session };
    stale['logged-out remember-me'] = { Cookie: out.rememberMe };
    stale['expired session'] = { Cookie: old.session };
    stale['expired remember-me'] = { Cookie: old.rememberMe };
    stale['forged session'] = { Cookie: `KOMGA-SESSION=${Buffer.from('made-up').toString('base64')}` };
    stale['forged remember-me'] = { Cookie: 'komga-remember-me=bWFkZS11cA' };
    stale['unknown X-Auth-Token'] = { 'X-Auth-Token': 'made-up' };
  });
  afterAll(() => s.close());

  const endpoints = () => [
    '/api/v1/claim',
    '/api/v1/client-settings/global/list',
    '/actuator/health',
    '/api/v1/fonts/resource/OpenDyslexic/css',
    `/api/v1/fonts/resource/OpenDyslexic/${fontFile}`,
  ];

  it.each([
    'logged-out session',
    'logged-out remember-me',
    'expired session',
    'expired remember-me',
    'forged session',
    'forged remember-me',
    'unknown X-Auth-Token',
  ])('answers as for an anonymous caller with a %s', async (kind) => {
    for (const path of endpoints()) {
      const anonymous = await s.fetch(path);
      const res = await s.fetch(path, { headers: { ...stale[kind], 'X-Requested-With': 'XMLHttpRequest' } });
      expect(res.status, path).toBe(anonymous.status);
      expect(res.status, path).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()), path).toEqual(Buffer.from(await anonymous.arrayBuffer()));
    }
    const settings = await s.fetch('/api/v1/client-settings/global/list', { headers: stale[kind] });
    expect(await settings.json()).toEqual({ 'webui.public': { value: 'yes', allowUnauthorized: true } });
  });

  it('still refuses wrong Basic credentials and API keys there, as Komga does', async () => {
    const wrong: Record<string, string>[] = [
      { Authorization: 'Basic bm9ib2R5OnNlY3JldA==' },
      { 'X-API-Key': 'made-up' },
    ];
    for (const headers of wrong) {
      expect((await s.fetch('/api/v1/client-settings/global/list', { headers })).status).toBe(401);
    }
  });

  it('still answers a known session as its user', async () => {
    const res = await s.fetch('/api/v2/users/me', { headers: { Authorization: admin.authorization } });
    const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
    const health = (await (await s.fetch('/actuator/health', { headers: { Cookie: cookie } })).json()) as {
      components?: unknown;
    };
    expect(health.components).toBeDefined();
    const settings = (await (
      await s.fetch('/api/v1/client-settings/global/list', { headers: { Cookie: cookie } })
    ).json()) as ClientSettingsDto;
    expect(Object.keys(settings).sort()).toEqual(['webui.private', 'webui.public']);
  });
});

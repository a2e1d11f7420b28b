import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBodyDto } from '@quire/api';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

describe('QUIRE_CONTEXT_PATH=/quire (api.md §1.1)', () => {
  let s: TestServer;
  let webDir: string;
  let origin: string;
  beforeAll(async () => {
    webDir = await mkdtemp(join(tmpdir(), 'quire-web-'));
    await mkdir(join(webDir, 'assets'));
    await writeFile(join(webDir, 'index.html'), '<html><head><title>Quire</title></head><body></body></html>');
    await writeFile(join(webDir, 'assets/app-1a2b.js'), 'export {};');
    s = await startServer({ QUIRE_CONTEXT_PATH: '/quire', QUIRE_WEB_DIR: webDir });
    origin = new URL(s.url).origin;
  });
  afterAll(async () => {
    await s.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it('serves the API under the context path only', async () => {
    expect(s.url).toBe(`${origin}/quire`);
    const res = await fetch(`${origin}/quire/api/v1/claim`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ isClaimed: false });
    expect(res.headers.get('etag')).toMatch(/^"0[0-9a-f]{32}"$/);
    expect(res.headers.get('cache-control')).toBe('max-age=0, must-revalidate, private');
    await claim(s);
    expect((await fetch(`${origin}/api/v1/claim`)).status).toBe(404);
  });

  it('builds OPDS links under the context path (issue 19)', async () => {
    const claimed = (await (await fetch(`${origin}/quire/api/v1/claim`)).json()) as { isClaimed: boolean };
    if (!claimed.isClaimed) await claim(s);
    const authorization = basic('admin@example.org', 'admin-secret');
    const res = await fetch(`${origin}/quire/opds/v1.2/catalog`, { headers: { authorization } });
    expect(res.status).toBe(200);
    const hrefs = [...(await res.text()).matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs.length).toBeGreaterThan(5);
    // Every link under the context path; the alternate one is the OPDS 2 catalog.
    for (const href of hrefs) expect(href).toMatch(new RegExp(`^${origin}/quire/opds/(v1\\.2|v2)/`));
    expect((await fetch(`${origin}/opds/v1.2/catalog`, { headers: { authorization } })).status).toBe(404);
  });

  it('builds OPDS 2 links and the authentication challenge under the context path', async () => {
    const challenge = await fetch(`${origin}/quire/opds/v2/catalog`);
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('link')).toContain(`<${origin}/quire/opds/v2/auth>`);
    expect(((await challenge.json()) as { id: string }).id).toBe(`${origin}/quire/opds/v2/auth`);
    // The administrator the first test claimed the server with.
    const authorization = basic('admin@example.org', 'admin-secret');
    const catalog = await fetch(`${origin}/quire/opds/v2/catalog`, { headers: { authorization } });
    expect(catalog.status).toBe(200);
    const links = ((await catalog.json()) as { links: { rel: string; href: string }[] }).links;
    expect(links.find((l) => l.rel === 'start')?.href).toBe(`${origin}/quire/opds/v2/catalog`);
  });

  it('answers 404 outside the context path, for client routes too', async () => {
    for (const path of ['/', '/series/1', '/quirex/series/1', '/assets/app-1a2b.js']) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('<base');
    }
  });

  it('serves index.html with <base href="/quire/"> for client routes', async () => {
    for (const path of ['/quire', '/quire/', '/quire/some/client/route', '/quire/index.html']) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html, path).toContain('<head>\n    <base href="/quire/">');
    }
  });

  it('serves the assets under the context path', async () => {
    const res = await fetch(`${origin}/quire/assets/app-1a2b.js`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('export {};');
  });

  it('reports unknown API paths with the full path in the error body', async () => {
    const res = await fetch(`${origin}/quire/api/v1/nope`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as ErrorBodyDto).path).toBe('/quire/api/v1/nope');
  });

  it('serves KOReader sync under the context path (its server URL is the base URL followed by /koreader)', async () => {
    const created = await s.fetch('/api/v2/users/me/api-keys', {
      method: 'POST',
      headers: { authorization: basic('admin@example.org', 'admin-secret') },
      json: { comment: 'KOReader' },
    });
    const { key } = (await created.json()) as { key: string };
    const headers = { 'x-auth-user': key, accept: 'application/vnd.koreader.v1+json' };
    const res = await fetch(`${origin}/quire/koreader/users/auth`, { headers });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ authorized: 'OK' });
    expect((await fetch(`${origin}/koreader/users/auth`, { headers })).status).toBe(404);
  });
});

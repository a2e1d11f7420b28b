import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

interface Health {
  status: string;
  components: Record<string, { status: string; details: Record<string, unknown> }>;
}

let servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
});
const start = async () => {
  const s = await startServer();
  servers.push(s);
  return s;
};

async function reader(s: TestServer, admin: { authorization: string }) {
  const res = await s.fetch('/api/v2/users', {
    method: 'POST',
    headers: { authorization: admin.authorization },
    json: { email: 'reader@example.org', password: 'user-secret', roles: [] },
  });
  expect(res.status).toBe(201);
  return { authorization: basic('reader@example.org', 'user-secret') };
}

describe('GET /actuator/health', () => {
  it('is public and says only UP to anonymous callers and non-admins', async () => {
    const s = await start();
    const anonymous = await s.fetch('/actuator/health');
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ status: 'UP' });

    const admin = await claim(s);
    const user = await reader(s, admin);
    const asUser = await s.fetch('/actuator/health', { headers: { authorization: user.authorization } });
    expect(await asUser.json()).toEqual({ status: 'UP' });
  });

  it('shows the components to an admin', async () => {
    const s = await start();
    const admin = await claim(s);
    const res = await s.fetch('/actuator/health', { headers: { authorization: admin.authorization } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Health;
    expect(body.status).toBe('UP');
    expect(body.components.db!.status).toBe('UP');
    expect(body.components.diskSpace!).toMatchObject({ status: 'UP', details: { path: s.dataDir, exists: true } });
    expect(body.components.diskSpace!.details.free).toBeGreaterThan(0);
  });
});

describe('GET /actuator/info', () => {
  it('answers every section Komga answers (git, build, java, os) to admins only', async () => {
    const s = await start();
    expect((await s.fetch('/actuator/info')).status).toBe(401);
    const admin = await claim(s);
    const user = await reader(s, admin);
    expect((await s.fetch('/actuator/info', { headers: { authorization: user.authorization } })).status).toBe(403);

    const res = await s.fetch('/actuator/info', { headers: { authorization: admin.authorization } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['build', 'git', 'java', 'os']);
    // The Komga UI's navigation drawer reads git.branch on every redraw.
    const recorded = JSON.parse(readFileSync(join(import.meta.dirname, '../../dist/build-info.json'), 'utf8'));
    expect(body.git).toEqual(recorded.git);
    expect(body.git).toEqual({
      branch: expect.any(String),
      commit: {
        id: expect.stringMatching(/^[0-9a-f]{7,}$/),
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:]{8}Z$/),
      },
    });
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../package.json'), 'utf8'));
    expect(body.build).toEqual({ artifact: 'quire', name: 'quire', version: pkg.version, group: 'quire' });
    expect(body.java).toEqual({
      version: process.versions.node,
      vendor: { name: 'Node.js', version: process.version },
      runtime: { name: 'Node.js', version: process.versions.node },
      jvm: { name: 'V8', vendor: 'Google', version: process.versions.v8 },
    });
    expect(body.os).toEqual({ name: expect.any(String), version: expect.any(String), arch: expect.any(String) });
  });
});

describe('GET /actuator/logfile', () => {
  it('answers the current log file as text to admins only', async () => {
    const s = await start();
    const admin = await claim(s);
    const user = await reader(s, admin);
    expect((await s.fetch('/actuator/logfile', { headers: { authorization: user.authorization } })).status).toBe(403);

    const marker = `logfile-marker-${Date.now()}`;
    s.app.deps.logger.info(marker);
    await vi.waitFor(
      async () => {
        const res = await s.fetch('/actuator/logfile', { headers: { authorization: admin.authorization } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await res.text()).toContain(marker);
      },
      { timeout: 5000, interval: 100 },
    );
  });
});

describe('POST /actuator/shutdown', () => {
  it('says goodbye to an admin, then shuts down; refuses others', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'quire-shutdown-'));
    const onShutdown = vi.fn();
    const app = await createApp(
      loadConfig({ QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_LOG_STDOUT: 'false', QUIRE_DATA_DIR: dataDir }),
      { onShutdown },
    );
    try {
      const url = await app.listen();
      const s = { fetch: (path: string, init?: RequestInit) => fetch(`${url}${path}`, init) } as TestServer;
      expect((await s.fetch('/actuator/shutdown', { method: 'POST' })).status).toBe(401);
      const admin = await claim(s);
      const created = await s.fetch('/api/v2/users', {
        method: 'POST',
        headers: { authorization: admin.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'reader@example.org', password: 'user-secret', roles: [] }),
      });
      expect(created.status).toBe(201);
      const asUser = await s.fetch('/actuator/shutdown', {
        method: 'POST',
        headers: { authorization: basic('reader@example.org', 'user-secret') },
      });
      expect(asUser.status).toBe(403);
      await new Promise((r) => setTimeout(r, 100));
      expect(onShutdown).not.toHaveBeenCalled();

      const res = await s.fetch('/actuator/shutdown', {
        method: 'POST',
        headers: { authorization: admin.authorization },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: 'Shutting down, bye...' });
      await vi.waitFor(() => expect(onShutdown).toHaveBeenCalledTimes(1), { timeout: 2000 });
    } finally {
      await app.close();
      // The log file is closed with the app; a late log line must not throw.
      expect(() => app.deps.logger.info('after close')).not.toThrow();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

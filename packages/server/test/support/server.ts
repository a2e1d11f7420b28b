import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type QuireApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { databaseEnv, dropDatabaseOf } from './postgres.js';

export interface TestServer {
  url: string;
  dataDir: string;
  app: QuireApp;
  /** fetch relative to the server, JSON bodies encoded for you. */
  fetch(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

/** The real server, as serve.ts builds it, on a free port with a fresh data dir (and database: support/postgres.ts). */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = env.QUIRE_DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'quire-test-')));
  const config = loadConfig({
    QUIRE_HOST: '127.0.0.1',
    QUIRE_PORT: '0',
    QUIRE_LOG_STDOUT: 'false',
    ...(await databaseEnv(dataDir)),
    ...env,
    QUIRE_DATA_DIR: dataDir,
  });
  const app = await createApp(config);
  const address = await app.listen();
  const url = `${address}${app.contextPath}`;
  return {
    url,
    dataDir,
    app,
    fetch: (path, init = {}) => {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined) headers.set('Content-Type', 'application/json');
      return fetch(`${url}${path}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    close: async () => {
      await app.close();
      if (!env.QUIRE_DATA_DIR) {
        await rm(dataDir, { recursive: true, force: true });
        await dropDatabaseOf(dataDir);
      }
    },
  };
}

export const basic = (email: string, password: string) =>
  `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

/** Claims the server and returns the admin's credentials. */
export async function claim(s: TestServer, email = 'admin@example.org', password = 'admin-secret') {
  const res = await s.fetch('/api/v1/claim', {
    method: 'POST',
    headers: { 'X-Komga-Email': email, 'X-Komga-Password': password },
  });
  if (res.status !== 200) throw new Error(`claim failed: ${res.status} ${await res.text()}`);
  return { email, password, authorization: basic(email, password) };
}

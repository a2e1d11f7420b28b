import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../../../../bench/support/server.mjs';
import { databaseEnv } from './postgres.js';

/*
 * The server as a child process, started from the sources (as `npm start` starts the build), for the tests that
 * kill it with SIGKILL part-way through some work and start a second one on the same data folder.
 */

const repoRoot = resolve(import.meta.dirname, '../../../..');
/** tsx's loader: the child runs the TypeScript sources, so these tests need no build. */
const tsx = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

export type Child = Awaited<ReturnType<typeof startServer>>;

/** The server's entry point, from the sources, in a child process on `dataDir` (and its test database); resolves once it answers. */
export const startChild = async (dataDir: string): Promise<Child> =>
  startServer({
    dataDir,
    env: await databaseEnv(dataDir),
    main: join(repoRoot, 'packages/server/src/main.ts'),
    nodeArgs: ['--import', tsx],
    startTimeoutMs: 60_000,
    pollMs: 100,
  });

const ADMIN = { email: 'admin@example.org', password: 'admin-secret' };
const auth = `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}`;

/** Claims the fresh server for the test's administrator. */
export async function claim(child: Child): Promise<void> {
  const res = await fetch(`${child.base}/api/v1/claim`, {
    method: 'POST',
    headers: { 'X-Komga-Email': ADMIN.email, 'X-Komga-Password': ADMIN.password },
  });
  if (res.status !== 200) throw new Error(`claim: ${res.status} ${await res.text()}`);
}

/** A JSON call as the administrator; null for a 202 without body. */
export async function api<T>(child: Child, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${child.base}${path}`, {
    ...init,
    headers: { authorization: auth, 'content-type': 'application/json', ...init.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (res.status === 202 ? null : await res.json()) as T;
}

import { resolve } from 'node:path';
import { SERVER_MAIN, startServer } from '../../../../bench/support/server.mjs';
import { staleness } from '../../../../scripts/build-staleness.mjs';
import { databaseEnv } from './postgres.js';

/*
 * The built server as a child process, started as `npm start` starts it, for the tests that kill it with SIGKILL
 * part-way through some work and start a second one on the same data folder. The build, not the sources through
 * tsx: a start from the sources cost twice the CPU (3 s against 1.5 s) in each of the suite's two passes, and
 * `npm test` builds first. A build older than the sources is refused, so a test never runs yesterday's server.
 */

const repoRoot = resolve(import.meta.dirname, '../../../..');

export type Child = Awaited<ReturnType<typeof startServer>>;

/** The built server in a child process on `dataDir` (and its test database); resolves once it answers. */
export async function startChild(dataDir: string): Promise<Child> {
  const stale = staleness(repoRoot);
  if (stale) throw new Error(`The server's build is out of date (${stale}): run \`npm run build\` first.`);
  return startServer({
    dataDir,
    env: await databaseEnv(dataDir),
    main: SERVER_MAIN,
    startTimeoutMs: 60_000,
    pollMs: 100,
  });
}

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

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { timed } from './timing.js';

export const repoRoot = resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? res(address.port) : rej(new Error('no port'))));
    });
  });
}

/**
 * Starts the built server (`npm run build` first) exactly as `npm start` does, on a free port (or `env.QUIRE_PORT`, for
 * a test that must know the address before: an OAuth2 provider's redirect URI) and a fresh data dir.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'quire-e2e-'));
  const port = env.QUIRE_PORT ? Number(env.QUIRE_PORT) : await freePort();
  let log = '';
  const child = spawn(process.execPath, [join(repoRoot, 'packages/server/dist/main.js')], {
    env: { ...process.env, QUIRE_HOST: '127.0.0.1', QUIRE_DATA_DIR: dataDir, ...env, QUIRE_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}${env.QUIRE_CONTEXT_PATH ?? ''}`;
  // Generous: two specs at once on a loaded 2-core machine took over 30 s once (CI: about a second).
  const deadline = Date.now() + 60_000;
  await timed('server start', async () => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
      try {
        const res = await fetch(`${url}/actuator/health`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server did not start in 60 s:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  return {
    url,
    dataDir,
    process: child,
    output: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/*
 * The server as a child process, started from the sources (as `npm start` starts the build), for the tests that
 * kill it with SIGKILL part-way through some work and start a second one on the same data folder.
 */

const repoRoot = resolve(import.meta.dirname, '../../../..');
/** tsx's loader: the child runs the TypeScript sources, so this test needs no build. */
const tsx = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

export interface Child {
  url: string;
  process: ChildProcess;
  output: () => string;
}

export async function freePort(): Promise<number> {
  return new Promise((ok, ko) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? ok(address.port) : ko(new Error('no port'))));
    });
  });
}

/** The server's entry point in a child process, on `dataDir`; resolves once it answers. */
export async function startChild(dataDir: string): Promise<Child> {
  const port = await freePort();
  let log = '';
  const child = spawn(process.execPath, ['--import', tsx, join(repoRoot, 'packages/server/src/main.ts')], {
    env: {
      ...process.env,
      QUIRE_PORT: String(port),
      QUIRE_HOST: '127.0.0.1',
      QUIRE_DATA_DIR: dataDir,
      QUIRE_LOG_STDOUT: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      if ((await fetch(`${url}/actuator/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start in 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, process: child, output: () => log };
}

export async function stopChild(child: Child | undefined, signal: NodeJS.Signals = 'SIGTERM') {
  if (!child || child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise((r) => child.process.once('exit', r));
  child.process.kill(signal);
  await exited;
}

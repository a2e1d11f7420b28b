import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../../../../bench/support/server.mjs';

/*
 * The server as a child process, started from the sources (as `npm start` starts the build), for the tests that
 * kill it with SIGKILL part-way through some work and start a second one on the same data folder.
 */

const repoRoot = resolve(import.meta.dirname, '../../../..');
/** tsx's loader: the child runs the TypeScript sources, so these tests need no build. */
const tsx = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

export type Child = Awaited<ReturnType<typeof startServer>>;

/** The server's entry point, from the sources, in a child process on `dataDir`; resolves once it answers. */
export const startChild = (dataDir: string): Promise<Child> =>
  startServer({
    dataDir,
    main: join(repoRoot, 'packages/server/src/main.ts'),
    nodeArgs: ['--import', tsx],
    startTimeoutMs: 60_000,
    pollMs: 100,
  });

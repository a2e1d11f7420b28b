/** Starts the server from the environment's settings and stops it cleanly on SIGTERM/SIGINT or the shutdown endpoint. */
import { loadConfig } from './config.js';
import { createApp } from './app.js';
import { DRAIN_MS } from './http/drain.js';

const started = performance.now();
const config = loadConfig();
let stopping = false;

const app = await createApp(config, { onShutdown: () => void stop('shutdown endpoint') });
const address = await app.listen();
app.http.log.info(
  {
    address,
    contextPath: app.contextPath,
    dataDir: config.dataDir,
    startupMs: Math.round(performance.now() - started),
  },
  `Quire listening on ${address}${app.contextPath}`,
);

async function stop(reason: string) {
  if (stopping) return;
  stopping = true;
  app.http.log.info({ reason }, 'Quire is shutting down');
  // A last resort only: closing waits at most DRAIN_MS for responses under way, then up to 10 s for running tasks
  // (those still running stay in the queue and run again at the next start), then closes the database.
  const force = setTimeout(() => process.exit(1), DRAIN_MS + 20_000);
  force.unref();
  await app.close();
  process.exit(0);
}

process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

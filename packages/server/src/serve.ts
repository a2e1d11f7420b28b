/** Starts the server from the environment's settings and stops it cleanly on SIGTERM/SIGINT or the shutdown endpoint. */
import { loadConfig } from './config.js';
import { createApp } from './app.js';

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
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await app.close();
  process.exit(0);
}

process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

import { homedir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBuildInfo, type BuildInfo } from './build-info.js';

/** Everything the process reads from its environment, once, at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** From QUIRE_CONTEXT_PATH; the `serverContextPath` setting wins when set (api.md §1.1). */
  contextPath: string;
  logLevel: string;
  /** The built web client, served with a history-mode fallback. */
  webDir: string;
  /** Write logs to stdout as well as the rotating file (off in tests). */
  logToStdout: boolean;
  /** The version and the git commit this build was made from. */
  build: BuildInfo;
}

const here = dirname(fileURLToPath(import.meta.url));

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = Number(env.QUIRE_PORT ?? 25600);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`QUIRE_PORT must be 0..65535, got ${env.QUIRE_PORT}`);
  return {
    port,
    host: env.QUIRE_HOST ?? '0.0.0.0',
    dataDir: resolve(env.QUIRE_DATA_DIR ?? join(homedir(), '.quire')),
    contextPath: normaliseContextPath(env.QUIRE_CONTEXT_PATH ?? ''),
    logLevel: env.QUIRE_LOG_LEVEL ?? 'info',
    webDir: resolve(env.QUIRE_WEB_DIR ?? join(here, '../../web/dist')),
    logToStdout: (env.QUIRE_LOG_STDOUT ?? 'true') !== 'false',
    build: readBuildInfo(),
  };
}

/** '' or '/quire': leading slash, no trailing slash. */
export function normaliseContextPath(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (!trimmed) return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

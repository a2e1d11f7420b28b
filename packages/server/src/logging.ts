import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import pinoRoll from 'pino-roll';
import type { Config } from './config.js';

/**
 * Structured logs to stdout and to `<dataDir>/logs/quire.N.log`, rolled daily or at 10 MB, seven kept.
 * Streams run in this thread (no transport workers): less memory for an idle server.
 */
export async function createLogger(config: Config): Promise<Logger> {
  const dir = join(config.dataDir, 'logs');
  mkdirSync(dir, { recursive: true });
  const file = await pinoRoll({
    file: join(dir, 'quire'),
    extension: '.log',
    frequency: 'daily',
    size: '10m',
    limit: { count: 7 },
    mkdir: true,
  });
  const streams: pino.StreamEntry[] = [{ level: config.logLevel as pino.Level, stream: file }];
  if (config.logToStdout) streams.push({ level: config.logLevel as pino.Level, stream: process.stdout });
  return pino({ level: config.logLevel }, pino.multistream(streams));
}

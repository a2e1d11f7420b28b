import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import pinoRoll from 'pino-roll';
import type { Config } from './config.js';

export interface Logging {
  logger: Logger;
  /** Where the rolling files live; `GET /actuator/logfile` answers the newest one. */
  dir: string;
  /** Flushes and closes the log file; later log lines still reach stdout but no longer the file. */
  close(): Promise<void>;
}

/** `<dataDir>/logs`: the folder holding `quire.N.log`. */
export const logDirOf = (dataDir: string) => join(dataDir, 'logs');

/**
 * Structured logs to stdout and to `<dataDir>/logs/quire.N.log`, rolled daily or at 10 MB, seven kept.
 * Streams run in this thread (no transport workers): less memory for an idle server.
 */
export async function createLogger(config: Config): Promise<Logging> {
  const dir = logDirOf(config.dataDir);
  mkdirSync(dir, { recursive: true });
  const file = await pinoRoll({
    file: join(dir, 'quire'),
    extension: '.log',
    frequency: 'daily',
    size: '10m',
    limit: { count: 7 },
    mkdir: true,
  });
  // pino-roll answers a SonicBoom: an EventEmitter that emits 'close' once ended and flushed.
  const sonic = file as typeof file & Pick<NodeJS.EventEmitter, 'once'>;
  let fileOpen = true;
  // Writing to an ended SonicBoom throws; a line logged while or after closing is only dropped.
  const fileStream = { write: (line: string) => void (fileOpen && file.write(line)) };
  const streams: pino.StreamEntry[] = [{ level: config.logLevel as pino.Level, stream: fileStream }];
  if (config.logToStdout) streams.push({ level: config.logLevel as pino.Level, stream: process.stdout });
  const logger = pino({ level: config.logLevel }, pino.multistream(streams));
  return {
    logger,
    dir,
    close: () =>
      new Promise<void>((resolve) => {
        if (!fileOpen) return resolve();
        fileOpen = false;
        const done = () => resolve();
        sonic.once('close', done);
        sonic.once('error', done);
        sonic.end();
      }),
  };
}

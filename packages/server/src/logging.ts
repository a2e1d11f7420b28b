import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { createStream } from 'rotating-file-stream';
import type { Config } from './config.js';

export interface Logging {
  logger: Logger;
  /** Where the rolling files live; `GET /actuator/logfile` answers the newest one. */
  dir: string;
  /** Flushes and closes the log file; later log lines still reach stdout but no longer the file. */
  close(): Promise<void>;
}

/** `<dataDir>/logs`: the folder holding `quire.log` and the rolled `quire.<date>.<n>.log`. */
export const logDirOf = (dataDir: string) => join(dataDir, 'logs');

/** The file being written now; `GET /actuator/logfile` answers it. */
export const CURRENT_LOG_FILE = 'quire.log';

/** `quire.log` while written; once rolled, `quire.2026-11-22.1.log` (the day it was rolled, then a counter). */
function logFileName(time: number | Date | null, index?: number): string {
  if (!(time instanceof Date)) return CURRENT_LOG_FILE;
  return `quire.${time.toISOString().slice(0, 10)}.${index ?? 1}.log`;
}

/**
 * Structured logs to stdout and to `<dataDir>/logs/quire.log`, rolled daily or at 10 MB, seven rolled files kept.
 * Streams run in this thread (no transport workers): less memory for an idle server.
 */
export async function createLogger(config: Config): Promise<Logging> {
  const dir = logDirOf(config.dataDir);
  mkdirSync(dir, { recursive: true });
  // The roll count is kept in `quire.log.txt` beside the files.
  const file = createStream(logFileName, { path: dir, size: '10M', interval: '1d', maxFiles: 7 });
  file.on('error', () => undefined); // a full or read-only disk must not bring the server down; stdout still logs
  let fileOpen = true;
  // Writing to an ended stream throws; a line logged while or after closing is only dropped.
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
        file.once('finish', () => resolve());
        file.once('error', () => resolve());
        file.end();
      }),
  };
}

import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createLogger, type Logging } from '../src/logging.js';

let dataDir: string | undefined;
let logging: Logging | undefined;
afterEach(async () => {
  await logging?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  logging = dataDir = undefined;
});

async function open(): Promise<Logging> {
  dataDir = await mkdtemp(join(tmpdir(), 'quire-logging-'));
  logging = await createLogger(loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_LOG_STDOUT: 'false' }));
  return logging;
}

describe('log file', () => {
  it('writes JSON lines to logs/quire.log, flushed by close', async () => {
    const { logger, dir, close } = await open();
    logger.info({ bookId: 'B1' }, 'hello');
    await close();
    const lines = (await readFile(join(dir, 'quire.log'), 'utf8')).trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ msg: 'hello', bookId: 'B1', level: 30 });
    logger.info('after close'); // dropped, never thrown
  });

  it('rolls at 10 MB into quire.<date>.<n>.log and starts quire.log again', async () => {
    const { logger, dir, close } = await open();
    const filler = 'x'.repeat(1000);
    for (let i = 0; i < 11_000; i++) logger.info({ i, filler }, 'line');
    await close();
    const rolled = (await readdir(dir)).filter((n) => /^quire\.\d{4}-\d{2}-\d{2}\.\d+\.log$/.test(n));
    expect(rolled).toHaveLength(1);
    expect((await stat(join(dir, rolled[0]!))).size).toBeGreaterThanOrEqual(10 * 2 ** 20);
    const current = (await readFile(join(dir, 'quire.log'), 'utf8')).trim().split('\n');
    expect(current.length).toBeGreaterThan(0);
    expect(JSON.parse(current.at(-1)!)).toMatchObject({ i: 10_999 });
  });
});

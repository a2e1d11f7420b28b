import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claim, startServer, type TestServer } from '../support/server.js';
import { CURRENT_LOG_FILE, logDirOf } from '../../src/logging.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ QUIRE_LOG_LEVEL: 'debug' });
});
afterAll(() => s?.close());

it('keeps the Kobo API key of the path out of the debug request log', async () => {
  const admin = (await claim(s)).authorization;
  const created = await s.fetch('/api/v2/users/me/api-keys', {
    method: 'POST',
    headers: { authorization: admin },
    json: { comment: 'Clara' },
  });
  const { key } = (await created.json()) as { key: string };
  await s.fetch(`/kobo/${key}/v1/initialization`);
  await s.app.close();
  const log = await readFile(join(logDirOf(s.dataDir), CURRENT_LOG_FILE), 'utf8');
  expect(log).toContain('/kobo/***/v1/initialization');
  expect(log).not.toContain(key);
});

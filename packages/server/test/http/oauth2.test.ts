import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim, startServer, type TestServer } from '../support/server.js';

/** The login page's provider list (api.md §2.7): public, and empty while no OAuth2 provider exists. */
describe('GET /api/v1/oauth2/providers', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  const providers = async (headers: Record<string, string> = {}) => {
    const res = await s.fetch('/api/v1/oauth2/providers', { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body: unknown = await res.json();
    return body;
  };

  it('answers [] to anyone, before and after the server is claimed', async () => {
    expect(await providers()).toEqual([]);
    const admin = await claim(s);
    expect(await providers()).toEqual([]);
    expect(await providers({ authorization: admin.authorization })).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';

describe('unknown paths (api.md §1.6, §10)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it.each([
    ['GET', '/api/v1/nope'],
    ['GET', '/API/v1/nope'],
    ['POST', '/api/v1/nope/deeper'],
    ['GET', '/api'],
    ['GET', '/opds/v9/catalog'],
    ['GET', '/sse/v2/events'],
    ['GET', '/actuator/nope'],
    ['DELETE', '/anything'],
  ])('%s %s answers a Spring JSON 404', async (method, path) => {
    const res = await s.fetch(`${path}?x=1`, { method });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body).toEqual({
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
      status: 404,
      error: 'Not Found',
      message: expect.any(String),
      path,
    });
  });

  it('answers bean-validation failures as {violations: [...]}', async () => {
    const admin = await claim(s);
    const res = await s.fetch('/api/v1/settings', {
      method: 'PATCH',
      headers: { authorization: admin.authorization },
      json: { taskPoolSize: 0 },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expectSchema('ValidationErrorResponse', body);
    expect(body).toEqual({ violations: [{ fieldName: 'taskPoolSize', message: expect.any(String) }] });
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';

/** Announcements and releases (api.md §9.2, §9.3): admin only, answered without any network call. */
let s: TestServer;
let admin: string;
let reader: string;

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  const res = await s.fetch('/api/v2/users', {
    method: 'POST',
    headers: { authorization: admin },
    json: { email: 'reader@example.org', password: 'user-secret', roles: [] },
  });
  expect(res.status).toBe(201);
  reader = basic('reader@example.org', 'user-secret');
});
afterAll(() => s.close());

const get = async (path: string, authorization?: string) => {
  const res = await s.fetch(path, { headers: authorization ? { authorization } : {} });
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as unknown) : undefined };
};

describe('GET /api/v1/announcements', () => {
  it('is an empty JSON Feed, for admins only', async () => {
    expect((await get('/api/v1/announcements')).status).toBe(401);
    expect((await get('/api/v1/announcements', reader)).status).toBe(403);
    const { status, body } = await get('/api/v1/announcements', admin);
    expect(status).toBe(200);
    expectSchema('JsonFeedDto', body);
    expect(body).toEqual({ version: 'https://jsonfeed.org/version/1', title: 'Announcements', items: [] });
  });
});

describe('GET /api/v1/releases', () => {
  it('is Quire’s own release, flagged latest and equal to /actuator/info’s build version, for admins only', async () => {
    expect((await get('/api/v1/releases')).status).toBe(401);
    expect((await get('/api/v1/releases', reader)).status).toBe(403);
    const { status, body } = await get('/api/v1/releases', admin);
    expect(status).toBe(200);
    const releases = body as Record<string, unknown>[];
    expect(releases).toHaveLength(1);
    expectSchema('ReleaseDto', releases[0]);
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../package.json'), 'utf8'));
    const info = (await get('/actuator/info', admin)).body as {
      build: { version: string };
      git: { commit: { time: string } };
    };
    expect(releases[0]).toEqual({
      version: pkg.version,
      releaseDate: info.git.commit.time,
      url: '',
      latest: true,
      preRelease: false,
      description: '',
    });
    // What the Komga UI's Updates screen compares: installed = latest.
    expect(info.build.version).toBe(releases[0]!.version);
  });
});

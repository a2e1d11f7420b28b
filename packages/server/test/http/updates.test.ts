import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { expectSchema } from '../support/openapi.js';
import { HOSTILE_ITEM, jsonFeed, startFeedServer, type FeedServer } from '../support/feed-server.js';
import { parseChangelog } from '../../src/updates/releases.js';

/** Announcements and releases (api.md §9.2, §9.3): admin only, answered without any network call. */

const root = join(import.meta.dirname, '../../../..');

async function addUser(s: TestServer, admin: string, email: string, roles: string[]) {
  const res = await s.fetch('/api/v2/users', {
    method: 'POST',
    headers: { authorization: admin },
    json: { email, password: 'user-secret', roles },
  });
  expect(res.status).toBe(201);
  return basic(email, 'user-secret');
}

async function getJson(s: TestServer, path: string, authorization?: string) {
  const res = await s.fetch(path, { headers: authorization ? { authorization } : {} });
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as unknown) : undefined };
}

interface Feed {
  title: string;
  items: { id: string; url?: string; title?: string; content_html?: string; _komga: { read: boolean } }[];
}

const announcements = async (s: TestServer, authorization: string) =>
  (await getJson(s, '/api/v1/announcements', authorization)).body as Feed;

/** Polls until the cached feed has `count` items (the fetch runs in the background). */
async function waitForItems(s: TestServer, authorization: string, count: number): Promise<Feed> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const feed = await announcements(s, authorization);
    if (feed.items.length === count || Date.now() > deadline) return feed;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const logOf = (s: TestServer) => readFile(join(s.dataDir, 'logs', 'quire.log'), 'utf8');

async function waitForLog(s: TestServer, text: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const log = await logOf(s).catch(() => '');
    if (log.includes(text) || Date.now() > deadline) return log;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('without a feed configured', () => {
  let s: TestServer;
  let admin: string;
  let reader: string;
  beforeAll(async () => {
    s = await startServer();
    admin = (await claim(s)).authorization;
    reader = await addUser(s, admin, 'reader@example.org', []);
  });
  afterAll(() => s.close());

  it('GET /api/v1/announcements is an empty JSON Feed, for admins only', async () => {
    expect((await getJson(s, '/api/v1/announcements')).status).toBe(401);
    expect((await getJson(s, '/api/v1/announcements', reader)).status).toBe(403);
    const { status, body } = await getJson(s, '/api/v1/announcements', admin);
    expect(status).toBe(200);
    expectSchema('JsonFeedDto', body);
    expect(body).toEqual({ version: 'https://jsonfeed.org/version/1', title: 'Announcements', items: [] });
  });

  it('PUT /api/v1/announcements is for admins only, and answers 204 with nothing to mark', async () => {
    const put = (authorization: string, json: unknown) =>
      s.fetch('/api/v1/announcements', { method: 'PUT', headers: { authorization }, json });
    expect((await put(reader, ['a'])).status).toBe(403);
    expect((await put(admin, ['a'])).status).toBe(204);
    expect((await put(admin, { id: 'a' })).status).toBe(400);
  });

  it('GET /api/v1/releases is the CHANGELOG’s releases, the first the installed version and latest; admins only', async () => {
    expect((await getJson(s, '/api/v1/releases')).status).toBe(401);
    expect((await getJson(s, '/api/v1/releases', reader)).status).toBe(403);
    const { status, body } = await getJson(s, '/api/v1/releases', admin);
    expect(status).toBe(200);
    const releases = body as { version: string; latest: boolean; description: string; releaseDate: string }[];
    for (const r of releases) expectSchema('ReleaseDto', r);
    expect(releases).toEqual(parseChangelog(readFileSync(join(root, 'CHANGELOG.md'), 'utf8')));
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const info = (await getJson(s, '/actuator/info', admin)).body as { build: { version: string } };
    // What the Updates screen compares: a release bump must come with its CHANGELOG entry.
    expect(releases[0]).toMatchObject({ version: pkg.version, latest: true });
    expect(info.build.version).toBe(pkg.version);
    expect(releases[0]!.description).toContain('### Added');
    expect(releases[0]!.releaseDate).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
  });
});

describe('with a feed configured', () => {
  let feed: FeedServer;
  let dataDir: string;
  let s: TestServer;
  let admin: string;
  let otherAdmin: string;
  const env = () => ({ QUIRE_ANNOUNCEMENTS_URL: feed.url, QUIRE_DATA_DIR: dataDir });
  beforeAll(async () => {
    feed = await startFeedServer(
      jsonFeed([
        HOSTILE_ITEM,
        { id: 'plain', title: 'Plain', content_html: '<p>Hello</p>', date_modified: '2026-11-21T00:00:00+01:00' },
        { id: 'sneaky', url: 'javascript:alert(1)', title: 'Sneaky link' },
        { title: 'No id: dropped' },
      ]),
    );
    dataDir = await mkdtemp(join(tmpdir(), 'quire-announcements-'));
    s = await startServer(env());
    admin = (await claim(s)).authorization;
    otherAdmin = await addUser(s, admin, 'other@example.org', ['ADMIN']);
  });
  afterAll(async () => {
    await s.close();
    await feed.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is fetched in the background and served from the database, each item unread', async () => {
    const body = await waitForItems(s, admin, 3);
    expectSchema('JsonFeedDto', body);
    expect(body.title).toBe('Quire news');
    expect(body.items.map((i) => i.id)).toEqual([HOSTILE_ITEM.id, 'plain', 'sneaky']);
    expect(body.items.every((i) => !i._komga.read)).toBe(true);
    // Dates normalised to UTC (version 1.1's date_published stands in for a missing date_modified).
    expect(body.items.map((i) => (i as { date_modified?: string }).date_modified)).toEqual([
      '2026-11-20T10:00:00.000Z',
      '2026-11-20T23:00:00.000Z',
      undefined,
    ]);
    // The HTML is kept as the feed wrote it (the web client sanitises it); a link that is not http(s) is not.
    expect(body.items[0]!.content_html).toBe(HOSTILE_ITEM.content_html);
    expect(body.items[2]!.url).toBeUndefined();
    expect(feed.requests).toBe(1);
  });

  it('PUT marks items read for the caller only; unknown ids are ignored', async () => {
    const res = await s.fetch('/api/v1/announcements', {
      method: 'PUT',
      headers: { authorization: admin },
      json: ['plain', 'plain', 'not-in-the-feed'],
    });
    expect(res.status).toBe(204);
    const mine = await announcements(s, admin);
    expect(mine.items.map((i) => i._komga.read)).toEqual([false, true, false]);
    const theirs = await announcements(s, otherAdmin);
    expect(theirs.items.map((i) => i._komga.read)).toEqual([false, false, false]);
    const rows = await s.app.deps.db.selectFrom('announcement_read').selectAll().execute();
    expect(rows.map((r) => r.item_id)).toEqual(['plain']);
  });

  it('is still served, read flags included, with the feed server gone and after a restart', async () => {
    await feed.close();
    const started = Date.now();
    expect((await announcements(s, admin)).items).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(2000);
    await s.close();
    s = await startServer(env());
    const body = await announcements(s, admin);
    expect(body.items.map((i) => [i.id, i._komga.read])).toEqual([
      [HOSTILE_ITEM.id, false],
      ['plain', true],
      ['sneaky', false],
    ]);
  });
});

describe('a hostile feed', () => {
  const servers: TestServer[] = [];
  const feeds: FeedServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const f of feeds) await f.close();
  });

  async function serve(answer: Parameters<typeof startFeedServer>[0], env: Record<string, string> = {}) {
    const feed = await startFeedServer(answer);
    feeds.push(feed);
    const s = await startServer({ QUIRE_ANNOUNCEMENTS_URL: feed.url, ...env });
    servers.push(s);
    return { feed, s, admin: (await claim(s)).authorization };
  }

  it('that never finishes is abandoned at the timeout, and requests answer meanwhile', async () => {
    let asked!: () => void;
    const fetching = new Promise<void>((resolve) => (asked = resolve));
    const { feed, s, admin } = await serve(
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"version":"https://jsonfeed.org/version/1","items":[');
        asked();
        // …and nothing more.
      },
      { QUIRE_ANNOUNCEMENTS_TIMEOUT_SECONDS: '4' },
    );
    await fetching;
    const started = Date.now();
    expect((await announcements(s, admin)).items).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
    const log = await waitForLog(s, 'no complete answer within 4000 ms');
    expect(log).toContain('no complete answer within 4000 ms');
    expect(feed.requests).toBe(1);
  });

  it('bigger than the limit is refused, whether it says so or not', async () => {
    const big = JSON.stringify(jsonFeed([{ id: 'x', content_html: 'x'.repeat(200_000) }]));
    const declared = await serve((res) => res.writeHead(200, { 'content-length': String(big.length) }).end(big), {
      QUIRE_ANNOUNCEMENTS_MAX_KB: '64',
    });
    expect(await waitForLog(declared.s, 'bigger than 65536 bytes (')).toContain('bigger than 65536 bytes (');

    const streamed = await serve(
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        // 8 MiB in chunks, no length announced: reading must stop at the limit.
        const chunk = 'x'.repeat(64 * 1024);
        let sent = 0;
        const more = () => {
          while (sent < 128) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
      },
      { QUIRE_ANNOUNCEMENTS_MAX_KB: '64' },
    );
    expect(await waitForLog(streamed.s, 'bigger than 65536 bytes"')).toContain('bigger than 65536 bytes"');
    expect((await announcements(streamed.s, streamed.admin)).items).toEqual([]);
  });

  it('that is not a JSON Feed is refused, and the last good copy stays', async () => {
    const { feed, s, admin } = await serve(jsonFeed([{ id: 'good', title: 'Good' }]), {
      QUIRE_ANNOUNCEMENTS_REFRESH_MINUTES: '0.005', // every 300 ms
    });
    expect((await waitForItems(s, admin, 1)).items[0]!.id).toBe('good');
    feed.answer((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><script>alert(1)</script>'));
    expect(await waitForLog(s, 'not JSON')).toContain('not JSON');
    feed.answer({ version: 'https://jsonfeed.org/version/1', items: 'none' });
    expect(await waitForLog(s, 'no items')).toContain('no items');
    feed.answer((res) => res.writeHead(500).end());
    expect(await waitForLog(s, 'answered 500')).toContain('answered 500');
    expect((await announcements(s, admin)).items.map((i) => i.id)).toEqual(['good']);
  });
});

describe('several instances on one database', () => {
  it('fetch the feed once per period between them', async () => {
    const feed = await startFeedServer(jsonFeed([{ id: 'one', title: 'One' }]));
    const dataDir = await mkdtemp(join(tmpdir(), 'quire-announcements-'));
    const env = { QUIRE_ANNOUNCEMENTS_URL: feed.url, QUIRE_DATA_DIR: dataDir };
    const first = await startServer(env);
    const second = await startServer(env);
    try {
      const admin = (await claim(first)).authorization;
      expect((await waitForItems(second, admin, 1)).items[0]!.id).toBe('one');
      await new Promise((r) => setTimeout(r, 500));
      expect(feed.requests).toBe(1);
    } finally {
      await first.close();
      await second.close();
      await feed.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

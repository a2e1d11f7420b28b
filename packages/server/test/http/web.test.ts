import { get } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim, startServer, type TestServer } from '../support/server.js';
import { injectBase } from '../../src/http/routes/web.js';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Quire</title>
    <script type="module" crossorigin src="./assets/index-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

/** A fake build of the web client, as vite lays it out. */
async function fakeWebDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-web-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), INDEX);
  await writeFile(join(dir, 'assets/index-abc123.js'), 'console.log("quire");\n');
  await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // A bundle the build pre-compressed, as packages/web/vite.config.ts does.
  await writeFile(join(dir, 'assets/vendor-def456.js'), VENDOR);
  await writeFile(join(dir, 'assets/vendor-def456.js.br'), brotliCompressSync(VENDOR));
  await writeFile(join(dir, 'assets/vendor-def456.js.gz'), gzipSync(VENDOR));
  return dir;
}

const VENDOR = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word${i % 50}`))};\n`;

/** The raw answer to a GET, bytes as sent (fetch would decode them). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe('the web client', () => {
  let s: TestServer;
  let webDir: string;
  beforeAll(async () => {
    webDir = await fakeWebDir();
    s = await startServer({ QUIRE_WEB_DIR: webDir });
  });
  afterAll(async () => {
    await s.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it.each(['/', '/index.html', '/series/0F9A', '/book/abc/read?page=3', '/login'])(
    'serves index.html with a base element for %s',
    async (path) => {
      const res = await s.fetch(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const html = await res.text();
      expect(html).toContain('<head>\n    <base href="/">');
      expect(html).toContain('src="./assets/index-abc123.js"');
    },
  );

  it('caches hashed assets for a year and other files not at all', async () => {
    const asset = await s.fetch('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log("quire");\n');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const icon = await s.fetch('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it("sends the build's brotli or gzip file to a browser that accepts it, and the plain file otherwise", async () => {
    const url = `${s.url}/assets/vendor-def456.js`;
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.length).toBeLessThan(VENDOR.length / 5);
    expect(brotliDecompressSync(br.body).toString()).toBe(VENDOR);

    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(VENDOR);

    const plain = await rawGet(url, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(VENDOR);
  });

  it('answers 404, not the index, for a missing hashed asset', async () => {
    const res = await s.fetch('/assets/index-old999.js');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('<base');
  });

  it('does not leak the index or the files outside the web directory', async () => {
    const res = await s.fetch('/..%2f..%2fetc%2fpasswd');
    expect(await res.text()).not.toContain('root:');
  });
});

describe('without a built web client', () => {
  it('answers 503 text for client routes, and API paths still work', async () => {
    const s = await startServer({ QUIRE_WEB_DIR: join(tmpdir(), `quire-no-web-${Date.now()}`) });
    try {
      const res = await s.fetch('/series/123');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toContain('npm run build');
      expect((await s.fetch('/api/v1/claim')).status).toBe(200);
      expect((await s.fetch('/api/v1/nope')).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});

describe('HTTP caching of API responses (api.md §1.7)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('gives a GET a strong ETag and the default Cache-Control, and answers 304 to If-None-Match', async () => {
    const first = await s.fetch('/api/v1/claim');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"0[0-9a-f]{32}"$/);
    expect(first.headers.get('cache-control')).toBe('max-age=0, must-revalidate, private');
    const body = await first.text();

    const again = await s.fetch('/api/v1/claim', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    const listed = await s.fetch('/api/v1/claim', { headers: { 'if-none-match': `"0abc", W/${etag}` } });
    expect(listed.status).toBe(304);

    const stale = await s.fetch('/api/v1/claim', { headers: { 'if-none-match': '"0deadbeef"' } });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(body);
  });

  it('changes the ETag when the body changes', async () => {
    const before = (await s.fetch('/api/v1/claim')).headers.get('etag');
    const admin = await claim(s);
    const after = await s.fetch('/api/v1/claim');
    expect(await after.json()).toEqual({ isClaimed: true });
    expect(after.headers.get('etag')).not.toBe(before);

    const settings = await s.fetch('/api/v1/settings', { headers: { authorization: admin.authorization } });
    const etag = settings.headers.get('etag')!;
    const cached = await s.fetch('/api/v1/settings', {
      headers: { authorization: admin.authorization, 'if-none-match': etag },
    });
    expect(cached.status).toBe(304);
    await s.fetch('/api/v1/settings', {
      method: 'PATCH',
      headers: { authorization: admin.authorization },
      json: { taskPoolSize: 3 },
    });
    const changed = await s.fetch('/api/v1/settings', {
      headers: { authorization: admin.authorization, 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
  });

  it('puts no ETag on errors nor outside /api, /opds and /kobo', async () => {
    const missing = await s.fetch('/api/v1/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
    expect(missing.headers.get('cache-control')).toBe('max-age=0, must-revalidate, private');

    const health = await s.fetch('/actuator/health');
    expect(health.headers.get('etag')).toBeNull();
    expect(health.headers.get('cache-control')).toBeNull();
  });
});

describe('injectBase', () => {
  it('replaces a base element the build carries and escapes the path', () => {
    const html = '<html><head data-x="1"><base href="./"><title>t</title></head></html>';
    expect(injectBase(html, '/a"b')).toBe(
      '<html><head data-x="1">\n    <base href="/a&quot;b/"><title>t</title></head></html>',
    );
  });
  it('prepends the element when there is no head', () => {
    expect(injectBase('<p>hi</p>', '')).toBe('<base href="/">\n<p>hi</p>');
  });
});

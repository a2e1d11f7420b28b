import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { makeLibrary, makeSeriesWithBooks } from '../support/factories.js';
import { fixture } from '../support/fixtures.js';

/** The web client as `vite build` writes it with `html.cspNonce` (packages/web/vite.config.ts). */
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Quire</title>
    <meta property="csp-nonce" nonce="QUIRE_CSP_NONCE">
    <script type="module" crossorigin src="./assets/index-abc123.js" nonce="QUIRE_CSP_NONCE"></script>
    <link rel="modulepreload" crossorigin href="./assets/chunk-def456.js" nonce="QUIRE_CSP_NONCE">
  </head>
  <body><div id="root"></div></body>
</html>
`;

let s: TestServer;
let webDir: string;
let admin: string;
let reader: string;
let bookId: string;

beforeAll(async () => {
  webDir = await mkdtemp(join(tmpdir(), 'quire-web-'));
  await mkdir(join(webDir, 'assets'));
  await writeFile(join(webDir, 'index.html'), INDEX);
  await writeFile(join(webDir, 'assets/index-abc123.js'), 'console.log("quire");\n');
  s = await startServer({ QUIRE_WEB_DIR: webDir });
  admin = (await claim(s)).authorization;
  const created = await s.fetch('/api/v2/users', {
    method: 'POST',
    headers: { authorization: admin },
    json: { email: 'reader@example.org', password: 'reader-secret' },
  });
  expect(created.status).toBe(201);
  reader = basic('reader@example.org', 'reader-secret');
  const db = s.app.deps.db;
  const library = await makeLibrary(db, { name: 'Comics' });
  bookId = (await makeSeriesWithBooks(db, library, [fixture('archives/Captain Science #001.cbz')])).bookIds[0]!;
  await s.app.deps.books.analyzer.analyzeAndPersist(bookId);
}, 60_000);

afterAll(async () => {
  await s.close();
  await rm(webDir, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (policy ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

/** The headers every answer carries, whatever it is. */
function expectSecurityHeaders(res: Response) {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
  return csp;
}

const get = (path: string, headers: Record<string, string> = {}) => s.fetch(path, { headers });

describe('security headers (OWASP ASVS V14.4) on every kind of answer', () => {
  it.each([
    ['API JSON', '/api/v2/users/me', 'admin', 200],
    ['a 401', '/api/v2/users/me', null, 401],
    ['a 403', '/api/v2/users', 'reader', 403],
    ['an unknown API path', '/api/v1/nothing-here', 'admin', 404],
    ['a validation error', '/api/v1/books?size=abc', 'admin', 400],
    ['a malformed address', '/api/v1/books/%E0%A4%A', 'admin', 400],
    ['a path outside the server', '/api/v1/books/..%2F..%2Fetc', 'admin', 404],
    ['the health check', '/actuator/health', null, 200],
    ['the claim status', '/api/v1/claim', null, 200],
  ] as const)('%s', async (_kind, path, who, code) => {
    const res = await get(path, who === null ? {} : { authorization: who === 'admin' ? admin : reader });
    await res.arrayBuffer();
    expect(res.status).toBe(code);
    const csp = expectSecurityHeaders(res);
    // Opened on its own, an API answer can load and run nothing.
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.has('sandbox')).toBe(true);
  });

  it('a 304', async () => {
    const first = await get('/api/v2/users/me', { authorization: admin });
    await first.arrayBuffer();
    const res = await get('/api/v2/users/me', { authorization: admin, 'if-none-match': first.headers.get('etag')! });
    expect(res.status).toBe(304);
    expectSecurityHeaders(res);
  });

  it('page images, posters and downloads', async () => {
    for (const path of [
      `/api/v1/books/${bookId}/pages/1`,
      `/api/v1/books/${bookId}/pages/1?convert=png`,
      `/api/v1/books/${bookId}/pages/1/thumbnail`,
      `/api/v1/books/${bookId}/file`,
    ]) {
      const res = await get(path, { authorization: admin });
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
      expect(expectSecurityHeaders(res).get('default-src'), path).toEqual(["'none'"]);
    }
  });

  it('the event stream', async () => {
    const controller = new AbortController();
    const res = await s.fetch('/sse/v1/events', { headers: { authorization: admin }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expectSecurityHeaders(res);
    controller.abort();
  });

  it("the web client's scripts", async () => {
    const res = await get('/assets/index-abc123.js');
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
  });

  it('the web client page: scripts only with a fresh nonce, no inline script, styles may be inline', async () => {
    const nonces = new Set<string>();
    for (const path of ['/', '/login', '/book/ABC/read-epub']) {
      const res = await get(path);
      const html = await res.text();
      expect(res.status).toBe(200);
      const csp = expectSecurityHeaders(res);
      const scripts = csp.get('script-src') ?? [];
      const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(scripts.find((v) => v.startsWith("'nonce-")) ?? '')?.[1];
      expect(nonce).toBeTruthy();
      nonces.add(nonce!);
      // Only the page's own scripts (with the nonce) and the blob: scripts of the EPUB reader's frames: no
      // inline script, no other URL of this server (a book's files are on it).
      expect(scripts.sort()).toEqual([`'nonce-${nonce}'`, 'blob:'].sort());
      expect(html).not.toContain('QUIRE_CSP_NONCE');
      expect(html.match(/nonce="([^"]+)"/g)).toEqual(Array(3).fill(`nonce="${nonce}"`));
      expect(csp.get('style-src')).toContain("'unsafe-inline'");
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('frame-src')).toEqual(['blob:']);
      expect(csp.has('sandbox')).toBe(false);
    }
    expect(nonces.size).toBe(3);
  });
});

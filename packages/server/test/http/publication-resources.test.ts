import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { makeLibrary, makeSeriesWithBooks } from '../support/factories.js';
import { HOSTILE_FONT, HOSTILE_SVG, hostileEpub } from '../support/hostile-epub.js';

/**
 * What a book's author puts in an EPUB reaches browsers through `/books/{id}/resource/**`: served so that nothing
 * in it runs on the server's origin, and only to those allowed to see the book (fonts excepted).
 */
let s: TestServer;
let dir: string;
let bookId: string;
let admin: string;
let reader: string;
let ageExcluded: string;

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-resources-'));
  await mkdir(join(dir, 'Books', 'Hostile'), { recursive: true });
  const file = join(dir, 'Books', 'Hostile', 'The Hostile Harbour.epub');
  await writeFile(file, hostileEpub());
  const db = s.app.deps.db;
  const library = await makeLibrary(db, { name: 'Books', root: join(dir, 'Books') });
  bookId = (await makeSeriesWithBooks(db, library, [file], { title: 'Hostile', ageRating: 18 })).bookIds[0]!;
  await s.app.deps.books.analyzer.analyzeAndPersist(bookId);

  const create = async (email: string, body: Record<string, unknown> = {}) => {
    const res = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: admin },
      json: { email, password: 'secret-pw', ...body },
    });
    expect(res.status).toBe(201);
    return basic(email, 'secret-pw');
  };
  reader = await create('reader@example.org');
  ageExcluded = await create('young@example.org', { ageRestriction: { age: 16, restriction: 'EXCLUDE' } });
}, 60_000);

afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

const resource = (path: string, authorization?: string) =>
  s.fetch(`/api/v1/books/${bookId}/resource/${path}`, { headers: authorization ? { authorization } : {} });

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (policy ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

/** The reference's policy (api.md §2.8) and a sandbox: nothing in the answer runs, on any origin. */
function expectInert(res: Response) {
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('script-src')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  // A sandbox without tokens: no script, no form, no plugin, and an opaque origin.
  expect(csp.get('sandbox')).toEqual([]);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('EPUB resources', () => {
  it("serve the book's documents with a policy that runs none of their scripts", async () => {
    const res = await resource('OEBPS/chapter1.xhtml', reader);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xhtml\+xml/);
    expect(await res.text()).toContain('<script');
    expectInert(res);
  });

  it('serve an SVG only to those who may see the book, inert', async () => {
    const anonymous = await resource('OEBPS/images/evil.svg');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('<svg');

    const hidden = await resource('OEBPS/images/evil.svg', ageExcluded);
    expect(hidden.status).toBe(403);
    expect(await hidden.text()).not.toContain('<svg');

    const allowed = await resource('OEBPS/images/evil.svg', reader);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await allowed.text()).toBe(HOSTILE_SVG);
    expectInert(allowed);
  });

  it("keep fonts public (a reader's CSS loads them without credentials), always as fonts", async () => {
    for (const who of [undefined, ageExcluded]) {
      const res = await resource('OEBPS/fonts/serif.woff', who);
      expect(res.status).toBe(200);
      // The book declares application/font-woff; a public answer is only ever a font.
      expect(res.headers.get('content-type')).toBe('font/woff');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(HOSTILE_FONT);
      expectInert(res);
    }
  });

  it('refuse anything else anonymously, and to those who may not see the book', async () => {
    for (const path of ['OEBPS/chapter1.xhtml', 'OEBPS/evil.js', 'OEBPS/style.css', 'OEBPS/font.constructor']) {
      const anonymous = await resource(path);
      await anonymous.arrayBuffer();
      expect(anonymous.status, path).toBe(401);
      const hidden = await resource(path, ageExcluded);
      await hidden.arrayBuffer();
      expect(hidden.status, path).toBe(403);
    }
  });
});

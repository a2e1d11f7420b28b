import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim, startServer, type TestServer } from '../support/server.js';

/**
 * What the README says is not built yet answers 404 (no stub a client could mistake for the feature), and the README
 * says so: when one of these lands, its test and the README line change together.
 */
const readme = readFileSync(join(import.meta.dirname, '../../../../README.md'), 'utf8').replace(/\s+/g, ' ');
const notBuilt = readme.slice(readme.indexOf('Not built yet'), readme.indexOf('Additions of Quire'));

const paths: [readmeMention: string, path: string][] = [
  ['`/opds/v1.2`', '/opds/v1.2/catalog'],
  ['`/kobo`', '/kobo/0123456789/v1/initialization'],
];

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
});
afterAll(() => s.close());

describe('paths the README lists as not built', () => {
  it.each(paths)('%s: %s answers a JSON 404 to an admin', async (mention, path) => {
    expect(notBuilt).toContain(mention);
    const res = await s.fetch(path, { headers: { authorization: admin } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('the README promises no OPDS 1.2 client works today (OPDS 2 is built: test/opds2)', () => {
    const intro = readme.slice(0, readme.indexOf('## Quick start'));
    expect(intro).not.toMatch(/KOReader and other OPDS 1 readers\) work/);
    expect(intro).toMatch(/OPDS 1\.2 \(for KOReader and other OPDS 1 readers\) and Kobo sync are not built/);
  });
});

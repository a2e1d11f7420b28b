import { createRequire } from 'node:module';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim, startServer, type TestServer } from '../support/server.js';
import { byteRange } from '../../src/http/routes/fonts.js';

/** Real font bytes, from the package the server serves OpenDyslexic from. */
const packageFiles = join(
  dirname(createRequire(import.meta.url).resolve('@fontsource/opendyslexic/package.json')),
  'files',
);
const fontBytes = (file: string) => readFile(join(packageFiles, file));

describe('EPUB reader fonts over HTTP', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  let regular: Buffer;
  const get = (path: string, headers: Record<string, string> = {}) => s.fetch(path, { headers });
  const authed = (path: string) => get(path, { Authorization: admin.authorization });

  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    regular = await fontBytes('opendyslexic-latin-400-normal.woff2');
    const fonts = join(s.dataDir, 'fonts');
    const family = join(fonts, 'Atkinson Hyperlegible');
    await mkdir(family, { recursive: true });
    await writeFile(join(family, 'Atkinson-Regular.woff2'), regular);
    await writeFile(join(family, 'Atkinson-BoldItalic.woff'), await fontBytes('opendyslexic-latin-700-italic.woff'));
    await writeFile(join(family, "Atkinson-Italic (it's).ttf"), Buffer.from('ttf bytes'));
    await writeFile(join(family, 'notes.txt'), 'not a font');
    await writeFile(join(family, '.hidden.otf'), 'hidden');
    // A font name pointing out of its family folder, and one out of the fonts folder.
    await writeFile(join(fonts, 'stray.otf'), 'outside any family');
    await symlink(join(fonts, 'stray.otf'), join(family, 'escape.otf'));
    await writeFile(join(s.dataDir, 'secret.ttf'), 'secret');
    await symlink(join(s.dataDir, 'secret.ttf'), join(family, 'secret.ttf'));
    // A family folder that is a link out of the fonts folder, and folders without fonts.
    const elsewhere = join(s.dataDir, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'Far.woff2'), regular);
    await symlink(elsewhere, join(fonts, 'Linked'));
    await mkdir(join(fonts, 'Empty'));
    await mkdir(join(fonts, '.cache'));
    await writeFile(join(fonts, '.cache', 'x.woff2'), regular);
    await mkdir(join(fonts, 'mono'));
    await writeFile(join(fonts, 'mono', 'Mono.otf'), 'otf bytes');
  });
  afterAll(() => s.close());

  it('lists OpenDyslexic first, then each folder holding fonts', async () => {
    const res = await authed('/api/v1/fonts/families');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(['OpenDyslexic', 'Atkinson Hyperlegible', 'mono']);
  });

  it('asks for credentials for the families', async () => {
    const res = await get('/api/v1/fonts/families');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ status: 401, path: '/api/v1/fonts/families' });
  });

  it('describes a family in CSS, one @font-face per file, without credentials', async () => {
    const res = await get('/api/v1/fonts/resource/Atkinson%20Hyperlegible/css');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/css/);
    expect(res.headers.get('cache-control')).toBe('max-age=0, must-revalidate, private');
    expect(res.headers.get('etag')).toMatch(/^"0[0-9a-f]{32}"$/);
    const css = await res.text();
    const blocks = css.split('@font-face').slice(1);
    expect(blocks).toHaveLength(3);
    expect(css).toContain(`@font-face {
  font-family: "Atkinson Hyperlegible";
  src: url('Atkinson-BoldItalic.woff') format('woff');
  font-weight: bold;
  font-style: italic;
}`);
    expect(css).toContain(`src: url('Atkinson-Italic%20%28it%27s%29.ttf') format('truetype');
  font-weight: normal;
  font-style: italic;`);
    expect(css).toContain(`src: url('Atkinson-Regular.woff2') format('woff2');
  font-weight: normal;
  font-style: normal;`);
    for (const left of ['notes.txt', 'hidden', 'escape', 'secret']) expect(css).not.toContain(left);
  });

  it('serves the embedded OpenDyslexic family with its four faces', async () => {
    const css = await (await get('/api/v1/fonts/resource/OpenDyslexic/css')).text();
    expect(css.match(/@font-face/g)).toHaveLength(4);
    expect(css).toContain(`src: url('OpenDyslexic-BoldItalic.woff2') format('woff2');
  font-weight: bold;
  font-style: italic;`);
    const res = await get('/api/v1/fonts/resource/OpenDyslexic/OpenDyslexic-Regular.woff2');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/woff2');
    expect(Buffer.from(await res.arrayBuffer()).equals(regular)).toBe(true);
  });

  it('serves a font file with its type, as an attachment, without credentials', async () => {
    const res = await get('/api/v1/fonts/resource/Atkinson%20Hyperlegible/Atkinson-Regular.woff2');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/woff2');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="Atkinson-Regular.woff2"/);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await res.arrayBuffer()).equals(regular)).toBe(true);

    const ttf = await get(
      `/api/v1/fonts/resource/Atkinson%20Hyperlegible/${encodeURIComponent("Atkinson-Italic (it's).ttf")}`,
    );
    expect(ttf.headers.get('content-type')).toBe('font/ttf');
    expect(await ttf.text()).toBe('ttf bytes');
    const otf = await get('/api/v1/fonts/resource/mono/Mono.otf');
    expect(otf.headers.get('content-type')).toBe('font/otf');
    const woff = await get('/api/v1/fonts/resource/Atkinson%20Hyperlegible/Atkinson-BoldItalic.woff');
    expect(woff.headers.get('content-type')).toBe('font/woff');
  });

  it('answers If-None-Match and byte ranges', async () => {
    const path = '/api/v1/fonts/resource/Atkinson%20Hyperlegible/Atkinson-Regular.woff2';
    const etag = (await get(path)).headers.get('etag')!;
    expect((await get(path, { 'If-None-Match': etag })).status).toBe(304);

    const part = await get(path, { Range: 'bytes=4-11' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-11/${regular.length}`);
    expect(part.headers.get('etag')).toBe(etag);
    expect(Buffer.from(await part.arrayBuffer()).equals(regular.subarray(4, 12))).toBe(true);

    const beyond = await get(path, { Range: `bytes=${regular.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${regular.length}`);
  });

  it('refuses names that leave the family folder, and unknown families or files, with a JSON 404', async () => {
    const refused = [
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/notes.txt',
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/.hidden.otf',
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/escape.otf',
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/secret.ttf',
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/..%2Fstray.otf',
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/..%2F..%2Fsecret.ttf',
      `/api/v1/fonts/resource/Atkinson%20Hyperlegible/${encodeURIComponent(join(s.dataDir, 'secret.ttf'))}`,
      '/api/v1/fonts/resource/..%2Felsewhere/Far.woff2',
      '/api/v1/fonts/resource/Linked/Far.woff2',
      '/api/v1/fonts/resource/Linked/css',
      '/api/v1/fonts/resource/.cache/x.woff2',
      '/api/v1/fonts/resource/..%2F..%2F/secret.ttf',
      '/api/v1/fonts/resource/..%2Ffonts/stray.otf',
      '/api/v1/fonts/resource/Empty/css',
      '/api/v1/fonts/resource/Nobody/css',
      '/api/v1/fonts/resource/OpenDyslexic/opendyslexic-latin-400-normal.woff2',
      '/api/v1/fonts/resource/atkinson%20hyperlegible/Atkinson-Regular.woff2',
    ];
    for (const path of refused) {
      const res = await get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ status: 404, error: 'Not Found' });
    }
    const families = await (await authed('/api/v1/fonts/families')).json();
    expect(families).not.toContain('Linked');
    expect(families).not.toContain('Empty');
  });
});

describe('byteRange', () => {
  it('reads one range of a 100-byte body', () => {
    expect(byteRange(undefined, 100)).toBeNull();
    expect(byteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(byteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(byteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=9-2', 100)).toBeNull();
    expect(byteRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(byteRange('items=0-1', 100)).toBeNull();
  });
});

import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../support/fixtures.js';
import { buildLibrary, makeImage, zipBuffer } from '../support/library-builder.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { essence, KOREADER_HEADERS, parseFeed, REL_STREAM, type ParsedFeed, type ParsedLink } from './feeds.js';

/**
 * OPDS 1.2 (api.md §7.1) through the real server, as KOReader and Thorium read it: a scanned library of real files
 * (a CBZ of JPEG, PNG and WebP pages, a CBZ of JPEG pages only, a PDF, and a series hidden from the reader by a
 * sharing label), every feed parsed by r2-opds-js, every link followed with KOReader's headers (HEAD, then GET).
 */

let s: TestServer;
let dir: string;
let admin: string;
let reader: string;
let noRoles: string;
const ids: Record<string, string> = {};

async function settled(timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < 3) {
    quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
    if (Date.now() > until) throw new Error('Timed out waiting for the task queue');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const api = (authorization: string, path: string, init: RequestInit & { json?: unknown } = {}) =>
  s.fetch(path, { ...init, headers: { authorization, ...(init.headers as Record<string, string>) } });

/** A feed as KOReader fetches it: HEAD, then GET, with its headers; 200 typed Atom and not compressed. */
async function feed(authorization: string, url: string): Promise<ParsedFeed> {
  const headers = { ...KOREADER_HEADERS, authorization };
  const head = await fetch(url, { method: 'HEAD', headers });
  expect(head.status, `HEAD ${url}`).toBe(200);
  const res = await fetch(url, { headers });
  const body = await res.text();
  expect(res.status, `GET ${url}: ${body}`).toBe(200);
  expect(essence(res.headers.get('content-type'))).toBe('application/atom+xml');
  expect(res.headers.get('content-encoding')).toBeNull();
  return parseFeed(body);
}

const url = (path: string) => `${s.url}/opds/v1.2/${path}`;
const entryIds = (f: ParsedFeed) => f.entries.map((e) => e.id);
const linkOf = (links: ParsedLink[], rel: string) => links.find((l) => l.rel === rel);

/** Every entry of a paged feed, following `next` links as KOReader's "load more" does. */
async function allEntries(authorization: string, first: string) {
  const out: ParsedFeed['entries'] = [];
  let next: string | undefined = first;
  for (let guard = 0; next && guard < 50; guard++) {
    const f = await feed(authorization, next);
    out.push(...f.entries);
    next = linkOf(f.links, 'next')?.href;
  }
  return out;
}

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-opds1-'));
  const jpegs = await Promise.all([1, 2].map((i) => makeImage('jpeg', i)));
  await buildLibrary(dir, {
    'Alpha & Omega/Alpha 01.cbz': { pages: 3, seed: 1 },
    'Alpha & Omega/Alpha 02.cbz': zipBuffer(jpegs.map((data, i) => ({ name: `${i + 1}.jpg`, data }))),
    'Secret/Secret 01.cbz': { pages: 2, seed: 5 },
  });
  await mkdir(join(dir, 'Docs'), { recursive: true });
  await copyFile(fixture('pdf/two_pages.pdf'), join(dir, 'Docs', 'two_pages.pdf'));
  await writeFile(join(dir, 'notes.txt'), 'not a book');

  const library = await api(admin, '/api/v1/libraries', { method: 'POST', json: { name: 'Comics <&>', root: dir } });
  expect(library.status).toBe(200);
  ids.library = ((await library.json()) as { id: string }).id;
  await settled();

  const books = await s.app.deps.db.selectFrom('book').select(['id', 'name', 'series_id']).execute();
  for (const b of books) {
    ids[b.name] = b.id;
    ids[`series:${b.name}`] = b.series_id;
  }
  const patch = (seriesId: string, json: unknown) =>
    api(admin, `/api/v1/series/${seriesId}/metadata`, { method: 'PATCH', json });
  expect((await patch(ids['series:Alpha 01']!, { publisher: 'Dark Horse & Co' })).status).toBe(204);
  expect((await patch(ids['series:Secret 01']!, { publisher: 'Hidden Press', sharingLabels: ['secret'] })).status).toBe(
    204,
  );

  // A control character XML cannot carry (it came from a file's metadata): dropped, the rest escaped.
  expect((await patch(ids['series:two_pages']!, { title: 'Docs\u0001 <1>' })).status).toBe(204);
  const collection = await api(admin, '/api/v1/collections', {
    method: 'POST',
    json: { name: 'Best of', ordered: false, seriesIds: [ids['series:Alpha 01'], ids['series:Secret 01']] },
  });
  expect(collection.status).toBe(200);
  const readList = await api(admin, '/api/v1/readlists', {
    method: 'POST',
    json: { name: 'Crossover', ordered: true, bookIds: [ids['Secret 01'], ids['Alpha 02'], ids['Alpha 01']] },
  });
  expect(readList.status).toBe(200);

  const user = async (email: string, body: Record<string, unknown>) => {
    const res = await api(admin, '/api/v2/users', {
      method: 'POST',
      json: { email, password: 'reader-secret', ...body },
    });
    expect(res.status).toBe(201);
    return basic(email, 'reader-secret');
  };
  reader = await user('reader@example.org', { labelsExclude: ['secret'] });
  noRoles = await user('noroles@example.org', { roles: [] });
  expect(
    (await api(reader, `/api/v1/books/${ids['Alpha 01']}/read-progress`, { method: 'PATCH', json: { page: 2 } }))
      .status,
  ).toBe(204);
  expect(
    (await api(reader, `/api/v1/books/${ids['Secret 01']}/read-progress`, { method: 'PATCH', json: { page: 1 } }))
      .status,
  ).toBe(403);
  await settled();
}, 120_000);

afterAll(async () => {
  await s?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('authentication and content negotiation', () => {
  it('challenges a client without credentials, or with wrong ones, with Basic realm="Realm"', async () => {
    for (const authorization of [undefined, basic('reader@example.org', 'wrong')]) {
      const res = await fetch(url('catalog'), {
        headers: { ...KOREADER_HEADERS, ...(authorization ? { authorization } : {}) },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="Realm"');
    }
  });

  it('answers 406 to a client that accepts none of Atom, XML or text/xml, the OpenSearch document included', async () => {
    // Before anything is looked up, as Spring refuses it: an unknown series is a 406 too.
    for (const path of ['catalog', 'search', 'series', `series/${ids['series:Alpha 01']}`, 'series/NOPE']) {
      for (const accept of ['application/json', 'application/opds+json', 'text/html']) {
        const res = await api(reader, `/opds/v1.2/${path}`, { headers: { accept } });
        expect(res.status, `${path} ${accept}`).toBe(406);
      }
    }
    const xml = await api(reader, '/opds/v1.2/catalog', { headers: { accept: 'text/xml' } });
    expect(essence(xml.headers.get('content-type'))).toBe('text/xml');
    const none = await api(reader, '/opds/v1.2/catalog');
    expect(essence(none.headers.get('content-type'))).toBe('application/atom+xml');
  });

  it('takes an API key as the REST API does', async () => {
    const key = await api(admin, '/api/v2/users/me/api-keys', { method: 'POST', json: { comment: 'opds' } });
    const { key: value } = (await key.json()) as { key: string };
    const res = await fetch(url('catalog'), { headers: { 'x-api-key': value } });
    expect(res.status).toBe(200);
  });
});

describe('the catalog as an app crawls it', () => {
  it('parses every feed reachable from the catalog, and every link answers 200 with the type it declares', async () => {
    const feeds = new Set<string>();
    const others = new Map<string, string>();
    const queue = [url('catalog')];
    while (queue.length) {
      const next = queue.shift()!;
      if (feeds.has(next)) continue;
      feeds.add(next);
      const f = await feed(reader, next);
      for (const l of [...f.links, ...f.entries.flatMap((e) => e.links)]) {
        if (l.type.startsWith('application/atom+xml')) queue.push(l.href);
        else if (l.rel === REL_STREAM) {
          const count = Number(l.pse!.count);
          for (const n of [0, count - 1]) others.set(l.href.replace('{pageNumber}', String(n)), l.type);
        } else others.set(l.href, l.type);
      }
    }
    expect(feeds.size).toBeGreaterThan(12);
    expect([...others.values()]).toContain('application/opensearchdescription+xml');
    for (const [href, type] of others) {
      const headers = {
        'user-agent': KOREADER_HEADERS['user-agent'],
        'accept-encoding': 'identity',
        authorization: reader,
      };
      const head = await fetch(href, { method: 'HEAD', headers });
      expect(head.status, `HEAD ${href}`).toBe(200);
      const res = await fetch(href, { headers });
      expect(res.status, href).toBe(200);
      expect(essence(res.headers.get('content-type')), href).toBe(essence(type));
      expect((await res.arrayBuffer()).byteLength, href).toBeGreaterThan(0);
    }
  });

  it('lists a series as acquisition entries with the analysed type, thumbnails and page streaming', async () => {
    const f = await feed(reader, url(`series/${ids['series:Alpha 01']}`));
    expect(f.title).toBe('Alpha & Omega');
    expect(entryIds(f)).toEqual([ids['Alpha 01'], ids['Alpha 02']]);
    const [mixed, jpeg] = f.entries;
    expect(mixed!.title).toBe('Alpha 01');
    expect(mixed!.content).toMatch(/^cbz - \d+(\.\d)? KiB$/);
    const acquisition = linkOf(mixed!.links, 'http://opds-spec.org/acquisition')!;
    expect(acquisition.type).toBe('application/zip');
    expect(acquisition.href).toBe(url(`books/${ids['Alpha 01']}/file/Alpha%2001.cbz`));
    expect(linkOf(mixed!.links, 'http://opds-spec.org/image/thumbnail')!.href).toBe(
      url(`books/${ids['Alpha 01']}/thumbnail/small`),
    );
    // JPEG, PNG and WebP pages: streamed converted to JPEG. The reader is on page 2 (1-based, as stored).
    const mixedStream = linkOf(mixed!.links, REL_STREAM)!;
    expect(mixedStream).toMatchObject({
      type: 'image/jpeg',
      href: `${url(`books/${ids['Alpha 01']}/pages/{pageNumber}`)}?convert=jpeg`,
    });
    expect(mixedStream.pse!.count).toBe('3');
    expect(mixedStream.pse!.lastRead).toBe('2');
    expect(mixedStream.pse!.lastReadDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // JPEG pages only: streamed as they are; never read: no lastRead.
    const jpegStream = linkOf(jpeg!.links, REL_STREAM)!;
    expect(jpegStream).toMatchObject({ type: 'image/jpeg', href: url(`books/${ids['Alpha 02']}/pages/{pageNumber}`) });
    expect(jpegStream.pse).toEqual({ count: '2', lastRead: null, lastReadDate: null });

    const pdf = await feed(reader, url(`series/${ids['series:two_pages']}`));
    const pdfStream = linkOf(pdf.entries[0]!.links, REL_STREAM)!;
    expect(pdfStream).toMatchObject({ type: 'image/jpeg', href: url(`books/${ids.two_pages}/pages/{pageNumber}`) });
    expect(pdfStream.pse!.count).toBe('2');
    expect(linkOf(pdf.entries[0]!.links, 'http://opds-spec.org/acquisition')!.type).toBe('application/pdf');
  });

  it('streams pages 0-based: page {pageNumber}=0 is the first page, converted when asked', async () => {
    const first = await api(reader, `/opds/v1.2/books/${ids['Alpha 01']}/pages/0?convert=jpeg`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/jpeg');
    const rest = await api(reader, `/api/v1/books/${ids['Alpha 01']}/pages/1?convert=jpeg`);
    expect(Buffer.from(await first.arrayBuffer())).toEqual(Buffer.from(await rest.arrayBuffer()));
    const third = await api(reader, `/opds/v1.2/books/${ids['Alpha 01']}/pages/2`);
    expect(third.headers.get('content-type')).toBe('image/webp');
    expect((await api(reader, `/opds/v1.2/books/${ids['Alpha 01']}/pages/3`)).status).toBe(400);
  });

  it('pages a feed with next and previous links that keep the search', async () => {
    const first = await feed(reader, url('series?search=o&size=1'));
    expect(linkOf(first.links, 'previous')).toBeUndefined();
    const next = linkOf(first.links, 'next')!;
    expect(next.href).toBe(url('series?search=o&size=1&page=1'));
    const second = await feed(reader, next.href);
    expect(linkOf(second.links, 'previous')!.href).toBe(url('series?search=o&size=1'));
    const all = await allEntries(reader, url('series?search=o&size=1'));
    expect(all.map((e) => e.title)).toEqual(['Alpha & Omega', 'Docs <1>']);
  });

  it('searches series through the OpenSearch template, and filters them by publisher', async () => {
    const res = await api(reader, '/opds/v1.2/search', { headers: { accept: KOREADER_HEADERS.accept } });
    expect(res.status).toBe(200);
    const body = await res.text();
    const template = /template="([^"]+)"/.exec(body)![1]!.replaceAll('&amp;', '&');
    expect(template).toBe(`${url('series')}?search={searchTerms}`);
    // KOReader's util.urlEncode: everything but A-Za-z0-9-._~ as %XX.
    const found = await feed(reader, template.replace('{searchTerms}', encodeURIComponent('omega')));
    expect(found.title).toBe('Series search for: omega');
    expect(found.entries.map((e) => e.title)).toEqual(['Alpha & Omega']);

    const publishers = await feed(reader, url('publishers'));
    expect(publishers.entries.map((e) => e.title)).toEqual(['Dark Horse & Co']);
    expect(publishers.entries[0]!.id).toBe(`publisher:${encodeURIComponent('Dark Horse & Co')}`);
    const byPublisher = await feed(reader, linkOf(publishers.entries[0]!.links, 'subsection')!.href);
    expect(byPublisher.entries.map((e) => e.title)).toEqual(['Alpha & Omega']);
  });

  it('keeps reading and latest books with series-prefixed titles', async () => {
    const keep = await feed(reader, url('keep-reading'));
    expect(keep.entries.map((e) => e.title)).toEqual(['Alpha & Omega 1: Alpha 01']);
    const latest = await feed(reader, url('books/latest'));
    expect(latest.entries.map((e) => e.id).sort()).toEqual([ids['Alpha 01'], ids['Alpha 02'], ids.two_pages].sort());
  });
});

describe('restrictions and roles', () => {
  it('never shows a hidden series in a feed, a search, a count or a cover', async () => {
    const hiddenSeries = ids['series:Secret 01']!;
    const hiddenBook = ids['Secret 01']!;
    const everything = [
      ...(await allEntries(reader, url('series'))),
      ...(await allEntries(reader, url('series/latest'))),
      ...(await allEntries(reader, url('books/latest'))),
      ...(await allEntries(reader, url(`libraries/${ids.library}`))),
      ...(await allEntries(reader, url('series?search=secret'))),
      ...(await allEntries(reader, url('series?publisher=Hidden%20Press'))),
      ...(await allEntries(reader, url('publishers'))),
    ];
    expect(everything.map((e) => e.id)).not.toContain(hiddenSeries);
    expect(everything.map((e) => e.id)).not.toContain(hiddenBook);
    expect(everything.map((e) => e.title).join('|')).not.toMatch(/Secret|Hidden Press/);
    for (const path of [
      `series/${hiddenSeries}`,
      `books/${hiddenBook}/thumbnail`,
      `books/${hiddenBook}/thumbnail/small`,
      `books/${hiddenBook}/pages/0`,
      `books/${hiddenBook}/file/Secret%2001.cbz`,
    ]) {
      expect((await api(reader, `/opds/v1.2/${path}`)).status, path).toBe(403);
    }
    // The admin sees it, so the lists above would have shown it.
    expect((await allEntries(admin, url('series'))).map((e) => e.id)).toContain(hiddenSeries);
  });

  it('needs PAGE_STREAMING for pages and FILE_DOWNLOAD for files, not for feeds', async () => {
    const book = ids['Alpha 01']!;
    expect((await api(noRoles, `/opds/v1.2/series/${ids['series:Alpha 01']}`)).status).toBe(200);
    expect((await api(noRoles, `/opds/v1.2/books/${book}/pages/0`)).status).toBe(403);
    expect((await api(noRoles, `/opds/v1.2/books/${book}/file/Alpha%2001.cbz`)).status).toBe(403);
    const file = await api(reader, `/opds/v1.2/books/${book}/file/Alpha%2001.cbz`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/zip');
  });

  it('answers 404 for unknown series, libraries, collections and read lists', async () => {
    for (const path of [
      'series/NOPE',
      'libraries/NOPE',
      'collections/NOPE',
      'readlists/NOPE',
      'books/NOPE/thumbnail',
    ]) {
      expect((await api(reader, `/opds/v1.2/${path}`)).status, path).toBe(404);
    }
  });
});

import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, sharedPath } from '../support/fixtures.js';
import { buildLibrary } from '../support/library-builder.js';
import { absentProperties, responseProblems } from '../support/openapi.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

/**
 * Every GET of komga-openapi.json that answers JSON, called on a server holding a scanned library (comics, an EPUB,
 * a PDF), a collection, a read list, progress, an API key and a second user: each 200 answer must match the
 * response schema the contract declares, with every field Komga always sends (issue 12: "every field of every DTO
 * that Komga always sends"). The paths that answer something else are listed, with the reason.
 */

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: { type?: string } }> }> };
const spec = JSON.parse(readFileSync(sharedPath('reference/komga-openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

/** Paths whose GET answers no JSON here, and why. Everything else must answer 200 and match its schema. */
const NOT_200: Record<string, string> = {
  '/api/v1/books/{bookId}/previous': 'the first book of its series has none (404)',
  '/api/v1/readlists/{id}/books/{bookId}/previous': 'the first book of the list has none (404)',
  '/api/v1/books/{bookId}/positions': 'answered for EPUB and PDF books; checked on the EPUB below',
};

/**
 * DTOs that leave some properties out instead of sending null or an empty value, as Komga's do (api.md §1.2, §4.7);
 * and the announcements feed, answered in the shape of an offline Komga without a configured feed (README, API).
 */
const OMITTING = [
  'UserDto',
  'ClientSettingDto',
  'DirectoryListingDto',
  'WPPublicationDto',
  'WPMetadataDto',
  'WPLinkDto',
  'R2Locator',
  'JsonFeedDto',
];

let s: TestServer;
let dir: string;
let admin: string;
const ids: Record<string, string> = {};
/** The JSON answers of the writes made while building the library, by `METHOD path` of the contract. */
const written: [operation: string, body: unknown][] = [];

const get = (path: string) => s.fetch(path, { headers: { authorization: admin } });
/** A write as the admin; `operation` (`POST /api/v1/libraries`) keeps its JSON answer for the schema check. */
const send = async (method: string, path: string, json?: unknown, operation?: string) => {
  const res = await s.fetch(path, { method, headers: { authorization: admin }, json });
  expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
  const text = await res.text();
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (operation) written.push([`${operation} ${res.status}`, body]);
  return body;
};

async function settled(timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < 3) {
    quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
    if (Date.now() > until) throw new Error('Timed out waiting for the task queue');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-conformance-'));
  await buildLibrary(dir, {
    'Saga/Saga 01.cbz': {
      seed: 1,
      comicInfo: '<ComicInfo><Writer>Brian K. Vaughan</Writer><Tags>space</Tags></ComicInfo>',
    },
    'Saga/Saga 02.cbz': { seed: 2 },
  });
  await mkdir(join(dir, 'Novels'), { recursive: true });
  await copyFile(fixture('epub/TitleWithVolume.epub'), join(dir, 'Novels', 'Accel World 1.epub'));
  await mkdir(join(dir, 'Papers'), { recursive: true });
  await copyFile(fixture('pdf/multipage.pdf'), join(dir, 'Papers', 'Multipage.pdf'));
  ids.libraryId = (
    await send(
      'POST',
      '/api/v1/libraries',
      { name: 'Conformance', root: dir, hashPages: true },
      'post /api/v1/libraries',
    )
  ).id as string;
  await settled();

  const books = await s.app.deps.db.selectFrom('book').select(['id', 'name', 'series_id']).execute();
  const book = (name: string) => books.find((b) => b.name === name)!;
  ids.bookId = book('Saga 01').id;
  ids.seriesId = book('Saga 01').series_id;
  ids.epubId = book('Accel World 1').id;
  ids.pdfId = book('Multipage').id;

  // A known page hash (the first page of Saga 01), for the page-hash lists and matches.
  const hashed = await s.app.deps.db
    .selectFrom('media_page')
    .select('file_hash')
    .where('book_id', '=', ids.bookId)
    .where('number', '=', 0)
    .executeTakeFirstOrThrow();
  ids.pageHash = hashed.file_hash;
  expect(ids.pageHash).toMatch(/^[0-9a-f]{32}$/);
  await send('PUT', '/api/v1/page-hashes', { hash: ids.pageHash, action: 'IGNORE' });
  const collection = { name: 'Favourites', ordered: false, seriesIds: [ids.seriesId] };
  ids.collectionId = (await send('POST', '/api/v1/collections', collection, 'post /api/v1/collections')).id as string;
  const readList = { name: 'Reading order', bookIds: [ids.bookId, book('Saga 02').id] };
  ids.readListId = (await send('POST', '/api/v1/readlists', readList, 'post /api/v1/readlists')).id as string;
  await send('PATCH', `/api/v1/books/${ids.bookId}/read-progress`, { page: 2 });
  await send('PATCH', `/api/v1/books/${book('Saga 02').id}/read-progress`, { completed: true });
  const positions = (await send('GET', `/api/v1/books/${ids.epubId}/positions`)) as { positions: unknown[] };
  await send('PUT', `/api/v1/books/${ids.epubId}/progression`, {
    modified: new Date().toISOString(),
    device: { id: 'test', name: 'Conformance' },
    locator: positions.positions[1],
  });
  await send('POST', '/api/v2/users/me/api-keys', { comment: 'conformance' }, 'post /api/v2/users/me/api-keys');
  await send('POST', '/api/v1/books/list?unpaged=true', {}, 'post /api/v1/books/list');
  await send('POST', '/api/v1/series/list?unpaged=true', {}, 'post /api/v1/series/list');
  await send('POST', '/api/v1/series/list/alphabetical-groups', {}, 'post /api/v1/series/list/alphabetical-groups');
  await send('POST', '/api/v1/filesystem', { path: dir }, 'post /api/v1/filesystem');
  await send('PATCH', '/api/v1/client-settings/user', { 'webui.theme': { value: 'dark' } });
  await send('PATCH', '/api/v1/client-settings/global', { 'webui.poster': { value: 'big', allowUnauthorized: true } });
  const user = { email: 'reader@example.org', password: 'reader-secret' };
  ids.userId = (await send('POST', '/api/v2/users', user, 'post /api/v2/users')).id as string;
  // The reader logs in once, so that his latest authentication activity exists.
  expect(
    (await s.fetch('/api/v2/users/me', { headers: { authorization: basic(user.email, user.password) } })).status,
  ).toBe(200);
  await settled();
}, 180_000);

afterAll(async () => {
  await s?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The JSON GETs of the contract, with their 200 schema. */
const jsonGets = Object.entries(spec.paths).flatMap(([path, ops]) => {
  const content = ops.get?.responses?.['200']?.content ?? {};
  const json = Object.entries(content).find(([type]) => /json/.test(type));
  const schema = json?.[1].schema;
  const binary = !schema || schema.type === 'string' || JSON.stringify(schema).includes('StreamingResponseBody');
  return binary ? [] : [path];
});

/** A path of the contract with its parameters filled from the library built above. */
function concrete(path: string): string {
  const id = path.startsWith('/api/v1/collections') ? ids.collectionId : ids.readListId;
  const userId = path.startsWith('/api/v2/users') ? ids.userId : id;
  return path
    .replace('{bookId}', ids.bookId!)
    .replace('{seriesId}', ids.seriesId!)
    .replace('{libraryId}', ids.libraryId!)
    .replace('{id}', userId!)
    .replace('{pageHash}', ids.pageHash!)
    .replace(/\/manifest\/epub$/, '')
    .concat('');
}

describe('every JSON answer of the contract', () => {
  it('covers the paths it should, with a check that can fail', () => {
    expect(jsonGets.length).toBeGreaterThanOrEqual(80);
    expect(responseProblems('/api/v1/books/{bookId}', 'get', { id: 'x' })).toContain(
      " must have required property 'seriesId'",
    );
    const activity = { content: [{ success: true, dateTime: '2024-01-01T00:00:00Z' }] };
    expect(absentProperties('/api/v2/users/me/authentication-activity', 'get', activity)).toContain(
      '.content[0].apiKeyId (AuthenticationActivityDto)',
    );
  });

  it.each(jsonGets)('GET %s', async (path) => {
    let url = concrete(path);
    if (path.endsWith('/manifest/epub') || path.endsWith('/progression'))
      url = `/api/v1/books/${ids.epubId}${path.slice('/api/v1/books/{bookId}'.length)}`;
    if (path.endsWith('/manifest/pdf')) url = `/api/v1/books/${ids.pdfId}/manifest/pdf`;
    const res = await get(url);
    if (path in NOT_200) {
      expect(res.status, `${url} (${NOT_200[path]})`).not.toBe(200);
      return;
    }
    const text = await res.text();
    expect(res.status, `${url}: ${text.slice(0, 300)}`).toBe(200);
    expect(responseProblems(path, 'get', JSON.parse(text)), url).toEqual([]);
    expect(absentProperties(path, 'get', JSON.parse(text), OMITTING), url).toEqual([]);
  });

  it('the writes: POST answers (libraries, collections, read lists, users, API keys, list searches, filesystem)', () => {
    expect(written).toHaveLength(9);
    for (const [operation, body] of written) {
      const [method, path, status] = operation.split(' ') as [string, string, string];
      expect(responseProblems(path, method, body, status), operation).toEqual([]);
      expect(absentProperties(path, method, body, OMITTING, status), operation).toEqual([]);
    }
  });

  it('GET /api/v1/books/{bookId}/positions of an EPUB', async () => {
    const path = '/api/v1/books/{bookId}/positions';
    const res = await get(`/api/v1/books/${ids.epubId}/positions`);
    expect(res.status).toBe(200);
    const body: unknown = await res.json();
    expect(responseProblems(path, 'get', body)).toEqual([]);
    expect(absentProperties(path, 'get', body, OMITTING)).toEqual([]);
  });
});

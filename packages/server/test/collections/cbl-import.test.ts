import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_READ_LIST_IMPORT_BYTES, type ReadListRequestMatchDto } from '@quire/api';
import { fixture } from '../support/fixtures.js';
import { buildLibrary, type CbzOptions } from '../support/library-builder.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

/**
 * `POST /api/v1/readlists/match/comicrack` (engine.md §10) on the real server, over libraries scanned from
 * generated CBZs whose ComicInfo gives each book its number, and series named after their folders.
 */

let s: TestServer;
let dir: string;
let admin: string;
const comicInfo = (number: string): CbzOptions => ({
  comicInfo: `<?xml version="1.0"?><ComicInfo><Number>${number}</Number></ComicInfo>`,
});

async function settled(timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < 3) {
    quiet = (await s.app.tasks.counts()).count === 0 ? quiet + 1 : 0;
    if (Date.now() > until) throw new Error('Timed out waiting for the task queue');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function addLibrary(name: string, files: Record<string, CbzOptions>) {
  const root = join(dir, name);
  await buildLibrary(root, files);
  const res = await s.fetch('/api/v1/libraries', {
    method: 'POST',
    headers: { authorization: admin },
    json: { name, root },
  });
  expect(res.status).toBe(200);
  await settled();
}

const upload = (bytes: Uint8Array, authorization = admin, fileName = 'list.cbl') => {
  const form = new FormData();
  form.append('file', new Blob([bytes]), fileName);
  return s.fetch('/api/v1/readlists/match/comicrack', { method: 'POST', headers: { authorization }, body: form });
};
const match = async (bytes: Uint8Array) => {
  const res = await upload(bytes);
  expect(res.status).toBe(200);
  return (await res.json()) as ReadListRequestMatchDto;
};
const cbl = (name: string, books: string) =>
  new TextEncoder().encode(
    `<?xml version="1.0"?><ReadingList><Name>${name}</Name><Books>${books}</Books></ReadingList>`,
  );
/** Per request: `series title #number` of every matching book, in the answer's order. */
const found = (answer: ReadListRequestMatchDto) =>
  answer.requests.map((r) => r.matches.flatMap((m) => m.books.map((b) => `${m.series.title} #${b.number}`)));

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-cbl-import-'));
  // The books of "[Spider-Man] 69 - Secret Empire.cbl", numbered with leading zeros, one series with its volume
  // in the title, one in other letter case, one whose own title has parentheses.
  const files: Record<string, CbzOptions> = {
    'Secret Empire (2017)/Secret Empire 000.cbz': comicInfo('000'),
    'the amazing spider-man/ASM 029.cbz': comicInfo('029'),
    'the amazing spider-man/ASM 030.cbz': comicInfo('30'),
    'the amazing spider-man/ASM 031.cbz': comicInfo('31'),
    'Free Comic Book Day 2017 (Secret Empire)/FCBD.cbz': comicInfo('1'),
  };
  for (let n = 1; n <= 10; n++)
    files[`Secret Empire (2017)/Secret Empire ${String(n).padStart(2, '0')}.cbz`] = comicInfo(
      String(n).padStart(2, '0'),
    );
  await addLibrary('Marvel', files);
}, 120_000);

afterAll(async () => {
  await s?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('matching a ComicRack list', () => {
  it('matches every book of a real list against a library named after it', async () => {
    const answer = await match(readFileSync(fixture('cbl/[Spider-Man] 69 - Secret Empire.cbl')));
    expect(answer.readListMatch).toEqual({ name: '[Spider-Man] 69 - Secret Empire', errorCode: '' });
    expect(answer.requests).toHaveLength(15);
    expect(answer.requests[0]!.request).toEqual({ series: ['Secret Empire (2017)', 'Secret Empire'], number: '0' });
    expect(found(answer)).toEqual([
      ['Secret Empire (2017) #000'],
      ['the amazing spider-man #029'],
      ['Free Comic Book Day 2017 (Secret Empire) #1'],
      ['the amazing spider-man #30'],
      ['the amazing spider-man #31'],
      ...Array.from({ length: 10 }, (_, i) => [`Secret Empire (2017) #${String(i + 1).padStart(2, '0')}`]),
    ]);
    // every book once: the list can be created from the answer as it is
    const ids = answer.requests.map((r) => r.matches[0]!.books[0]!.bookId);
    expect(new Set(ids).size).toBe(15);
  });

  it('offers every series and book that answer a request, the volume one first, and nothing for misses', async () => {
    await addLibrary('Other', {
      'Secret Empire/SE 1.cbz': comicInfo('1'),
      'Secret Empire/SE 1 variant.cbz': comicInfo('001'),
    });
    const answer = await match(
      cbl(
        'Duplicates and misses',
        `<Book Series="SECRET EMPIRE" Number="1" Volume="2017"/>
         <Book Series="Secret Empire" Number="1" Volume="1"/>
         <Book Series="Secret Empire" Number="11" Volume="2017"/>
         <Book Series="Secret Émpire" Number="1"/>
         <Book Series="Secret Empire" Number="1.0"/>`,
      ),
    );
    expect(answer.requests.map((r) => r.request.series)).toEqual([
      ['SECRET EMPIRE (2017)', 'SECRET EMPIRE'],
      ['Secret Empire'], // volume 1 is not a volume
      ['Secret Empire (2017)', 'Secret Empire'],
      ['Secret Émpire'],
      ['Secret Empire'],
    ]);
    expect(found(answer)).toEqual([
      ['Secret Empire (2017) #01', 'Secret Empire #1', 'Secret Empire #001'],
      ['Secret Empire #1', 'Secret Empire #001'],
      [], // no number 11
      [], // no accent folding
      [], // 1.0 is not 1
    ]);
  }, 120_000);

  it('says when a read list has the name already (ERR_1009), whatever its letter case', async () => {
    const books = (await match(readFileSync(fixture('cbl/[Spider-Man] 69 - Secret Empire.cbl')))).requests.map(
      (r) => r.matches[0]!.books[0]!.bookId,
    );
    const created = await s.fetch('/api/v1/readlists', {
      method: 'POST',
      headers: { authorization: admin },
      json: { name: '[SPIDER-MAN] 69 - secret empire', summary: '', ordered: true, bookIds: books },
    });
    expect(created.status).toBe(200);
    const answer = await match(readFileSync(fixture('cbl/[Spider-Man] 69 - Secret Empire.cbl')));
    expect(answer.readListMatch).toEqual({ name: '[Spider-Man] 69 - Secret Empire', errorCode: 'ERR_1009' });
  });

  it.each([['ReadingList_SmartList.xml', 'ERR_1029']])('refuses the real %s with 400 %s', async (file, code) => {
    const res = await upload(readFileSync(fixture(`cbl/${file}`)));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(code);
  });

  it.each([
    ['a file that is not XML', Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00]), 'ERR_1015'],
    ['a list without name', cbl('', '<Book Series="A" Number="1"/>'), 'ERR_1030'],
    ['a list without books', cbl('L', ''), 'ERR_1029'],
    ['a book without number', cbl('L', '<Book Series="A"/>'), 'ERR_1031'],
  ])('refuses %s with 400 and its code', async (_what, bytes, code) => {
    const res = await upload(bytes);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(code);
  });

  it('refuses a file over the size limit with 400 and says the limit', async () => {
    const res = await upload(new Uint8Array(MAX_READ_LIST_IMPORT_BYTES + 1));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/must not exceed 10 MB/);
  });

  it('refuses a request without file part', async () => {
    const res = await s.fetch('/api/v1/readlists/match/comicrack', {
      method: 'POST',
      headers: { authorization: admin },
      body: new FormData(),
    });
    expect(res.status).toBe(400);
  });

  it('is for administrators only', async () => {
    const made = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: admin },
      json: { email: 'reader@example.org', password: 'reader-secret', roles: [] },
    });
    expect(made.status).toBe(201);
    const res = await upload(
      readFileSync(fixture('cbl/[Spider-Man] 69 - Secret Empire.cbl')),
      basic('reader@example.org', 'reader-secret'),
    );
    expect(res.status).toBe(403);
    expect((await upload(cbl('L', ''), '')).status).toBe(401);
  });
});

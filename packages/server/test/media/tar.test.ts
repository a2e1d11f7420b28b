import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BookAnalyzer } from '../../src/library/book-analyzer.js';
import { readerFor } from '../../src/media/archives/index.js';
import { detectFile } from '../../src/media/detect.js';
import { PdfService } from '../../src/media/pdf/index.js';

/*
 * Every tar flavour a CBT may come in, written header by header here (POSIX.1-1988 ustar, GNU with its
 * `././@LongLink` names, POSIX.1-2001 pax, and the old V7 layout with no magic at all), with entry names in
 * UTF-8 and in legacy 8-bit code pages (Latin-1, CP437), as 7-Zip and GNU tar list them.
 */

type Flavour = 'ustar' | 'gnu' | 'v7';

const latin1 = (s: string) => Buffer.from(s, 'latin1');
const utf8 = (s: string) => Buffer.from(s, 'utf8');
const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, '0')}\0`;

/** One 512-byte header block; `name` is raw bytes, as a tar stores it. */
function header(name: Buffer, size: number, flavour: Flavour, typeflag = '0', prefix?: Buffer): Buffer {
  const h = Buffer.alloc(512);
  name.copy(h, 0, 0, Math.min(name.length, 100));
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(1000, 8), 108, 'ascii');
  h.write(octal(1000, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(1_700_000_000, 12), 136, 'ascii');
  // V7 writers used NUL for a regular file; later ones '0'.
  h.write(flavour === 'v7' && typeflag === '0' ? '\0' : typeflag, 156, 'latin1');
  if (flavour === 'ustar') {
    h.write('ustar\u000000', 257, 'latin1');
    prefix?.copy(h, 345);
  } else if (flavour === 'gnu') {
    h.write('ustar  \0', 257, 'latin1');
  }
  if (flavour !== 'v7') {
    h.write('user', 265, 'ascii');
    h.write('group', 297, 'ascii');
  }
  h.fill(' ', 148, 156);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

const padded = (data: Buffer) => Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);

interface Entry {
  name: Buffer;
  data: Buffer;
  /** ustar only: the part of the path before its last `/`, in the prefix field. */
  prefix?: Buffer;
  /** A pax extended header before the entry, with these records (UTF-8 by the standard). */
  pax?: Record<string, string>;
  directory?: boolean;
}

function paxRecords(records: Record<string, string>): Buffer {
  let out = '';
  for (const [k, v] of Object.entries(records)) {
    const body = ` ${k}=${v}\n`;
    let len = Buffer.byteLength(body) + 1;
    while (String(len).length + Buffer.byteLength(body) !== len) len++;
    out += `${len}${body}`;
  }
  return utf8(out);
}

function tar(flavour: Flavour, entries: Entry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    if (e.pax) {
      const records = paxRecords(e.pax);
      blocks.push(header(latin1('PaxHeaders/entry'), records.length, 'ustar', 'x'), padded(records));
    }
    if (flavour === 'gnu' && e.name.length > 100) {
      const longName = Buffer.concat([e.name, Buffer.from([0])]);
      blocks.push(header(latin1('././@LongLink'), longName.length, 'gnu', 'L'), padded(longName));
    }
    const type = e.directory ? '5' : '0';
    blocks.push(header(e.name, e.directory ? 0 : e.data.length, flavour, type, e.prefix));
    if (!e.directory) blocks.push(padded(e.data));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

// A JPEG as far as magic bytes go, different per page so that reading the wrong entry shows.
const jpeg = (n: number) => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, ...latin1('JFIF\0'), n, 0xff, 0xd9]);
const text = utf8('scanned by someone\n');

const dir = mkdtempSync(join(tmpdir(), 'quire-tar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const write = (bytes: Buffer) => {
  const file = join(dir, `book-${++counter}.tar`);
  writeFileSync(file, bytes);
  return file;
};

async function listing(file: string) {
  const type = await detectFile(file);
  const reader = readerFor(type);
  expect(reader, `a reader for ${type}`).toBeDefined();
  const entries = await reader!.entries(file, { dimensions: false });
  return { type, entries, read: (name: string) => reader!.read(file, name) };
}

describe('TAR flavours (CBT)', () => {
  it('refuses a damaged .tar.xz with ERR_1008', async () => {
    const xzMagic = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);
    const file = write(Buffer.concat([xzMagic, Buffer.alloc(4096, 0x5a)]));
    await expect(listing(file)).rejects.toMatchObject({ code: 'ERR_1008' });
  });

  it('reads a plain ustar tar with Latin-1 and UTF-8 entry names holding JPEGs among other files', async () => {
    const file = write(
      tar('ustar', [
        { name: latin1('notes.txt'), data: text },
        { name: latin1('café/'), data: Buffer.alloc(0), directory: true },
        { name: latin1('page.jpg'), prefix: latin1('café'), data: jpeg(1) },
        { name: latin1('Ä01.jpg'), data: jpeg(2) },
        { name: utf8('日本/ページ03.jpg'), data: jpeg(3) },
      ]),
    );
    const { type, entries, read } = await listing(file);
    expect(type).toBe('application/x-tar');
    expect(entries.map((e) => [e.name, e.mediaType])).toEqual([
      ['café/page.jpg', 'image/jpeg'],
      ['notes.txt', 'text/plain'],
      ['Ä01.jpg', 'image/jpeg'],
      ['日本/ページ03.jpg', 'image/jpeg'],
    ]);
    expect(await read('café/page.jpg')).toEqual(jpeg(1));
    expect(await read('Ä01.jpg')).toEqual(jpeg(2));
    expect(await read('日本/ページ03.jpg')).toEqual(jpeg(3));
  });

  it('tells apart CP437 names that are not UTF-8, in GNU long-name entries', async () => {
    // CP437 0x81 = ü, 0x82 = é: not UTF-8; read as Latin-1 they stay two names.
    const folder = `${'Very long series folder name '.repeat(4)}/`;
    const a = Buffer.concat([latin1(folder), Buffer.from([0x70, 0x81]), latin1('.jpg')]);
    const b = Buffer.concat([latin1(folder), Buffer.from([0x70, 0x82]), latin1('.jpg')]);
    const file = write(
      tar('gnu', [
        { name: a, data: jpeg(1) },
        { name: b, data: jpeg(2) },
      ]),
    );
    const { type, entries, read } = await listing(file);
    expect(type).toBe('application/x-tar');
    const names = entries.map((e) => e.name);
    expect(names).toEqual([a.toString('latin1'), b.toString('latin1')]);
    expect(await read(names[0]!)).toEqual(jpeg(1));
    expect(await read(names[1]!)).toEqual(jpeg(2));
  });

  it('reads pax path records (UTF-8) beside Latin-1 ustar names', async () => {
    const file = write(
      tar('ustar', [
        { name: latin1('ignored-by-pax.jpg'), pax: { path: 'Čapek/Ωmega 01.jpg' }, data: jpeg(1) },
        { name: latin1('Ñame.jpg'), data: jpeg(2) },
      ]),
    );
    const { entries, read } = await listing(file);
    expect(entries.map((e) => e.name)).toEqual(['Ñame.jpg', 'Čapek/Ωmega 01.jpg']);
    expect(await read('Čapek/Ωmega 01.jpg')).toEqual(jpeg(1));
    expect(await read('Ñame.jpg')).toEqual(jpeg(2));
  });

  it('detects and reads an old V7 tar, which has no magic, by its header checksum', async () => {
    const file = write(
      tar('v7', [
        { name: latin1('Série/'), data: Buffer.alloc(0), directory: true },
        { name: latin1('Série/01.jpg'), data: jpeg(1) },
        { name: latin1('Série/info.txt'), data: text },
      ]),
    );
    const { type, entries, read } = await listing(file);
    expect(type).toBe('application/x-tar');
    expect(entries.map((e) => e.name)).toEqual(['Série/01.jpg', 'Série/info.txt']);
    expect(await read('Série/01.jpg')).toEqual(jpeg(1));
  });

  it('analyses each flavour as a READY book whose page is the JPEG (was UNSUPPORTED ERR_1001 for V7)', async () => {
    const pdf = new PdfService({ workers: 1 });
    const analyzer = new BookAnalyzer({
      media: undefined as never,
      pdf,
      events: undefined as never,
      files: undefined as never,
      tasks: undefined as never,
    });
    try {
      for (const flavour of ['ustar', 'gnu', 'v7'] as const) {
        const file = write(
          tar(flavour, [
            { name: latin1('readme.txt'), data: text },
            { name: latin1('Cõver.jpg'), data: jpeg(1) },
          ]),
        );
        const a = await analyzer.analyze(file, { analyzeDimensions: false });
        expect([flavour, a.status, a.comment, a.pages.map((p) => p.fileName)]).toEqual([
          flavour,
          'READY',
          null,
          ['Cõver.jpg'],
        ]);
      }
    } finally {
      await pdf.close();
    }
  });
});

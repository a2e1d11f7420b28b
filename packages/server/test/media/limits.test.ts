import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import tarStream from 'tar-stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tarReader, zipReader } from '../../src/media/archives/index.js';
import { makeThumbnail } from '../../src/media/images.js';
import {
  DEFAULT_MEDIA_LIMITS,
  MediaLimitError,
  BufferBudgetError,
  bufferedBytes,
  decodeSlots,
  setMediaLimits,
  type MediaLimits,
} from '../../src/media/limits.js';
import { zipBuffer } from '../support/library-builder.js';
import { smallPng } from '../support/hostile-files.js';

/** The limits each reader applies, with limits lowered so that small files cross them. */
const MiB = 1024 * 1024;
let dir: string;
const lower = (limits: Partial<MediaLimits>) => setMediaLimits({ ...DEFAULT_MEDIA_LIMITS, ...limits });

async function tarOf(entries: { name: string; data: Buffer }[]): Promise<Buffer> {
  const pack = tarStream.pack();
  for (const e of entries) pack.entry({ name: e.name, size: e.data.length }, e.data);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-limits-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => setMediaLimits(DEFAULT_MEDIA_LIMITS));

describe('archive readers hold books to the limits', () => {
  it('ZIP: the entry count is refused from the directory end record, before any entry is read', async () => {
    const png = await smallPng(1, 1);
    const file = join(dir, 'many.cbz');
    await writeFile(file, zipBuffer(Array.from({ length: 12 }, (_, i) => ({ name: `${i}.png`, data: png }))));
    lower({ maxEntries: 10 });
    await expect(zipReader.entries(file, { dimensions: false })).rejects.toThrow('more than 10 entries');
    await expect(zipReader.read(file, '0.png')).rejects.toBeInstanceOf(MediaLimitError);
  });

  it('ZIP: a whole entry larger than the limit is not read, and the book total counts', async () => {
    const file = join(dir, 'big.cbz');
    const noise = Buffer.from(Array.from({ length: 2 * MiB }, (_, i) => (i * 7919) % 251));
    await writeFile(file, zipBuffer([{ name: 'a.png', data: Buffer.concat([await smallPng(), noise]) }]));
    lower({ maxEntryBytes: 1 * MiB });
    await expect(zipReader.entries(file, { dimensions: false })).rejects.toThrow(/entry "a\.png": 2\.0 MiB/);
    await expect(zipReader.read(file, 'a.png')).rejects.toThrow(/over the 1\.0 MiB limit/);
    lower({ maxBookBytes: 1 * MiB });
    await expect(zipReader.entries(file, { dimensions: false })).rejects.toThrow('more than 1.0 MiB uncompressed');
  });

  it('TAR: an entry over the limit stops the listing before its body is drained, and is not read', async () => {
    const file = join(dir, 'big.cbt');
    await writeFile(
      file,
      await tarOf([
        { name: '1.png', data: await smallPng() },
        { name: '2.png', data: Buffer.concat([await smallPng(), Buffer.alloc(2 * MiB)]) },
      ]),
    );
    lower({ maxEntryBytes: 1 * MiB });
    await expect(tarReader.entries(file, { dimensions: false })).rejects.toThrow(/entry "2\.png"/);
    await expect(tarReader.read(file, '2.png')).rejects.toBeInstanceOf(MediaLimitError);
    expect((await tarReader.read(file, '1.png')).length).toBeGreaterThan(0);
  });

  it('ZIP: an entry streams in chunks with the same checks (page hashes never hold a page whole)', async () => {
    const file = join(dir, 'stream.cbz');
    const noise = randomBytes(2 * MiB); // incompressible, as image data is
    await writeFile(file, zipBuffer([{ name: 'a.png', data: noise, deflate: true }]));
    const chunks: Buffer[] = [];
    const { stream, size } = await zipReader.stream(file, 'a.png');
    expect(size).toBe(noise.length);
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(noise)).toBe(true);
    lower({ maxEntryBytes: 1 * MiB });
    await expect(zipReader.stream(file, 'a.png')).rejects.toBeInstanceOf(MediaLimitError);
  });

  it('ZIP page reads stop when their signal aborts', async () => {
    const file = join(dir, 'one.cbz');
    await writeFile(file, zipBuffer([{ name: 'a.png', data: await smallPng() }]));
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(zipReader.read(file, 'a.png', { signal: controller.signal })).rejects.toThrow();
  });
});

describe('buffer budget', () => {
  it('makes a request wait until its bytes are free, in order, and refuses one larger than all of it', async () => {
    lower({ maxBufferedBytes: 100 });
    const order: string[] = [];
    const first = await bufferedBytes.hold(60, 'first');
    const second = bufferedBytes.run(50, 'second', async () => void order.push('second'));
    const third = bufferedBytes.run(10, 'third', async () => void order.push('third'));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]); // the third fits, but does not overtake the second
    first();
    await Promise.all([second, third]);
    expect(order).toEqual(['second', 'third']);
    await expect(bufferedBytes.run(101, 'page "huge.png"', async () => undefined)).rejects.toThrow(
      /page "huge\.png": 101 B to hold in memory, over the 100 B buffer budget/,
    );
    await expect(bufferedBytes.hold(101, 'x')).rejects.toBeInstanceOf(BufferBudgetError);
  });

  it('lets a waiter whose client left go, and the requests behind it through', async () => {
    lower({ maxBufferedBytes: 100 });
    const first = await bufferedBytes.hold(60, 'first');
    const controller = new AbortController();
    const gone = bufferedBytes.hold(50, 'gone', controller.signal);
    const small = bufferedBytes.run(40, 'small', async () => 'ran');
    controller.abort(new Error('gone'));
    await expect(gone).rejects.toThrow('gone');
    expect(await small).toBe('ran');
    first();
  });
});

describe('ZIP pages checked at analysis', () => {
  it.each([
    ['read whole within the buffer budget', DEFAULT_MEDIA_LIMITS.maxBufferedBytes],
    ['streamed when larger than the whole budget', 1024],
  ])('a page that fails its CRC-32 or has no image header is untyped (%s)', async (_how, maxBufferedBytes) => {
    const file = join(dir, `checked-${maxBufferedBytes}.cbz`);
    const png = Buffer.concat([await smallPng(), randomBytes(8 * 1024)]);
    await writeFile(
      file,
      zipBuffer([
        { name: '1.png', data: png, deflate: true },
        { name: '2.png', data: png, crc: 0x12345678 },
        { name: '3.png', data: Buffer.concat([png.subarray(0, 8), Buffer.alloc(png.length - 8)]) },
        { name: 'ComicInfo.xml', data: Buffer.from('<ComicInfo/>'), crc: 0x12345678 },
      ]),
    );
    lower({ maxBufferedBytes });
    const entries = await zipReader.entries(file, { dimensions: false, verify: true });
    expect(entries.map((e) => [e.name, e.mediaType])).toEqual([
      ['1.png', 'image/png'],
      ['2.png', null],
      ['3.png', null],
      ['ComicInfo.xml', 'text/plain'],
    ]);
    // without verify, the listing reads only each entry's start; a file that is not a page keeps its type either way
    expect((await zipReader.entries(file, { dimensions: false })).map((e) => e.mediaType)).toEqual([
      'image/png',
      'image/png',
      'image/png',
      'text/plain',
    ]);
  });
});

describe('image decodes', () => {
  it('wait for a decode slot, and a waiter whose client left never runs', async () => {
    lower({ maxConcurrentDecodes: 1 });
    let release!: () => void;
    const first = decodeSlots.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    let ran = false;
    const second = decodeSlots.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort(new Error('gone'));
    await expect(second).rejects.toThrow('gone');
    release();
    await first;
    expect(ran).toBe(false);
    await decodeSlots.run(async () => undefined); // the slot came back
  });

  it('a JPEG whose header fits the poster is re-encoded when padding follows it', async () => {
    const jpeg = await sharp({ create: { width: 100, height: 150, channels: 3, background: '#3060a0' } })
      .jpeg()
      .toBuffer();
    const poster = await makeThumbnail(Buffer.concat([jpeg, Buffer.alloc(MiB)]), { maxEdge: 300 });
    expect(poster.bytes.length).toBeLessThan(20_000);
    expect(poster).toMatchObject({ width: 100, height: 150, mediaType: 'image/jpeg' });
  });
});

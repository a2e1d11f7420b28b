import { Readable } from 'node:stream';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endIdleHashThread, hashBytes, hashFile, hashFileBytes, hashPage } from '../../src/media/hash.js';
import { fixture } from '../support/fixtures.js';
import { settleMemory } from '../support/memory.js';

// Reference digests computed with Python `xxhash.xxh3_128(data).hexdigest()` (xxhash 4.0.1).
describe('XXH3-128', () => {
  // first: the process's resident memory is measured, and what the other tests free would hide a growth
  it('lets each shared buffer go once it is hashed: the hashing thread keeps none alive', async () => {
    // as the analysis's read buffers: a new one whenever a book does not fit the spare ones
    const fresh = () => Buffer.from(new SharedArrayBuffer(12 * 1024 * 1024)).fill(7);
    await hashFileBytes(fresh());
    await settleMemory();
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 20; i++) await hashFileBytes(fresh());
    await settleMemory();
    // 20 × 12 MiB = 240 MiB if the thread held them (151–239 MB measured before it collected its views)
    expect((process.memoryUsage().rss - before) / 2 ** 20).toBeLessThan(80);
  }, 30_000);

  it('matches known vectors', () => {
    expect(hashBytes(Buffer.from('hello world'))).toBe('df8d09e93f874900a99b8775cc15b6c7');
    expect(hashBytes(Buffer.alloc(0))).toBe('99aa06d3014798d86001c324468d497f');
  });

  it.each([
    ['pdf/freeculture.pdf', '8d7c9b80aed21d253e119910dc1fb893'],
    ['epub/epub3.epub', '7d8bddd17117f70cd033e2c166a1a3a0'],
    ['pdf/invalid.pdf', '843c654b80401b036e5fb448e8ae8769'],
  ])('file hash of %s (streamed)', async (file, expected) => {
    const t = performance.now();
    expect(await hashFile(fixture(file))).toBe(expected);
    console.info(`hash ${file}: ${(performance.now() - t).toFixed(1)} ms`);
  });

  it('streamed hash equals the one-shot hash across chunk boundaries, including empty files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-hash-'));
    try {
      const data = Buffer.alloc(3 * 1024 * 1024 + 17);
      for (let i = 0; i < data.length; i++) data[i] = (i * 31 + (i >> 8)) & 0xff;
      await writeFile(join(dir, 'a.bin'), data);
      await writeFile(join(dir, 'empty.bin'), Buffer.alloc(0));
      expect(await hashFile(join(dir, 'a.bin'))).toBe(hashBytes(data));
      expect(await hashFileBytes(data)).toBe(hashBytes(data)); // a file the analysis read whole
      expect(await hashFile(join(dir, 'empty.bin'))).toBe('99aa06d3014798d86001c324468d497f');
      expect(await hashFileBytes(Buffer.alloc(0))).toBe('99aa06d3014798d86001c324468d497f');
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('hashes bytes in a SharedArrayBuffer (on the hashing thread) as it hashes any other bytes', async () => {
    // the analysis hands over a view of its shared read buffer: only the view's bytes count
    const shared = Buffer.from(new SharedArrayBuffer(2 * 1024 * 1024 + 64));
    for (let i = 0; i < shared.length; i++) shared[i] = (i * 7 + (i >> 9)) & 0xff;
    const view = shared.subarray(13, 13 + 1024 * 1024 + 5);
    const copy = Buffer.from(view);
    const [a, b, empty] = await Promise.all([
      hashFileBytes(view),
      hashFileBytes(shared),
      hashFileBytes(shared.subarray(0, 0)),
    ]);
    expect(a).toBe(hashBytes(copy));
    expect(b).toBe(hashBytes(Buffer.from(shared)));
    expect(empty).toBe('99aa06d3014798d86001c324468d497f');
  });

  it('ends the idle hashing thread when asked (analyses over), and starts one again for the next hash', async () => {
    const shared = Buffer.from(new SharedArrayBuffer(64 * 1024));
    shared.fill(7);
    const expected = hashBytes(Buffer.from(shared));
    expect(await hashFileBytes(shared)).toBe(expected);
    // a hash in progress keeps its thread
    const hashing = hashFileBytes(shared);
    expect(await endIdleHashThread()).toBe(false);
    expect(await hashing).toBe(expected);
    expect(await endIdleHashThread()).toBe(true);
    expect(await endIdleHashThread()).toBe(false); // no thread left
    expect(await hashFileBytes(shared)).toBe(expected);
    expect(await endIdleHashThread()).toBe(true);
  });

  it('page hash is XXH3-128 of the page bytes, 32 hex chars, whatever chunks they stream in', async () => {
    const h = await hashPage(Readable.from([Buffer.from([0xff, 0xd8]), Buffer.from([0xff, 0xe0])]));
    expect(h).toMatch(/^[0-9a-f]{32}$/);
    expect(h).toBe(hashBytes(Buffer.from([0xff, 0xd8, 0xff, 0xe0])));
  });

  it('missing file rejects', async () => {
    await expect(hashFile(fixture('pdf/nope.pdf'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

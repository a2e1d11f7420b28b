import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfService } from '../../src/media/pdf/index.js';
import { PdfPageCache, PdfPages } from '../../src/media/pdf/pages.js';
import { fixture } from '../support/fixtures.js';

const file = fixture('pdf/freeculture.pdf');
const pdf = new PdfService({ workers: 1 });
const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'quire-pdf-pages-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await pdf.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const at = (page: number) => ({ page, width: 256, height: 384 });

describe('PdfPages', () => {
  it('renders the page asked for before the neighbours queued for the previous one, and drops those gone stale', async () => {
    const pages = new PdfPages({ pdf, cache: new PdfPageCache(await tempDir(), 50 * 1024 * 1024) });
    const first = pages.page({ file, ...at(10) }, [at(11), at(9), at(12)]);
    // page 10 renders on the one thread; its neighbours wait behind it
    await expect.poll(() => pages.queued.map((p) => p.page)).toEqual([11, 9, 12]);
    // the reader jumps to page 40: asked for, it goes first; of the neighbours of page 10, only 11 is still wanted
    const jumped = pages.page({ file, ...at(40) }, [at(41), at(11), at(39)]);
    await expect.poll(() => pages.queued.map((p) => p.page)).toEqual([40, 11, 41, 39]);
    expect(imageSize(await first)).toMatchObject({ type: 'jpg', width: 256, height: 384 });
    expect(imageSize(await jumped)).toMatchObject({ width: 256 });
    await expect.poll(() => pages.queued).toEqual([]);
  });

  it('starts no page ahead while a page asked for renders, even with a thread free', async () => {
    const two = new PdfService({ workers: 2 });
    try {
      const pages = new PdfPages({ pdf: two, cache: null });
      const asked = pages.page({ file, ...at(30) }, [at(31)]);
      await expect.poll(() => pages.queued.map((p) => p.page)).toEqual([31]);
      await asked;
      // then it renders
      await expect.poll(() => pages.queued).toEqual([]);
    } finally {
      await two.close();
    }
  });

  it('answers a page rendered ahead, or asked for again, from the cache on disk', async () => {
    const dir = await tempDir();
    const pages = new PdfPages({ pdf, cache: new PdfPageCache(dir, 50 * 1024 * 1024) });
    await pages.page({ file, ...at(20) }, [at(21)]);
    await expect
      .poll(async () => (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.jpg')))
      .toHaveLength(2);
    // another process on the same data dir, whose every render would fail (it times out at once): served from disk
    const failing = new PdfService({ workers: 1, renderTimeoutMs: 1 });
    try {
      const other = new PdfPages({ pdf: failing, cache: new PdfPageCache(dir, 50 * 1024 * 1024) });
      expect(imageSize(await other.page({ file, ...at(21) }))).toMatchObject({ width: 256 });
      await expect(other.page({ file, ...at(22) })).rejects.toThrow(/timed out/);
    } finally {
      await failing.close();
    }
  });
});

describe('PdfPageCache', () => {
  it('stays within its bound, removing the least recently used first', async () => {
    const dir = await tempDir();
    const cache = new PdfPageCache(dir, 10_000);
    const page = Buffer.alloc(3000, 1);
    await cache.put('aa01', page);
    await cache.put('aa02', page);
    await cache.put('aa03', page);
    // 01 read last: 02 is the least recently used
    await new Promise((r) => setTimeout(r, 20));
    await cache.get('aa01');
    await new Promise((r) => setTimeout(r, 20));
    await cache.put('aa04', page);
    const files = (await readdir(join(dir, 'aa'))).sort();
    expect(files).toEqual(['aa01.jpg', 'aa03.jpg', 'aa04.jpg']);
    const total = (await Promise.all(files.map((f) => stat(join(dir, 'aa', f))))).reduce((s, f) => s + f.size, 0);
    expect(total).toBeLessThanOrEqual(10_000);
    expect(await cache.get('aa02')).toBeNull();
    expect(await cache.get('aa04')).toEqual(page);
  });
});

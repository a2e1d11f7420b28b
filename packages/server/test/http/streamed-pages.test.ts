/**
 * Pages are streamed from the archive, not held whole (issue 11, finding 3): a 200 MiB page of a ~200 KB ZIP,
 * asked for by several clients at once, costs the server little memory; its ETag comes from what identifies the
 * page, so 304s need none of its bytes; pages that must be in memory (conversions) share a buffer budget and one
 * larger than all of it is refused. The built server runs as a child process so that its memory is its own.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVER_MAIN,
  claim,
  createLibrary,
  memoryMb,
  sampleRss,
  startServer,
} from '../../../../bench/support/server.mjs';
import { zipBomb } from '../support/hostile-files.js';

const MiB = 1024 * 1024;
const PAGE_BYTES = 200 * MiB;
const CONCURRENT = 4;
/**
 * What serving the page to all of them at once may add to the server's resident set, in MiB. Held whole, each
 * request costs the page's 200 MiB (four: 800 MiB and more); streamed, a few chunks each.
 */
const STREAMING_RSS_BOUND_MB = 120;

if (!existsSync(SERVER_MAIN)) throw new Error(`Build the server first (npm run build): ${SERVER_MAIN} is missing`);

/** The SHA-256 of `head` followed by zeros up to `size` bytes, without holding them. */
function expectedDigest(head: Buffer, size: number): string {
  const hash = createHash('sha256').update(head);
  const zeros = Buffer.alloc(MiB);
  for (let left = size - head.length; left > 0; left -= MiB) hash.update(zeros.subarray(0, Math.min(MiB, left)));
  return hash.digest('hex');
}

describe('streamed pages (built server in a child process)', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let authorization: string;
  let root: string;
  let dataDir: string;
  let bookId: string;
  let head: Buffer;

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.base}${path}`, { headers: { authorization, ...headers } });

  /** Reads a body as it comes, keeping only its length and digest. */
  const digestOf = async (res: Response) => {
    const hash = createHash('sha256');
    let length = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      length += chunk.length;
    }
    return { length, digest: hash.digest('hex') };
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'quire-streamed-'));
    dataDir = await mkdtemp(join(tmpdir(), 'quire-streamed-data-'));
    head = await zipBomb(join(root, 'big/big-page.cbz'), PAGE_BYTES); // ~200 KB on disk
    server = await startServer({
      dataDir,
      // the page is a ZIP bomb by ratio (~1,000): let it through analysis, as a page of legitimate zeros
      env: { QUIRE_MAX_ENTRY_RATIO: '100000', QUIRE_MAX_BUFFERED_MB: '150' },
    });
    authorization = await claim(server.base);
    // no barcode search: it reads the last page whole in the background, which is not what is measured here
    await createLibrary(server.base, authorization, { name: 'Big pages', root, importBarcodeIsbn: false });
    const until = Date.now() + 60_000;
    for (;;) {
      const page = (await (await get('/api/v1/books?unpaged=true')).json()) as {
        content: { id: string; media: { status: string; comment: string } }[];
      };
      const book = page.content[0];
      if (book && book.media.status !== 'UNKNOWN') {
        expect(book.media).toMatchObject({ status: 'READY' });
        bookId = book.id;
        break;
      }
      if (Date.now() > until) throw new Error('the book was not analysed in time');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    await rm(root, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it(`serves a ${PAGE_BYTES / MiB} MiB page to ${CONCURRENT} clients at once, byte-exact, in little memory`, async () => {
    const expected = expectedDigest(head, PAGE_BYTES);
    // let the analysis's garbage go before the baseline is taken
    await new Promise((r) => setTimeout(r, 1000));
    const before = (await memoryMb(server.pid)).rss;
    const rss = sampleRss(server.pid, 25);
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        const res = await get(`/api/v1/books/${bookId}/pages/2`);
        return { status: res.status, headers: res.headers, ...(await digestOf(res)) };
      }),
    );
    const { peak } = await rss.stop();
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.headers.get('content-type')).toBe('image/png');
      expect(a.headers.get('content-length')).toBe(String(PAGE_BYTES));
      expect(a.length).toBe(PAGE_BYTES);
      expect(a.digest).toBe(expected);
    }
    console.log(`streamed pages: RSS ${before.toFixed(0)} MiB before, ${peak.toFixed(0)} MiB at the peak`);
    expect(peak - before).toBeLessThan(STREAMING_RSS_BOUND_MB);
  }, 120_000);

  it('gives the page an ETag in Komga’s shape that answers If-None-Match with an empty 304', async () => {
    const first = await get(`/api/v1/books/${bookId}/pages/2`);
    const etag = first.headers.get('etag')!;
    await first.body?.cancel();
    expect(etag).toMatch(/^"0[0-9a-f]{32}"$/);
    expect(first.headers.get('last-modified')).toMatch(/GMT$/);
    expect(first.headers.get('cache-control')).toBe('max-age=0, must-revalidate, private');

    const again = await get(`/api/v1/books/${bookId}/pages/2`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');

    // another page, a conversion or a thumbnail is another body, with another tag
    const tags = new Set([etag]);
    for (const path of ['pages/1', 'pages/1?convert=jpeg', 'pages/1/thumbnail']) {
      const res = await get(`/api/v1/books/${bookId}/${path}`, { 'if-none-match': etag });
      expect(res.status, path).toBe(200);
      tags.add(res.headers.get('etag')!);
      await res.arrayBuffer();
    }
    expect(tags.size).toBe(4);
  });

  it('refuses to convert a page larger than the whole buffer budget, saying so', async () => {
    const res = await get(`/api/v1/books/${bookId}/pages/2?convert=jpeg`);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toMatch(
      /200\.0 MiB to hold in memory, over the 150\.0 MiB buffer budget/,
    );
    // a page the budget holds converts
    const small = await get(`/api/v1/books/${bookId}/pages/1?convert=jpeg`);
    expect(small.status).toBe(200);
    expect(small.headers.get('content-type')).toBe('image/jpeg');
  });
});

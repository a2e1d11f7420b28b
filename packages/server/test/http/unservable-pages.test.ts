import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, PDFRef } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipReader } from '../../src/media/archives/index.js';
import { fixture } from '../support/fixtures.js';
import { makeImage } from '../support/library-builder.js';
import { claim, startServer, type TestServer } from '../support/server.js';
import { zipParts } from '../support/zip-writer.mjs';

/*
 * Issue 11, finding 8: fuzzed books became READY although some of their pages answered 500, and some READY books
 * had no poster. A book is READY only if every page it lists can be served; a page that cannot be read at analysis
 * time becomes an untyped file reported as `ERR_1007 [names]` (Komga's rule for an entry that fails to read), a book
 * left without pages is ERROR ERR_1006, and a PDF with a page PDFium cannot load is ERROR `ERR_1007 [numbers]`.
 * Each book here is damaged the way the fuzzer damaged real ones.
 */

interface ZipEntry {
  name: string;
  data: Buffer;
  deflate?: boolean;
  crc?: number;
}

/** A ZIP whose entry `damaged` has the second half of its compressed data overwritten (its head still inflates). */
function zipWithDamagedData(entries: ZipEntry[], damaged: string): Buffer {
  const parts = zipParts(entries) as Buffer[];
  const body = parts[entries.findIndex((e) => e.name === damaged) * 3 + 2]!;
  for (let i = Math.floor(body.length / 2); i < body.length; i++) body[i] = (i * 37) & 0xff;
  return Buffer.concat(parts);
}

/** A ZIP of these entries, as they are. */
const zip = (entries: ZipEntry[]) => Buffer.concat(zipParts(entries) as Buffer[]);

/** A JPEG of noise big enough (~400 KB) that listing reads only its start. */
async function bigJpeg(seed: number): Promise<Buffer> {
  const width = 700;
  const height = 700;
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < pixels.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    pixels[i] = x >>> 24;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** JPEG magic bytes, then nothing an image decoder can read: typed as a page, but no header. */
const NOT_AN_IMAGE = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 0x5a)]);

/** A two-page PDF whose second page is a reference to an object that does not exist. */
async function pdfWithBrokenPage(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 400]).drawText('one', { x: 50, y: 300 });
  doc.addPage([300, 400]).drawText('two', { x: 50, y: 300 });
  doc.catalog.Pages().Kids().set(1, PDFRef.of(999));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

const CONTAINER = `<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`;

/**
 * An EPUB whose spine is `items`, in order (files under OEBPS/, deflated), with the data of `damaged` overwritten
 * as zipWithDamagedData does.
 */
function epubWithDamagedData(
  items: { href: string; mediaType: string; data: Buffer; properties?: string }[],
  damaged: string,
): Buffer {
  const manifest = items
    .map((item, i) => {
      const properties = item.properties ? ` properties="${item.properties}"` : '';
      return `<item id="i${i}" href="${item.href}" media-type="${item.mediaType}"${properties}/>`;
    })
    .join('');
  const spine = items.map((_, i) => `<itemref idref="i${i}"/>`).join('');
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>T</dc:title></metadata>
  <manifest>${manifest}</manifest>
  <spine>${spine}</spine>
</package>`;
  return zipWithDamagedData(
    [
      { name: 'mimetype', data: Buffer.from('application/epub+zip') },
      { name: 'META-INF/container.xml', data: Buffer.from(CONTAINER), deflate: true },
      { name: 'OEBPS/content.opf', data: Buffer.from(opf), deflate: true },
      ...items.map((item) => ({ name: `OEBPS/${item.href}`, data: item.data, deflate: true })),
    ],
    `OEBPS/${damaged}`,
  );
}

const chapter = (n: number) =>
  Buffer.from(
    `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${n}</title></head>` +
      `<body>${`<p>Chapter ${n}, a paragraph long enough to be read as text and not as a comic page.</p>`.repeat(400)}</body></html>`,
  );

let s: TestServer;
let auth: { authorization: string };
let root: string;

interface Book {
  id: string;
  name: string;
  media: { status: string; comment: string; pagesCount: number; epubDivinaCompatible: boolean };
}
const books = new Map<string, Book>();
const get = (path: string) => s.fetch(path, { headers: { Authorization: auth.authorization } });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'quire-unservable-'));
  const folder = join(root, 'Broken');
  await mkdir(folder, { recursive: true });
  const good1 = await makeImage('jpeg', 1, 200, 300);
  const good2 = await makeImage('png', 2, 200, 300);
  const big = await bigJpeg(3);
  const jpeg = 'image/jpeg';
  const xhtml = 'application/xhtml+xml';

  const damagedBooks: Record<string, Buffer> = {
    // A deflated page whose data is damaged past its first 64 KiB: listing reads its head fine, serving fails.
    'truncated-entry.cbz': zipWithDamagedData(
      [
        { name: '01.jpg', data: good1 },
        { name: '02.jpg', data: big, deflate: true },
        { name: '03.png', data: good2 },
      ],
      '02.jpg',
    ),
    // A stored page whose bytes do not match the CRC-32 the archive records; and the first page at that.
    'crc-mismatch.cbz': zip([
      { name: '01.jpg', data: good1, crc: 0x12345678 },
      { name: '02.png', data: good2 },
    ]),
    // Image magic bytes and nothing readable behind a valid name, as the first page (the poster's source).
    'corrupt-image.cbz': zip([
      { name: '01.jpg', data: NOT_AN_IMAGE },
      { name: '02.jpg', data: good1 },
    ]),
    // Every page unreadable: no page left.
    'no-readable-page.cbz': zip([{ name: '01.jpg', data: NOT_AN_IMAGE }]),
    'broken-page.pdf': await pdfWithBrokenPage(),
    // A first page whose header reads but whose image libvips cannot decode (JPEG XL, from a real fixture read in
    // place).
    'undecodable-cover.cbz': zip([
      { name: '01.jxl', data: await zipReader.read(fixture('archives/book-image-format-test.zip'), 'book/3.jxl') },
      { name: '02.jpg', data: good1 },
    ]),
    // A Divina EPUB (one image per spine item) whose second image's data is damaged.
    'divina.epub': epubWithDamagedData(
      [
        { href: 'p1.jpg', mediaType: jpeg, data: good1, properties: 'cover-image' },
        { href: 'p2.jpg', mediaType: jpeg, data: big },
      ],
      'p2.jpg',
    ),
    // A reflowable EPUB whose second chapter's data is damaged.
    'chapters.epub': epubWithDamagedData(
      [1, 2, 3].map((n) => ({ href: `c${n}.xhtml`, mediaType: xhtml, data: chapter(n) })),
      'c2.xhtml',
    ),
  };
  for (const [name, bytes] of Object.entries(damagedBooks)) await writeFile(join(folder, name), bytes);

  s = await startServer();
  auth = await claim(s);
  const created = await s.fetch('/api/v1/libraries', {
    method: 'POST',
    headers: { Authorization: auth.authorization },
    json: { name: 'Broken', root, importBarcodeIsbn: false },
  });
  expect(created.status).toBe(200);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const page = (await (await get('/api/v1/books?unpaged=true')).json()) as { content: Book[] };
    const done = page.content.filter((b) => b.media.status !== 'UNKNOWN');
    if (done.length === Object.keys(damagedBooks).length) {
      for (const b of done) books.set(b.name, b);
      break;
    }
    if (Date.now() > deadline)
      throw new Error(`analysis did not end: ${JSON.stringify(page.content.map((b) => b.media))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 90_000);

afterAll(async () => {
  await s?.close();
  await rm(root, { recursive: true, force: true });
});

/** Every page the book lists answers 200, and its poster too (waiting for the poster task). */
async function expectServable(book: Book) {
  const pages = (await (await get(`/api/v1/books/${book.id}/pages`)).json()) as { number: number }[];
  expect(pages).toHaveLength(book.media.pagesCount);
  for (const p of pages) expect((await get(`/api/v1/books/${book.id}/pages/${p.number}`)).status).toBe(200);
  const deadline = Date.now() + 30_000;
  let poster = 0;
  while (Date.now() < deadline && (poster = (await get(`/api/v1/books/${book.id}/thumbnail`)).status) !== 200) {
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(poster).toBe(200);
}

describe('a book is READY only if its pages can be served', () => {
  it('a page whose entry data is damaged is left out and reported; the others are served', async () => {
    const book = books.get('truncated-entry')!;
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: 2, comment: 'ERR_1007 [02.jpg]' });
    await expectServable(book);
  });

  it('a page whose bytes do not match their CRC-32 is left out; the poster comes from the next page', async () => {
    const book = books.get('crc-mismatch')!;
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: 1, comment: 'ERR_1007 [01.jpg]' });
    await expectServable(book);
  });

  it('a page with image magic bytes but no readable header is left out', async () => {
    const book = books.get('corrupt-image')!;
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: 1, comment: 'ERR_1007 [01.jpg]' });
    await expectServable(book);
    const files = (await (await get(`/api/v1/books/${book.id}/pages`)).json()) as { fileName: string }[];
    expect(files.map((f) => f.fileName)).toEqual(['02.jpg']);
  });

  it('a book without one readable page is ERROR ERR_1006', async () => {
    expect(books.get('no-readable-page')!.media).toMatchObject({ status: 'ERROR', pagesCount: 0 });
    expect(books.get('no-readable-page')!.media.comment).toBe('ERR_1006');
  });

  it('a first page that cannot make a poster stays a page; the poster comes from the next one', async () => {
    const book = books.get('undecodable-cover')!;
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: 2, comment: '' });
    await expectServable(book);
  });

  it('a PDF with a page PDFium cannot load is ERROR ERR_1007 naming the page', async () => {
    expect(books.get('broken-page')!.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1007 [2]', pagesCount: 0 });
  });

  it('a Divina EPUB with a damaged image is not Divina, and reports the image', async () => {
    const book = books.get('divina')!;
    // ERR_1038: Divina detection failed (engine.md §4.3), the image being unreadable
    expect(book.media).toMatchObject({
      status: 'READY',
      epubDivinaCompatible: false,
      comment: 'ERR_1007 [OEBPS/p2.jpg] ERR_1038',
    });
    expect((await get(`/api/v1/books/${book.id}/pages/2`)).status).toBe(400);
  });

  it('an EPUB chapter whose data is damaged is left out of the reading order, which is served', async () => {
    const book = books.get('chapters')!;
    expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007 [OEBPS/c2.xhtml]' });
    const manifest = (await (await get(`/api/v1/books/${book.id}/manifest`)).json()) as {
      readingOrder: { href: string }[];
    };
    expect(manifest.readingOrder.map((l) => l.href.split('/resource/')[1])).toEqual([
      'OEBPS/c1.xhtml',
      'OEBPS/c3.xhtml',
    ]);
    for (const link of manifest.readingOrder) expect((await get(new URL(link.href).pathname)).status).toBe(200);
  });
});

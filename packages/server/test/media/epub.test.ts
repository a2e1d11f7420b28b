import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MediaError } from '../../src/media/types.js';
import {
  analyzeEpub,
  buildEpubWebPubManifest,
  getEpubCover,
  readEpubResource,
  UnsafeResourcePathError,
  type EpubTocEntry,
} from '../../src/media/epub/index.js';
import { fixture } from '../support/fixtures.js';
import { zipBuffer } from '../support/library-builder.js';
import { expectSchema } from '../support/openapi.js';

const epub = (name: string) => fixture(`epub/${name}`);
/** A reflowable EPUB 3 of one chapter, stored uncompressed. */
const oneChapterEpub = (chapter: string) =>
  zipBuffer([
    { name: 'mimetype', data: Buffer.from('application/epub+zip') },
    {
      name: 'META-INF/container.xml',
      data: Buffer.from(
        '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
      ),
    },
    {
      name: 'content.opf',
      data: Buffer.from(
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>K</dc:title></metadata><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>',
      ),
    },
    { name: 'c.xhtml', data: Buffer.from(chapter) },
  ]);
const countAll = (l: readonly EpubTocEntry[]): number => l.reduce((s, e) => s + 1 + countAll(e.children), 0);

/*
 * Expected values were established independently of this code: container.xml / OPF / nav / NCX read with
 * `unzip -p` and a separate Python (zipfile + ElementTree + html.parser) script applying engine.md §4.3:
 *   spine   = spine itemrefs found in the manifest        toc  = top-level entries / all entries
 *   pl, lm  = page-list / landmarks (guide when no nav)   pos  = Readium positions
 *   pages   = Media.pageCount (Divina pages, else Σ ceil(compressed/1024) over spine entries)
 *   divina  = Divina page count (0 = not Divina-compatible)
 */
const rows: {
  file: string;
  error?: string;
  spine?: number;
  resources?: number;
  toc?: [number, number];
  pageList?: number;
  landmarks?: number;
  fixed?: boolean;
  positions?: number;
  pages?: number;
  divina?: number;
  comment?: string;
  cover?: string | null;
}[] = [
  // EPUB 2, NCX only; meta name=cover points at a missing manifest id → no cover; guide gives 1 landmark
  {
    file: 'SmokeTest-EPUB2.epub',
    spine: 3,
    resources: 8,
    toc: [2, 2],
    pageList: 0,
    landmarks: 1,
    fixed: false,
    positions: 38,
    pages: 18,
    divina: 0,
    cover: null,
  },
  {
    file: 'The Golden Harpoon; Or, Lost Among the Floes A Story of the Whaling Grounds.epub',
    spine: 16,
    resources: 21,
    toc: [12, 12],
    pageList: 91,
    landmarks: 2,
    fixed: false,
    positions: 258,
    pages: 110,
    divina: 0,
  },
  {
    file: 'The Incomplete Theft - Ralph Burke.epub',
    spine: 4,
    resources: 8,
    toc: [1, 1],
    pageList: 0,
    landmarks: 1,
    fixed: false,
    positions: 35,
    pages: 14,
    divina: 0,
    cover: 'cover.jpeg',
  },
  {
    file: 'TitleWithVolume.epub',
    spine: 16,
    resources: 21,
    toc: [12, 12],
    pageList: 91,
    landmarks: 2,
    fixed: false,
    positions: 258,
    pages: 110,
    divina: 0,
  },
  {
    file: 'book.epub',
    spine: 15,
    resources: 21,
    toc: [17, 17],
    pageList: 0,
    landmarks: 0,
    fixed: false,
    positions: 196,
    pages: 83,
    divina: 0,
    cover: 'OEBPS/394382034267688847_cover.jpg',
  },
  // fixed layout is declared per spine item only (itemref properties), which Komga does not read → reflowable
  {
    file: 'cole-voyage-of-life.epub',
    spine: 10,
    resources: 21,
    toc: [6, 7],
    pageList: 0,
    landmarks: 0,
    fixed: false,
    positions: 19,
    pages: 12,
    divina: 0,
    cover: 'EPUB/images/portrait.jpg',
  },
  // image-only calibre EPUB: svg>image cover page + img page → Divina with 2 pages, hence fixed layout
  {
    file: 'epub3.epub',
    spine: 2,
    resources: 7,
    toc: [1, 1],
    pageList: 0,
    landmarks: 1,
    fixed: true,
    positions: 2,
    pages: 2,
    divina: 2,
    cover: 'cover.jpeg',
  },
  {
    file: 'epub30-test-0101.epub',
    spine: 10,
    resources: 15,
    toc: [3, 52],
    pageList: 0,
    landmarks: 1,
    fixed: false,
    positions: 49,
    pages: 13,
    divina: 0,
    cover: null,
  },
  {
    file: 'epub30-test-0103.epub',
    spine: 5,
    resources: 13,
    toc: [3, 18],
    pageList: 0,
    landmarks: 1,
    fixed: false,
    positions: 17,
    pages: 6,
    divina: 0,
    cover: null,
  },
  {
    file: 'epub30-test-0202.epub',
    spine: 7,
    resources: 9,
    toc: [3, 3],
    pageList: 0,
    landmarks: 1,
    fixed: true,
    positions: 7,
    pages: 12,
    divina: 0,
    cover: null,
  },
  {
    file: 'epub30-test-0211.epub',
    spine: 7,
    resources: 9,
    toc: [6, 6],
    pageList: 0,
    landmarks: 1,
    fixed: true,
    positions: 7,
    pages: 12,
    divina: 0,
    cover: null,
  },
  // UTF-8 entry names without the zip UTF-8 flag (read as UTF-8 like commons-compress); 2 MP3s missing → ERR_1033, still readable
  {
    file: 'kusamakura-japanese-vertical-writing.epub',
    spine: 16,
    resources: 24,
    toc: [14, 14],
    pageList: 0,
    landmarks: 4,
    fixed: false,
    positions: 512,
    pages: 171,
    divina: 0,
    comment: 'ERR_1033 [OPS/audio/fmse004b.mp3, OPS/audio/ulnr0036.mp3]',
    cover: null,
  },
  {
    file: 'large-tables.epub',
    spine: 5,
    resources: 6,
    toc: [3, 3],
    pageList: 0,
    landmarks: 1,
    fixed: false,
    positions: 11,
    pages: 5,
    divina: 0,
    cover: null,
  },
  // the NCX item is commented out in the OPF: TOC from the nav only
  {
    file: 'moby-dick.epub',
    spine: 144,
    resources: 151,
    toc: [141, 141],
    pageList: 0,
    landmarks: 3,
    fixed: false,
    positions: 1375,
    pages: 659,
    divina: 0,
    cover: 'OPS/images/9780316000000.jpg',
  },
  // fixed-layout comic whose pages draw their image through CSS, not <img>: not Divina-compatible (same as Komga)
  {
    file: 'page-blanche.epub',
    spine: 10,
    resources: 22,
    toc: [2, 2],
    pageList: 8,
    landmarks: 0,
    fixed: true,
    positions: 10,
    pages: 10,
    divina: 0,
    cover: 'EPUB/Image/cover.jpg',
  },
  {
    file: 'pub-cmt-gif.epub',
    spine: 1,
    resources: 3,
    toc: [1, 1],
    pageList: 0,
    landmarks: 0,
    fixed: false,
    positions: 1,
    pages: 1,
    divina: 0,
    cover: null,
  },
  {
    file: 'pub-cmt-webp.epub',
    spine: 1,
    resources: 3,
    toc: [1, 1],
    pageList: 0,
    landmarks: 0,
    fixed: false,
    positions: 1,
    pages: 1,
    divina: 0,
    cover: null,
  },
  // plain ZIP renamed .epub, no mimetype entry (engine.md §4.1 PIN: ERROR, ERR_1032)
  { file: 'zip-as-epub.epub', error: 'ERR_1032' },
];

describe('EPUB analysis per fixture', () => {
  it.each(rows)('$file', async (row) => {
    if (row.error) {
      await expect(analyzeEpub(epub(row.file))).rejects.toSatisfy(
        (e) => e instanceof MediaError && e.code === row.error,
      );
      return;
    }
    const a = await analyzeEpub(epub(row.file), { analyzeDimensions: true });
    expect(a.resources.filter((r) => r.subType === 'EPUB_PAGE')).toHaveLength(row.spine!);
    expect(a.resources).toHaveLength(row.resources!);
    expect([a.toc.length, countAll(a.toc)]).toEqual(row.toc);
    expect(a.pageList).toHaveLength(row.pageList!);
    expect(a.landmarks).toHaveLength(row.landmarks!);
    expect(a.isFixedLayout).toBe(row.fixed);
    expect(a.positions.length).toBeGreaterThan(0);
    expect(a.positions).toHaveLength(row.positions!);
    expect(a.pageCount).toBe(row.pages);
    expect(a.divinaPages).toHaveLength(row.divina!);
    expect(a.divinaCompatible).toBe(row.divina! > 0);
    expect(a.comment).toBe(row.comment ?? '');
    if (row.cover !== undefined) expect(a.coverPath).toBe(row.cover);
    // positions: numbered 1..N, totalProgression = position / N
    const last = a.positions.at(-1)!;
    expect(last.locations.position).toBe(a.positions.length);
    expect(last.locations.totalProgression).toBe(1);
    expect(a.positions[0]!.locations.totalProgression).toBeCloseTo(1 / a.positions.length);
    expect(a.positions[0]!.koboSpan).toBe('kobo.1.1');
  });
});

describe('EPUB details', () => {
  it('epub3.epub Divina pages are the images with their dimensions', async () => {
    const a = await analyzeEpub(epub('epub3.epub'), { analyzeDimensions: true });
    expect(a.divinaPages.map((p) => [p.fileName, p.mediaType])).toEqual([
      ['cover.jpeg', 'image/jpeg'],
      ['0_0.png', 'image/png'],
    ]);
    expect(a.divinaPages[1]).toMatchObject({ width: 38, height: 38, fileSize: 2593 });
    expect(a.positions.every((p) => p.locations.progression === 0 && p.koboSpan === 'kobo.1.1')).toBe(true);
  });

  it('reflowable positions split resources per 1024 uncompressed bytes', async () => {
    const a = await analyzeEpub(epub('SmokeTest-EPUB2.epub'));
    const pages = a.resources.filter((r) => r.subType === 'EPUB_PAGE');
    const counts = pages.map((p) => a.positions.filter((l) => l.href === p.fileName).length);
    expect(counts).toEqual(pages.map((p) => Math.max(1, Math.ceil(p.fileSize! / 1024))));
    const second = a.positions.find((l) => l.href === pages[0]!.fileName && l.locations.progression > 0);
    if (second) expect(second.koboSpan).toBeUndefined();
  });

  it('KEPUB positions take the koboSpan whose end tag is nearest, spans nested inside one included', async () => {
    const head =
      '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>k</title></head><body><p>';
    const span = (id: string, inner: string) => `<span class="koboSpan" id="${id}">${inner}</span>`;
    const chapter = [
      head,
      span('kobo.1.1', 'a'.repeat(1000)),
      // the first </span> after its start tag closes the italic span inside it, not the koboSpan
      span('kobo.1.2', `<span class="italic">${'b'.repeat(1000)}</span>${'c'.repeat(1000)}`),
      span('kobo.1.3', 'd'.repeat(500)),
      '</p></body></html>',
    ].join('');
    // 3,797 bytes: 4 positions, at 0, 1/4, 1/2 and 3/4; the spans end at 30.6%, 85.2% and 99.5% of the file
    expect(chapter.length).toBe(3797);
    const file = join(await mkdtemp(join(tmpdir(), 'quire-kepub-')), 'kepub.epub');
    await writeFile(file, oneChapterEpub(chapter));
    const a = await analyzeEpub(file);
    expect(a.isKepub).toBe(true);
    expect(a.positions.map((p) => [p.locations.progression, p.koboSpan])).toEqual([
      [0, 'kobo.1.1'],
      [0.25, 'kobo.1.1'], // 30.6%
      [0.5, 'kobo.1.1'], // 30.6% is nearer than 85.2% (the italic span's end, 58.7%, would be nearer)
      [0.75, 'kobo.1.2'], // 85.2%
    ]);
    await rm(dirname(file), { recursive: true, force: true });
  });

  it('TOC hrefs are resolved against the nav / NCX folder and keep fragments', async () => {
    const a = await analyzeEpub(
      epub('The Golden Harpoon; Or, Lost Among the Floes A Story of the Whaling Grounds.epub'),
    );
    expect(a.toc[0]!.href).toMatch(/^OEBPS\//);
    expect(a.pageList.some((p) => p.href?.includes('#'))).toBe(true);
    const k = await analyzeEpub(epub('kusamakura-japanese-vertical-writing.epub'));
    expect(k.resources.map((r) => r.fileName)).toContain('OPS/xhtml/一.xhtml');
  });

  it('cover bytes come from the OPF cover item, else none', async () => {
    const c = await getEpubCover(epub('The Incomplete Theft - Ralph Burke.epub'));
    expect(c?.mediaType).toBe('image/jpeg');
    expect(c?.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(await getEpubCover(epub('large-tables.epub'))).toBeNull();
  });

  it('missing file → ERR_1018', async () => {
    await expect(analyzeEpub(epub('does-not-exist.epub'))).rejects.toMatchObject({ code: 'ERR_1018' });
  });
});

describe('EPUB resources', () => {
  const book = epub('The Incomplete Theft - Ralph Burke.epub');

  it('reads a manifest resource by exact path', async () => {
    const a = await analyzeEpub(book);
    const css = a.resources.find((r) => r.mediaType === 'text/css')!;
    const res = await readEpubResource(book, css.fileName);
    expect(res?.mediaType).toBe('text/css');
    expect(res?.bytes.length).toBe(css.fileSize);
  });

  it('matches names case-sensitively and only known resources', async () => {
    const a = await analyzeEpub(book);
    const page = a.resources.find((r) => r.subType === 'EPUB_PAGE')!;
    expect(await readEpubResource(book, page.fileName.toUpperCase())).toBeNull();
    // present in the zip but not a manifest resource
    expect(await readEpubResource(book, 'META-INF/container.xml')).toBeNull();
    expect(await readEpubResource(book, 'mimetype')).toBeNull();
  });

  it.each(['../secret', 'a/../../b', '/etc/passwd', 'C:/x', 'a\\..\\b', './content.opf', 'a//b', 'x\u0000y', ''])(
    'refuses path %j',
    async (path) => {
      await expect(readEpubResource(book, path)).rejects.toBeInstanceOf(UnsafeResourcePathError);
    },
  );
});

describe('WebPub manifest', () => {
  const baseUrl = 'https://example.org/komga';
  const bookInput = (id: string) => ({
    id,
    title: 'A title',
    summary: 'A summary',
    isbn: '9780316000000',
    tags: ['sea'],
    releaseDate: '2020-01-02',
    lastModified: '2024-05-06T07:08:09Z',
    pagesCount: 3,
    authors: [
      { name: 'Herman', role: 'writer' },
      { name: 'Auth', role: 'author' },
      { name: 'Pen', role: 'penciller' },
    ],
    seriesTitle: 'Series',
    numberSort: 1,
    language: 'en',
    readingDirection: 'RIGHT_TO_LEFT' as const,
  });

  it.each(['moby-dick.epub', 'page-blanche.epub', 'epub3.epub', 'kusamakura-japanese-vertical-writing.epub'])(
    '%s validates against WPPublicationDto',
    async (file) => {
      const a = await analyzeEpub(epub(file));
      const manifest = buildEpubWebPubManifest(
        `${baseUrl}/api/v1`,
        { ...bookInput('B1'), epubDivinaCompatible: a.divinaCompatible },
        {
          files: a.resources,
          toc: a.toc,
          landmarks: a.landmarks,
          pageList: a.pageList,
          isFixedLayout: a.isFixedLayout,
        },
      );
      expectSchema('WPPublicationDto', JSON.parse(JSON.stringify(manifest)));
      expect(manifest.context).toBe('https://readium.org/webpub-manifest/context.jsonld');
      expect(manifest.readingOrder).toHaveLength(a.resources.filter((r) => r.subType === 'EPUB_PAGE').length);
      expect(manifest.resources[0]).toMatchObject({ href: `${baseUrl}/api/v1/books/B1/thumbnail`, type: 'image/jpeg' });
      expect(manifest.metadata.rendition).toEqual({ layout: a.isFixedLayout ? 'fixed' : 'reflowable' });
      expect(manifest.links[0]).toMatchObject({
        rel: 'self',
        href: `${baseUrl}/api/v1/books/B1/manifest`,
        type: 'application/webpub+json',
      });
      expect(manifest.links.some((l) => l.href?.endsWith('/manifest/divina'))).toBe(a.divinaCompatible);
      expect(manifest.metadata).toMatchObject({
        identifier: 'urn:isbn:9780316000000',
        conformsTo: 'https://readium.org/webpub-manifest/profiles/epub',
        readingProgression: 'rtl',
        author: ['Auth'],
        penciler: ['Pen'],
        contributor: ['Herman'],
      });
    },
  );

  it('rebases TOC hrefs on the resource URL, keeping fragments and encoding paths', async () => {
    const a = await analyzeEpub(epub('kusamakura-japanese-vertical-writing.epub'));
    const m = buildEpubWebPubManifest(`${baseUrl}/api/v1`, bookInput('B2'), {
      files: a.resources,
      toc: a.toc,
      landmarks: a.landmarks,
      pageList: a.pageList,
      isFixedLayout: false,
    });
    expect(m.toc[0]!.href).toMatch(
      /^https:\/\/example\.org\/komga\/api\/v1\/books\/B2\/resource\/OPS\/xhtml\/%E[0-9A-F%]+\.xhtml/,
    );
    expect(m.readingOrder[0]!.href).toBe(
      `${baseUrl}/api/v1/books/B2/resource/OPS/xhtml/${encodeURIComponent('表紙')}.xhtml`,
    );
    const g = await analyzeEpub(
      epub('The Golden Harpoon; Or, Lost Among the Floes A Story of the Whaling Grounds.epub'),
    );
    const mg = buildEpubWebPubManifest(`${baseUrl}/api/v1`, bookInput('B3'), {
      files: g.resources,
      toc: g.toc,
      landmarks: g.landmarks,
      pageList: g.pageList,
      isFixedLayout: false,
    });
    expect(mg.pageList.some((p) => /\.x?html#.+$/.test(p.href ?? ''))).toBe(true);
  });
});

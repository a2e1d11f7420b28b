import { imageDimensions } from '../images.js';
import { imageHeaderReadable } from '../page-check.js';
import { EpubNavigation, type EpubTocEntry } from './nav.js';
import { coverItem, declaresFixedLayout, withEpub, type EpubPackage } from './package.js';
import { decodeHref, dirOf, normalizeHref, stripFragment } from './paths.js';
import { attr, descendants, elementEnds, firstDescendant, normalizedText, parseMarkup } from '../markup.js';

/** `komga.epub-divina-letter-count-threshold`: more body characters than this on a page → not Divina. */
export const DIVINA_LETTER_COUNT_THRESHOLD = 15;

/** A resource of the EPUB (`Media.files`). */
export interface EpubResource {
  /** Zip entry path (decoded, relative to the EPUB root): the name the resource endpoint serves. */
  fileName: string;
  mediaType: string;
  subType: 'EPUB_PAGE' | 'EPUB_ASSET';
  /** Uncompressed size, null when the entry is missing from the zip. */
  fileSize: number | null;
}

/** A Divina page: one image per spine item. */
export interface EpubDivinaPage {
  fileName: string;
  mediaType: string;
  width?: number;
  height?: number;
  fileSize: number | null;
}

/** R2Locator as stored for /positions (api.md §4.7). */
export interface R2Locator {
  href: string;
  type: string;
  locations: { progression: number; position: number; totalProgression: number };
  koboSpan?: string;
}

export interface EpubAnalysis {
  /** Spine pages then other manifest items; resources missing from the zip are excluded. */
  resources: EpubResource[];
  /** Resources listed in the manifest but absent from the zip (comment ERR_1033 [names]). */
  missingResources: string[];
  toc: EpubTocEntry[];
  landmarks: EpubTocEntry[];
  pageList: EpubTocEntry[];
  isFixedLayout: boolean;
  positions: R2Locator[];
  /** Divina pages when every spine item is exactly one image, else empty. */
  divinaPages: EpubDivinaPage[];
  divinaCompatible: boolean;
  isKepub: boolean;
  /** Divina page count, else sum over spine entries of ceil(compressedSize / 1024). */
  pageCount: number;
  /** Sub-failure codes, space separated (e.g. `ERR_1033 [OPS/audio/a.mp3]`); empty when none. */
  comment: string;
  /** Manifest path of the cover image (engine.md §4.3), null if none. */
  coverPath: string | null;
}

/** Resources in `Media.files` order: spine items (EPUB_PAGE) then the other manifest items (EPUB_ASSET). */
export function epubResources(epub: EpubPackage): EpubResource[] {
  const inSpine = new Set(epub.spine);
  const res = (path: string, mediaType: string, subType: EpubResource['subType']): EpubResource => ({
    fileName: path,
    mediaType,
    subType,
    fileSize: epub.zip.get(path)?.size ?? null,
  });
  return [
    ...epub.spine.map((i) => res(i.path, i.mediaType, 'EPUB_PAGE')),
    ...epub.items.filter((i) => !inSpine.has(i)).map((i) => res(i.path, i.mediaType, 'EPUB_ASSET')),
  ];
}

/** Parses one spine XHTML page as HTML, like Jsoup does. */
async function parsePage(epub: EpubPackage, path: string) {
  return parseMarkup(await epub.zip.readText(path), { html: true });
}

/**
 * Divina detection (engine.md §4.3): every spine item must be an image or an XHTML page with at most
 * {@link DIVINA_LETTER_COUNT_THRESHOLD} characters of text and exactly one distinct image
 * (`img@src`, `svg > image@xlink:href`), each image a manifest item typed image/*.
 */
export async function divinaPages(epub: EpubPackage, analyzeDimensions: boolean): Promise<EpubDivinaPage[]> {
  const pageCount = epub.spine.filter((i) => epub.zip.has(i.path)).length;
  if (pageCount === 0) return [];
  const perPage: string[][] = [];
  for (const item of epub.spine) {
    if (item.mediaType.startsWith('image')) {
      perPage.push([item.path]);
      continue;
    }
    const doc = await parsePage(epub, item.path); // throws if missing → caller maps to ERR_1038
    const body = firstDescendant(doc, 'body') ?? doc;
    if (normalizedText(body).length > DIVINA_LETTER_COUNT_THRESHOLD) return [];
    const srcs = [
      ...descendants(doc, 'img').map((i) => attr(i, 'src')),
      ...descendants(doc, 'image')
        .filter((i) => i.parent?.local === 'svg')
        .map((i) => i.attrs['xlink:href']),
    ].filter((s): s is string => s !== undefined && s !== '');
    const dir = dirOf(item.path);
    perPage.push([...new Set(srcs.map((s) => stripFragment(normalizeHref(dir, decodeHref(s)))))]);
  }
  if (perPage.length !== pageCount) return [];
  const images = perPage.flat();
  if (images.length !== pageCount) return [];
  const pages: EpubDivinaPage[] = [];
  // first manifest item of each path, as a find() would give (one lookup per page, not a scan of the manifest)
  const byPath = new Map<string, (typeof epub.items)[number]>();
  for (const i of epub.items) if (!byPath.has(i.path)) byPath.set(i.path, i);
  for (const path of images) {
    const item = byPath.get(path);
    if (!item || !item.mediaType.startsWith('image/')) return [];
    const entry = epub.zip.get(path);
    const page: EpubDivinaPage = { fileName: path, mediaType: item.mediaType, fileSize: entry?.size ?? null };
    if (analyzeDimensions && entry) {
      const dim = imageDimensions(await epub.zip.read(path));
      if (dim) Object.assign(page, dim);
    }
    pages.push(page);
  }
  return pages;
}

/**
 * Resources whose entry cannot be read whole (damaged data, CRC mismatch): left out of `Media.files` and reported as
 * ERR_1007, so that every resource a READY book lists can be served (issue 11).
 */
async function unreadableResources(epub: EpubPackage, resources: readonly EpubResource[]): Promise<Set<string>> {
  const unreadable = new Set<string>();
  for (const r of resources) {
    try {
      await epub.zip.readChecked(r.fileName);
    } catch {
      unreadable.add(r.fileName);
    }
  }
  return unreadable;
}

/** KEPUB: a spine page contains an element with class koboSpan. */
async function detectKepub(epub: EpubPackage, pages: EpubResource[]): Promise<boolean> {
  for (const p of pages) {
    if (p.fileSize === null) continue;
    const text = await epub.zip.readText(p.fileName);
    if (/class\s*=\s*["'][^"']*\bkoboSpan\b/.test(text)) return true;
  }
  return false;
}

/** koboSpan ids of a KEPUB page with the relative byte offset where each span ends. */
function koboSpans(bytes: Buffer): { id: string; end: number }[] {
  // latin1: one character per byte, so that offsets are byte offsets whatever the encoding
  const html = bytes.toString('latin1');
  const spans = elementEnds(
    html,
    (name, attrs) => name === 'span' && /\bkoboSpan\b/.test(attrs.class ?? '') && !!attrs.id,
  );
  return spans.map(({ attrs, end }) => ({ id: attrs.id!, end: end / Math.max(1, html.length) }));
}

/**
 * Readium positions (engine.md §4.3). Fixed layout: one per spine page. Reflowable: per spine resource
 * max(1, ceil(uncompressedSize / 1024)) positions. totalProgression = position / total.
 */
export async function computePositions(
  epub: EpubPackage,
  resources: EpubResource[],
  isFixedLayout: boolean,
  isKepub: boolean,
): Promise<R2Locator[]> {
  const readingOrder = resources.filter((r) => r.subType === 'EPUB_PAGE');
  const raw: { href: string; type: string; progression: number; position: number; koboSpan?: string }[] = [];
  let position = 1;
  for (const file of readingOrder) {
    const type = file.mediaType || 'application/octet-stream';
    if (isFixedLayout) {
      raw.push({ href: file.fileName, type, progression: 0, position: position++, koboSpan: 'kobo.1.1' });
      continue;
    }
    const count = Math.max(1, Math.ceil((file.fileSize ?? 0) / 1024));
    const spans = isKepub && count > 1 && file.fileSize !== null ? koboSpans(await epub.zip.read(file.fileName)) : [];
    for (let p = 0; p < count; p++) {
      const progression = p / count;
      let koboSpan: string | undefined;
      if (p === 0) koboSpan = 'kobo.1.1';
      else if (spans.length > 0) {
        koboSpan = spans.reduce((best, s) =>
          Math.abs(s.end - progression) < Math.abs(best.end - progression) ? s : best,
        ).id;
      }
      raw.push({ href: file.fileName, type, progression, position: position++, ...(koboSpan ? { koboSpan } : {}) });
    }
  }
  const total = raw.length;
  return raw.map(({ href, type, progression, position: pos, koboSpan }) => ({
    href,
    type,
    locations: { progression, position: pos, totalProgression: pos / total },
    ...(koboSpan ? { koboSpan } : {}),
  }));
}

/** Sum over spine zip entries (each counted once) of ceil(compressedSize / 1024). */
function compressedPageCount(epub: EpubPackage): number {
  const spinePaths = new Set(epub.spine.map((i) => i.path));
  return epub.zip.entries
    .filter((e) => spinePaths.has(e.name))
    .reduce((sum, e) => sum + Math.ceil(e.compressedSize / 1024), 0);
}

async function attempt<T>(codes: string[], code: string, fallback: T, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch {
    codes.push(code);
    return fallback;
  }
}

/**
 * Analyses an EPUB (engine.md §4.3). Throws MediaError ERR_1032 (wrong mimetype), ERR_1005 (unreadable
 * container/OPF), ERR_1018 (missing file); every other sub-failure only adds a code to `comment`.
 */
export async function analyzeEpub(file: string, opts: { analyzeDimensions?: boolean } = {}): Promise<EpubAnalysis> {
  return withEpub(file, async (epub) => {
    const codes: string[] = [];
    const all = epubResources(epub);
    const present = all.filter((r) => r.fileSize !== null);
    const missingResources = all.filter((r) => r.fileSize === null).map((r) => r.fileName);
    if (missingResources.length > 0) codes.push(`ERR_1033 [${missingResources.join(', ')}]`);
    const unreadable = await unreadableResources(epub, present);
    if (unreadable.size > 0) codes.push(`ERR_1007 [${[...unreadable].join(', ')}]`);
    const resources = present.filter((r) => !unreadable.has(r.fileName));

    const nav = new EpubNavigation(epub);
    const toc = await attempt(codes, 'ERR_1035', [], () => nav.toc());
    const landmarks = await attempt(codes, 'ERR_1036', [], () => nav.landmarks());
    const pageList = await attempt(codes, 'ERR_1037', [], () => nav.pageList());
    const divina = await attempt(codes, 'ERR_1038', [], async () => {
      const pages = await divinaPages(epub, opts.analyzeDimensions ?? false);
      // a page that cannot be shown makes the book not Divina, like any other mismatch (engine.md §4.3)
      for (const p of pages)
        if (unreadable.has(p.fileName) || !(await imageHeaderReadable(await epub.zip.read(p.fileName)))) return [];
      return pages;
    });
    const isFixedLayout = divina.length > 0 || declaresFixedLayout(epub);
    const isKepub = await detectKepub(
      epub,
      resources.filter((r) => r.subType === 'EPUB_PAGE'),
    ).catch(() => false);
    const positions = await attempt(codes, 'ERR_1039', [], () =>
      computePositions(epub, resources, isFixedLayout, isKepub),
    );
    const cover = coverItem(epub);
    return {
      resources,
      missingResources,
      toc,
      landmarks,
      pageList,
      isFixedLayout,
      positions,
      divinaPages: divina,
      divinaCompatible: divina.length > 0,
      isKepub,
      pageCount: divina.length > 0 ? divina.length : compressedPageCount(epub),
      comment: codes.join(' '),
      coverPath: cover?.path ?? divina[0]?.fileName ?? null,
    };
  });
}

/** Cover bytes (engine.md §4.3 / §7.1): OPF cover item, else first Divina page; null if none. */
export async function getEpubCover(file: string): Promise<{ bytes: Buffer; mediaType: string } | null> {
  return withEpub(file, async (epub) => {
    const item = coverItem(epub);
    if (item && epub.zip.has(item.path)) return { bytes: await epub.zip.read(item.path), mediaType: item.mediaType };
    const first = (await divinaPages(epub, false).catch(() => []))[0];
    if (first) return { bytes: await epub.zip.read(first.fileName), mediaType: first.mediaType };
    return null;
  });
}

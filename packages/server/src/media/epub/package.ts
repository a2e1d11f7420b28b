import { checkManifestItems, checkSpineItems } from '../limits.js';
import { MediaError } from '../types.js';
import { decodeHref, dirOf, normalizeHref, stripFragment } from './paths.js';
import {
  attr,
  childrenNamed,
  descendants,
  firstDescendant,
  normalizedText,
  parseMarkup,
  type XNode,
} from '../markup.js';
import { ZipArchive } from './zip.js';

export const EPUB_MIMETYPE = 'application/epub+zip';

export interface ManifestItem {
  id: string;
  /** href as written in the OPF. */
  href: string;
  /** Zip entry path: href percent-decoded, resolved against the OPF folder, fragment removed. */
  path: string;
  mediaType: string;
  properties: ReadonlySet<string>;
}

/** An opened EPUB: its zip, parsed OPF and manifest. Close `zip` when done (or use {@link withEpub}). */
export interface EpubPackage {
  zip: ZipArchive;
  opfPath: string;
  /** Folder of the OPF ('' at the root): the base for manifest hrefs. */
  opfDir: string;
  opf: XNode;
  /** Manifest items in document order. */
  items: ManifestItem[];
  byId: ReadonlyMap<string, ManifestItem>;
  /** Spine itemrefs resolved to manifest items (unknown idrefs dropped), in order. */
  spine: ManifestItem[];
  /** `spine@page-progression-direction` when given. */
  pageProgressionDirection: 'ltr' | 'rtl' | null;
}

/** True when the container has a `mimetype` entry whose trimmed text is exactly `application/epub+zip`. */
export async function hasEpubMimetype(zip: ZipArchive): Promise<boolean> {
  if (!zip.has('mimetype')) return false;
  try {
    return (await zip.read('mimetype', 4096)).toString('utf8').trim() === EPUB_MIMETYPE;
  } catch {
    return false;
  }
}

/** The first `rootfile@full-path` of META-INF/container.xml. */
export async function packagePath(zip: ZipArchive): Promise<string> {
  if (!zip.has('META-INF/container.xml')) throw new MediaError('ERR_1005', 'META-INF/container.xml not found');
  const container = parseMarkup(await zip.readText('META-INF/container.xml'));
  const full = descendants(container, 'rootfile')
    .map((r) => attr(r, 'full-path'))
    .find((p) => p !== undefined);
  if (!full) throw new MediaError('ERR_1005', 'META-INF/container.xml does not contain a rootfile');
  return full;
}

/**
 * Opens an EPUB. Wrong/missing `mimetype` → ERR_1032 (engine.md §4.1: a `.epub` that is not an EPUB,
 * e.g. zip-as-epub.epub); unreadable zip, missing container or OPF → ERR_1005; missing file → ERR_1018.
 */
export async function openEpub(file: string): Promise<EpubPackage> {
  const zip = await ZipArchive.open(file);
  try {
    if (!(await hasEpubMimetype(zip))) {
      throw new MediaError('ERR_1032', 'EPUB has wrong media type (no mimetype entry with application/epub+zip)');
    }
    const opfPath = decodeHref(await packagePath(zip));
    if (!zip.has(opfPath)) throw new MediaError('ERR_1005', `Could not open OPF resource ${opfPath}`);
    const opf = parseMarkup(await zip.readText(opfPath));
    const opfDir = dirOf(opfPath);
    const manifestEl = firstDescendant(opf, 'manifest');
    const items: ManifestItem[] = [];
    const byId = new Map<string, ManifestItem>();
    const manifestEls = manifestEl ? childrenNamed(manifestEl, 'item') : [];
    checkManifestItems(manifestEls.length);
    for (const el of manifestEls) {
      const href = attr(el, 'href') ?? '';
      const item: ManifestItem = {
        id: attr(el, 'id') ?? '',
        href,
        path: stripFragment(normalizeHref(opfDir, decodeHref(href))),
        mediaType: attr(el, 'media-type') ?? '',
        properties: new Set((attr(el, 'properties') ?? '').split(/\s+/).filter(Boolean)),
      };
      items.push(item);
      // like a Kotlin associate(): the last item with a given id wins
      byId.set(item.id, item);
    }
    const spineEl = firstDescendant(opf, 'spine');
    const itemrefs = spineEl ? childrenNamed(spineEl, 'itemref') : [];
    // Before any per-item work: every later step (Divina pages, positions, KEPUB detection) is per spine item.
    checkSpineItems(itemrefs.length);
    const spine = itemrefs
      .map((r) => byId.get(attr(r, 'idref') ?? ''))
      .filter((i): i is ManifestItem => i !== undefined);
    const ppd = spineEl ? attr(spineEl, 'page-progression-direction') : undefined;
    return {
      zip,
      opfPath,
      opfDir,
      opf,
      items,
      byId,
      spine,
      pageProgressionDirection: ppd === 'rtl' || ppd === 'ltr' ? ppd : null,
    };
  } catch (e) {
    zip.close();
    throw e;
  }
}

export async function withEpub<T>(file: string, fn: (epub: EpubPackage) => Promise<T>): Promise<T> {
  const epub = await openEpub(file);
  try {
    return await fn(epub);
  } finally {
    epub.zip.close();
  }
}

/** `<meta>` children of the OPF `<metadata>`. */
export function metadataMetas(epub: EpubPackage): XNode[] {
  const metadata = firstDescendant(epub.opf, 'metadata');
  return metadata ? childrenNamed(metadata, 'meta') : [];
}

/** OPF `rendition:layout` = pre-paginated, or `meta[name=fixed-layout][content=true]`. */
export function declaresFixedLayout(epub: EpubPackage): boolean {
  return metadataMetas(epub).some(
    (m) =>
      (attr(m, 'property') === 'rendition:layout' && normalizedText(m) === 'pre-paginated') ||
      (attr(m, 'name') === 'fixed-layout' && attr(m, 'content') === 'true'),
  );
}

/**
 * The cover manifest item (engine.md §4.3): property `cover-image`; else EPUB 2 `meta[name=cover]@content`
 * as a manifest id; else the manifest id `cover-image`.
 */
export function coverItem(epub: EpubPackage): ManifestItem | undefined {
  const byProperty = epub.items.find((i) => i.properties.has('cover-image'));
  if (byProperty) return byProperty;
  const metaCover = metadataMetas(epub).find((m) => attr(m, 'name') === 'cover');
  const content = metaCover ? attr(metaCover, 'content')?.trim() : undefined;
  if (content && epub.byId.has(content)) return epub.byId.get(content);
  return epub.byId.get('cover-image');
}

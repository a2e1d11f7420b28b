import type { EpubPackage, ManifestItem } from './package.js';
import { decodeHref, dirOf, normalizeHref } from './paths.js';
import {
  attr,
  childrenNamed,
  descendants,
  elements,
  firstChild,
  firstDescendant,
  normalizedText,
  parseMarkup,
  type XNode,
} from '../markup.js';

/** A TOC / landmarks / page-list entry; `href` is a zip path (fragment kept) relative to the EPUB root. */
export interface EpubTocEntry {
  title: string;
  href: string | null;
  children: EpubTocEntry[];
}

type NavType = 'toc' | 'landmarks' | 'page-list';

/** The EPUB 3 navigation document: manifest item with property `nav`. */
export function navItem(epub: EpubPackage): ManifestItem | undefined {
  return epub.items.find((i) => i.properties.has('nav'));
}

/** The EPUB 2 NCX: media type application/x-dtbncx+xml, else manifest id toc/ncx/ncxtoc. */
export function ncxItem(epub: EpubPackage): ManifestItem | undefined {
  return (
    epub.items.find((i) => i.mediaType === 'application/x-dtbncx+xml') ??
    epub.items.find((i) => ['toc', 'ncx', 'ncxtoc'].includes(i.id))
  );
}

interface LoadedDoc {
  dir: string;
  root: XNode;
}

async function load(epub: EpubPackage, item: ManifestItem | undefined, html: boolean): Promise<LoadedDoc | null> {
  if (!item || !epub.zip.has(item.path)) return null;
  return { dir: dirOf(item.path), root: parseMarkup(await epub.zip.readText(item.path), { html }) };
}

function navLi(li: XNode, dir: string): EpubTocEntry | null {
  const label = elements(li).find((c) => c.local === 'a' || c.local === 'span');
  if (!label) return null;
  const a = firstChild(li, 'a');
  const rawHref = a ? attr(a, 'href') : undefined;
  const children = childrenNamed(li, 'ol')
    .flatMap((ol) => childrenNamed(ol, 'li'))
    .map((c) => navLi(c, dir))
    .filter((c): c is EpubTocEntry => c !== null);
  return {
    title: normalizedText(label),
    href: rawHref !== undefined && rawHref !== '' ? normalizeHref(dir, decodeHref(rawHref)) : null,
    children,
  };
}

function processNav(doc: LoadedDoc, type: NavType): EpubTocEntry[] {
  const nav = descendants(doc.root, 'nav').find((n) =>
    Object.entries(n.attrs).some(([k, v]) => k.endsWith('type') && v.split(/\s+/).includes(type)),
  );
  if (!nav) return [];
  return childrenNamed(nav, 'ol')
    .flatMap((ol) => childrenNamed(ol, 'li'))
    .map((li) => navLi(li, doc.dir))
    .filter((e): e is EpubTocEntry => e !== null);
}

function ncxPoint(el: XNode, level2: string, dir: string): EpubTocEntry | null {
  const label = firstDescendant(el, 'navLabel');
  const text = label ? firstDescendant(label, 'text') : undefined;
  if (!text) return null;
  const content = firstDescendant(el, 'content');
  const src = content ? attr(content, 'src') : undefined;
  return {
    title: normalizedText(text),
    href: src !== undefined && src !== '' ? normalizeHref(dir, decodeHref(src)) : null,
    children: childrenNamed(el, level2)
      .map((c) => ncxPoint(c, level2, dir))
      .filter((c): c is EpubTocEntry => c !== null),
  };
}

function processNcx(doc: LoadedDoc, level1: string, level2: string): EpubTocEntry[] {
  return descendants(doc.root, level1)
    .flatMap((l1) => childrenNamed(l1, level2))
    .map((p) => ncxPoint(p, level2, doc.dir))
    .filter((e): e is EpubTocEntry => e !== null);
}

function processGuide(epub: EpubPackage): EpubTocEntry[] {
  const guide = firstDescendant(epub.opf, 'guide');
  if (!guide) return [];
  return descendants(guide, 'reference').map((ref) => {
    const href = attr(ref, 'href');
    return {
      title: attr(ref, 'title') ?? '',
      href: href ? normalizeHref(epub.opfDir, decodeHref(href)) : null,
      children: [],
    };
  });
}

/** Lazily parsed nav/NCX documents of one EPUB. */
export class EpubNavigation {
  private navDoc: Promise<LoadedDoc | null> | undefined;
  private ncxDoc: Promise<LoadedDoc | null> | undefined;

  constructor(private readonly epub: EpubPackage) {}

  private nav() {
    return (this.navDoc ??= load(this.epub, navItem(this.epub), true));
  }

  private ncx() {
    return (this.ncxDoc ??= load(this.epub, ncxItem(this.epub), false));
  }

  /** EPUB 3 nav `toc`; if missing or empty, the NCX `navMap`. */
  async toc(): Promise<EpubTocEntry[]> {
    const nav = await this.nav();
    const fromNav = nav ? processNav(nav, 'toc') : [];
    if (fromNav.length > 0) return fromNav;
    const ncx = await this.ncx();
    return ncx ? processNcx(ncx, 'navMap', 'navPoint') : [];
  }

  /** EPUB 3 nav `page-list`; if missing or empty, the NCX `pageList`. */
  async pageList(): Promise<EpubTocEntry[]> {
    const nav = await this.nav();
    const fromNav = nav ? processNav(nav, 'page-list') : [];
    if (fromNav.length > 0) return fromNav;
    const ncx = await this.ncx();
    return ncx ? processNcx(ncx, 'pageList', 'pageTarget') : [];
  }

  /** EPUB 3 nav `landmarks`; if missing or empty, the OPF `<guide>`. */
  async landmarks(): Promise<EpubTocEntry[]> {
    const nav = await this.nav();
    const fromNav = nav ? processNav(nav, 'landmarks') : [];
    if (fromNav.length > 0) return fromNav;
    return processGuide(this.epub);
  }
}

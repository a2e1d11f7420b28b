import { HttpFetcher, Locator, Manifest, Publication } from '@readium/shared';
import type { IEpubPreferences } from '@readium/navigator';
import type { EpubReaderPreferences } from '../../../app/preferences';
import type { R2PositionsDto, R2ProgressionDto, WPPublicationDto } from '../../../api/reader';

/**
 * The server's Readium manifest made into what the Readium navigator works with. The server gives absolute resource
 * URLs in the manifest but plain file paths in positions and progressions (as Komga does); here every href becomes
 * the path relative to the book's `/resource/` base, so manifest, positions and saved progressions match, and the
 * progression sent back names the file as other Komga clients expect.
 */

const RESOURCE_PATH = /\/api\/v1\/books\/[^/]+\/resource\/(.*)$/;

/** An href relative to the resource base (fragment kept); hrefs outside the book's resources are left alone. */
export function relativeHref(href: string): string {
  const match = RESOURCE_PATH.exec(href);
  return match ? match[1]! : href;
}

function decodeSegments(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}

/** The file an href points at, decoded and without fragment: what positions and progressions name. */
export function resourcePath(href: string): string {
  return decodeSegments(relativeHref(href).split('#')[0]!);
}

interface LinkJson {
  href?: string;
  children?: LinkJson[];
  alternate?: LinkJson[];
  [key: string]: unknown;
}

function rebase(links: LinkJson[] | undefined): LinkJson[] | undefined {
  return links?.map((l) => ({
    ...l,
    ...(l.href ? { href: relativeHref(l.href) } : {}),
    ...(l.children ? { children: rebase(l.children) } : {}),
    ...(l.alternate ? { alternate: rebase(l.alternate) } : {}),
  }));
}

export type DirectionOverride = EpubReaderPreferences['direction'];

/** The manifest with hrefs relative to `resourceBase`, its layout where Readium looks for it, and the direction. */
export function readiumManifestJson(
  manifest: WPPublicationDto,
  resourceBase: string,
  direction: DirectionOverride,
): Record<string, unknown> {
  const metadata: Record<string, unknown> = { ...manifest.metadata };
  const layout = (manifest.metadata.rendition as { layout?: unknown } | undefined)?.layout;
  if (layout === 'fixed' || layout === 'reflowable') metadata.layout = layout;
  if (direction !== 'auto') metadata.readingProgression = direction;
  return {
    '@context': manifest.context,
    metadata,
    links: [
      { rel: 'self', href: `${resourceBase}manifest.json`, type: 'application/webpub+json' },
      ...manifest.links.filter((l) => l.rel !== 'self'),
    ],
    readingOrder: rebase(manifest.readingOrder as LinkJson[]),
    resources: rebase(manifest.resources as LinkJson[]),
    toc: rebase(manifest.toc as LinkJson[]),
    landmarks: rebase(manifest.landmarks as LinkJson[]),
    pageList: rebase(manifest.pageList as LinkJson[]),
  };
}

export function toPublication(manifest: WPPublicationDto, resourceBase: string, direction: DirectionOverride) {
  const parsed = Manifest.deserialize(readiumManifestJson(manifest, resourceBase, direction));
  if (!parsed) throw new Error('The book manifest could not be read');
  return new Publication({ manifest: parsed, fetcher: new HttpFetcher(undefined, resourceBase) });
}

/** href in the publication's reading order for a file path, or undefined when the book has no such resource. */
export function readingOrderHref(pub: Publication, href: string): string | undefined {
  const path = resourcePath(href);
  return pub.readingOrder.items.find((l) => resourcePath(l.href) === path)?.href;
}

export function toPositions(pub: Publication, positions: R2PositionsDto): Locator[] {
  const out: Locator[] = [];
  for (const p of positions.positions) {
    const href = readingOrderHref(pub, p.href);
    const locator = href ? Locator.deserialize({ ...p, href }) : undefined;
    if (locator) out.push(locator);
  }
  return out;
}

/** Where a saved progression points in this publication, or undefined when it points nowhere in it. */
export function progressionLocator(pub: Publication, progression: R2ProgressionDto | null): Locator | undefined {
  const saved = progression?.locator;
  if (!saved?.href) return undefined;
  const href = readingOrderHref(pub, saved.href);
  if (!href) return undefined;
  const locations = Object.fromEntries(
    Object.entries(saved.locations ?? {}).filter(([, v]) => v !== null && v !== undefined),
  );
  return Locator.deserialize({
    href,
    type: saved.type || 'application/xhtml+xml',
    title: saved.title ?? undefined,
    locations,
  });
}

/** Device named in progressions saved by this client. */
export const DEVICE = { id: 'quire-web', name: 'Quire web' } as const;

/** The progression to save for a navigator position. */
export function toProgression(locator: Locator, now = new Date()): R2ProgressionDto {
  const l = locator.locations;
  return {
    modified: now.toISOString(),
    device: { ...DEVICE },
    locator: {
      href: resourcePath(locator.href),
      type: locator.type,
      ...(locator.title ? { title: locator.title } : {}),
      locations: {
        fragments: l?.fragments ?? [],
        ...(l?.progression !== undefined ? { progression: l.progression } : {}),
        ...(l?.position !== undefined ? { position: l.position } : {}),
        ...(l?.totalProgression !== undefined ? { totalProgression: l.totalProgression } : {}),
      },
    },
  };
}

/** Page colours of the appearances (ui.md §11.7). */
export const APPEARANCES = {
  day: { background: '#ffffff', text: '#121212' },
  sepia: { background: '#faf4e8', text: '#121212' },
  night: { background: '#000000', text: '#fefefe' },
} as const;

/** Font families always offered, besides the publisher's and the server's. */
export const GENERIC_FONTS = ['serif', 'sans-serif', 'monospace'] as const;

/** Readium's font-family setting for a family: other than the generic ones, names are quoted (any name may be one). */
export function cssFontFamily(family: string | null): string | null {
  if (!family || (GENERIC_FONTS as readonly string[]).includes(family)) return family;
  return `"${family.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The navigator's preferences for the reader settings. */
export function navigatorPreferences(s: EpubReaderPreferences, fixedLayout: boolean): IEpubPreferences {
  const colours = APPEARANCES[s.appearance];
  return {
    backgroundColor: colours.background,
    textColor: colours.text,
    columnCount: s.columns === 'one' ? 1 : s.columns === 'two' ? 2 : null,
    scroll: !fixedLayout && s.layout === 'scroll',
    fontSize: s.fontSize / 100,
    lineHeight: s.lineHeight,
    fontFamily: cssFontFamily(s.fontFamily),
    pageGutter: Math.round(20 * s.pageMargins),
  };
}

export interface TocEntry {
  title: string;
  href: string;
  level: number;
}

/** A table of contents (or landmarks, page list) as one list, each entry with its depth. */
export function flattenToc(
  links: readonly { title?: string; href?: string; children?: unknown }[],
  level = 0,
): TocEntry[] {
  const out: TocEntry[] = [];
  for (const link of links) {
    if (link.href) out.push({ title: link.title || link.href, href: link.href, level });
    const children = link.children as { items?: unknown[] } | unknown[] | undefined;
    const list = Array.isArray(children) ? children : (children?.items ?? []);
    out.push(...flattenToc(list as { title?: string; href?: string }[], level + 1));
  }
  return out;
}

/** The entry of `entries` for the current position: the last one in the same resource, or before it. */
export function currentEntry(entries: readonly TocEntry[], readingOrder: readonly string[], href: string): number {
  const path = resourcePath(href);
  const index = readingOrder.findIndex((h) => resourcePath(h) === path);
  let best = -1;
  entries.forEach((e, i) => {
    const at = readingOrder.findIndex((h) => resourcePath(h) === resourcePath(e.href));
    if (at !== -1 && at <= index) best = i;
  });
  return best;
}

import { XMLBuilder } from 'fast-xml-parser';
import { xmlCharacters } from '../../../domain/text.js';

/*
 * The XML of OPDS 1.2 (api.md §7.1): Atom feeds with the Page Streaming Extension's namespace, and the OpenSearch
 * description. Written by fast-xml-parser's builder from plain objects, which escapes every text and attribute;
 * characters XML 1.0 cannot carry even escaped (a title read from a ComicInfo.xml may hold any) are dropped first.
 * Building a feed of 20 books takes it about a millisecond, a DOM builder (xmlbuilder2) ten.
 */

export const ATOM_NS = 'http://www.w3.org/2005/Atom';
export const PSE_NS = 'http://vaemendis.net/opds-pse/ns';
export const OPENSEARCH_NS = 'http://a9.com/-/spec/opensearch/1.1/';

export const NAVIGATION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=navigation';
export const ACQUISITION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=acquisition';
export const OPENSEARCH_TYPE = 'application/opensearchdescription+xml';
/** The OPDS 2 catalog's type, which the catalog's `alternate` link declares. */
export const OPDS2_TYPE = 'application/opds+json';

export const REL = {
  self: 'self',
  start: 'start',
  search: 'search',
  alternate: 'alternate',
  previous: 'previous',
  next: 'next',
  subsection: 'subsection',
  thumbnail: 'http://opds-spec.org/image/thumbnail',
  image: 'http://opds-spec.org/image',
  acquisition: 'http://opds-spec.org/acquisition',
  stream: 'http://vaemendis.net/opds-pse/stream',
} as const;

export interface AtomLink {
  rel: string;
  type: string;
  href: string;
}

/** The Page Streaming Extension's link: `{pageNumber}` stays literal in `href` (0-based, filled in by the app). */
export interface PseLink extends AtomLink {
  count: number;
  /** The stored 1-based page, when the caller has read some of the book. */
  lastRead?: number;
  /** `yyyy-MM-dd'T'HH:mm:ss'Z'`. */
  lastReadDate?: string;
}

export interface NavigationEntry {
  id: string;
  title: string;
  updated: string;
  content: string;
  href: string;
}

export interface AcquisitionEntry {
  id: string;
  title: string;
  updated: string;
  content: string;
  authors: string[];
  links: (AtomLink | PseLink)[];
}

export interface FeedHead {
  id: string;
  title: string;
  updated: string;
  links: AtomLink[];
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  suppressEmptyNode: true,
  processEntities: true,
});
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

const clean = xmlCharacters;

function link(l: AtomLink | PseLink): Record<string, string> {
  const el: Record<string, string> = { '@rel': clean(l.rel), '@type': clean(l.type), '@href': clean(l.href) };
  if ('count' in l) {
    el['@pse:count'] = String(l.count);
    if (l.lastRead !== undefined) el['@pse:lastRead'] = String(l.lastRead);
    if (l.lastReadDate !== undefined) el['@pse:lastReadDate'] = l.lastReadDate;
  }
  return el;
}

/** An empty <content/> is left out: r2-opds-js (Thorium) reads one as the text "content". */
const content = (text: string) => (text ? { content: clean(text) } : {});

/** An Atom feed: its head, then navigation entries (subsections) or acquisition entries (books). */
export function atomFeed(
  head: FeedHead,
  entries: { navigation?: NavigationEntry[]; acquisition?: AcquisitionEntry[] },
) {
  const navigation = (entries.navigation ?? []).map((e) => ({
    title: clean(e.title),
    updated: e.updated,
    id: clean(e.id),
    ...content(e.content),
    link: [link({ rel: REL.subsection, type: NAVIGATION_TYPE, href: e.href })],
  }));
  const acquisition = (entries.acquisition ?? []).map((e) => ({
    title: clean(e.title),
    updated: e.updated,
    id: clean(e.id),
    ...content(e.content),
    author: e.authors.map((name) => ({ name: clean(name) })),
    link: e.links.map(link),
  }));
  return (
    DECLARATION +
    builder.build({
      feed: {
        '@xmlns': ATOM_NS,
        '@xmlns:pse': PSE_NS,
        id: clean(head.id),
        title: clean(head.title),
        updated: head.updated,
        author: { name: 'Quire' },
        link: head.links.map(link),
        entry: [...navigation, ...acquisition],
      },
    })
  );
}

/** The OpenSearch description the catalog's `search` link points at: one template typed as an acquisition feed. */
export function openSearchDescription(template: string): string {
  return (
    DECLARATION +
    builder.build({
      OpenSearchDescription: {
        '@xmlns': OPENSEARCH_NS,
        ShortName: 'Search',
        Description: 'Search for series',
        InputEncoding: 'UTF-8',
        OutputEncoding: 'UTF-8',
        Url: { '@template': clean(template), '@type': ACQUISITION_TYPE },
      },
    })
  );
}

// ---- content negotiation ----

/** What OPDS 1.2 feeds are served as (api.md §7.1), in the server's order of preference. */
export const FEED_TYPES = ['application/atom+xml', 'application/xml', 'text/xml'] as const;
/** The OpenSearch description: its own type first (what the catalog's link declares), then Komga's three. */
export const OPENSEARCH_TYPES = [OPENSEARCH_TYPE, ...FEED_TYPES] as const;

/**
 * The type to answer for `Accept`, as Spring chooses among what a handler produces: the client's ranges by quality,
 * then by specificity, each matched against the server's types in order; null when none is acceptable (406).
 * Parameters (`;profile=opds-catalog`) do not take part in matching. No `Accept` accepts anything.
 */
export function negotiate(accept: string | undefined, produces: readonly string[]): string | null {
  if (!accept || accept.trim() === '') return produces[0] ?? null;
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      const [type = '', subtype = ''] = range.split('/');
      const specificity = type === '*' ? 0 : subtype === '*' ? 1 : 2;
      return { type, subtype, quality: Number.isFinite(quality) ? quality : 0, specificity, index };
    })
    .filter((r) => r.quality > 0 && r.type !== '')
    .sort((a, b) => b.quality - a.quality || b.specificity - a.specificity || a.index - b.index);
  for (const r of ranges) {
    const found = produces.find((p) => {
      const [type, subtype] = p.split('/');
      return (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype);
    });
    if (found) return found;
  }
  return null;
}

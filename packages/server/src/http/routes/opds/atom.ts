import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';

/*
 * The XML of OPDS 1.2 (api.md §7.1): Atom feeds with the Page Streaming Extension's namespace, and the OpenSearch
 * description. Built with xmlbuilder2, which escapes every text and attribute and drops the characters XML 1.0
 * cannot carry (a title read from a ComicInfo.xml may hold any of them).
 */

export const ATOM_NS = 'http://www.w3.org/2005/Atom';
export const PSE_NS = 'http://vaemendis.net/opds-pse/ns';
export const OPENSEARCH_NS = 'http://a9.com/-/spec/opensearch/1.1/';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

export const NAVIGATION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=navigation';
export const ACQUISITION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=acquisition';
export const OPENSEARCH_TYPE = 'application/opensearchdescription+xml';

export const REL = {
  self: 'self',
  start: 'start',
  search: 'search',
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

/*
 * An empty <content/> is left out: r2-opds-js (Thorium) reads one as the text "content".
 */
const newDocument = () => create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' });

function link(parent: XMLBuilder, l: AtomLink | PseLink): void {
  const el = parent.ele(ATOM_NS, 'link').att('rel', l.rel).att('type', l.type).att('href', l.href);
  if ('count' in l) {
    el.att(PSE_NS, 'pse:count', String(l.count));
    if (l.lastRead !== undefined) el.att(PSE_NS, 'pse:lastRead', String(l.lastRead));
    if (l.lastReadDate !== undefined) el.att(PSE_NS, 'pse:lastReadDate', l.lastReadDate);
  }
}

/** An Atom feed: its head, then navigation entries (subsections) or acquisition entries (books). */
export function atomFeed(
  head: FeedHead,
  entries: { navigation?: NavigationEntry[]; acquisition?: AcquisitionEntry[] },
) {
  const doc = newDocument();
  const feed = doc.ele(ATOM_NS, 'feed').att(XMLNS_NS, 'xmlns:pse', PSE_NS);
  feed.ele(ATOM_NS, 'id').txt(head.id);
  feed.ele(ATOM_NS, 'title').txt(head.title);
  feed.ele(ATOM_NS, 'updated').txt(head.updated);
  const author = feed.ele(ATOM_NS, 'author');
  author.ele(ATOM_NS, 'name').txt('Quire');
  for (const l of head.links) link(feed, l);
  for (const e of entries.navigation ?? []) {
    const entry = feed.ele(ATOM_NS, 'entry');
    entry.ele(ATOM_NS, 'title').txt(e.title);
    entry.ele(ATOM_NS, 'updated').txt(e.updated);
    entry.ele(ATOM_NS, 'id').txt(e.id);
    if (e.content) entry.ele(ATOM_NS, 'content').txt(e.content);
    link(entry, { rel: REL.subsection, type: NAVIGATION_TYPE, href: e.href });
  }
  for (const e of entries.acquisition ?? []) {
    const entry = feed.ele(ATOM_NS, 'entry');
    entry.ele(ATOM_NS, 'title').txt(e.title);
    entry.ele(ATOM_NS, 'updated').txt(e.updated);
    entry.ele(ATOM_NS, 'id').txt(e.id);
    if (e.content) entry.ele(ATOM_NS, 'content').txt(e.content);
    for (const name of e.authors) entry.ele(ATOM_NS, 'author').ele(ATOM_NS, 'name').txt(name);
    for (const l of e.links) link(entry, l);
  }
  return doc.end({ prettyPrint: false });
}

/** The OpenSearch description the catalog's `search` link points at: one template typed as an acquisition feed. */
export function openSearchDescription(template: string): string {
  const doc = newDocument();
  const root = doc.ele(OPENSEARCH_NS, 'OpenSearchDescription');
  root.ele(OPENSEARCH_NS, 'ShortName').txt('Search');
  root.ele(OPENSEARCH_NS, 'Description').txt('Search for series');
  root.ele(OPENSEARCH_NS, 'InputEncoding').txt('UTF-8');
  root.ele(OPENSEARCH_NS, 'OutputEncoding').txt('UTF-8');
  root.ele(OPENSEARCH_NS, 'Url').att('template', template).att('type', ACQUISITION_TYPE);
  return doc.end({ prettyPrint: false });
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

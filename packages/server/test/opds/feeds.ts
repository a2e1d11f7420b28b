import { DOMParser, type Element } from '@xmldom/xmldom';
import { OPDS } from 'r2-opds-js/dist/es8-es2017/src/opds/opds1/opds.js';
import {
  initGlobalConverters_GENERIC,
  initGlobalConverters_OPDS,
} from 'r2-opds-js/dist/es8-es2017/src/opds/init-globals.js';
import { XML } from 'r2-utils-js/dist/es8-es2017/src/_utils/xml-js-mapper/index.js';
import { expect } from 'vitest';

/**
 * OPDS 1.2 feeds as apps read them: parsed by r2-opds-js, the parser of Thorium Reader, and checked against the
 * document's own elements, so that a feed, entry or link the parser drops or reads differently fails the test. The
 * Page Streaming Extension's attributes, which r2-opds-js does not model, are read namespace-aware from the DOM,
 * as a PSE client does.
 */

initGlobalConverters_GENERIC();
initGlobalConverters_OPDS();

export const ATOM_NS = 'http://www.w3.org/2005/Atom';
export const PSE_NS = 'http://vaemendis.net/opds-pse/ns';
export const REL_STREAM = 'http://vaemendis.net/opds-pse/stream';

export interface ParsedLink {
  rel: string;
  type: string;
  href: string;
  pse?: { count: string | null; lastRead: string | null; lastReadDate: string | null };
}
export interface ParsedEntry {
  id: string;
  title: string;
  content: string;
  authors: string[];
  links: ParsedLink[];
}
export interface ParsedFeed {
  id: string;
  title: string;
  links: ParsedLink[];
  entries: ParsedEntry[];
}

const children = (el: Element, name: string) =>
  Array.from(el.childNodes).filter(
    (n): n is Element =>
      n.nodeType === 1 && (n as Element).namespaceURI === ATOM_NS && (n as Element).localName === name,
  );
const text = (el: Element, name: string) => children(el, name)[0]?.textContent ?? '';

function domLink(el: Element): ParsedLink {
  const link: ParsedLink = {
    rel: el.getAttribute('rel') ?? '',
    type: el.getAttribute('type') ?? '',
    href: el.getAttribute('href') ?? '',
  };
  if (link.rel === REL_STREAM) {
    link.pse = {
      count: el.getAttributeNS(PSE_NS, 'count'),
      lastRead: el.getAttributeNS(PSE_NS, 'lastRead'),
      lastReadDate: el.getAttributeNS(PSE_NS, 'lastReadDate'),
    };
  }
  return link;
}

interface R2Link {
  Rel?: string;
  Type?: string;
  Href?: string;
}
const r2Link = (l: R2Link) => ({ rel: l.Rel ?? '', type: l.Type ?? '', href: l.Href ?? '' });
const withoutPse = (l: ParsedLink) => ({ rel: l.rel, type: l.type, href: l.href });

/** Parses a feed with r2-opds-js and fails when it reads anything differently from the XML itself. */
export function parseFeed(xml: string): ParsedFeed {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, msg) => void errors.push(`${level}: ${msg}`) }).parseFromString(
    xml,
    'application/xml',
  );
  expect(errors, 'well-formed XML').toEqual([]);
  const root = doc.documentElement!;
  expect(root.namespaceURI).toBe(ATOM_NS);
  // KOReader matches element names literally: the root must be an unprefixed <feed>.
  expect(root.tagName).toBe('feed');

  const dom: ParsedFeed = {
    id: text(root, 'id'),
    title: text(root, 'title'),
    links: children(root, 'link').map(domLink),
    entries: children(root, 'entry').map((e) => ({
      id: text(e, 'id'),
      title: text(e, 'title'),
      content: text(e, 'content'),
      authors: children(e, 'author').map((a) => text(a, 'name')),
      links: children(e, 'link').map(domLink),
    })),
  };

  const r2 = XML.deserialize<OPDS>(doc as unknown as Parameters<typeof XML.deserialize>[0], OPDS);
  expect(r2.Id, 'feed id').toBe(dom.id);
  expect(r2.Title, 'feed title').toBe(dom.title);
  expect(r2.Updated instanceof Date && !Number.isNaN(r2.Updated.getTime()), 'feed updated is a date').toBe(true);
  expect((r2.Links ?? []).map(r2Link), 'feed links').toEqual(dom.links.map(withoutPse));
  expect(r2.Entries?.length ?? 0, 'entries').toBe(dom.entries.length);
  for (const [i, e] of (r2.Entries ?? []).entries()) {
    const want = dom.entries[i]!;
    expect(e.Id, 'entry id').toBe(want.id);
    expect(e.Title, 'entry title').toBe(want.title);
    expect(e.Content ?? '', 'entry content').toBe(want.content);
    expect(e.Updated instanceof Date && !Number.isNaN(e.Updated.getTime()), 'entry updated is a date').toBe(true);
    expect(
      (e.Authors ?? []).map((a) => a.Name),
      'entry authors',
    ).toEqual(want.authors);
    expect((e.Links ?? []).map(r2Link), 'entry links').toEqual(want.links.map(withoutPse));
  }
  return dom;
}

/** What KOReader's catalog browser sends with every feed request (koreader-client.md). */
export const KOREADER_HEADERS = {
  'user-agent': 'KOReader/2026.07.2-88 (Kobo_io; Linux; arm; https://github.com/koreader/koreader) LuaSocket/3.1.0',
  'accept-encoding': 'identity',
  te: 'trailers',
  accept: 'application/opds+json, application/atom+xml;profile=opds-catalog, */*',
};

/** `type/subtype` without parameters. */
export const essence = (type: string | null) => (type ?? '').split(';')[0]!.trim().toLowerCase();

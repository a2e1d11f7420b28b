import type { WPLinkDto, WPPublicationDto } from '@quire/api';
import type { BookView } from '../../db/queries/books.js';
import { MEDIATYPE_PROGRESSION_JSON } from '@quire/api';
import { THUMBNAIL_MEDIA_TYPE } from '../../media/epub/index.js';
import { feedPublication } from './books.js';

/**
 * OPDS 2 documents (api.md §7.2): feeds, the authentication document, and books as OPDS publications. Feeds are
 * built here from what the routes have listed; the WebPub manifests are the REST API's (mappers/books.ts), pointed
 * at `/opds/v2` and finished by {@link withOpdsLinks}.
 */

export const OPDS2_PATH = '/opds/v2';
export const MEDIATYPE_OPDS_JSON = 'application/opds+json';
export const MEDIATYPE_OPDS_AUTHENTICATION_JSON = 'application/opds-authentication+json';
const REL_AUTH_DOCUMENT = 'http://opds-spec.org/auth/document';
const REL_PROGRESSION = 'http://www.cantook.com/api/progression';

/** `{server}/opds/v2/{path}`; `server` is the scheme, host and context path the client used. */
export const opdsUrl = (server: string, path: string) => `${server}${OPDS2_PATH}/${path}`;

export interface FeedMetadata {
  title: string;
  modified?: string;
  description?: string;
  itemsPerPage?: number;
  /** 1-based. */
  currentPage?: number;
  numberOfItems?: number;
}

/** A link of a feed: Komga's WPLinkDto with its empty members left out. */
export interface FeedLink {
  title?: string;
  rel?: string;
  href: string;
  type?: string;
  templated?: boolean;
}

export interface FeedGroup {
  metadata: FeedMetadata;
  links?: FeedLink[];
  navigation?: FeedLink[];
  publications?: WPPublicationDto[];
}

export interface Facet {
  metadata: FeedMetadata;
  links: FeedLink[];
}

export interface Feed {
  metadata: FeedMetadata;
  links?: FeedLink[];
  navigation?: FeedLink[];
  facets?: Facet[];
  groups?: FeedGroup[];
  publications?: WPPublicationDto[];
}

/** Komga's feed DTOs omit empty members (`@JsonInclude(NON_EMPTY)`): an empty list or an undefined field. */
export function compactFeed<T extends Feed | FeedGroup>(feed: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(feed)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = key === 'groups' ? (value as FeedGroup[]).map((g) => compactFeed(g)) : value;
  }
  return out as T;
}

/** A navigation entry: a title and the feed it opens. */
export const navigationLink = (title: string, href: string, rel?: string): FeedLink => ({
  title,
  ...(rel ? { rel } : {}),
  href,
  type: MEDIATYPE_OPDS_JSON,
});

/** The public authentication document (api.md §7.2): HTTP Basic with the e-mail as login. */
export function authDocument(server: string) {
  return {
    authentication: [{ type: 'http://opds-spec.org/auth/basic', labels: { login: 'Email', password: 'Password' } }],
    title: 'Komga',
    id: opdsUrl(server, 'auth'),
    description: 'Enter your email and password to authenticate.',
    links: [
      { rel: 'help', href: 'https://komga.org' },
      { rel: 'logo', href: `${server}/android-chrome-512x512.png` },
    ],
  };
}

/** The `Link` header of a 401 under `/opds/v2`, pointing at the authentication document. */
export const authDocumentLinkHeader = (server: string) =>
  `<${opdsUrl(server, 'auth')}>; rel="${REL_AUTH_DOCUMENT}"; type="${MEDIATYPE_OPDS_AUTHENTICATION_JSON}"`;

/**
 * What OPDS 2 clients get beyond the REST API's manifest (api.md §7.2): every link and image says how to
 * authenticate (the reading order does not), the thumbnail is the publication's image, the progression link lets a
 * client sync its position, and the series links to its feed.
 */
export function withOpdsLinks(manifest: WPPublicationDto, book: Pick<BookView, 'id' | 'seriesId'>, server: string) {
  const authenticate = { href: opdsUrl(server, 'auth'), type: MEDIATYPE_OPDS_AUTHENTICATION_JSON };
  const authenticated = (l: WPLinkDto): WPLinkDto => ({ ...l, properties: { ...l.properties, authenticate } });
  const bookBase = opdsUrl(server, `books/${encodeURIComponent(book.id)}`);
  const thumbnail = `${bookBase}/thumbnail`;
  const progression = { rel: REL_PROGRESSION, href: `${bookBase}/progression`, type: MEDIATYPE_PROGRESSION_JSON };
  const seriesFeed = {
    href: opdsUrl(server, `series/${encodeURIComponent(book.seriesId)}`),
    type: MEDIATYPE_OPDS_JSON,
    properties: {},
  };
  const { belongsTo } = manifest.metadata;
  return {
    ...manifest,
    metadata: belongsTo
      ? {
          ...manifest.metadata,
          belongsTo: { ...belongsTo, series: belongsTo.series.map((s) => ({ ...s, links: [seriesFeed] })) },
        }
      : manifest.metadata,
    links: [...manifest.links, { ...progression, properties: {} }].map(authenticated),
    images: [{ href: thumbnail, type: THUMBNAIL_MEDIA_TYPE, properties: {} }].map(authenticated),
    resources: manifest.resources.map((r) => (r.href === thumbnail ? authenticated(r) : r)),
  };
}

/** A book in an OPDS 2 feed: its publication with `/opds/v2` links (api.md §7.2). */
export const opdsPublication = (server: string, book: BookView): WPPublicationDto =>
  withOpdsLinks(feedPublication(`${server}${OPDS2_PATH}`, book), book, server);

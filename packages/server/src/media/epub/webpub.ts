import type { EpubTocEntry } from './nav.js';

export const WEBPUB_CONTEXT = 'https://readium.org/webpub-manifest/context.jsonld';
export const MEDIATYPE_WEBPUB_JSON = 'application/webpub+json';
export const MEDIATYPE_DIVINA_JSON = 'application/divina+json';
export const PROFILE_EPUB = 'https://readium.org/webpub-manifest/profiles/epub';
export const PROFILE_DIVINA = 'https://readium.org/webpub-manifest/profiles/divina';
export const PROFILE_PDF = 'https://readium.org/webpub-manifest/profiles/pdf';

/** WPLinkDto (komga-openapi.json). */
export interface WPLink {
  title?: string;
  rel?: string;
  href?: string;
  type?: string;
  templated?: boolean;
  width?: number;
  height?: number;
  alternate?: WPLink[];
  children?: WPLink[];
  properties: Record<string, Record<string, unknown>>;
}

export interface WPContributor {
  name: string;
  position?: number;
  links: WPLink[];
}

/** WPMetadataDto. */
export interface WPMetadata {
  title: string;
  identifier?: string;
  conformsTo?: string;
  modified?: string;
  published?: string;
  language?: string;
  author: string[];
  translator: string[];
  editor: string[];
  artist: string[];
  illustrator: string[];
  letterer: string[];
  penciler: string[];
  colorist: string[];
  inker: string[];
  contributor: string[];
  publisher: string[];
  subject: string[];
  readingProgression?: 'ltr' | 'rtl' | 'ttb' | 'btt' | 'auto';
  description?: string;
  numberOfPages?: number;
  belongsTo?: { series: WPContributor[]; collection: WPContributor[] };
  rendition: Record<string, unknown>;
}

/** WPPublicationDto (key `context`, not `@context`, as Komga serialises it). */
export interface WPPublication {
  context: string;
  metadata: WPMetadata;
  links: WPLink[];
  images: WPLink[];
  readingOrder: WPLink[];
  resources: WPLink[];
  toc: WPLink[];
  landmarks: WPLink[];
  pageList: WPLink[];
}

/** What the manifest needs to know about a book (from BookDto, series metadata and the stored media). */
export interface WebPubBookInput {
  id: string;
  title: string;
  summary?: string | null;
  isbn?: string | null;
  tags?: readonly string[];
  /** yyyy-MM-dd */
  releaseDate?: string | null;
  /** ISO date-time of the book's lastModified. */
  lastModified: string;
  pagesCount: number;
  authors?: readonly { name: string; role: string }[];
  seriesTitle: string;
  numberSort: number;
  /** From the series metadata. */
  language?: string | null;
  readingDirection?: 'LEFT_TO_RIGHT' | 'RIGHT_TO_LEFT' | 'VERTICAL' | 'WEBTOON' | null;
  epubDivinaCompatible?: boolean;
}

export interface WebPubEpubMedia {
  files: readonly { fileName: string; mediaType: string | null; subType: 'EPUB_PAGE' | 'EPUB_ASSET' | null }[];
  toc: readonly EpubTocEntry[];
  landmarks: readonly EpubTocEntry[];
  pageList: readonly EpubTocEntry[];
  /** null when the EPUB extension is unknown (rendition left empty). */
  isFixedLayout: boolean | null;
}

/** Thumbnail type of generated posters (engine.md §7.1: JPEG). */
export const THUMBNAIL_MEDIA_TYPE = 'image/jpeg';

const KNOWN_ROLES = [
  'author',
  'translator',
  'editor',
  'artist',
  'illustrator',
  'letterer',
  'penciler',
  'penciller',
  'colorist',
  'inker',
];

/** Percent-encodes a path the way Spring's UriComponentsBuilder.path(...).encode() does ('/' kept). */
export function encodePath(path: string): string {
  return path
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/%(2[146-9ABC]|3[ABD]|40)/gi, (m) => decodeURIComponent(m)))
    .join('/');
}

function link(fields: Omit<WPLink, 'properties'>): WPLink {
  const out: WPLink = { properties: {} };
  for (const [k, v] of Object.entries(fields) as [keyof WPLink, unknown][]) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    (out as unknown as Record<string, unknown>)[k] = v;
  }
  return out;
}

function tocLink(entry: EpubTocEntry, resourceBase: string): WPLink {
  let href: string | undefined;
  if (entry.href !== null) {
    const hash = entry.href.lastIndexOf('#');
    const fragment = hash >= 0 ? entry.href.slice(hash + 1) : '';
    const path = hash >= 0 ? entry.href.slice(0, hash) : entry.href;
    href = resourceBase + encodePath(path) + (fragment ? `#${fragment}` : '');
  }
  return link({ title: entry.title, href, children: entry.children.map((c) => tocLink(c, resourceBase)) });
}

function readingProgression(d: WebPubBookInput['readingDirection']): WPMetadata['readingProgression'] {
  switch (d) {
    case 'LEFT_TO_RIGHT':
      return 'ltr';
    case 'RIGHT_TO_LEFT':
      return 'rtl';
    case 'VERTICAL':
    case 'WEBTOON':
      return 'ttb';
    default:
      return undefined;
  }
}

/**
 * Builds the Readium WebPub manifest of an EPUB book (engine.md §4.7, api.md §4.7), shaped as
 * komga-openapi.json `WPPublicationDto`. `apiBase` is where the book's endpoints live, context path included and
 * without trailing slash: `https://host/komga/api/v1` for the REST API, `…/opds/v2` for OPDS 2 clients (which
 * Komga serves the same endpoints under); links point to `<apiBase>/books/{id}/…`.
 *
 * Optional scalar fields are omitted when empty; array fields and `properties` that the OpenAPI schema
 * marks required are always present (possibly empty).
 */
export function buildEpubWebPubManifest(apiBase: string, book: WebPubBookInput, media: WebPubEpubMedia): WPPublication {
  const bookBase = `${apiBase.replace(/\/+$/, '')}/books/${encodeURIComponent(book.id)}`;
  const resourceBase = `${bookBase}/resource/`;
  const authors = book.authors ?? [];
  const byRole = (...roles: string[]) => authors.filter((a) => roles.includes(a.role)).map((a) => a.name);

  const metadata: WPMetadata = {
    title: book.title,
    author: byRole('author'),
    translator: byRole('translator'),
    editor: byRole('editor'),
    artist: byRole('artist'),
    illustrator: byRole('illustrator'),
    letterer: byRole('letterer'),
    penciler: [...byRole('penciler'), ...byRole('penciller')],
    colorist: byRole('colorist'),
    inker: byRole('inker'),
    contributor: authors.filter((a) => !KNOWN_ROLES.includes(a.role)).map((a) => a.name),
    publisher: [],
    subject: [...(book.tags ?? [])],
    rendition: media.isFixedLayout === null ? {} : { layout: media.isFixedLayout ? 'fixed' : 'reflowable' },
    conformsTo: PROFILE_EPUB,
    modified: book.lastModified,
    belongsTo: { series: [{ name: book.seriesTitle, position: book.numberSort, links: [] }], collection: [] },
  };
  if (book.isbn) metadata.identifier = `urn:isbn:${book.isbn}`;
  if (book.releaseDate) metadata.published = book.releaseDate;
  if (book.language) metadata.language = book.language;
  const rp = readingProgression(book.readingDirection);
  if (rp) metadata.readingProgression = rp;
  if (book.summary) metadata.description = book.summary;
  if (book.pagesCount > 0) metadata.numberOfPages = book.pagesCount;

  const links: WPLink[] = [link({ rel: 'self', href: `${bookBase}/manifest`, type: MEDIATYPE_WEBPUB_JSON })];
  if (book.epubDivinaCompatible) links.push(link({ href: `${bookBase}/manifest/divina`, type: MEDIATYPE_DIVINA_JSON }));
  links.push(link({ rel: 'http://opds-spec.org/acquisition', href: `${bookBase}/file`, type: 'application/epub+zip' }));

  const fileLink = (f: WebPubEpubMedia['files'][number]) =>
    link({ href: resourceBase + encodePath(f.fileName), type: f.mediaType ?? undefined });

  return {
    context: WEBPUB_CONTEXT,
    metadata,
    links,
    images: [],
    readingOrder: media.files.filter((f) => f.subType === 'EPUB_PAGE').map(fileLink),
    resources: [
      link({ href: `${bookBase}/thumbnail`, type: THUMBNAIL_MEDIA_TYPE }),
      ...media.files.filter((f) => f.subType === 'EPUB_ASSET').map(fileLink),
    ],
    toc: media.toc.map((e) => tocLink(e, resourceBase)),
    landmarks: media.landmarks.map((e) => tocLink(e, resourceBase)),
    pageList: media.pageList.map((e) => tocLink(e, resourceBase)),
  };
}

import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BookDto, BookPageDto, MediaDto, R2PositionsDto, WPLinkDto, WPPublicationDto } from '@quire/api';
import type { BookMediaView } from '../../domain/book.js';
import type { BookView } from '../../db/queries/books.js';
import { mediaProfileOf } from '../../library/book-analyzer.js';
import type { ListedPage } from '../../library/book-pages.js';
import type { EpubExtension } from '../../library/book-analyzer.js';
import {
  buildEpubWebPubManifest,
  encodePath,
  MEDIATYPE_DIVINA_JSON,
  MEDIATYPE_WEBPUB_JSON,
  PROFILE_DIVINA,
  PROFILE_PDF,
  THUMBNAIL_MEDIA_TYPE,
  WEBPUB_CONTEXT,
  type WebPubBookInput,
} from '../../media/epub/index.js';
import { MediaTypes } from '../../media/detect.js';
import type { StoredFile } from '../../domain/media.js';
import { utcDateTime } from './users.js';

/** Binary units, as Komga prints sizes: `0 B`, `23.1 KiB`, `12.3 MiB`. */
export function humanSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${(Math.round(v * 10) / 10).toString()} ${units[u]}`;
}

const pathOf = (url: string) => {
  try {
    return fileURLToPath(url);
  } catch {
    return url;
  }
};

export function toMediaDto(m: BookMediaView): MediaDto {
  return {
    status: m.status,
    mediaType: m.mediaType ?? '',
    pagesCount: m.pageCount,
    comment: m.comment ?? '',
    epubDivinaCompatible: m.epubDivinaCompatible,
    epubIsKepub: m.epubIsKepub,
    mediaProfile: mediaProfileOf(m.mediaType) ?? '',
  };
}

/** BookDto; non-admins get only the file name as `url` (api.md §2.6). */
export function toBookDto(b: BookView, admin: boolean): BookDto {
  const path = pathOf(b.url);
  const m = b.metadata;
  return {
    id: b.id,
    seriesId: b.seriesId,
    seriesTitle: b.seriesTitle,
    libraryId: b.libraryId,
    name: b.name,
    url: admin ? path : basename(path),
    number: b.number,
    created: utcDateTime(b.createdDate),
    lastModified: utcDateTime(b.lastModifiedDate),
    fileLastModified: utcDateTime(b.fileLastModified),
    sizeBytes: b.fileSize,
    size: humanSize(b.fileSize),
    media: toMediaDto(b.media),
    metadata: {
      title: m.title,
      titleLock: m.titleLock,
      summary: m.summary,
      summaryLock: m.summaryLock,
      number: m.number,
      numberLock: m.numberLock,
      numberSort: m.numberSort,
      numberSortLock: m.numberSortLock,
      releaseDate: m.releaseDate,
      releaseDateLock: m.releaseDateLock,
      authors: m.authors,
      authorsLock: m.authorsLock,
      tags: m.tags,
      tagsLock: m.tagsLock,
      isbn: m.isbn,
      isbnLock: m.isbnLock,
      links: m.links,
      linksLock: m.linksLock,
      created: utcDateTime(m.createdDate),
      lastModified: utcDateTime(m.lastModifiedDate),
    },
    readProgress: b.readProgress && {
      page: b.readProgress.page,
      completed: b.readProgress.completed,
      readDate: utcDateTime(b.readProgress.readDate),
      created: utcDateTime(b.readProgress.createdDate),
      lastModified: utcDateTime(b.readProgress.lastModifiedDate),
      deviceId: b.readProgress.deviceId,
      deviceName: b.readProgress.deviceName,
    },
    deleted: b.deleted,
    fileHash: b.fileHash,
    oneshot: b.oneshot,
  };
}

export function toBookPageDto(p: ListedPage): BookPageDto {
  return {
    number: p.number,
    fileName: p.fileName,
    mediaType: p.mediaType,
    width: p.width,
    height: p.height,
    sizeBytes: p.fileSize,
    size: humanSize(p.fileSize),
  };
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/heif': 'heif',
  'image/heic': 'heic',
  'image/jxl': 'jxl',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
};
/** `<book name>-<n>.<ext>`, the inline name of a served page. */
export const pageFileName = (bookName: string, n: number, mediaType: string) =>
  `${bookName}-${n}${EXTENSIONS[mediaType] ? `.${EXTENSIONS[mediaType]}` : ''}`;

/** Media type of the acquisition link (api.md §4.7). */
export function exportMediaType(mediaType: string | null): string {
  if (mediaType === MediaTypes.zip) return 'application/vnd.comicbook+zip';
  if (mediaType?.startsWith('application/x-rar-compressed')) return 'application/vnd.comicbook-rar';
  return mediaType ?? 'application/octet-stream';
}

const link = (fields: Omit<WPLinkDto, 'properties'>): WPLinkDto => {
  const out: WPLinkDto = { properties: {} };
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === null || v === '') continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
};

function webPubInput(b: BookView): WebPubBookInput {
  const dir = b.seriesReadingDirection;
  return {
    id: b.id,
    title: b.metadata.title,
    summary: b.metadata.summary,
    isbn: b.metadata.isbn,
    tags: b.metadata.tags,
    releaseDate: b.metadata.releaseDate,
    lastModified: new Date(b.lastModifiedDate).toISOString(),
    pagesCount: b.media.pageCount,
    authors: b.metadata.authors,
    seriesTitle: b.seriesTitle,
    numberSort: b.metadata.numberSort,
    language: b.seriesLanguage || null,
    readingDirection: (dir || null) as WebPubBookInput['readingDirection'],
    epubDivinaCompatible: b.media.epubDivinaCompatible,
  };
}

/** Where a book's endpoints live under `apiBase` (`…/api/v1` or `…/opds/v2`). */
const bookUrl = (apiBase: string, bookId: string) =>
  `${apiBase.replace(/\/+$/, '')}/books/${encodeURIComponent(bookId)}`;

/** What `GET …/manifest` answers for this book: DiViNa for archives, WebPub for EPUB and PDF. */
function manifestMediaType(b: BookView): string {
  return mediaProfileOf(b.media.mediaType) === 'DIVINA' ? MEDIATYPE_DIVINA_JSON : MEDIATYPE_WEBPUB_JSON;
}

/**
 * The links a publication starts with (api.md §4.7): its manifest (typed as `/manifest` serves it), its DiViNa
 * manifest when a PDF or an image-only EPUB has one, and its file with the export media type.
 */
export function publicationLinks(apiBase: string, b: BookView): WPLinkDto[] {
  const bookBase = bookUrl(apiBase, b.id);
  const profile = mediaProfileOf(b.media.mediaType);
  const links = [link({ rel: 'self', href: `${bookBase}/manifest`, type: manifestMediaType(b) })];
  if (profile === 'PDF' || (profile === 'EPUB' && b.media.epubDivinaCompatible)) {
    links.push(link({ href: `${bookBase}/manifest/divina`, type: MEDIATYPE_DIVINA_JSON }));
  }
  links.push(
    link({
      rel: 'http://opds-spec.org/acquisition',
      href: `${bookBase}/file`,
      type: exportMediaType(b.media.mediaType),
    }),
  );
  return links;
}

/** The metadata of a book's manifest, for its profile (api.md §4.7). */
function publicationMetadata(apiBase: string, b: BookView): WPPublicationDto['metadata'] {
  const { metadata } = buildEpubWebPubManifest(apiBase, webPubInput(b), {
    files: [],
    toc: [],
    landmarks: [],
    pageList: [],
    isFixedLayout: null,
  });
  const profile = mediaProfileOf(b.media.mediaType);
  if (profile === 'EPUB') return metadata;
  return { ...metadata, conformsTo: profile === 'PDF' ? PROFILE_PDF : PROFILE_DIVINA };
}

/**
 * A book as a publication of a feed: the manifest's metadata and links, without reading order or resources
 * (a client opens the manifest for those). The lists stay, empty, as in every WPPublicationDto.
 */
export function feedPublication(apiBase: string, b: BookView): WPPublicationDto {
  return {
    context: WEBPUB_CONTEXT,
    metadata: publicationMetadata(apiBase, b),
    links: publicationLinks(apiBase, b),
    images: [],
    readingOrder: [],
    resources: [],
    toc: [],
    landmarks: [],
    pageList: [],
  };
}

export function epubManifest(
  apiBase: string,
  b: BookView,
  files: readonly StoredFile[],
  ext: EpubExtension | null,
): WPPublicationDto {
  return buildEpubWebPubManifest(apiBase, webPubInput(b), {
    files: files.map((f) => ({
      fileName: f.fileName,
      mediaType: f.mediaType,
      subType: f.subType === 'EPUB_PAGE' || f.subType === 'EPUB_ASSET' ? f.subType : null,
    })),
    toc: ext?.toc ?? [],
    landmarks: ext?.landmarks ?? [],
    pageList: ext?.pageList ?? [],
    isFixedLayout: ext?.isFixedLayout ?? null,
  }) as WPPublicationDto;
}

/** DiViNa and PDF manifests (engine.md §4.7): one reading-order link per page. */
export function pagesManifest(
  profile: 'DIVINA' | 'PDF',
  apiBase: string,
  b: BookView,
  pages: readonly ListedPage[],
): WPPublicationDto {
  const bookBase = bookUrl(apiBase, b.id);
  const readingOrder = pages.map((p) => {
    if (profile === 'PDF') return link({ href: `${bookBase}/pages/${p.number}/raw`, type: 'application/pdf' });
    const href = `${bookBase}/pages/${p.number}?contentNegotiation=false`;
    const common = ['image/jpeg', 'image/png', 'image/gif'].includes(p.mediaType);
    return link({
      href,
      type: p.mediaType,
      width: p.width ?? undefined,
      height: p.height ?? undefined,
      alternate: common ? undefined : [link({ href: `${href}&convert=jpeg`, type: 'image/jpeg' })],
    });
  });
  const { rendition: _rendition, ...metadata } = publicationMetadata(apiBase, b);
  return {
    context: WEBPUB_CONTEXT,
    metadata: { ...metadata, rendition: {}, conformsTo: profile === 'DIVINA' ? PROFILE_DIVINA : PROFILE_PDF },
    links: publicationLinks(apiBase, b),
    images: [],
    readingOrder,
    resources: [link({ href: `${bookBase}/thumbnail`, type: THUMBNAIL_MEDIA_TYPE })],
    toc: [],
    landmarks: [],
    pageList: [],
  } as WPPublicationDto;
}

export function toPositions(ext: EpubExtension): R2PositionsDto {
  // Komga's Location always carries `fragments` (empty for positions).
  return {
    total: ext.positions.length,
    positions: ext.positions.map((p) => ({ ...p, locations: { fragments: [], ...p.locations } })),
  };
}

export { encodePath };

/**
 * Readium progression rules (engine.md §13.5), pure: which stored position an EPUB locator lands on, and how a
 * stored row reads back as an R2 progression.
 */
import type { R2ProgressionDto, R2ProgressionLocatorDto } from '@quire/api';
import { badRequest } from '../domain/errors.js';

/** A position of an EPUB, as analysis stores them (`/positions`). */
export interface StoredPosition {
  href: string;
  type: string;
  locations: { progression: number; position: number; totalProgression: number };
  koboSpan?: string | null;
}

/** What EPUB analysis stored of a book (the media extension) that progress reads. */
export interface EpubAnalysis {
  isFixedLayout?: boolean;
  positions?: StoredPosition[];
}

/** A book's stored EPUB analysis; empty for other formats or an unreadable one. */
export function epubAnalysis(book: { extension: string | null }): EpubAnalysis {
  if (!book.extension) return {};
  try {
    return JSON.parse(book.extension) as EpubAnalysis;
  } catch {
    return {};
  }
}

/** The resource a locator points at: its href without `#fragment`, URL-decoded. */
export function resourceOf(href: string): string {
  const hash = href.indexOf('#');
  const path = hash < 0 ? href : href.slice(0, hash);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The position a locator at `progression` inside `href` stands for. Fixed layout with a single position for
 * the resource: that one. Otherwise the position with exactly that progression, else the last one before it.
 * Komga also demands a position after it, which refuses a reader sitting past the resource's last position
 * (the end of every chapter); Quire takes the last position then.
 */
export function matchPosition(
  positions: readonly StoredPosition[],
  isFixedLayout: boolean,
  href: string,
  progression: number,
): StoredPosition {
  const candidates = positions.filter((p) => p.href === href);
  if (isFixedLayout && candidates.length === 1) return candidates[0]!;
  const exact = candidates.find((p) => p.locations.progression === progression);
  if (exact) return exact;
  if (!(progression >= 0 && progression <= 1)) throw badRequest('Invalid progression');
  let before: StoredPosition | undefined;
  for (const p of candidates) {
    if (p.locations.progression < progression && (!before || p.locations.position > before.locations.position))
      before = p;
  }
  if (!before) throw badRequest('Invalid progression');
  return before;
}

/** What a stored locator reads back as; progress set by page has none (Komga answers an empty one). */
export function locatorOf(stored: unknown): R2ProgressionLocatorDto {
  if (!stored || typeof stored !== 'object') return { href: '', type: '' };
  const l = stored as Record<string, unknown>;
  const out: R2ProgressionLocatorDto = {
    href: typeof l.href === 'string' ? l.href : '',
    type: typeof l.type === 'string' ? l.type : '',
  };
  if (typeof l.title === 'string') out.title = l.title;
  if (l.locations && typeof l.locations === 'object') {
    const loc = l.locations as Record<string, unknown>;
    out.locations = { fragments: Array.isArray(loc.fragments) ? loc.fragments.filter(isString) : [] };
    if (typeof loc.progression === 'number') out.locations.progression = loc.progression;
    if (typeof loc.position === 'number') out.locations.position = loc.position;
    if (typeof loc.totalProgression === 'number') out.locations.totalProgression = loc.totalProgression;
  }
  if (l.text && typeof l.text === 'object') {
    const t = l.text as Record<string, unknown>;
    out.text = {};
    for (const k of ['after', 'before', 'highlight'] as const) if (typeof t[k] === 'string') out.text[k] = t[k];
  }
  if (typeof l.koboSpan === 'string') out.koboSpan = l.koboSpan;
  return out;
}

const isString = (x: unknown): x is string => typeof x === 'string';

/** `modified` as an instant; 400 when it is not an ISO-8601 date-time. */
export function parseModified(modified: string): Date {
  // An offset (or Z) is required: Komga reads a ZonedDateTime.
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i.test(modified))
    throw badRequest(`Invalid date-time: ${modified}`);
  const ms = Date.parse(modified.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  if (Number.isNaN(ms)) throw badRequest(`Invalid date-time: ${modified}`);
  return new Date(ms);
}

/** A stored row as `R2Progression`. */
export function toProgression(p: {
  readDate: string;
  deviceId: string;
  deviceName: string;
  locator: unknown;
}): R2ProgressionDto {
  return {
    modified: new Date(p.readDate).toISOString(),
    device: { id: p.deviceId, name: p.deviceName },
    locator: locatorOf(p.locator),
  };
}

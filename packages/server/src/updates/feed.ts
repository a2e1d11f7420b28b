import type { Feed, FeedAuthor, FeedItem } from '../domain/announcements.js';

/** A fetched document that is not a JSON Feed (or not one that can be read). */
export class FeedError extends Error {}

/** More items than any screen lists: the rest of a feed that has more is dropped. */
export const MAX_FEED_ITEMS = 100;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Only absolute http(s) URLs: anything else (`javascript:`, `data:`) would run or load something when followed. */
function webUrl(v: unknown): string | undefined {
  if (typeof v !== 'string' || !URL.canParse(v)) return undefined;
  const url = new URL(v);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/** RFC 3339 in, ISO-8601 UTC out; a date that does not parse is left out. */
function date(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

function author(item: Json): FeedAuthor | undefined {
  // Version 1 has one `author`, version 1.1 a list of `authors`.
  const a = isObject(item.author) ? item.author : Array.isArray(item.authors) ? item.authors.find(isObject) : undefined;
  if (!a) return undefined;
  const name = text(a.name);
  const url = webUrl(a.url);
  return name === undefined && url === undefined ? undefined : { name, url };
}

function itemOf(v: unknown): FeedItem | null {
  if (!isObject(v)) return null;
  // JSON Feed asks readers to take a numeric id as a string.
  const id = typeof v.id === 'number' && Number.isFinite(v.id) ? String(v.id) : text(v.id);
  if (!id) return null;
  return {
    id,
    url: webUrl(v.url),
    title: text(v.title),
    summary: text(v.summary),
    content_html: text(v.content_html),
    date_modified: date(v.date_modified) ?? date(v.date_published),
    author: author(v),
    tags: Array.isArray(v.tags) ? v.tags.filter((t): t is string => typeof t === 'string') : [],
  };
}

/**
 * Reads a JSON Feed (versions 1 and 1.1) into the shape Quire keeps: what is not the expected type is left out,
 * items without an id are dropped, and at most {@link MAX_FEED_ITEMS} are kept. Not JSON, not an object, not a JSON
 * Feed's version or no item list: a {@link FeedError}.
 */
export function parseJsonFeed(body: string): Feed {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new FeedError('not JSON');
  }
  if (!isObject(doc)) throw new FeedError('not a JSON object');
  if (!text(doc.version)?.startsWith('https://jsonfeed.org/version/')) throw new FeedError('not a JSON Feed version');
  if (!Array.isArray(doc.items)) throw new FeedError('no items');
  const items = new Map<string, FeedItem>();
  for (const v of doc.items) {
    const item = itemOf(v);
    if (item && !items.has(item.id)) items.set(item.id, item);
    if (items.size === MAX_FEED_ITEMS) break;
  }
  return {
    title: text(doc.title) ?? '',
    home_page_url: webUrl(doc.home_page_url),
    description: text(doc.description),
    items: [...items.values()],
  };
}

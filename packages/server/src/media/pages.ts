import { imageSize } from 'image-size';
import { naturalCompare } from '../domain/natural-sort.js';
import { detectBuffer } from './detect.js';
import type { ContainerEntry } from './types.js';

/**
 * What the archive readers share: which entries are junk, how an entry is typed from its first bytes,
 * how entries are ordered, and which of them are pages.
 */

/** Bytes read from the start of each entry when listing: enough for the magic and (usually) the image header. */
export const HEAD_BYTES = 64 * 1024;

/**
 * Entries that are never part of a book: macOS resource forks and folder metadata, Windows thumbnail caches.
 * (Komga types them by content and lists them as files; Quire drops them so they are neither read nor shown.)
 */
export function isJunk(name: string): boolean {
  const parts = name.split('/').filter((p) => p.length > 0);
  const base = parts.at(-1) ?? '';
  if (parts.some((p) => p === '__MACOSX')) return true;
  if (base.startsWith('._')) return true;
  const lower = base.toLowerCase();
  return lower === '.ds_store' || lower === 'thumbs.db' || lower === 'desktop.ini';
}

/** A directory entry (name ends with '/'), or an empty name. */
export function isDirectoryName(name: string): boolean {
  return name.length === 0 || name.endsWith('/');
}

/** Entry names inside containers are '/'-separated; a leading "./" (tar) is dropped. Never used as a path. */
export function normalizeEntryName(name: string): string {
  let n = name.replace(/\\/g, '/');
  while (n.startsWith('./')) n = n.slice(2);
  return n;
}

/** Width and height from an image header, or undefined if the header does not give them. */
export function dimensionsOf(head: Uint8Array): { width: number; height: number } | undefined {
  try {
    const r = imageSize(head);
    if (!r.width || !r.height) return undefined;
    // EXIF orientations 5–8 rotate by 90°: report the displayed size.
    if (r.orientation && r.orientation >= 5) return { width: r.height, height: r.width };
    return { width: r.width, height: r.height };
  } catch {
    return undefined;
  }
}

/**
 * Builds an entry from its first bytes. `head` null means the entry could not be read: its media type
 * stays null (the analyzer reports such entries with ERR_1007, as Komga does).
 */
export function describeEntry(
  name: string,
  size: number | null,
  head: Uint8Array | null,
  dimensions: boolean,
): ContainerEntry {
  const entry: ContainerEntry = { name, size, mediaType: head ? detectBuffer(head) : null };
  if (dimensions && head && entry.mediaType?.startsWith('image/')) {
    const d = dimensionsOf(head);
    if (d) {
      entry.width = d.width;
      entry.height = d.height;
    }
  }
  return entry;
}

/** Natural order (engine.md §3.3) on the full entry path, as Komga orders pages. */
export function sortEntries<T extends { name: string }>(entries: T[]): T[] {
  return entries.sort((a, b) => naturalCompare(a.name, b.name));
}

/** Is this entry a page? Komga: iff its detected type starts with `image/` (§4.2). */
export function isPage(entry: ContainerEntry): boolean {
  return entry.mediaType?.startsWith('image/') ?? false;
}

/** The pages of a listing, in listing order (already natural-sorted by the readers). */
export function pagesOf(entries: readonly ContainerEntry[]): ContainerEntry[] {
  return entries.filter(isPage);
}

/** Keeps the first `max` bytes written to it, counts the rest. */
export class HeadCollector {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;
  constructor(private readonly max: number) {}
  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.kept >= this.max) return;
    const take = Math.min(chunk.length, this.max - this.kept);
    this.chunks.push(Buffer.from(chunk.subarray(0, take)));
    this.kept += take;
  }
  get full(): boolean {
    return this.kept >= this.max;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

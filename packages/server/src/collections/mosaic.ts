import { createHash } from 'node:crypto';
import { composeMosaic } from '../media/mosaic.js';

/*
 * The poster of a collection or read list without a selected upload (engine.md §7.3): a 2×2 mosaic of the
 * posters of its first four members the viewer may see, made on every request and never stored.
 * Fewer than four members repeat: 1 → a a a a, 2 → a b a b, 3 → a b c a. Members without a poster are left
 * out and the next tiles move up. Canvas: height = thumbnail size, width = height × 0.7066666667.
 */

const WIDTH_RATIO = 0.7066666667;

export interface Mosaic {
  /** Strong ETag of the image that `render` would make: known before paying for the composition. */
  etag: string;
  render(): Promise<Buffer>;
}

/**
 * The mosaic of `memberIds` (in display order), `posterOf` giving each member's poster JPEG for the viewer;
 * null when no member has one.
 */
export async function mosaicOf(
  memberIds: readonly string[],
  posterOf: (id: string) => Promise<Buffer | null>,
  edge: number,
): Promise<Mosaic | null> {
  const first = memberIds.slice(0, 4);
  if (first.length === 0) return null;
  const picked = Array.from({ length: 4 }, (_, i) => first[i % first.length]!);
  const posters = new Map<string, Buffer | null>();
  await Promise.all(first.map(async (id) => posters.set(id, await posterOf(id))));
  const tiles = picked.flatMap((id) => posters.get(id) ?? []);
  if (tiles.length === 0) return null;
  const height = edge;
  const width = Math.round(height * WIDTH_RATIO);
  const hash = createHash('md5').update(`mosaic ${width}x${height}`);
  for (const t of tiles) hash.update(createHash('md5').update(t).digest());
  return {
    etag: `"1${hash.digest('hex')}"`,
    render: async () => (await composeMosaic(tiles, { width, height })).bytes,
  };
}

import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PosterRepository } from '../domain/ports.js';
import { type PosterOwner, type StoredPoster } from '../domain/collection.js';
import { badRequest, notFound, QuireError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { EventBus } from '../events/bus.js';
import { detectBuffer, SNIFF_BYTES } from '../media/detect.js';
import { makeThumbnail, UnsupportedImageError } from '../media/images.js';

export type { PosterOwner, StoredPoster } from '../domain/collection.js';

/*
 * Posters uploaded for collections and read lists (api.md §3.4-3.5, engine.md §7.3). Only USER_UPLOADED
 * ones exist: without a selected upload the poster is a mosaic made on request (mosaic.ts).
 *
 *   <dataDir>/thumbnails/collections/<collectionId>/<thumbnailId>.jpg
 *   <dataDir>/thumbnails/readlists/<readListId>/<thumbnailId>.jpg
 *
 * As for book posters (library/thumbnails.ts), an upload is checked by decoding it and stored as JPEG fitted
 * into 1200 px, so `/thumbnail` always answers JPEG bytes; the row describes the stored JPEG.
 */

/** The largest thumbnail size: a later size change never needs the original. */
const UPLOAD_MAX_EDGE = 1200;

export interface PostersDeps {
  repository: PosterRepository;
  events: EventBus;
  dataDir: string;
  now?: () => Date;
}

export class SetPosters {
  private readonly now: () => string;
  private readonly clock: () => Date;

  constructor(private readonly d: PostersDeps) {
    const clock = d.now ?? (() => new Date());
    this.clock = clock;
    this.now = () => clock().toISOString();
  }

  folder(owner: PosterOwner, ownerId: string): string {
    return join(this.d.dataDir, 'thumbnails', owner === 'collection' ? 'collections' : 'readlists', ownerId);
  }

  private path(p: Pick<StoredPoster, 'owner' | 'ownerId' | 'id'>): string {
    return join(this.folder(p.owner, p.ownerId), `${p.id}.jpg`);
  }

  private emit(owner: PosterOwner, ownerId: string, kind: 'Added' | 'Deleted', selected: boolean): void {
    if (owner === 'collection') {
      this.d.events.emit({
        type: kind === 'Added' ? 'ThumbnailSeriesCollectionAdded' : 'ThumbnailSeriesCollectionDeleted',
        data: { collectionId: ownerId, selected },
      });
    } else {
      this.d.events.emit({
        type: kind === 'Added' ? 'ThumbnailReadListAdded' : 'ThumbnailReadListDeleted',
        data: { readListId: ownerId, selected },
      });
    }
  }

  list(owner: PosterOwner, ownerId: string): Promise<StoredPoster[]> {
    return this.d.repository.findAllByOwner(owner, ownerId);
  }

  /** 415 when the bytes are not a decodable image. */
  async upload(owner: PosterOwner, ownerId: string, bytes: Uint8Array, selected: boolean): Promise<StoredPoster> {
    const type = detectBuffer(bytes.subarray(0, SNIFF_BYTES));
    if (!type.startsWith('image/')) throw new QuireError(415, `Not an image: ${type}`);
    let image;
    try {
      image = await makeThumbnail(bytes, { maxEdge: UPLOAD_MAX_EDGE, format: 'jpeg' });
    } catch (e) {
      if (e instanceof UnsupportedImageError) throw new QuireError(415, `Unsupported image: ${type}`);
      throw e;
    }
    const poster = {
      id: newId(),
      owner,
      ownerId,
      selected,
      mediaType: image.mediaType,
      fileSize: image.bytes.length,
      width: image.width,
      height: image.height,
    };
    const path = this.path(poster);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, image.bytes);
    await rename(tmp, path);
    const stored = await this.d.repository.insert(poster, this.clock());
    this.emit(owner, ownerId, 'Added', selected);
    return stored;
  }

  /** 404 unknown poster, 400 poster of another owner. */
  private async own(owner: PosterOwner, ownerId: string, thumbnailId: string): Promise<StoredPoster> {
    const p = await this.d.repository.findById(owner, thumbnailId);
    if (!p) throw notFound();
    if (p.ownerId !== ownerId) throw badRequest(`Thumbnail does not belong to this ${owner}`);
    return p;
  }

  async select(owner: PosterOwner, ownerId: string, thumbnailId: string): Promise<void> {
    const p = await this.own(owner, ownerId, thumbnailId);
    await this.d.repository.markSelected(owner, ownerId, p.id, this.clock());
    this.emit(owner, ownerId, 'Added', true);
  }

  /** The oldest remaining poster takes the place of a deleted selected one. */
  async delete(owner: PosterOwner, ownerId: string, thumbnailId: string): Promise<void> {
    const p = await this.own(owner, ownerId, thumbnailId);
    const next = await this.d.repository.delete(owner, ownerId, p.id, this.clock());
    await rm(this.path(p), { force: true });
    this.emit(owner, ownerId, 'Deleted', p.selected);
    if (next) this.emit(owner, ownerId, 'Added', true);
  }

  /** One poster's JPEG: 404 unknown or image gone, 400 poster of another owner. */
  async bytes(owner: PosterOwner, ownerId: string, thumbnailId: string): Promise<Buffer> {
    const p = await this.own(owner, ownerId, thumbnailId);
    const bytes = await readOrNull(this.path(p));
    if (!bytes) throw notFound();
    return bytes;
  }

  /** The selected poster's JPEG, or null (none selected, or its file is gone). */
  async selectedBytes(owner: PosterOwner, ownerId: string): Promise<Buffer | null> {
    const p = await this.d.repository.findSelected(owner, ownerId);
    return p ? readOrNull(this.path(p)) : null;
  }

  /** Removes the poster files of deleted collections / read lists (their rows went with them). */
  async removeFiles(owner: PosterOwner, ownerIds: readonly string[]): Promise<void> {
    await Promise.all(ownerIds.map((id) => rm(this.folder(owner, id), { recursive: true, force: true })));
  }
}

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

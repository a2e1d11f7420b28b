import type { ContentViewer } from '../../domain/restrictions.js';
import { atomically, type Db } from '../database.js';
import type { CollectionRepository, PosterRepository } from '../../domain/ports.js';
import { seriesVisibleTo } from '../queries/conditions.js';
import type {
  PosterOwner,
  StoredPoster,
  StoredCollection,
  CollectionCounts,
  CollectionMember,
} from '../../domain/collection.js';

/*
 * Collections of series (tables `collection`, `collection_series`, `thumbnail_collection`; engine.md §6.10,
 * §12.3, api.md §3.4). Also home of what read lists share with them: the SQL form of the content
 * restrictions (api.md §2.10) and the uploaded-poster rows.
 */

const CHUNK = 500;
const chunks = <T>(xs: readonly T[]) => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
};

// ---- uploaded posters (thumbnail_collection, thumbnail_readlist) ----

/*
 * Both tables have the same columns but the owner's: queries are typed against `thumbnail_collection` and
 * run against either (the one cast of this section).
 */
const posterTable = (owner: PosterOwner) =>
  (owner === 'collection' ? 'thumbnail_collection' : 'thumbnail_readlist') as 'thumbnail_collection';
const posterOwnerColumn = (owner: PosterOwner) =>
  (owner === 'collection' ? 'collection_id' : 'readlist_id') as 'collection_id';

/** Posters uploaded for collections and read lists; the image files live under the data directory. */
export class KyselyPosterRepository implements PosterRepository {
  constructor(private readonly db: Db) {}

  private select(owner: PosterOwner, db: Db = this.db) {
    return db
      .selectFrom(posterTable(owner))
      .select([
        'id',
        `${posterOwnerColumn(owner)} as owner_id`,
        'selected',
        'media_type',
        'file_size',
        'width',
        'height',
        'created_date',
      ]);
  }

  /** Oldest first. */
  async findAllByOwner(owner: PosterOwner, ownerId: string, db: Db = this.db): Promise<StoredPoster[]> {
    const rows = await this.select(owner, db)
      .where(posterOwnerColumn(owner), '=', ownerId)
      .orderBy('created_date')
      .orderBy('id')
      .execute();
    return rows.map((r) => toPoster(owner, r));
  }

  async findById(owner: PosterOwner, id: string): Promise<StoredPoster | undefined> {
    const row = await this.select(owner).where('id', '=', id).executeTakeFirst();
    return row && toPoster(owner, row);
  }

  async findSelected(owner: PosterOwner, ownerId: string): Promise<StoredPoster | undefined> {
    const row = await this.select(owner)
      .where(posterOwnerColumn(owner), '=', ownerId)
      .where('selected', '=', 1)
      .orderBy('created_date')
      .executeTakeFirst();
    return row && toPoster(owner, row);
  }

  /** Inserts the poster; when it is selected, the owner's other posters are unselected in the same transaction. */
  async insert(p: Omit<StoredPoster, 'createdDate'>, at: Date): Promise<StoredPoster> {
    const now = at.toISOString();
    await atomically(this.db, async (tx) => {
      if (p.selected) await this.unselectAll(tx, p.owner, p.ownerId, now);
      await tx
        .insertInto(posterTable(p.owner))
        .values({
          id: p.id,
          [posterOwnerColumn(p.owner)]: p.ownerId,
          type: 'USER_UPLOADED',
          selected: p.selected ? 1 : 0,
          media_type: p.mediaType,
          file_size: p.fileSize,
          width: p.width,
          height: p.height,
          created_date: now,
          last_modified_date: now,
        })
        .execute();
    });
    return { ...p, createdDate: now };
  }

  /** `id` becomes the one selected poster of its owner. */
  async markSelected(owner: PosterOwner, ownerId: string, id: string, at: Date): Promise<void> {
    const now = at.toISOString();
    await atomically(this.db, async (tx) => {
      await this.unselectAll(tx, owner, ownerId, now);
      await tx
        .updateTable(posterTable(owner))
        .set({ selected: 1, last_modified_date: now })
        .where('id', '=', id)
        .execute();
    });
  }

  /**
   * Deletes one poster; if it was the selected one, the oldest remaining poster is selected (Komga's
   * housekeeping). Returns the poster selected instead, if any.
   */
  async delete(owner: PosterOwner, ownerId: string, id: string, at: Date): Promise<StoredPoster | undefined> {
    const now = at.toISOString();
    return atomically(this.db, async (tx) => {
      await tx.deleteFrom(posterTable(owner)).where('id', '=', id).execute();
      const remaining = await this.findAllByOwner(owner, ownerId, tx);
      if (remaining.length === 0 || remaining.some((p) => p.selected)) return undefined;
      const next = remaining[0]!;
      await tx
        .updateTable(posterTable(owner))
        .set({ selected: 1, last_modified_date: now })
        .where('id', '=', next.id)
        .execute();
      return { ...next, selected: true };
    });
  }

  private async unselectAll(tx: Db, owner: PosterOwner, ownerId: string, now: string): Promise<void> {
    await tx
      .updateTable(posterTable(owner))
      .set({ selected: 0, last_modified_date: now })
      .where(posterOwnerColumn(owner), '=', ownerId)
      .where('selected', '=', 1)
      .execute();
  }
}

const toPoster = (
  owner: PosterOwner,
  r: {
    id: string;
    owner_id: string;
    selected: number | boolean;
    media_type: string;
    file_size: number;
    width: number;
    height: number;
    created_date: string;
  },
): StoredPoster => ({
  id: r.id,
  owner,
  ownerId: r.owner_id,
  selected: Boolean(r.selected),
  mediaType: r.media_type,
  fileSize: Number(r.file_size),
  width: Number(r.width),
  height: Number(r.height),
  createdDate: r.created_date,
});

/** Reads and forgets the sets of one kind noted by the triggers of migration 0007. */
export async function takeMembershipRemovals(db: Db, kind: 'collection' | 'readlist'): Promise<string[]> {
  const run = async (tx: Db) => {
    const rows = await tx.selectFrom('membership_removal').select('owner_id').where('kind', '=', kind).execute();
    if (rows.length > 0) await tx.deleteFrom('membership_removal').where('kind', '=', kind).execute();
    return rows.map((r) => r.owner_id);
  };
  return atomically(db, run);
}

// ---- collections ----

type CollectionRow = {
  id: string;
  name: string;
  ordered: number | boolean;
  created_date: string;
  last_modified_date: string;
};

const toCollection = (r: CollectionRow): StoredCollection => ({
  id: r.id,
  name: r.name,
  ordered: Boolean(r.ordered),
  createdDate: r.created_date,
  lastModifiedDate: r.last_modified_date,
});

export class KyselyCollectionRepository implements CollectionRepository {
  constructor(readonly db: Db) {}

  async findById(id: string): Promise<StoredCollection | undefined> {
    const row = await this.db.selectFrom('collection').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toCollection(row);
  }

  /** By name, ASCII case-insensitively (as the unique index compares). */
  async findByName(name: string): Promise<StoredCollection | undefined> {
    const row = await this.db
      .selectFrom('collection')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['name']), '=', eb.fn('lower', [eb.val(name)])))
      .executeTakeFirst();
    return row && toCollection(row);
  }

  /**
   * Every collection (or those in `ids`) with its member counts for this viewer; `libraryIds` counts the
   * visible members in those libraries.
   */
  async findAllWithCounts(
    viewer: ContentViewer,
    opts: { ids?: readonly string[]; libraryIds?: readonly string[] } = {},
  ): Promise<CollectionCounts[]> {
    let collections = this.db.selectFrom('collection').selectAll();
    if (opts.ids) collections = collections.where('id', 'in', opts.ids.length ? [...opts.ids] : ['']);
    const rows = await collections.execute();
    const libraryIds = opts.libraryIds;
    let counts = this.db
      .selectFrom('collection_series as cs')
      .innerJoin('series as s', 's.id', 'cs.series_id')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .select((eb) => {
        const visible = seriesVisibleTo(viewer);
        const inLibraries =
          libraryIds && libraryIds.length > 0
            ? eb.and([visible, eb('s.library_id', 'in', [...libraryIds])])
            : eb.lit(false);
        return [
          'cs.collection_id',
          eb.fn.countAll<number>().as('total'),
          eb.fn.sum<number>(eb.case().when(visible).then(1).else(0).end()).as('visible'),
          eb.fn.sum<number>(eb.case().when(inLibraries).then(1).else(0).end()).as('in_libraries'),
        ];
      })
      .groupBy('cs.collection_id');
    if (opts.ids) counts = counts.where('cs.collection_id', 'in', opts.ids.length ? [...opts.ids] : ['']);
    const byId = new Map((await counts.execute()).map((c) => [c.collection_id, c]));
    return rows.map((r) => {
      const c = byId.get(r.id);
      return {
        ...toCollection(r),
        total: Number(c?.total ?? 0),
        visible: Number(c?.visible ?? 0),
        inLibraries: Number(c?.in_libraries ?? 0),
      };
    });
  }

  /** Ids of the collections holding this series. */
  async idsContainingSeries(seriesId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('collection_series')
      .select('collection_id')
      .where('series_id', '=', seriesId)
      .execute();
    return rows.map((r) => r.collection_id);
  }

  /** Members of these collections in position order, with whether the viewer may see each. */
  async members(collectionIds: readonly string[], viewer: ContentViewer): Promise<CollectionMember[]> {
    const out: CollectionMember[] = [];
    for (const part of chunks(collectionIds)) {
      const rows = await this.db
        .selectFrom('collection_series as cs')
        .innerJoin('series as s', 's.id', 'cs.series_id')
        .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
        .select((eb) => [
          'cs.collection_id',
          'cs.series_id',
          'cs.number',
          'sm.title_sort',
          eb.case().when(seriesVisibleTo(viewer)).then(1).else(0).end().as('visible'),
        ])
        .where('cs.collection_id', 'in', part)
        .orderBy('cs.collection_id')
        .orderBy('cs.number')
        .execute();
      for (const r of rows) {
        out.push({
          collectionId: r.collection_id,
          seriesId: r.series_id,
          number: r.number,
          titleSort: r.title_sort,
          visible: Boolean(r.visible),
        });
      }
    }
    return out;
  }

  /** Every member's series id, in position order, whoever may see them (event payloads). */
  async memberIds(collectionId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('collection_series')
      .select('series_id')
      .where('collection_id', '=', collectionId)
      .orderBy('number')
      .execute();
    return rows.map((r) => r.series_id);
  }

  /** Which of these series exist. */
  async existingSeries(ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of chunks(ids)) {
      const rows = await this.db.selectFrom('series').select('id').where('id', 'in', part).execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  async insert(c: Omit<StoredCollection, 'lastModifiedDate'>, seriesIds: readonly string[]): Promise<void> {
    await atomically(this.db, async (db) => {
      await db
        .insertInto('collection')
        .values({
          id: c.id,
          name: c.name,
          ordered: c.ordered ? 1 : 0,
          created_date: c.createdDate,
          last_modified_date: c.createdDate,
        })
        .execute();
      await this.insertMembers(db, c.id, seriesIds, 0);
    });
  }

  /** Changes the given fields; `seriesIds` replaces the members (positions 0..n-1 in that order). */
  async update(
    id: string,
    patch: { name?: string; ordered?: boolean; seriesIds?: readonly string[] },
    at: Date,
  ): Promise<void> {
    const now = at.toISOString();
    await atomically(this.db, async (db) => {
      await db
        .updateTable('collection')
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.ordered !== undefined ? { ordered: patch.ordered ? 1 : 0 } : {}),
          last_modified_date: now,
        })
        .where('id', '=', id)
        .execute();
      if (patch.seriesIds) {
        await db.deleteFrom('collection_series').where('collection_id', '=', id).execute();
        await this.insertMembers(db, id, patch.seriesIds, 0);
      }
    });
  }

  /** Appends the series after the last member, unless it is already in. Returns whether it was added. */
  async append(id: string, seriesId: string, at: Date): Promise<boolean> {
    const now = at.toISOString();
    return atomically(this.db, async (db) => {
      const present = await db
        .selectFrom('collection_series')
        .select('series_id')
        .where('collection_id', '=', id)
        .where('series_id', '=', seriesId)
        .executeTakeFirst();
      if (present) return false;
      const last = await db
        .selectFrom('collection_series')
        .select((eb) => eb.fn.max('number').as('n'))
        .where('collection_id', '=', id)
        .executeTakeFirst();
      const next = last?.n === null || last?.n === undefined ? 0 : Number(last.n) + 1;
      await this.insertMembers(db, id, [seriesId], next);
      await db.updateTable('collection').set({ last_modified_date: now }).where('id', '=', id).execute();
      return true;
    });
  }

  async delete(ids: readonly string[]): Promise<void> {
    for (const part of chunks(ids)) await this.db.deleteFrom('collection').where('id', 'in', part).execute();
  }

  /** Collections without any member. */
  async emptyIds(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('collection as c')
      .select('c.id')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('collection_series as cs').select('cs.series_id').whereRef('cs.collection_id', '=', 'c.id'),
          ),
        ),
      )
      .execute();
    return rows.map((r) => r.id);
  }

  /** Takes (reads and forgets) the collections that lost series to a deletion (migration 0007). */
  takeMembershipRemovals(): Promise<string[]> {
    return takeMembershipRemovals(this.db, 'collection');
  }

  private async insertMembers(db: Db, id: string, seriesIds: readonly string[], first: number): Promise<void> {
    const rows = seriesIds.map((seriesId, i) => ({ collection_id: id, series_id: seriesId, number: first + i }));
    for (const part of chunks(rows))
      if (part.length > 0) await db.insertInto('collection_series').values(part).execute();
  }
}

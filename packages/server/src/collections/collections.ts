import type { CollectionRepository, UnitOfWork } from '../domain/ports.js';
import { type CollectionCounts, type CollectionMember, type StoredCollection } from '../domain/collection.js';
import { badRequest, invalid, notFound } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { seesEverything, type ContentViewer } from '../domain/restrictions.js';
import { THUMBNAIL_SIZES, type SettingsStore } from '../domain/settings.js';
import type { EventBus } from '../events/bus.js';
import { mosaicOf, type Mosaic } from './mosaic.js';
import { compareNames, nameMatcher, pageOf, type Paging } from './names.js';
import type { SetPosters, StoredPoster } from './posters.js';

/*
 * Collections of series (api.md §3.4, §2.10, engine.md §6.10, §7.3, §12.3).
 *
 * What a viewer gets: only the series they may see (library shared, content allowed), `filtered` when some
 * were hidden; a collection with no visible series does not exist for them (not listed, 404 by id) unless
 * nothing is hidden from them at all (then empty collections show too, as in Komga).
 * Member order: the stored order when `ordered`, else series sort title.
 */

export const COLLECTION_NAME_EXISTS = 'Collection name already exists';

export interface CollectionView extends StoredCollection {
  /** Visible members, in display order. */
  seriesIds: string[];
  filtered: boolean;
}

export interface CollectionListQuery {
  search?: string;
  libraryIds?: readonly string[];
  paging?: Paging;
}

/** What the service needs from series posters and access checks (library/thumbnails.ts). */
export interface SeriesPosters {
  seriesPoster(seriesId: string, userId: string): Promise<Buffer | null>;
  checkSeriesAccess(user: ContentViewer, seriesId: string): Promise<void>;
}

export interface CollectionServiceDeps {
  repository: CollectionRepository;
  /** Checks and writes that must hold together (a name is free, then taken) run in one unit of work. */
  uow: UnitOfWork;
  posters: SetPosters;
  series: SeriesPosters;
  events: EventBus;
  settings: SettingsStore;
  now?: () => Date;
}

type Viewer = ContentViewer & { id: string };

/** `{violations}` checks of CollectionCreationDto / CollectionUpdateDto (Komga's bean validation). */
function checkIds(field: string, ids: readonly string[] | undefined, emptyMessage: string) {
  if (ids === undefined) return;
  if (ids.length === 0) throw invalid([{ fieldName: field, message: emptyMessage }]);
  if (new Set(ids).size !== ids.length) {
    throw invalid([{ fieldName: field, message: 'must only contain unique elements' }]);
  }
}

function checkName(name: string | undefined, blankMessage: string): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim();
  if (!trimmed) throw invalid([{ fieldName: 'name', message: blankMessage }]);
  return trimmed;
}

export class CollectionService {
  private readonly now: () => string;
  private readonly clock: () => Date;

  constructor(private readonly d: CollectionServiceDeps) {
    const clock = d.now ?? (() => new Date());
    this.clock = clock;
    this.now = () => clock().toISOString();
  }

  private isVisible(c: CollectionCounts, viewer: ContentViewer): boolean {
    return c.visible > 0 || (c.total === 0 && seesEverything(viewer));
  }

  /** Views of these collections, members filtered and ordered for the viewer. */
  private async views(collections: readonly CollectionCounts[], viewer: ContentViewer): Promise<CollectionView[]> {
    const members = await this.d.repository.members(
      collections.map((c) => c.id),
      viewer,
    );
    const byCollection = new Map<string, CollectionMember[]>();
    for (const m of members) {
      if (!m.visible) continue;
      byCollection.set(m.collectionId, [...(byCollection.get(m.collectionId) ?? []), m]);
    }
    return collections.map((c) => {
      const visible = byCollection.get(c.id) ?? [];
      if (!c.ordered) visible.sort((a, b) => compareNames(a.titleSort, b.titleSort) || a.number - b.number);
      return {
        id: c.id,
        name: c.name,
        ordered: c.ordered,
        createdDate: c.createdDate,
        lastModifiedDate: c.lastModifiedDate,
        seriesIds: visible.map((m) => m.seriesId),
        filtered: visible.length < c.total,
      };
    });
  }

  /** `GET /api/v1/collections`: by name, or by relevance when searching. */
  async list(
    viewer: ContentViewer,
    q: CollectionListQuery = {},
  ): Promise<{ content: CollectionView[]; total: number }> {
    const libraryIds = q.libraryIds?.length ? q.libraryIds : undefined;
    let found = (await this.d.repository.findAllWithCounts(viewer, { libraryIds })).filter((c) =>
      libraryIds ? c.inLibraries > 0 : this.isVisible(c, viewer),
    );
    if (q.search !== undefined && q.search.trim() !== '') {
      const match = nameMatcher(q.search);
      const scored = found.flatMap((c) => {
        const score = match(c.name);
        return score === null ? [] : [{ c, score }];
      });
      scored.sort((a, b) => b.score - a.score || compareNames(a.c.name, b.c.name));
      found = scored.map((s) => s.c);
    } else {
      found.sort((a, b) => compareNames(a.name, b.name));
    }
    return { content: await this.views(pageOf(found, q.paging), viewer), total: found.length };
  }

  /** 404 when missing or when the viewer sees none of its series. */
  async get(viewer: ContentViewer, id: string): Promise<CollectionView> {
    const [found] = await this.d.repository.findAllWithCounts(viewer, { ids: [id] });
    if (!found || !this.isVisible(found, viewer)) throw notFound();
    return (await this.views([found], viewer))[0]!;
  }

  /** `GET /api/v1/series/{id}/collections`: 404/403 for the series, then the visible collections holding it. */
  async ofSeries(viewer: ContentViewer, seriesId: string): Promise<CollectionView[]> {
    await this.d.series.checkSeriesAccess(viewer, seriesId);
    const ids = await this.d.repository.idsContainingSeries(seriesId);
    if (ids.length === 0) return [];
    const found = (await this.d.repository.findAllWithCounts(viewer, { ids })).filter((c) => this.isVisible(c, viewer));
    found.sort((a, b) => compareNames(a.name, b.name));
    return this.views(found, viewer);
  }

  /** `POST /api/v1/collections`: 400 on a blank or taken name (case-insensitive), on no or repeated series. */
  async create(
    viewer: ContentViewer,
    input: { name: string; ordered: boolean; seriesIds: readonly string[] },
  ): Promise<CollectionView> {
    const name = checkName(input.name, 'must not be blank')!;
    checkIds('seriesIds', input.seriesIds, 'must not be empty');
    const id = newId();
    const seriesIds = await this.d.uow.run(async ({ collections: repo }) => {
      if (await repo.findByName(name)) throw badRequest(COLLECTION_NAME_EXISTS);
      const existing = await repo.existingSeries(input.seriesIds);
      const seriesIds = input.seriesIds.filter((s) => existing.has(s));
      await repo.insert({ id, name, ordered: input.ordered, createdDate: this.now() }, seriesIds);
      return seriesIds;
    });
    this.d.events.emit({ type: 'CollectionAdded', data: { collectionId: id, seriesIds } });
    const [created] = await this.d.repository.findAllWithCounts(viewer, { ids: [id] });
    return (await this.views([created!], viewer))[0]!;
  }

  /**
   * `PATCH /api/v1/collections/{id}`. A new `seriesIds` replaces the members the caller can see; members
   * hidden from the caller by their own restrictions stay, after the given ones.
   */
  async update(
    viewer: ContentViewer,
    id: string,
    patch: { name?: string; ordered?: boolean; seriesIds?: readonly string[] },
  ): Promise<void> {
    const name = checkName(patch.name, 'must be null or not blank');
    checkIds('seriesIds', patch.seriesIds, 'must be null or not empty');
    const memberIds = await this.d.uow.run(async ({ collections: repo }) => {
      const current = await repo.findById(id);
      if (!current) throw notFound();
      if (name !== undefined) {
        const clash = await repo.findByName(name);
        if (clash && clash.id !== id) throw badRequest(COLLECTION_NAME_EXISTS);
      }
      let seriesIds: string[] | undefined;
      if (patch.seriesIds) {
        const existing = await repo.existingSeries(patch.seriesIds);
        const wanted = patch.seriesIds.filter((s) => existing.has(s));
        const hidden = (await repo.members([id], viewer))
          .filter((m) => !m.visible && !wanted.includes(m.seriesId))
          .map((m) => m.seriesId);
        seriesIds = [...wanted, ...hidden];
      }
      await repo.update(id, { name, ordered: patch.ordered, seriesIds }, this.clock());
      return seriesIds ?? (await repo.memberIds(id));
    });
    this.d.events.emit({ type: 'CollectionChanged', data: { collectionId: id, seriesIds: memberIds } });
  }

  async delete(id: string): Promise<void> {
    const seriesIds = await this.d.uow.run(async ({ collections: repo }) => {
      if (!(await repo.findById(id))) throw notFound();
      const seriesIds = await repo.memberIds(id);
      await repo.delete([id]);
      return seriesIds;
    });
    await this.d.posters.removeFiles('collection', [id]);
    this.d.events.emit({ type: 'CollectionDeleted', data: { collectionId: id, seriesIds } });
  }

  /**
   * From metadata (ComicInfo SeriesGroup, engine.md §6.10): the collection with that name (case-insensitive)
   * gets the series at its end if absent; a missing collection is created unordered with it.
   */
  async addSeriesByName(name: string, seriesId: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed) return;
    const outcome = await this.d.uow.run(async ({ collections: repo }) => {
      if (!(await repo.existingSeries([seriesId])).has(seriesId)) return null;
      const found = await repo.findByName(trimmed);
      if (!found) {
        const id = newId();
        await repo.insert({ id, name: trimmed, ordered: false, createdDate: this.now() }, [seriesId]);
        return { type: 'CollectionAdded' as const, id };
      }
      if (!(await repo.append(found.id, seriesId, this.clock()))) return null;
      return { type: 'CollectionChanged' as const, id: found.id };
    });
    if (!outcome) return;
    const seriesIds = await this.d.repository.memberIds(outcome.id);
    this.d.events.emit({ type: outcome.type, data: { collectionId: outcome.id, seriesIds } });
  }

  /** Deletes every collection without series (engine.md §12.3); returns their ids. */
  async deleteEmpty(): Promise<string[]> {
    const ids = await this.d.uow.run(async ({ collections: repo }) => {
      const ids = await repo.emptyIds();
      await repo.delete(ids);
      return ids;
    });
    await this.d.posters.removeFiles('collection', ids);
    for (const id of ids) this.d.events.emit({ type: 'CollectionDeleted', data: { collectionId: id, seriesIds: [] } });
    return ids;
  }

  /** Announces the collections that lost series to a series deletion since the last call. */
  async announceMembershipRemovals(): Promise<void> {
    for (const id of await this.d.repository.takeMembershipRemovals()) {
      if (!(await this.d.repository.findById(id))) continue;
      const seriesIds = await this.d.repository.memberIds(id);
      this.d.events.emit({ type: 'CollectionChanged', data: { collectionId: id, seriesIds } });
    }
  }

  // ---- posters ----

  async posters(viewer: ContentViewer, id: string): Promise<StoredPoster[]> {
    await this.get(viewer, id);
    return this.d.posters.list('collection', id);
  }

  async posterBytes(viewer: ContentViewer, id: string, thumbnailId: string): Promise<Buffer> {
    await this.get(viewer, id);
    return this.d.posters.bytes('collection', id, thumbnailId);
  }

  async uploadPoster(id: string, bytes: Uint8Array, selected: boolean): Promise<StoredPoster> {
    if (!(await this.d.repository.findById(id))) throw notFound();
    return this.d.posters.upload('collection', id, bytes, selected);
  }

  async selectPoster(id: string, thumbnailId: string): Promise<void> {
    if (!(await this.d.repository.findById(id))) throw notFound();
    await this.d.posters.select('collection', id, thumbnailId);
  }

  async deletePoster(id: string, thumbnailId: string): Promise<void> {
    if (!(await this.d.repository.findById(id))) throw notFound();
    await this.d.posters.delete('collection', id, thumbnailId);
  }

  /**
   * `GET /api/v1/collections/{id}/thumbnail`: the selected upload, else the mosaic of the viewer's first
   * four series; 404 when the collection is invisible or nothing has a poster.
   */
  async thumbnail(viewer: Viewer, id: string): Promise<{ bytes: Buffer } | Mosaic> {
    const view = await this.get(viewer, id);
    const uploaded = await this.d.posters.selectedBytes('collection', id);
    if (uploaded) return { bytes: uploaded };
    const edge = THUMBNAIL_SIZES[(await this.d.settings.get()).thumbnailSize];
    const mosaic = await mosaicOf(view.seriesIds, (seriesId) => this.d.series.seriesPoster(seriesId, viewer.id), edge);
    if (!mosaic) throw notFound();
    return mosaic;
  }
}

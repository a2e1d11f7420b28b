import type { Db } from '../database.js';
import type { SidecarRepository } from '../../domain/ports.js';
import type { SidecarRecord } from '../../domain/library.js';

const CHUNK = 500;

/** Sidecar files seen by the last scan (engine.md §2.8); the store is global, keyed by URL. */
export class KyselySidecarRepository implements SidecarRepository {
  constructor(private readonly db: Db) {}

  async findByUrls(urls: readonly string[], t: Db = this.db): Promise<Map<string, SidecarRecord>> {
    const out = new Map<string, SidecarRecord>();
    for (let i = 0; i < urls.length; i += CHUNK) {
      const rows = await t
        .selectFrom('sidecar')
        .selectAll()
        .where('url', 'in', urls.slice(i, i + CHUNK))
        .execute();
      for (const r of rows)
        out.set(r.url, {
          url: r.url,
          parentUrl: r.parent_url,
          libraryId: r.library_id,
          lastModified: Date.parse(r.last_modified),
        });
    }
    return out;
  }

  async urlsOfLibrary(libraryId: string, t: Db = this.db): Promise<string[]> {
    const rows = await t.selectFrom('sidecar').select('url').where('library_id', '=', libraryId).execute();
    return rows.map((r) => r.url);
  }

  async save(sidecars: readonly SidecarRecord[], t: Db = this.db): Promise<void> {
    for (let i = 0; i < sidecars.length; i += CHUNK) {
      await t
        .insertInto('sidecar')
        .values(
          sidecars.slice(i, i + CHUNK).map((s) => ({
            url: s.url,
            parent_url: s.parentUrl,
            library_id: s.libraryId,
            last_modified: new Date(s.lastModified).toISOString(),
          })),
        )
        .onConflict((oc) =>
          oc.column('url').doUpdateSet((eb) => ({
            parent_url: eb.ref('excluded.parent_url'),
            library_id: eb.ref('excluded.library_id'),
            last_modified: eb.ref('excluded.last_modified'),
          })),
        )
        .execute();
    }
  }

  async deleteUrls(urls: readonly string[], t: Db = this.db): Promise<void> {
    for (let i = 0; i < urls.length; i += CHUNK)
      await t
        .deleteFrom('sidecar')
        .where('url', 'in', urls.slice(i, i + CHUNK))
        .execute();
  }
}

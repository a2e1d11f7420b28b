import { pathToFileURL } from 'node:url';
import { dirname } from 'node:path';
import type { Db } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';
import { readerFor } from '../../src/media/archives/index.js';
import { detectFile } from '../../src/media/detect.js';

/*
 * Rows for the poster tests, inserted with Kysely (the scanner and analyzer are tested elsewhere).
 * Books point at real files, read in place; their pages come from the real archive reader.
 */

const now = () => new Date().toISOString();
const dates = () => ({ created_date: now(), last_modified_date: now() });

export async function makeLibrary(
  db: Db,
  opts: { root?: string; seriesCover?: string; importLocalArtwork?: boolean } = {},
): Promise<string> {
  const id = newId();
  await db
    .insertInto('library')
    .values({
      id,
      name: `Library ${id}`,
      // A path, as the lifecycle stores it; by default the file system's root, so that the real files the
      // books point at are inside their library.
      root: opts.root ?? '/',
      series_cover: opts.seriesCover ?? 'FIRST',
      import_local_artwork: opts.importLocalArtwork === false ? 0 : 1,
      ...dates(),
    })
    .execute();
  return id;
}

export async function setSeriesCover(db: Db, libraryId: string, seriesCover: string): Promise<void> {
  await db.updateTable('library').set({ series_cover: seriesCover }).where('id', '=', libraryId).execute();
}

export async function makeSeries(
  db: Db,
  libraryId: string,
  opts: { folder?: string; oneshot?: boolean; ageRating?: number; sharingLabels?: string[] } = {},
): Promise<string> {
  const id = newId();
  const folder = opts.folder ?? `/nonexistent/${id}`;
  await db
    .insertInto('series')
    .values({
      id,
      library_id: libraryId,
      name: id,
      url: `${pathToFileURL(folder).href}/`,
      file_last_modified: now(),
      oneshot: opts.oneshot ? 1 : 0,
      deleted_date: null,
      ...dates(),
    })
    .execute();
  await db
    .insertInto('series_metadata')
    .values({
      series_id: id,
      title: id,
      title_sort: id,
      age_rating: opts.ageRating ?? null,
      reading_direction: null,
      total_book_count: null,
      ...dates(),
    })
    .execute();
  for (const [position, label] of (opts.sharingLabels ?? []).entries()) {
    await db.insertInto('series_metadata_sharing').values({ series_id: id, position, label }).execute();
  }
  return id;
}

/**
 * A book on `file`, analysed as READY (unless `status` says otherwise): media type detected from the file,
 * archive pages listed by the real reader. `numberSort` orders the books of a series.
 */
export async function makeBook(
  db: Db,
  seriesId: string,
  file: string,
  opts: { numberSort?: number; status?: string; deleted?: boolean } = {},
): Promise<string> {
  const series = await db
    .selectFrom('series')
    .select('library_id')
    .where('id', '=', seriesId)
    .executeTakeFirstOrThrow();
  const id = newId();
  const number = opts.numberSort ?? 1;
  await db
    .insertInto('book')
    .values({
      id,
      series_id: seriesId,
      library_id: series.library_id,
      name: id,
      url: pathToFileURL(file).href,
      number: Math.round(number),
      file_last_modified: now(),
      deleted_date: opts.deleted ? now() : null,
      ...dates(),
    })
    .execute();
  await db
    .insertInto('book_metadata')
    .values({ book_id: id, title: id, number: String(number), number_sort: number, release_date: null, ...dates() })
    .execute();
  const mediaType = await detectFile(file);
  const reader = readerFor(mediaType);
  const pages = reader
    ? (await reader.entries(file, { dimensions: true })).filter((e) => e.mediaType?.startsWith('image/'))
    : [];
  await db
    .insertInto('media')
    .values({
      book_id: id,
      status: opts.status ?? 'READY',
      media_type: mediaType,
      comment: null,
      page_count: pages.length,
      extension: null,
      ...dates(),
    })
    .execute();
  for (const [number, p] of pages.entries()) {
    await db
      .insertInto('media_page')
      .values({
        book_id: id,
        number,
        file_name: p.name,
        media_type: p.mediaType!,
        width: p.width ?? null,
        height: p.height ?? null,
        file_size: p.size,
      })
      .execute();
  }
  return id;
}

/** A user row (the foreign key of read progress) for service-level tests. */
export async function makeUser(db: Db): Promise<string> {
  const id = newId();
  await db
    .insertInto('user')
    .values({
      id,
      email: `${id}@example.org`,
      email_lower: `${id.toLowerCase()}@example.org`,
      password_hash: 'x',
      shared_all_libraries: 1,
      age_restriction: null,
      age_restriction_allow_only: null,
      ...dates(),
    })
    .execute();
  return id;
}

export async function setProgress(db: Db, userId: string, bookId: string, completed: boolean): Promise<void> {
  await db
    .insertInto('read_progress')
    .values({
      book_id: bookId,
      user_id: userId,
      page: 1,
      completed: completed ? 1 : 0,
      read_date: now(),
      locator: null,
      ...dates(),
    })
    .onConflict((oc) => oc.columns(['book_id', 'user_id']).doUpdateSet({ completed: completed ? 1 : 0 }))
    .execute();
}

/** The folder of a file, as a series folder. */
export const folderOf = (file: string) => dirname(file);

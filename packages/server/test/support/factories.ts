import { basename, dirname, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Db } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';

/**
 * Rows for tests, inserted directly (Komga's makeLibrary / makeSeries / makeBook): a library, a series with
 * its metadata, a book with its metadata and a media row in UNKNOWN, as the scanner leaves them.
 */

const now = () => new Date().toISOString();

export async function makeLibrary(
  db: Db,
  over: { name?: string; root?: string; analyzeDimensions?: boolean; hashFiles?: boolean; hashPages?: boolean } = {},
): Promise<string> {
  const id = newId();
  await db
    .insertInto('library')
    .values({
      id,
      name: over.name ?? `Library ${id}`,
      // A path, as the lifecycle stores it. By default the file system's root, so that every file a test points
      // at (shared fixtures read in place included) is inside its library.
      root: over.root ?? '/',
      analyze_dimensions: over.analyzeDimensions === false ? 0 : 1,
      hash_files: over.hashFiles === false ? 0 : 1,
      hash_pages: over.hashPages ? 1 : 0,
      created_date: now(),
      last_modified_date: now(),
    })
    .execute();
  return id;
}

export async function makeSeries(
  db: Db,
  libraryId: string,
  over: { title?: string; folder?: string; ageRating?: number | null; sharingLabels?: string[] } = {},
): Promise<string> {
  const id = newId();
  const title = over.title ?? `Series ${id}`;
  const folder = over.folder ?? `/tmp/${title}`;
  await db
    .insertInto('series')
    .values({
      id,
      library_id: libraryId,
      name: basename(folder),
      url: `${pathToFileURL(folder).href}/`,
      file_last_modified: now(),
      created_date: now(),
      last_modified_date: now(),
    })
    .execute();
  await db
    .insertInto('series_metadata')
    .values({
      series_id: id,
      title,
      title_sort: title,
      age_rating: over.ageRating ?? null,
      created_date: now(),
      last_modified_date: now(),
    })
    .execute();
  for (const [position, label] of (over.sharingLabels ?? []).entries()) {
    await db.insertInto('series_metadata_sharing').values({ series_id: id, label, position }).execute();
  }
  return id;
}

/** A book for `file` (an absolute path, read in place), with metadata and an UNKNOWN media row. */
export async function makeBook(
  db: Db,
  ids: { libraryId: string; seriesId: string },
  file: string,
  over: { number?: number; fileSize?: number } = {},
): Promise<string> {
  const id = newId();
  const name = basename(file, extname(file));
  const number = over.number ?? 1;
  await db
    .insertInto('book')
    .values({
      id,
      series_id: ids.seriesId,
      library_id: ids.libraryId,
      name,
      url: pathToFileURL(file).href,
      number,
      file_last_modified: now(),
      file_size: over.fileSize ?? 0,
      created_date: now(),
      last_modified_date: now(),
    })
    .execute();
  await db
    .insertInto('book_metadata')
    .values({
      book_id: id,
      title: name,
      number: String(number),
      number_sort: number,
      created_date: now(),
      last_modified_date: now(),
    })
    .execute();
  await db.insertInto('media').values({ book_id: id, created_date: now(), last_modified_date: now() }).execute();
  await db
    .updateTable('series')
    .set((eb) => ({ book_count: eb('book_count', '+', 1) }))
    .where('id', '=', ids.seriesId)
    .execute();
  return id;
}

/** A series folder holding `files`, each a book, in the given library. */
export async function makeSeriesWithBooks(
  db: Db,
  libraryId: string,
  files: readonly string[],
  over: Parameters<typeof makeSeries>[2] = {},
): Promise<{ seriesId: string; bookIds: string[] }> {
  const seriesId = await makeSeries(db, libraryId, { folder: files[0] ? dirname(files[0]) : undefined, ...over });
  const bookIds: string[] = [];
  for (const [i, f] of files.entries()) bookIds.push(await makeBook(db, { libraryId, seriesId }, f, { number: i + 1 }));
  return { seriesId, bookIds };
}

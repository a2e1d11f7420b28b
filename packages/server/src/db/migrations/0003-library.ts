import type { Kysely } from 'kysely';
import type { CreateTableBuilder } from 'kysely';
import { columnTypes } from '../dialect.js';

/*
 * Libraries, series, books, their metadata, media analysis, thumbnails, sidecars and read progress
 * (engine.md §1-7). Lists (tags, genres, authors, links…) are side tables so they can be filtered in SQL.
 * Dates are ISO-8601 UTC strings; booleans 0/1.
 */
/** The dialect's column types, set by `up` (db/dialect.ts). */
let types: ReturnType<typeof columnTypes>;

const dates = <T extends string>(t: CreateTableBuilder<T>) =>
  t
    .addColumn('created_date', types.date, (c) => c.notNull())
    .addColumn('last_modified_date', types.date, (c) => c.notNull());

const bool = (t: CreateTableBuilder<string>, name: string, value: boolean) =>
  t.addColumn(name, 'boolean', (c) => c.notNull().defaultTo(value));

export async function up(db: Kysely<unknown>): Promise<void> {
  types = columnTypes(db);
  let library = db.schema
    .createTable('library')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('scan_interval', 'varchar(16)', (c) => c.notNull().defaultTo('EVERY_6H'))
    .addColumn('series_cover', 'varchar(32)', (c) => c.notNull().defaultTo('FIRST'))
    .addColumn('oneshots_directory', 'text')
    // JSON array of strings.
    .addColumn('scan_directory_exclusions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('unavailable_date', types.date) as unknown as CreateTableBuilder<string>;
  for (const [name, value] of [
    ['import_comicinfo_book', true],
    ['import_comicinfo_series', true],
    ['import_comicinfo_collection', true],
    ['import_comicinfo_readlist', true],
    ['import_comicinfo_series_append_volume', true],
    ['import_epub_book', true],
    ['import_epub_series', true],
    ['import_mylar_series', true],
    ['import_local_artwork', true],
    ['import_barcode_isbn', true],
    ['scan_force_modified_time', false],
    ['scan_on_startup', false],
    ['scan_cbx', true],
    ['scan_pdf', true],
    ['scan_epub', true],
    ['repair_extensions', false],
    ['convert_to_cbz', false],
    ['empty_trash_after_scan', false],
    ['hash_files', true],
    ['hash_pages', false],
    ['hash_koreader', false],
    ['analyze_dimensions', true],
  ] as const)
    library = bool(library, name, value);
  await dates(library).execute();

  await dates(
    db.schema
      .createTable('series')
      .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
      .addColumn('library_id', 'varchar(26)', (c) => c.notNull().references('library.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      // file: URL of the folder, ending with '/'.
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('file_last_modified', types.date, (c) => c.notNull())
      .addColumn('book_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('oneshot', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('deleted_date', types.date),
  ).execute();
  await db.schema.createIndex('series_library_idx').on('series').column('library_id').execute();
  await db.schema.createIndex('series_url_idx').on('series').column('url').execute();

  await dates(
    db.schema
      .createTable('series_metadata')
      .addColumn('series_id', 'varchar(26)', (c) => c.primaryKey().references('series.id').onDelete('cascade'))
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('ONGOING'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('title_sort', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('reading_direction', 'varchar(16)')
      .addColumn('publisher', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('age_rating', 'integer')
      .addColumn('language', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('total_book_count', 'integer')
      .addColumn('status_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('title_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('title_sort_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('summary_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('reading_direction_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('publisher_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('age_rating_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('language_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('genres_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('tags_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('total_book_count_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('sharing_labels_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('links_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('alternate_titles_lock', 'boolean', (c) => c.notNull().defaultTo(false)),
  ).execute();
  for (const [table, columns] of [
    ['series_metadata_genre', ['genre']],
    ['series_metadata_tag', ['tag']],
    ['series_metadata_sharing', ['label']],
    ['series_metadata_link', ['label', 'url']],
    ['series_metadata_alternate_title', ['label', 'title']],
  ] as const) {
    let t = db.schema
      .createTable(table)
      .addColumn('series_id', 'varchar(26)', (c) => c.notNull().references('series.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0));
    for (const col of columns) t = t.addColumn(col, 'text', (c) => c.notNull());
    await t.execute();
    await db.schema.createIndex(`${table}_series_idx`).on(table).column('series_id').execute();
  }

  await dates(
    db.schema
      .createTable('book')
      .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
      .addColumn('series_id', 'varchar(26)', (c) => c.notNull().references('series.id').onDelete('cascade'))
      .addColumn('library_id', 'varchar(26)', (c) => c.notNull().references('library.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      // file: URL of the book file.
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('number', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('file_last_modified', types.date, (c) => c.notNull())
      .addColumn('file_size', types.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn('file_hash', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('file_hash_koreader', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('oneshot', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('deleted_date', types.date),
  ).execute();
  await db.schema.createIndex('book_series_idx').on('book').columns(['series_id', 'number']).execute();
  await db.schema.createIndex('book_library_idx').on('book').column('library_id').execute();
  await db.schema.createIndex('book_url_idx').on('book').column('url').execute();
  await db.schema.createIndex('book_hash_idx').on('book').columns(['file_size', 'file_hash']).execute();

  await dates(
    db.schema
      .createTable('book_metadata')
      .addColumn('book_id', 'varchar(26)', (c) => c.primaryKey().references('book.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('number', 'varchar(64)', (c) => c.notNull())
      .addColumn('number_sort', types.real, (c) => c.notNull())
      .addColumn('release_date', 'varchar(10)')
      .addColumn('isbn', 'varchar(13)', (c) => c.notNull().defaultTo(''))
      .addColumn('title_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('summary_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('number_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('number_sort_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('release_date_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('authors_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('tags_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('isbn_lock', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('links_lock', 'boolean', (c) => c.notNull().defaultTo(false)),
  ).execute();
  for (const [table, columns] of [
    ['book_metadata_author', ['name', 'role']],
    ['book_metadata_tag', ['tag']],
    ['book_metadata_link', ['label', 'url']],
  ] as const) {
    let t = db.schema
      .createTable(table)
      .addColumn('book_id', 'varchar(26)', (c) => c.notNull().references('book.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0));
    for (const col of columns) t = t.addColumn(col, 'text', (c) => c.notNull());
    await t.execute();
    await db.schema.createIndex(`${table}_book_idx`).on(table).column('book_id').execute();
  }

  // Aggregation of book metadata per series (engine.md §6.9).
  await dates(
    db.schema
      .createTable('book_metadata_aggregation')
      .addColumn('series_id', 'varchar(26)', (c) => c.primaryKey().references('series.id').onDelete('cascade'))
      .addColumn('release_date', 'varchar(10)')
      .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('summary_number', 'varchar(64)', (c) => c.notNull().defaultTo('')),
  ).execute();
  for (const [table, columns] of [
    ['book_metadata_aggregation_author', ['name', 'role']],
    ['book_metadata_aggregation_tag', ['tag']],
  ] as const) {
    let t = db.schema
      .createTable(table)
      .addColumn('series_id', 'varchar(26)', (c) => c.notNull().references('series.id').onDelete('cascade'));
    for (const col of columns) t = t.addColumn(col, 'text', (c) => c.notNull());
    await t.execute();
    await db.schema.createIndex(`${table}_series_idx`).on(table).column('series_id').execute();
  }

  await dates(
    db.schema
      .createTable('media')
      .addColumn('book_id', 'varchar(26)', (c) => c.primaryKey().references('book.id').onDelete('cascade'))
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('UNKNOWN'))
      .addColumn('media_type', 'varchar(128)')
      .addColumn('comment', 'text')
      .addColumn('page_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('epub_divina_compatible', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('epub_is_kepub', 'boolean', (c) => c.notNull().defaultTo(false))
      // Format-specific analysis (EPUB TOC, page list, landmarks, positions, resources) as JSON.
      .addColumn('extension', 'text'),
  ).execute();
  await db.schema
    .createTable('media_page')
    .addColumn('book_id', 'varchar(26)', (c) => c.notNull().references('book.id').onDelete('cascade'))
    // 0-based page index.
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('media_type', 'varchar(128)', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('file_hash', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('file_size', types.bigint)
    .addPrimaryKeyConstraint('media_page_pk', ['book_id', 'number'])
    .execute();
  await db.schema.createIndex('media_page_hash_idx').on('media_page').column('file_hash').execute();
  // Entries that are not pages (EPUB resources, ComicInfo.xml…).
  await db.schema
    .createTable('media_file')
    .addColumn('book_id', 'varchar(26)', (c) => c.notNull().references('book.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('media_type', 'varchar(128)')
    .addColumn('sub_type', 'varchar(32)')
    .addColumn('file_size', types.bigint)
    .execute();
  await db.schema.createIndex('media_file_book_idx').on('media_file').column('book_id').execute();

  for (const [table, owner, ownerTable] of [
    ['thumbnail_book', 'book_id', 'book'],
    ['thumbnail_series', 'series_id', 'series'],
  ] as const) {
    await dates(
      db.schema
        .createTable(table)
        .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
        .addColumn(owner, 'varchar(26)', (c) => c.notNull().references(`${ownerTable}.id`).onDelete('cascade'))
        // GENERATED, SIDECAR, USER_UPLOADED. Generated and uploaded images live under <dataDir>/thumbnails.
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        // file: URL of a sidecar image; null for stored images.
        .addColumn('url', 'text')
        .addColumn('selected', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('media_type', 'varchar(64)', (c) => c.notNull())
        .addColumn('file_size', types.bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0)),
    ).execute();
    await db.schema.createIndex(`${table}_owner_idx`).on(table).column(owner).execute();
  }

  // Sidecar files seen by the last scan (local artwork, series.json), for change detection (engine.md §2.8).
  await db.schema
    .createTable('sidecar')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('parent_url', 'text', (c) => c.notNull())
    .addColumn('library_id', 'varchar(26)', (c) => c.notNull().references('library.id').onDelete('cascade'))
    .addColumn('last_modified', types.date, (c) => c.notNull())
    .execute();

  await dates(
    db.schema
      .createTable('read_progress')
      .addColumn('book_id', 'varchar(26)', (c) => c.notNull().references('book.id').onDelete('cascade'))
      .addColumn('user_id', 'varchar(26)', (c) => c.notNull().references('user.id').onDelete('cascade'))
      // 1-based page.
      .addColumn('page', 'integer', (c) => c.notNull())
      .addColumn('completed', 'boolean', (c) => c.notNull())
      .addColumn('read_date', types.date, (c) => c.notNull())
      .addColumn('device_id', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('device_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      // Readium progression (locator JSON) for EPUBs.
      .addColumn('locator', 'text')
      .addPrimaryKeyConstraint('read_progress_pk', ['book_id', 'user_id']),
  ).execute();
  await db.schema.createIndex('read_progress_user_idx').on('read_progress').columns(['user_id', 'read_date']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}

import type { Generated } from 'kysely';

/** Booleans are stored as 0/1 (SQLite); read them through `Boolean(x)`. */
type Bool = number | boolean;

export interface UserTable {
  id: string;
  email: string;
  email_lower: string;
  password_hash: string;
  shared_all_libraries: Bool;
  age_restriction: number | null;
  age_restriction_allow_only: Bool | null;
  created_date: string;
  last_modified_date: string;
}
export interface UserRoleTable {
  user_id: string;
  role: string;
}
export interface UserLibrarySharingTable {
  user_id: string;
  library_id: string;
}
export interface UserSharingLabelTable {
  user_id: string;
  label: string;
  allow: Bool;
}
export interface SessionTable {
  id_hash: string;
  user_id: string;
  created_date: string;
  last_access_date: string;
  /** 0 until the client presents the id once; such rows are replaced or expire quickly. */
  confirmed: Generated<number>;
  ip: string | null;
  user_agent: string | null;
}
export interface OAuth2RequestTable {
  browser_key_hash: string;
  registration_id: string;
  state: string;
  nonce: string;
  pkce_verifier: string;
  expires_at: number;
}
export interface RememberMeTokenTable {
  token_hash: string;
  user_id: string;
  created_date: string;
  expires_date: string;
}
export interface ApiKeyTable {
  id: string;
  user_id: string;
  key_hash: string;
  comment: string;
  created_date: string;
  last_modified_date: string;
}
/** Kobo sync points (migration 0019): snapshots of the EPUBs a Kobo's API key could see at a sync. */
export interface SyncPointTable {
  id: string;
  user_id: string;
  api_key_id: string;
  created_date: string;
}
export interface SyncPointBookTable {
  sync_point_id: string;
  book_id: string;
  book_created_date: string;
  file_last_modified: string;
  file_size: number;
  file_hash: string;
  metadata_last_modified_date: string;
  thumbnail_id: string | null;
  read_progress_last_modified_date: string | null;
  synced: Generated<Bool>;
}
export interface SyncPointReadListTable {
  sync_point_id: string;
  readlist_id: string;
  name: string;
  created_date: string;
  last_modified_date: string;
  /** The snapshot's books of the list, in list order, comma-separated. */
  book_ids: string;
  synced: Generated<Bool>;
}
export interface AuthenticationActivityTable {
  id: string;
  user_id: string | null;
  email: string | null;
  api_key_id: string | null;
  api_key_comment: string | null;
  ip: string | null;
  user_agent: string | null;
  success: Bool;
  error: string | null;
  source: string | null;
  date_time: string;
}
export interface ServerSettingsTable {
  key: string;
  value: string | null;
}
export interface TaskTable {
  unique_id: string;
  kind: string;
  priority: number;
  group_id: string | null;
  payload: string;
  owner: string | null;
  run_again: Generated<number>;
  seq: number;
  created_date: string;
  last_modified_date: string;
  /** 1: not handed out while an AnalyzeBook is queued or running (migration 0026). */
  after_analyses: Generated<number>;
}

type Dates = { created_date: string; last_modified_date: string };

export interface LibraryTable extends Dates {
  id: string;
  name: string;
  root: string;
  scan_interval: Generated<string>;
  series_cover: Generated<string>;
  oneshots_directory: string | null;
  /** JSON array of strings. */
  scan_directory_exclusions: Generated<string>;
  unavailable_date: string | null;
  import_comicinfo_book: Generated<Bool>;
  import_comicinfo_series: Generated<Bool>;
  import_comicinfo_collection: Generated<Bool>;
  import_comicinfo_readlist: Generated<Bool>;
  import_comicinfo_series_append_volume: Generated<Bool>;
  import_epub_book: Generated<Bool>;
  import_epub_series: Generated<Bool>;
  import_mylar_series: Generated<Bool>;
  import_local_artwork: Generated<Bool>;
  import_barcode_isbn: Generated<Bool>;
  scan_force_modified_time: Generated<Bool>;
  scan_on_startup: Generated<Bool>;
  scan_cbx: Generated<Bool>;
  scan_pdf: Generated<Bool>;
  scan_epub: Generated<Bool>;
  repair_extensions: Generated<Bool>;
  convert_to_cbz: Generated<Bool>;
  empty_trash_after_scan: Generated<Bool>;
  hash_files: Generated<Bool>;
  hash_pages: Generated<Bool>;
  hash_koreader: Generated<Bool>;
  analyze_dimensions: Generated<Bool>;
}

export interface SeriesTable extends Dates {
  id: string;
  library_id: string;
  name: string;
  url: string;
  file_last_modified: string;
  book_count: Generated<number>;
  oneshot: Generated<Bool>;
  deleted_date: string | null;
}

export interface SeriesMetadataTable extends Dates {
  series_id: string;
  status: Generated<string>;
  title: string;
  title_sort: string;
  summary: Generated<string>;
  reading_direction: string | null;
  publisher: Generated<string>;
  age_rating: number | null;
  language: Generated<string>;
  total_book_count: number | null;
  status_lock: Generated<Bool>;
  title_lock: Generated<Bool>;
  title_sort_lock: Generated<Bool>;
  summary_lock: Generated<Bool>;
  reading_direction_lock: Generated<Bool>;
  publisher_lock: Generated<Bool>;
  age_rating_lock: Generated<Bool>;
  language_lock: Generated<Bool>;
  genres_lock: Generated<Bool>;
  tags_lock: Generated<Bool>;
  total_book_count_lock: Generated<Bool>;
  sharing_labels_lock: Generated<Bool>;
  links_lock: Generated<Bool>;
  alternate_titles_lock: Generated<Bool>;
}

type SeriesChild<T> = { series_id: string; position: Generated<number> } & T;
type BookChild<T> = { book_id: string; position: Generated<number> } & T;

export interface BookTable extends Dates {
  id: string;
  series_id: string;
  library_id: string;
  name: string;
  url: string;
  number: Generated<number>;
  file_last_modified: string;
  file_size: Generated<number>;
  file_hash: Generated<string>;
  file_hash_koreader: Generated<string>;
  oneshot: Generated<Bool>;
  deleted_date: string | null;
  /** book_search.title_fold, copied by triggers (migration 0022): null until the book is indexed. */
  sort_title_fold: Generated<string | null>;
  /** book_metadata.title, copied by triggers (migration 0022). */
  sort_title: Generated<string | null>;
}

export interface BookMetadataTable extends Dates {
  book_id: string;
  title: string;
  summary: Generated<string>;
  number: string;
  number_sort: number;
  release_date: string | null;
  isbn: Generated<string>;
  title_lock: Generated<Bool>;
  summary_lock: Generated<Bool>;
  number_lock: Generated<Bool>;
  number_sort_lock: Generated<Bool>;
  release_date_lock: Generated<Bool>;
  authors_lock: Generated<Bool>;
  tags_lock: Generated<Bool>;
  isbn_lock: Generated<Bool>;
  links_lock: Generated<Bool>;
}

export interface BookMetadataAggregationTable extends Dates {
  series_id: string;
  release_date: string | null;
  summary: Generated<string>;
  summary_number: Generated<string>;
}

export interface MediaTable extends Dates {
  book_id: string;
  status: Generated<string>;
  media_type: string | null;
  comment: string | null;
  page_count: Generated<number>;
  epub_divina_compatible: Generated<Bool>;
  epub_is_kepub: Generated<Bool>;
  /** JSON: format-specific analysis (EPUB TOC, positions, …). */
  extension: string | null;
}

export interface MediaPageTable {
  book_id: string;
  /** 0-based. */
  number: number;
  file_name: string;
  media_type: string;
  width: number | null;
  height: number | null;
  file_hash: Generated<string>;
  file_size: number | null;
}

/** A page hash an administrator decided on (engine.md §5.4). */
export interface PageHashTable {
  hash: string;
  size: number | null;
  action: string;
  delete_count: Generated<number>;
  created_date: string;
  last_modified_date: string;
}

/** The announcements feed of one URL (api.md §9.2, migration 0015). */
export interface AnnouncementFeedTable {
  url: string;
  /** Epoch ms: when an instance last took the fetch on itself. */
  claimed_at: number;
  /** JSON of the checked Feed (domain/announcements.ts); null until a fetch succeeded. */
  feed: string | null;
  fetched_at: number | null;
}

/** A book found outside every library for the import screen (engine.md §9.1, migration 0012). */
/** An import in progress (migration 0013). */
export interface BookImportTable {
  /** The ImportBook task's unique id. */
  task_id: string;
  /** 'PLACING' (the file may be under its name) or 'RECORDED' (the book row is written). */
  stage: string;
  target_url: string;
  book_id: string | null;
  upgraded_url: string | null;
  created_date: string;
}

export interface TransientBookTable {
  id: string;
  name: string;
  url: string;
  path: string;
  file_size: number;
  file_last_modified: number;
  /** JSON of the MediaAnalysis, null until analysed. */
  analysis: string | null;
  series_id: string | null;
  number: number | null;
  /** Epoch milliseconds. */
  expires_at: number;
}

/** How many pages hold a non-blank hash; kept by triggers on media_page (migration 0011). */
export interface PageHashCountTable {
  hash: string;
  file_size: number | null;
  match_count: number;
}

export interface MediaFileTable {
  book_id: string;
  file_name: string;
  media_type: string | null;
  sub_type: string | null;
  file_size: number | null;
}

interface ThumbnailColumns extends Dates {
  id: string;
  type: string;
  url: string | null;
  selected: Generated<Bool>;
  media_type: string;
  file_size: Generated<number>;
  width: Generated<number>;
  height: Generated<number>;
}
export interface ThumbnailBookTable extends ThumbnailColumns {
  book_id: string;
}
export interface ThumbnailSeriesTable extends ThumbnailColumns {
  series_id: string;
}

export interface SidecarTable {
  url: string;
  parent_url: string;
  library_id: string;
  last_modified: string;
}

export interface ReadProgressTable extends Dates {
  book_id: string;
  user_id: string;
  /** 1-based. */
  page: number;
  completed: Bool;
  read_date: string;
  device_id: Generated<string>;
  device_name: Generated<string>;
  /** Readium progression locator (JSON) for EPUBs. */
  locator: string | null;
}

export interface ClientSettingGlobalTable {
  key: string;
  value: string;
  allow_unauthorized: Bool;
}
export interface ClientSettingUserTable {
  user_id: string;
  key: string;
  value: string;
}

export interface CollectionTable extends Dates {
  id: string;
  name: string;
  ordered: Generated<Bool>;
}
export interface CollectionSeriesTable {
  collection_id: string;
  series_id: string;
  /** 0-based position. */
  number: number;
}
export interface ReadListTable extends Dates {
  id: string;
  name: string;
  summary: Generated<string>;
  ordered: Generated<Bool>;
}
export interface ReadListBookTable {
  readlist_id: string;
  book_id: string;
  /** 0-based position. */
  number: number;
}
interface UploadedThumbnailColumns extends Dates {
  id: string;
  type: string;
  selected: Generated<Bool>;
  media_type: string;
  file_size: Generated<number>;
  width: Generated<number>;
  height: Generated<number>;
}
export interface ThumbnailCollectionTable extends UploadedThumbnailColumns {
  collection_id: string;
}
export interface ThumbnailReadListTable extends UploadedThumbnailColumns {
  readlist_id: string;
}
/** Sets that lost a member to a series/book deletion, not yet announced (migration 0007). */
export interface MembershipRemovalTable {
  kind: 'collection' | 'readlist';
  owner_id: string;
}

/** Entities whose search document is out of date (migration 0006; filled by triggers, drained by db/search). */
export interface SearchPendingTable {
  kind: 'series' | 'book';
  id: string;
}
/** A series' FTS row and its folded (lower-case, accent-free) title, sort title and folder name. */
export interface SeriesSearchTable {
  docid: Generated<number>;
  series_id: string;
  title_fold: string;
  title_sort_fold: string;
  name_fold: string;
}
/** A book's FTS row and its folded title and file name. */
export interface BookSearchTable {
  docid: Generated<number>;
  book_id: string;
  title_fold: string;
  name_fold: string;
}
/** The caller's progress summed per series (engine.md §13.3), kept by triggers on read_progress. */
export interface ReadProgressSeriesTable {
  series_id: string;
  user_id: string;
  read_count: number;
  in_progress_count: number;
  most_recent_read_date: string;
}

export interface HistoricalEventTable {
  id: string;
  type: string;
  book_id: string | null;
  series_id: string | null;
  library_id: string | null;
  timestamp: string;
  /** JSON object of strings. */
  properties: string;
}

/** Figures of the tasks of one type that finished within one hour (hours since the epoch, UTC). */
export interface TaskMetricTable {
  type: string;
  hour: number;
  count: number;
  failures: number;
  total_ms: number;
  max_ms: number;
}

export interface DB {
  user: UserTable;
  user_role: UserRoleTable;
  user_library_sharing: UserLibrarySharingTable;
  user_sharing_label: UserSharingLabelTable;
  session: SessionTable;
  remember_me_token: RememberMeTokenTable;
  oauth2_request: OAuth2RequestTable;
  api_key: ApiKeyTable;
  sync_point: SyncPointTable;
  sync_point_book: SyncPointBookTable;
  sync_point_removed: { sync_point_id: string; book_id: string };
  sync_point_readlist: SyncPointReadListTable;
  sync_point_readlist_removed: { sync_point_id: string; readlist_id: string };
  authentication_activity: AuthenticationActivityTable;
  server_settings: ServerSettingsTable;
  task: TaskTable;
  library: LibraryTable;
  series: SeriesTable;
  series_metadata: SeriesMetadataTable;
  series_metadata_genre: SeriesChild<{ genre: string }>;
  series_metadata_tag: SeriesChild<{ tag: string }>;
  series_metadata_sharing: SeriesChild<{ label: string }>;
  series_metadata_link: SeriesChild<{ label: string; url: string }>;
  series_metadata_alternate_title: SeriesChild<{ label: string; title: string }>;
  book: BookTable;
  book_metadata: BookMetadataTable;
  book_metadata_author: BookChild<{ name: string; role: string }>;
  book_metadata_tag: BookChild<{ tag: string }>;
  book_metadata_link: BookChild<{ label: string; url: string }>;
  book_metadata_aggregation: BookMetadataAggregationTable;
  book_metadata_aggregation_author: { series_id: string; name: string; role: string };
  book_metadata_aggregation_tag: { series_id: string; tag: string };
  media: MediaTable;
  media_page: MediaPageTable;
  media_file: MediaFileTable;
  thumbnail_book: ThumbnailBookTable;
  thumbnail_series: ThumbnailSeriesTable;
  sidecar: SidecarTable;
  read_progress: ReadProgressTable;
  client_setting_global: ClientSettingGlobalTable;
  client_setting_user: ClientSettingUserTable;
  collection: CollectionTable;
  collection_series: CollectionSeriesTable;
  readlist: ReadListTable;
  readlist_book: ReadListBookTable;
  thumbnail_collection: ThumbnailCollectionTable;
  thumbnail_readlist: ThumbnailReadListTable;
  membership_removal: MembershipRemovalTable;
  search_pending: SearchPendingTable;
  series_search: SeriesSearchTable;
  book_search: BookSearchTable;
  read_progress_series: ReadProgressSeriesTable;
  historical_event: HistoricalEventTable;
  page_hash: PageHashTable;
  page_hash_thumbnail: { hash: string; thumbnail: Uint8Array };
  page_hash_count: PageHashCountTable;
  transient_book: TransientBookTable;
  book_import: BookImportTable;
  task_metric: TaskMetricTable;
  announcement_feed: AnnouncementFeedTable;
  announcement_read: { user_id: string; item_id: string };
}

export type { Generated };

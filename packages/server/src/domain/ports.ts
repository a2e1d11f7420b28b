import type { HistoryRepository } from './history.js';
import type { TaskMetricsRepository } from './metrics.js';
import type { PageHashRepository } from './page-hashes.js';
import type { TransientBookRepository } from './transient-books.js';
import type { BookImportJournal } from './book-imports.js';
import type { AnnouncementRepository } from './announcements.js';
import type {
  ActivityPageRequest,
  SessionCutoffs,
  StoredActivity,
  StoredApiKey,
  StoredRememberMeToken,
  StoredOAuth2Request,
  StoredSession,
  StoredUser,
} from './account.js';
import type { BookNumbering, BookRecord, NewBook } from './book.js';
import type {
  CblCandidate,
  CollectionCounts,
  CollectionMember,
  ExportedBook,
  PosterOwner,
  ReadListCounts,
  ReadListMember,
  StoredCollection,
  StoredPoster,
  StoredReadList,
} from './collection.js';
import type { Library, SidecarRecord } from './library.js';
import type { AnalysisTarget, MediaAnalysis, StoredFile, StoredMedia, StoredPage } from './media.js';
import type {
  AggregationRecord,
  AggregationSource,
  BookMetadata,
  BookMetadataChanges,
  SeriesMetadata,
  SeriesMetadataChanges,
} from './metadata.js';
import type { AccessFacts, BookState, NewReadProgress, ProgressBook, StoredReadProgress } from './read-progress.js';
import type { ContentViewer } from './restrictions.js';
import type { NewSeries, SeriesRecord } from './series.js';
import type { StoredClientSetting } from './settings.js';
import type {
  BookForThumbnail,
  NewThumbnail,
  SeriesForThumbnail,
  StoredThumbnail,
  ThumbnailOwner,
  VisibilityFacts,
} from './thumbnail.js';

/**
 * The ports of the persistence layer: one interface per repository, the set of them, and the unit of work that
 * binds them to one transaction. Services depend on these; `db/` implements them with Kysely (SQLite today, and
 * PostgreSQL through the same queries tomorrow), and only the composition root names the implementation.
 *
 * Values crossing these interfaces are domain values (booleans, numbers, strings, Dates): what a database holds
 * in another form (0/1 integers, JSON text, row ids) is mapped inside the implementation.
 */

/** Libraries as stored (engine.md §1.2). */
export interface LibraryRepository {
  /** Sorted by lower-cased name (api.md §3.1). */
  list(): Promise<Library[]>;
  find(id: string): Promise<Library | undefined>;
  insert(library: Library, now: Date): Promise<void>;
  update(library: Library, now: Date): Promise<void>;
  setUnavailable(id: string, date: Date | null): Promise<void>;
  /**
   * Removes the library row, its users' sharing entries and its sidecar rows; series and books (and
   * everything hanging from them) go with it through the foreign keys' cascades.
   */
  delete(id: string): Promise<void>;
}

/** Write side of series (and the simple reads the scanner and the trash need). */
export interface SeriesRepository {
  find(id: string): Promise<SeriesRecord | undefined>;
  /** Every series of the library, soft-deleted ones included. */
  findByLibrary(libraryId: string): Promise<SeriesRecord[]>;
  /** The live series of the library at these URLs. */
  findLiveByUrls(libraryId: string, urls: readonly string[]): Promise<SeriesRecord[]>;
  /** Soft-deleted series of every other library. */
  findDeletedOutside(libraryId: string): Promise<SeriesRecord[]>;
  findDeletedIds(libraryId: string): Promise<string[]>;
  /** Series row, its metadata (`title = titleSort = name` by default) and an empty book-metadata aggregation. */
  insert(series: readonly NewSeries[], now: Date): Promise<void>;
  updateFileLastModified(id: string, fileLastModified: number, now: Date): Promise<void>;
  /** Every series' metadata title, deleted series included, oldest first (guessing a transient book's series). */
  allTitles(): Promise<{ id: string; title: string }[]>;
  /** A one-shot whose book file was replaced by an import (engine.md §9.2): the series follows its new file. */
  moveOneshot(id: string, file: { url: string; fileLastModified: number }, now: Date): Promise<void>;
  softDelete(ids: readonly string[], now: Date): Promise<void>;
  titles(id: string): Promise<
    | {
        title: string;
        titleSort: string;
        titleLock: boolean;
        titleSortLock: boolean;
      }
    | undefined
  >;
  /**
   * Brings a soft-deleted series back at a new place (rename/move, engine.md §2.7): it keeps its id, its
   * metadata, its thumbnails and collections; its url, name, library and time are the walked ones.
   */
  revive(id: string, to: Omit<NewSeries, 'id'>, now: Date): Promise<void>;
  setBookCount(id: string, bookCount: number, now: Date): Promise<void>;
  /** Hard delete; books, metadata, thumbnails rows… go through the foreign keys' cascades. */
  hardDelete(ids: readonly string[]): Promise<void>;
}

/** Write side of books, their initial metadata and media rows, plus the reads the scanner and trash need. */
export interface BookRepository {
  find(id: string): Promise<BookRecord | undefined>;
  /** Every book of the library, soft-deleted ones included. */
  findByLibrary(libraryId: string): Promise<BookRecord[]>;
  /** The live books of the library at these URLs. */
  findLiveByUrls(libraryId: string, urls: readonly string[]): Promise<BookRecord[]>;
  findBySeries(seriesId: string): Promise<BookRecord[]>;
  /** Soft-deleted books of every other library (restore candidates, engine.md §2.7). */
  findDeletedOutside(libraryId: string): Promise<BookRecord[]>;
  /** Soft-deleted books of the library, whatever the state of their series. */
  findDeleted(libraryId: string): Promise<BookRecord[]>;
  /** Book rows, their metadata and a `Media(status = UNKNOWN)` each (engine.md §2.4 `addBooks`). */
  insert(books: readonly NewBook[], now: Date): Promise<void>;
  /** A changed file (engine.md §2.5): new time, size and hash; its media becomes OUTDATED when `outdated`. */
  updateFile(
    change: {
      id: string;
      fileSize: number;
      fileLastModified: number;
      fileHash: string;
      outdated: boolean;
    },
    now: Date,
  ): Promise<void>;
  setFileHash(id: string, fileHash: string, now: Date): Promise<void>;
  softDelete(ids: readonly string[], now: Date): Promise<void>;
  /** Soft-deletes the live books of these series. */
  softDeleteInSeries(seriesIds: readonly string[], now: Date): Promise<void>;
  titleOf(id: string): Promise<
    | {
        title: string;
        titleLock: boolean;
      }
    | undefined
  >;
  /**
   * Brings a soft-deleted book back at a new place (rename/move, engine.md §2.7): it keeps its id, media,
   * metadata, thumbnails and everybody's read progress; url, name, series, library and file facts are new.
   */
  revive(
    id: string,
    to: Pick<
      NewBook,
      'seriesId' | 'libraryId' | 'name' | 'url' | 'fileSize' | 'fileLastModified' | 'fileHash' | 'oneshot' | 'title'
    >,
    now: Date,
  ): Promise<void>;
  /** Every book of the series (soft-deleted ones included) with what numbering needs. */
  numberingOf(seriesId: string): Promise<BookNumbering[]>;
  setNumbers(
    id: string,
    numbers: {
      number: number;
      metadataNumber: string;
      metadataNumberSort: number;
    },
    now: Date,
  ): Promise<void>;
  /** Live books of the library whose media is UNKNOWN or OUTDATED (engine.md §8.3). */
  findToAnalyze(libraryId: string): Promise<
    {
      id: string;
      seriesId: string;
    }[]
  >;
  /** Live books of the library without a file hash. */
  findUnhashed(libraryId: string): Promise<string[]>;
  findWithoutKoreaderHash(libraryId: string): Promise<string[]>;
  /**
   * Live books whose file extension is not the one `extensions` gives for their analysed media type (engine.md
   * §11.2); LIKE compares ASCII without regard to case, so `Book.CBZ` is fine.
   */
  findWithWrongExtension(
    libraryId: string,
    extensions: Readonly<Record<string, string>>,
  ): Promise<
    {
      id: string;
      seriesId: string;
    }[]
  >;
  /** Live books of a library with one of the given media types (FindBooksToConvert, engine.md §11.1). */
  findByMediaType(
    libraryId: string,
    mediaTypes: readonly string[],
  ): Promise<
    {
      id: string;
      seriesId: string;
    }[]
  >;
  /**
   * The book's file was replaced by another (conversion) or renamed (extension repair): its url, size and time;
   * hashes as given (blank when the bytes changed).
   */
  replaceFile(
    id: string,
    file: {
      url: string;
      fileSize: number;
      fileLastModified: number;
      fileHash: string;
      fileHashKoreader: string;
    },
    now: Date,
  ): Promise<void>;
  /**
   * An imported file takes the place of the book's (an upgrade, engine.md §9.2): its name, url, size and time; blank
   * hashes; media OUTDATED, so that the next analysis adjusts read progress if the page count changed. Everything
   * else of the book (id, metadata, posters, progress, read lists) stays, and a trashed book comes back.
   */
  upgradeFile(
    id: string,
    file: { name: string; url: string; fileSize: number; fileLastModified: number },
    now: Date,
  ): Promise<void>;
  /** Hard delete; metadata, media, pages, thumbnail rows and read progress go through the cascades. */
  hardDelete(ids: readonly string[]): Promise<void>;
}

/** Sidecar files seen by the last scan (engine.md §2.8); the store is global, keyed by URL. */
export interface SidecarRepository {
  findByUrls(urls: readonly string[]): Promise<Map<string, SidecarRecord>>;
  urlsOfLibrary(libraryId: string): Promise<string[]>;
  save(sidecars: readonly SidecarRecord[]): Promise<void>;
  deleteUrls(urls: readonly string[]): Promise<void>;
}

export interface MediaRepository {
  analysisTarget(bookId: string): Promise<AnalysisTarget | undefined>;
  find(bookId: string): Promise<StoredMedia | undefined>;
  pages(bookId: string): Promise<StoredPage[]>;
  /** One page, 0-based. */
  page(bookId: string, number: number): Promise<StoredPage | undefined>;
  files(bookId: string): Promise<StoredFile[]>;
  /**
   * Replaces the analysis of a book in one transaction. Hashes of pages that did not change (same file
   * name, media type and size) are kept. When an OUTDATED book's page count changed, every user's progress
   * is adjusted (engine.md §4.5): completed → last page, else page 1. Returns the previous media, if any.
   */
  save(bookId: string, a: MediaAnalysis, now: Date): Promise<StoredMedia | undefined>;
  /** Stores page hashes (0-based page numbers). */
  setPageHashes(
    bookId: string,
    hashes: readonly {
      number: number;
      hash: string;
    }[],
  ): Promise<void>;
  /** The book's file hash (HashBook, engine.md §5.1). */
  setFileHash(bookId: string, hash: string): Promise<void>;
  /** The book's KOReader partial MD5 (HashBookKoreader, engine.md §5.2). */
  setKoreaderHash(bookId: string, hash: string): Promise<void>;
  /**
   * READY books of a library and media type with fewer page hashes than they should have: min(pageCount,
   * 2 × perEnd) (FindBooksWithMissingPageHash, engine.md §5.3).
   */
  booksWithMissingPageHashes(
    libraryId: string,
    mediaType: string,
    perEnd: number,
  ): Promise<
    {
      id: string;
      seriesId: string;
    }[]
  >;
}

export interface MetadataRepository {
  findBook(bookId: string): Promise<BookMetadata | undefined>;
  findBooks(bookIds: readonly string[]): Promise<Map<string, BookMetadata>>;
  findSeries(seriesId: string): Promise<SeriesMetadata | undefined>;
  /** Writes the fields present in `changes`; false when the book has no metadata row. */
  updateBook(bookId: string, changes: BookMetadataChanges, now: Date): Promise<boolean>;
  /** Several books in one transaction; returns the ids that had a metadata row. */
  updateBooks(
    updates: readonly {
      bookId: string;
      changes: BookMetadataChanges;
    }[],
    now: Date,
  ): Promise<string[]>;
  /** Writes the fields present in `changes`; false when the series has no metadata row. */
  updateSeries(seriesId: string, changes: SeriesMetadataChanges, now: Date): Promise<boolean>;
  /**
   * Every book of the series, soft-deleted ones included (engine.md §6.9), ordered by `numberSort` then
   * position in the series.
   */
  aggregationSources(seriesId: string): Promise<AggregationSource[]>;
  findAggregation(seriesId: string): Promise<AggregationRecord | undefined>;
  /** Replaces the aggregation of a series (creating its row if a series somehow lacks one). */
  replaceAggregation(seriesId: string, aggregation: AggregationRecord, now: Date): Promise<void>;
}

export interface ThumbnailRepository {
  findById(owner: ThumbnailOwner, id: string): Promise<StoredThumbnail | undefined>;
  /** In insertion order (ids sort by creation time). */
  findAllByOwner(owner: ThumbnailOwner, ownerId: string): Promise<StoredThumbnail[]>;
  insert(t: NewThumbnail, now?: Date): Promise<StoredThumbnail>;
  /** Makes `id` the only selected poster of its owner, in one transaction. */
  markSelected(owner: ThumbnailOwner, ownerId: string, id: string): Promise<void>;
  delete(owner: ThumbnailOwner, ids: readonly string[]): Promise<void>;
  findBook(bookId: string): Promise<BookForThumbnail | undefined>;
  /** File names of a book's pages after the first, in order, at most `count`. */
  laterPageNames(bookId: string, count: number): Promise<string[]>;
  findSeries(seriesId: string): Promise<SeriesForThumbnail | undefined>;
  importLocalArtwork(libraryId: string): Promise<boolean>;
  /** The library, age rating and sharing labels of a book's series; undefined if the book does not exist. */
  visibilityOfBook(bookId: string): Promise<VisibilityFacts | undefined>;
  visibilityOfSeries(seriesId: string): Promise<VisibilityFacts | undefined>;
  /**
   * The book whose poster stands for the series (engine.md §7.2), by `numberSort` (the book's position
   * when it has no metadata yet). `unreadFor` restricts to books the user has not completed (in progress
   * counts as unread). Soft-deleted books are not excluded, as in Komga.
   */
  coverBookId(
    seriesId: string,
    opts: {
      last: boolean;
      unreadFor?: string;
    },
  ): Promise<string | undefined>;
  /** Non-deleted books, for regenerating every poster. */
  allBookIds(): Promise<string[]>;
  /** Non-deleted books whose GENERATED poster is smaller than `edge` on both sides (engine.md §7.1). */
  bookIdsWithGeneratedSmallerThan(edge: number): Promise<string[]>;
}

export interface ReadProgressRepository {
  find(bookId: string, userId: string): Promise<StoredReadProgress | undefined>;
  findMany(bookIds: readonly string[], userId: string): Promise<StoredReadProgress[]>;
  /**
   * Inserts or replaces each (book, user) row; a replaced row keeps its creation date. Update, then insert when
   * nothing was updated (call it in a transaction): no UPSERT, whose conflict clause SQLite would also impose on
   * the statements of triggers on this table.
   */
  save(rows: readonly NewReadProgress[], now: Date): Promise<void>;
  delete(bookIds: readonly string[], userId: string): Promise<void>;
  /** A book with its media and access facts; undefined when unknown. */
  book(bookId: string): Promise<ProgressBook | undefined>;
  /** The live books (not soft-deleted) whose KOReader document hash is this one; none for ''. */
  booksWithKoreaderHash(hash: string): Promise<ProgressBook[]>;
  /** The file names of a book's entries that are not pages (EPUB resources). */
  fileNames(bookId: string): Promise<string[]>;
  /** Access facts of a series; undefined when unknown. */
  series(seriesId: string): Promise<AccessFacts | undefined>;
  /** Every book of the series, soft-deleted ones included, by `numberSort` then position. */
  seriesBooks(seriesId: string, userId: string): Promise<BookState[]>;
  readListExists(readListId: string): Promise<boolean>;
  /** The books of a read list in list order. */
  readListBooks(readListId: string, userId: string): Promise<BookState[]>;
}

export interface CollectionRepository {
  findById(id: string): Promise<StoredCollection | undefined>;
  /** By name, ASCII case-insensitively (as the unique index compares). */
  findByName(name: string): Promise<StoredCollection | undefined>;
  /**
   * Every collection (or those in `ids`) with its member counts for this viewer; `libraryIds` counts the
   * visible members in those libraries.
   */
  findAllWithCounts(
    viewer: ContentViewer,
    opts?: {
      ids?: readonly string[];
      libraryIds?: readonly string[];
    },
  ): Promise<CollectionCounts[]>;
  /** Ids of the collections holding this series. */
  idsContainingSeries(seriesId: string): Promise<string[]>;
  /** Members of these collections in position order, with whether the viewer may see each. */
  members(collectionIds: readonly string[], viewer: ContentViewer): Promise<CollectionMember[]>;
  /** Every member's series id, in position order, whoever may see them (event payloads). */
  memberIds(collectionId: string): Promise<string[]>;
  /** Which of these series exist. */
  existingSeries(ids: readonly string[]): Promise<Set<string>>;
  insert(c: Omit<StoredCollection, 'lastModifiedDate'>, seriesIds: readonly string[]): Promise<void>;
  /** Changes the given fields; `seriesIds` replaces the members (positions 0..n-1 in that order). */
  update(
    id: string,
    patch: {
      name?: string;
      ordered?: boolean;
      seriesIds?: readonly string[];
    },
    now: Date,
  ): Promise<void>;
  /** Appends the series after the last member, unless it is already in. Returns whether it was added. */
  append(id: string, seriesId: string, now: Date): Promise<boolean>;
  delete(ids: readonly string[]): Promise<void>;
  /** Collections without any member. */
  emptyIds(): Promise<string[]>;
  /** Takes (reads and forgets) the collections that lost series to a deletion (migration 0007). */
  takeMembershipRemovals(): Promise<string[]>;
}

export interface ReadListRepository {
  findById(id: string): Promise<StoredReadList | undefined>;
  /** By name, ASCII case-insensitively (as the unique index compares). */
  findByName(name: string): Promise<StoredReadList | undefined>;
  /**
   * Every read list (or those in `ids`) with its member counts for this viewer; `libraryIds` counts the
   * visible books in those libraries.
   */
  findAllWithCounts(
    viewer: ContentViewer,
    opts?: {
      ids?: readonly string[];
      libraryIds?: readonly string[];
    },
  ): Promise<ReadListCounts[]>;
  /** Ids of the read lists holding this book. */
  idsContainingBook(bookId: string): Promise<string[]>;
  /** Members of these read lists in position order, with whether the viewer may see each. */
  members(readListIds: readonly string[], viewer: ContentViewer): Promise<ReadListMember[]>;
  /** Every member's book id, in position order, whoever may see them (event payloads). */
  memberIds(readListId: string): Promise<string[]>;
  /** Which of these books exist. */
  existingBooks(ids: readonly string[]): Promise<Set<string>>;
  /** These books (unknown ids skipped), in the order given. */
  exportedBooks(ids: readonly string[]): Promise<ExportedBook[]>;
  /**
   * Every book, of every library and deleted ones too, whose series' metadata title is one of `titles` compared
   * ASCII case-insensitively (SQLite's NOCASE, as the reference matches ComicRack lists), by series then number.
   */
  booksOfSeriesTitled(titles: readonly string[]): Promise<CblCandidate[]>;
  insert(
    r: Omit<StoredReadList, 'lastModifiedDate'>,
    members: readonly {
      bookId: string;
      number: number;
    }[],
  ): Promise<void>;
  /** Changes the given fields; `bookIds` replaces the members (positions 0..n-1 in that order). */
  update(
    id: string,
    patch: {
      name?: string;
      summary?: string;
      ordered?: boolean;
      bookIds?: readonly string[];
    },
    now: Date,
  ): Promise<void>;
  /**
   * Adds the book unless it is already in (engine.md §6.10): at `number` when given and free, else after
   * the last position. Returns whether it was added.
   */
  add(id: string, bookId: string, number: number | null, now: Date): Promise<boolean>;
  delete(ids: readonly string[]): Promise<void>;
  /** Read lists without any book. */
  emptyIds(): Promise<string[]>;
  /** Takes (reads and forgets) the read lists that lost books to a deletion (migration 0007). */
  takeMembershipRemovals(): Promise<string[]>;
}

/** Posters uploaded for collections and read lists; the image files live under the data directory. */
export interface PosterRepository {
  /** Oldest first. */
  findAllByOwner(owner: PosterOwner, ownerId: string): Promise<StoredPoster[]>;
  findById(owner: PosterOwner, id: string): Promise<StoredPoster | undefined>;
  findSelected(owner: PosterOwner, ownerId: string): Promise<StoredPoster | undefined>;
  /** Inserts the poster; when it is selected, the owner's other posters are unselected in the same transaction. */
  insert(p: Omit<StoredPoster, 'createdDate'>, now: Date): Promise<StoredPoster>;
  /** `id` becomes the one selected poster of its owner. */
  markSelected(owner: PosterOwner, ownerId: string, id: string, now: Date): Promise<void>;
  /**
   * Deletes one poster; if it was the selected one, the oldest remaining poster is selected (Komga's
   * housekeeping). Returns the poster selected instead, if any.
   */
  delete(owner: PosterOwner, ownerId: string, id: string, now: Date): Promise<StoredPoster | undefined>;
}

export interface UserRepository {
  count(): Promise<number>;
  find(id: string): Promise<StoredUser | undefined>;
  /** Case-insensitive. */
  findByEmail(email: string): Promise<StoredUser | undefined>;
  list(): Promise<StoredUser[]>;
  insert(user: StoredUser): Promise<void>;
  /** Rewrites everything but the e-mail, the password and the creation date. */
  update(user: StoredUser): Promise<void>;
  setPassword(id: string, passwordHash: string, now: Date): Promise<void>;
  /** Roles, sharing, sessions and API keys go with the user (foreign keys cascade). */
  delete(id: string): Promise<void>;
}

export interface SessionRepository {
  insert(session: StoredSession): Promise<void>;
  find(idHash: string): Promise<StoredSession | undefined>;
  /** Records a use; the first one confirms the session. */
  touch(idHash: string, now: Date): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Every session of the user, except `keepIdHash`'s when given. Returns how many were removed. */
  deleteByUser(userId: string, keepIdHash?: string): Promise<number>;
  /** The user's never-presented sessions opened from this client (same address and user agent). */
  deleteUnconfirmedOf(
    userId: string,
    client: {
      ip: string | null;
      userAgent: string | null;
    },
  ): Promise<void>;
  /** Removes the sessions that are over; only the user's when `userId` is given. Returns how many. */
  deleteExpired(cutoffs: SessionCutoffs, userId?: string): Promise<number>;
}

export interface ApiKeyRepository {
  insert(key: StoredApiKey): Promise<void>;
  findByHash(keyHash: string): Promise<StoredApiKey | undefined>;
  listByUser(userId: string): Promise<StoredApiKey[]>;
  existsComment(userId: string, comment: string): Promise<boolean>;
  /** Deletes the key only if the user owns it; returns whether a key was deleted. */
  deleteOwned(id: string, userId: string): Promise<boolean>;
}

export interface AuthenticationActivityRepository {
  insert(a: StoredActivity): Promise<void>;
  page(req: ActivityPageRequest): Promise<{
    rows: StoredActivity[];
    total: number;
  }>;
  latest(userId: string, apiKeyId: string | undefined): Promise<StoredActivity | undefined>;
  /**
   * How many guesses (passwords and API keys) failed since `since` for one ip, one (lower-cased) e-mail or both
   * together, and when the latest of them was (null when none). Remember-me tokens cannot be guessed: a browser
   * holding a stale one is no attacker.
   */
  failures(
    by: {
      ip?: string;
      email?: string;
    },
    since: string,
  ): Promise<{
    count: number;
    latest: string | null;
  }>;
  /** Whether someone logged in as this (lower-cased) e-mail from this ip since `since`. */
  succeededFrom(
    by: {
      ip: string;
      email: string;
    },
    since: string,
  ): Promise<boolean>;
  deleteBefore(dateTime: string): Promise<number>;
  deleteByUser(userId: string): Promise<void>;
}

export interface RememberMeTokenRepository {
  insert(token: StoredRememberMeToken): Promise<void>;
  find(tokenHash: string): Promise<StoredRememberMeToken | undefined>;
  delete(tokenHash: string): Promise<void>;
  deleteByUser(userId: string): Promise<void>;
  /** Returns how many were removed. */
  deleteExpiredBefore(date: string): Promise<number>;
}

/** OAuth2 logins under way (accounts/oauth2-login.ts). */
export interface OAuth2RequestRepository {
  insert(request: StoredOAuth2Request): Promise<void>;
  /** Finds and deletes in one step: a request is finished at most once. */
  take(browserKeyHash: string): Promise<StoredOAuth2Request | undefined>;
  /** Returns how many were removed. */
  deleteExpired(now: number): Promise<number>;
}

/** Client settings (api.md §9.5): global ones, and per-user ones. */
export interface ClientSettingsRepository {
  global(onlyUnauthorized: boolean): Promise<Map<string, StoredClientSetting>>;
  /** Upsert; on an existing key only the value changes (Komga keeps the first allowUnauthorized). */
  saveGlobal(
    settings: Record<
      string,
      {
        value: string;
        allowUnauthorized: boolean;
      }
    >,
  ): Promise<void>;
  deleteGlobal(keys: readonly string[]): Promise<void>;
  user(userId: string): Promise<Map<string, string>>;
  saveUser(
    userId: string,
    settings: Record<
      string,
      {
        value: string;
      }
    >,
  ): Promise<void>;
  deleteUser(userId: string, keys: readonly string[]): Promise<void>;
}

/** The `server_settings` key/value table (engine.md §1.3). Values are strings; a missing row means "default". */
export interface ServerSettingsRepository {
  findAll(): Promise<Map<string, string | null>>;
  /** Upserts every entry in one transaction; a `null` value deletes the row. */
  save(entries: Record<string, string | null>): Promise<void>;
  /** Inserts the value unless the key exists, then returns the stored value (first writer wins). */
  insertIfAbsent(key: string, value: string): Promise<string>;
}

/** Every repository, bound to one connection: the database's, or one transaction's inside a unit of work. */
export interface Repositories {
  libraries: LibraryRepository;
  series: SeriesRepository;
  books: BookRepository;
  sidecars: SidecarRepository;
  media: MediaRepository;
  metadata: MetadataRepository;
  thumbnails: ThumbnailRepository;
  readProgress: ReadProgressRepository;
  collections: CollectionRepository;
  readLists: ReadListRepository;
  posters: PosterRepository;
  users: UserRepository;
  sessions: SessionRepository;
  apiKeys: ApiKeyRepository;
  activity: AuthenticationActivityRepository;
  rememberMeTokens: RememberMeTokenRepository;
  clientSettings: ClientSettingsRepository;
  serverSettings: ServerSettingsRepository;
  history: HistoryRepository;
  taskMetrics: TaskMetricsRepository;
  pageHashes: PageHashRepository;
  transientBooks: TransientBookRepository;
  bookImports: BookImportJournal;
  oauth2Requests: OAuth2RequestRepository;
  announcements: AnnouncementRepository;
}

/**
 * The one way to make several reads and writes atomic: `run` calls `work` with the repositories bound to one
 * transaction, commits when it resolves and rolls back when it throws. A `run` inside another (a service calling
 * a service) joins the transaction already open instead of opening a second one: SQLite has one writer, and on
 * PostgreSQL a second transaction would not see the first one's uncommitted writes.
 *
 * Inside `work`, use only the repositories it is given: the service's own are outside the transaction (on SQLite
 * they would wait for it to end, for ever).
 */
export interface UnitOfWork {
  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}

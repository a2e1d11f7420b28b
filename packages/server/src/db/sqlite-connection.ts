import type Database from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type SqliteDialectConfig } from 'kysely';

/**
 * The bytes of the database file SQLite reads through a memory map: the most this build allows (2 GiB). A page
 * read from the map is a memory access; through the page cache it is a system call and a copy into the cache
 * (16 MB, better-sqlite3's default), which at 1,000,000 books is most of a list's time, as its pages are read at
 * random from a 3 GB file. Mapped pages are the kernel's page cache shared with the process: they count in the
 * resident size (as RssFile, not RssAnon) once touched, and the kernel reclaims them under memory pressure like
 * any cached file page.
 */
const MMAP_BYTES = 0x7fff0000;

/** What every connection to the database file sets: the server's, and the search index thread's. */
export function configureConnection(sqlite: Database.Database, opts: { busyTimeoutMs: number }): void {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${opts.busyTimeoutMs}`);
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
}

/**
 * Transactions take the write lock when they begin (`BEGIN IMMEDIATE`), waiting for it in the busy handler. The
 * search index thread writes through a connection of its own: a deferred transaction that read before that
 * thread committed could no longer write (and the other way round) (SQLITE_BUSY_SNAPSHOT, which no waiting cures), and a scan failed so.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

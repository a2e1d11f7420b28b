import { configDefaults, defineConfig } from 'vitest/config';

const serverTests = {
  environment: 'node',
  include: [
    'packages/server/src/**/*.test.ts',
    'packages/server/test/**/*.test.ts',
    'packages/api/src/**/*.test.ts',
    'scripts/**/*.test.ts',
  ],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Both cores: Vitest's default is one worker fewer than the cores, one on CI's two, which left a core to the
  // servers, browsers and PostgreSQL the tests start, and idle while a test waited on them.
  maxWorkers: 2,
};

/** Tests of what exists only on PostgreSQL (its queue, its events, several instances): the `server-pg` project's. */
const POSTGRES_ONLY = [
  'packages/server/test/tasks/pg-queue-and-bus.test.ts',
  'packages/server/test/http/pg-mode.test.ts',
  'packages/server/test/cluster/**',
  'packages/server/test/db/same-order.test.ts',
];

/**
 * Files that never reach a database (parsers, pure rules, the build), or whose servers run on SQLite whatever the
 * pass (the built server started by bench/support/server.mjs for hostile files, streaming and fuzzing): the same
 * code twice proves nothing, so they run in the SQLite pass only. The rule for adding to it: no import path from
 * the file to `test/support/postgres.ts` or `src/db/database.ts`, or a server started without `databaseEnv`.
 */
const DATABASE_FREE = [
  'packages/api/src/**',
  'packages/server/src/accounts/*.test.ts',
  'packages/server/src/domain/**',
  'scripts/**',
  'packages/server/test/architecture.test.ts',
  'packages/server/test/build-info.test.ts',
  'packages/server/test/config.test.ts',
  'packages/server/test/logging.test.ts',
  'packages/server/test/native-memory.test.ts',
  'packages/server/test/collections/cbl.test.ts',
  'packages/server/test/deploy/**',
  'packages/server/test/fuzz/**',
  'packages/server/test/http/hostile-archives.test.ts',
  'packages/server/test/http/hostile-books.test.ts',
  'packages/server/test/http/streamed-pages.test.ts',
  'packages/server/test/kobo/sync-token.test.ts',
  'packages/server/test/library/file-system-scanner.test.ts',
  'packages/server/test/library/file-transfer.test.ts',
  'packages/server/test/media/**',
  'packages/server/test/metadata/{barcode-isbn,comicinfo,mylar,opf,rules}.test.ts',
  'packages/server/test/reading/progression.test.ts',
  'packages/server/test/tasks/{definitions,handlers}.test.ts',
  'packages/server/test/updates/parsers.test.ts',
];

/**
 * Files whose measure is not the database's, or is SQLite's own: the event loop while a 200,000-entry walk writes
 * its outcome (SQLite's driver is synchronous, and what held the loop was one long transaction; PostgreSQL's is
 * not), and the event loop while a 10,000-spine EPUB is parsed. The SQLite pass only.
 */
const SQLITE_ONLY = [
  'packages/server/test/library/scan-responsiveness.test.ts',
  'packages/server/test/http/epub-analysis-responsiveness.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        test: { ...serverTests, name: 'server', exclude: [...configDefaults.exclude, ...POSTGRES_ONLY] },
      },
      {
        // The server tests again with every server and directly opened database on PostgreSQL: one real cluster
        // for the run (support/postgres-cluster.ts), a fresh database per server.
        test: {
          ...serverTests,
          name: 'server-pg',
          exclude: [...configDefaults.exclude, ...DATABASE_FREE, ...SQLITE_ONLY],
          env: { QUIRE_TEST_DATABASE: 'postgres' },
          globalSetup: ['packages/server/test/support/postgres-cluster.ts'],
        },
      },
      {
        extends: './packages/web/vite.config.ts',
        test: {
          name: 'web',
          environment: 'jsdom',
          root: './packages/web',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['./src/test/setup.ts'],
          // One window and one module graph per worker, shared by the files it runs: a fresh jsdom window and a
          // fresh import of React, MUI, the router and the English strings per file were a third of the pass's
          // CPU time. src/test/setup.ts, which runs again before every file, starts each one clean (storage,
          // preferences, language, unmounting); no test file mocks a module.
          isolate: false,
          // Both cores, as the server projects (Vitest runs projects of one worker count in one group).
          maxWorkers: 2,
          // Tests wait on conditions (findBy*, waitFor: see src/test/setup.ts), never on fixed sleeps; this limit only
          // stops a hung test. It is for a loaded 2-core machine: there the longest user flows (the browse pages'
          // filter tests, some forty clicks on MUI) took 62 s at a load average of 20, their whole file 12 s of CPU.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

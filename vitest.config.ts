import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'packages/server/src/**/*.test.ts',
            'packages/server/test/**/*.test.ts',
            'packages/api/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // QUIRE_TEST_DATABASE=postgres: one PostgreSQL cluster for the run (npm run test:server:pg).
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
          // Both cores: Vitest's default is one worker fewer than the cores, a single worker on CI's two, and the
          // web pass runs alone there (scripts/test.mjs).
          maxWorkers: 2,
          // Projects with different worker counts must run as separate groups (`vitest run` of both): after the server.
          sequence: { groupOrder: 1 },
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

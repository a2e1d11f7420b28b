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
          // Tests wait on conditions (findBy*, waitFor: see src/test/setup.ts), never on fixed sleeps. The limit is
          // for a loaded 2-core machine: there a long user flow (the browse pages' filter tests, some forty clicks on
          // MUI) took over 30 s at a load average of 17.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

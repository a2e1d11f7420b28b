import { defineConfig } from 'vitest/config';

// Browser tests: the built server in a child process and Debian's Chromium through playwright-core.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['specs/**/*.spec.ts'],
    globalSetup: ['support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // What a user sees can take seconds to appear on a loaded machine (CI shares its cores): expect.poll's 1 s
    // default failed browse.spec's dashboard check under load, though the page got there.
    expect: { poll: { timeout: 10_000 } },
  },
});

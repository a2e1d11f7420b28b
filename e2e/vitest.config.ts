import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The accessibility walk's two files first: they are the longest (each about a quarter of the pass), and started
 * last they would leave one worker running alone at the end. On a clean clone there are no recorded durations for
 * vitest to order by.
 */
class AccessibilityFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const isWalk = (f: TestSpecification) => /\/a11y-[a-z]+\.spec\.ts$/.test(f.moduleId);
    return [...sorted.filter(isWalk), ...sorted.filter((f) => !isWalk(f))];
  }
}

// Browser tests: the built server in a child process and Debian's Chromium through playwright-core.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['specs/**/*.spec.ts'],
    // One Chromium for the run (support/global-setup.ts); each spec has its own server, data dir and contexts.
    globalSetup: ['support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two spec files at once, also on a 2-core machine (vitest's default there is one): a spec spends most of its
    // time waiting on the browser and the server (the serial pass used about half a core), each file has its own
    // server, and the browser's contexts are apart. QUIRE_E2E_WORKERS=1 runs them one after the other.
    fileParallelism: true,
    maxWorkers: Number(process.env.QUIRE_E2E_WORKERS ?? 2),
    sequence: { sequencer: AccessibilityFirst },
    // What a user sees can take seconds to appear on a loaded machine (CI shares its cores): expect.poll's 1 s
    // default failed browse.spec's dashboard check under load, though the page got there.
    expect: { poll: { timeout: 10_000 } },
  },
});

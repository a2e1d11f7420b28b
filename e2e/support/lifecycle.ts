import { rm } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach } from 'vitest';
import { screenshot } from './browser.js';
import { timed } from './timing.js';
import type { RunningServer } from './server.js';

interface SpecParts {
  browser?: Browser;
  page?: Page;
  server?: RunningServer;
  /** Folders the spec made (libraries, import sources), removed at the end. */
  dirs?: (string | undefined)[];
}

/**
 * The end of every browser spec: a screenshot of each failed test (named `<spec>-<test>`), then the browser
 * closed, the server's output printed if any test failed (the server's log is what explains most failures),
 * the server stopped and the spec's folders removed. `parts` is read when the hooks run, after `beforeAll` set them.
 */
export function cleanUpAfterSpec(spec: string, parts: () => SpecParts) {
  let failed = false;
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    failed = true;
    const { page } = parts();
    if (page) await screenshot(page, `${spec}-${ctx.task.name}`);
  });
  afterAll(() =>
    timed('clean-up', async () => {
      const { browser, server, dirs = [] } = parts();
      await browser?.close();
      if (failed && server) console.log(server.output());
      await server?.stop();
      for (const dir of dirs) if (dir) await rm(dir, { recursive: true, force: true });
    }),
  );
}

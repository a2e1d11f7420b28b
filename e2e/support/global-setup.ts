import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumLaunchOptions } from './browser.js';

/** One Chromium for the whole run; each spec connects to it (`connectBrowser`) and works in contexts of its own. */
export default async function launchChromium(project: TestProject) {
  const chromiumServer = await chromium.launchServer(chromiumLaunchOptions());
  project.provide('chromiumEndpoint', chromiumServer.wsEndpoint());
  return async () => {
    await chromiumServer.close();
  };
}

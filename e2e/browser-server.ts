// The end-to-end specs' one Chromium (vitest.e2e.config.ts's globalSetup): launched once for the whole phase, each spec
// file connects to it (launchBrowser in harness.ts) and works in contexts of its own, instead of starting a browser per file.
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { BROWSER_ARGS, findBrowser } from './find-browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's websocket address ('' when each spec launches its own). */
    e2eBrowser: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const found = await findBrowser();
  const server = await chromium.launchServer({
    executablePath: found.executablePath,
    env: { ...process.env, ...found.env },
    headless: true,
    args: BROWSER_ARGS,
  });
  project.provide('e2eBrowser', server.wsEndpoint());
  return () => server.close();
}

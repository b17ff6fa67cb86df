// Shared by the renderer benchmarks: a Chromium (e2e/find-browser.ts finds it) and the dev page (the real renderer on the fake bridge) built and served.
import { chromium, type Browser } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { fileURLToPath } from 'node:url';
import { BROWSER_ARGS, findBrowser } from '../e2e/find-browser';

export async function launchChromium(): Promise<Browser> {
  const found = await findBrowser();
  return chromium.launch({
    executablePath: found.executablePath,
    env: { ...process.env, ...found.env },
    headless: true,
    args: BROWSER_ARGS,
  });
}

/** Builds renderer/dev (production React, minified, as `npm run build` builds the app) and serves it on a free port. */
export async function serveDevPage(): Promise<{ url: string; close(): Promise<void> }> {
  const configFile = fileURLToPath(new URL('../renderer/dev/vite.config.ts', import.meta.url));
  process.env.NODE_ENV = 'production';
  await build({ configFile, logLevel: 'warn', mode: 'production' });
  const server: PreviewServer = await preview({ configFile, logLevel: 'warn', preview: { port: 0, strictPort: false, host: '127.0.0.1' } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('the dev page server has no URL');
  return { url, close: () => server.close() };
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The line every benchmark prints (`P<n> <what>: ratio <x> (goal <op> <y>) ok|MISSED`), and whether the goal was met. */
export function goalLine(id: string, what: string, ratio: number, goal: number, detail: string): boolean {
  const ok = ratio <= goal;
  console.log(`${id} ${what}: ratio ${ratio.toFixed(2)} (goal ≤ ${goal}) ${ok ? 'ok' : 'MISSED'}`);
  console.log(`   ${detail}`);
  return ok;
}

// The e2e specs find a browser themselves: CHROMIUM_PATH, a system one, Playwright's cache, then @sparticuz/chromium (linux-x64).
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBrowser } from './find-browser';
import { launchBrowser } from './harness';

const empty = () => mkdtempSync(join(tmpdir(), 'ratchet-nobrowser-'));
/** A machine with no browser anywhere: no system paths, a PATH without one, an empty Playwright cache. */
const bare = () => ({ env: { PATH: empty() }, systemPaths: [], playwrightCache: empty() });
const fakeExe = (file: string) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return file;
};

describe('findBrowser', () => {
  it('takes CHROMIUM_PATH first, and refuses one that does not exist', async () => {
    const exe = fakeExe(join(empty(), 'my-chrome'));
    expect(await findBrowser({ ...bare(), env: { CHROMIUM_PATH: exe } })).toMatchObject({ executablePath: exe, source: 'CHROMIUM_PATH' });
    await expect(findBrowser({ ...bare(), env: { CHROMIUM_PATH: '/nowhere/chrome' } })).rejects.toThrow(
      /CHROMIUM_PATH is \/nowhere\/chrome, which does not exist/,
    );
  });

  it("then a system browser (known places, then the PATH), then the newest in Playwright's cache", async () => {
    const sys = fakeExe(join(empty(), 'chromium'));
    expect(await findBrowser({ ...bare(), systemPaths: [sys] })).toMatchObject({ executablePath: sys, source: 'system' });
    const dir = empty();
    const onPath = fakeExe(join(dir, 'google-chrome'));
    expect(await findBrowser({ ...bare(), env: { PATH: dir } })).toMatchObject({ executablePath: onPath, source: 'system' });
    const cache = empty();
    fakeExe(join(cache, 'chromium-1100', 'chrome-linux', 'chrome'));
    const newest = fakeExe(join(cache, 'chromium-1200', 'chrome-linux', 'chrome'));
    expect(await findBrowser({ ...bare(), playwrightCache: cache, platform: 'linux' })).toMatchObject({ executablePath: newest, source: 'playwright-cache' });
  });

  it('says exactly what to install when there is none', async () => {
    const err = await findBrowser({ ...bare(), npmPackage: false, platform: 'linux', arch: 'x64' }).catch((e: Error) => e);
    expect(String(err)).toContain('CHROMIUM_PATH');
    expect(String(err)).toContain('apt-get install -y chromium');
    expect(String(err)).toContain('npx playwright install chromium');
    expect(String(err)).toContain('@sparticuz/chromium');
    const mac = await findBrowser({ ...bare(), platform: 'darwin', arch: 'arm64' }).catch((e: Error) => e);
    expect(String(mac)).toContain('linux-x64 only');
  });

  // The packaged Chromium exists for linux-x64 only; elsewhere the case above covers the message.
  it.skipIf(process.platform !== 'linux' || process.arch !== 'x64')(
    'with no system Chromium, launches the one inside @sparticuz/chromium and renders a page',
    async () => {
      const found = await findBrowser(bare());
      expect(found.source).toBe('npm-package');
      const browser = await launchBrowser(found);
      try {
        const page = await browser.newPage();
        await page.setContent('<h1 style="font-family: sans-serif">Ratchet</h1>');
        expect(await page.textContent('h1')).toBe('Ratchet');
        // Text has a width: the packaged fonts are found.
        const box = await page.locator('h1').boundingBox();
        expect(box?.width).toBeGreaterThan(20);
      } finally {
        await browser.close();
      }
    },
  );
});

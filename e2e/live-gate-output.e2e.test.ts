// A gate's output streams into the run screen while the gate runs (issue 13 item 9), then its whole stored log replaces it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { ScriptedServer } from '../electron/scripted/server';
import { demoRepo, launchBrowser, scriptedAgent, shot, startHostProcess, type HostProcess } from './harness';

let server: ScriptedServer;
let browser: Browser;
let host: HostProcess | undefined;
let repo: string;

beforeAll(async () => {
  server = await scriptedAgent(100);
  repo = demoRepo();
  // The demo's test gate, slowed down: it prints a line every 0.4 s for about 5 s before the tests run.
  const file = join(repo, 'ratchet.yml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(
    'run: "node --test --test-reporter=tap", timeout: 60',
    'run: "for i in $(seq 1 12); do echo \\"warming up $i\\"; sleep 0.4; done; node --test --test-reporter=tap", timeout: 60',
  ));
  execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@localhost', 'commit', '-qam', 'slow gate'], { cwd: repo });
  const home = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-home-')), 'home');
  host = await startHostProcess({ RATCHET_HOME: home, ANTHROPIC_API_KEY: 'e2e-key', ANTHROPIC_BASE_URL: server.url });
  browser = await launchBrowser();
});

afterAll(async () => {
  await host?.kill();
  await browser?.close();
  await server?.close();
});

describe('live gate output', () => {
  it('shows a running gate\'s lines as they are printed, then the stored log when it ends', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(host!.url);
    await page.getByLabel('repository path').fill(repo);
    await page.getByRole('button', { name: 'Use this path' }).click();
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Slow gate');
    await page.getByRole('tab', { name: /From the repo/ }).click();
    await page.getByText(/Loaded .*ratchet\.yml/).waitFor();
    const trust = page.getByRole('button', { name: 'Trust', exact: true });
    if (await trust.isVisible()) {
      await trust.click();
      await page.getByText('You trust this workflow file').waitFor();
    }
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.getByRole('heading', { name: 'Slow gate' }).waitFor();
    // Stay on step 1 (the screen would otherwise follow the run to step 2 once step 1 is done).
    await page.getByRole('button', { name: /Add add\(\)/ }).click();

    const live = page.getByRole('log', { name: 'live output of gate test', exact: true });
    await live.getByText('warming up 2', { exact: true }).waitFor({ timeout: 60_000 });
    // Still running: the gate has more to print, and the lines keep coming into the same panel.
    await expect(live.getByText('warming up 12', { exact: true }).count()).resolves.toBe(0);
    await live.scrollIntoViewIfNeeded();
    await shot(page, 'live-gate-output-1400');
    await live.getByText('warming up 6', { exact: true }).waitFor({ timeout: 10_000 });
    await page.setViewportSize({ width: 1024, height: 700 });
    await live.scrollIntoViewIfNeeded();
    await shot(page, 'live-gate-output-1024');

    // When the gate ends, its stored output (all of it) takes the live panel's place.
    const stored = page.getByRole('log', { name: 'output of gate test', exact: true });
    await stored.getByText('warming up 12', { exact: true }).waitFor({ timeout: 30_000 });
    await expect(live.count()).resolves.toBe(0);
    await page.close();
  });
});

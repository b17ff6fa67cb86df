// Next steps in the browser host: Open… walks the host's folders, New task says up front that no API key is set
// and saves one inline, and a succeeded run offers its next steps (copy branch, cd command, previewed merge, push).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { demoRepo, shot, startSpecEnv, type HostProcess, type SpecEnv } from './harness';

let spec: SpecEnv;
let browser: Browser;
let host: HostProcess | undefined;
let repo: string;
let remote: string;

/** The demo repository with an empty bare repository as its origin. */
function repoWithRemote(): string {
  const calc = demoRepo();
  remote = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-remote-')), 'calc.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: calc });
  return calc;
}

beforeAll(async () => {
  // No key in the environment: the app must say so before the form is filled in.
  spec = await startSpecEnv({ repo: repoWithRemote, env: { ANTHROPIC_API_KEY: '' } });
  ({ browser, host, repo } = spec);
});

afterAll(async () => {
  await spec?.close();
});

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

async function both(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
  await page.setViewportSize({ width: 1400, height: 900 });
  await ready();
  await shot(page, `${name}-1400x900`);
  await page.setViewportSize({ width: 1024, height: 700 });
  await ready();
  await shot(page, `${name}-1024x700`);
  await page.setViewportSize({ width: 1400, height: 900 });
}

describe('next steps in the browser host', () => {
  it('opens a repository through the folder browser, saves a key on New task, and lands a succeeded run', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(host!.url);
    await page.getByRole('button', { name: 'Open…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a repository' });
    // It opens at the home folder; then the user types where the repository lives.
    await dialog.getByRole('list').waitFor();
    await dialog.getByLabel('folder path').fill(dirname(repo));
    await dialog.getByRole('button', { name: 'Go', exact: true }).click();
    await dialog.getByRole('button', { name: 'open calc' }).waitFor();
    await both(page, 'next-folder-browser', () => dialog.getByRole('button', { name: 'open calc' }).waitFor());
    await dialog.getByRole('button', { name: 'open calc' }).click();

    await page.getByRole('heading', { name: 'New task' }).waitFor();
    const notice = page.getByRole('region', { name: 'no API key' });
    await notice.waitFor();
    await both(page, 'next-no-key', () => notice.waitFor());
    await notice.getByLabel('API key').fill('e2e-key');
    await notice.getByRole('button', { name: 'Save key' }).click();
    await notice.waitFor({ state: 'detached' });

    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Calculator');
    await page.getByRole('tab', { name: /From the repo/ }).click();
    await page.getByText(/Loaded .*ratchet\.yml/).waitFor();
    await page.getByRole('button', { name: 'Trust', exact: true }).click();
    await page.getByRole('button', { name: 'Start run' }).click();
    const next = page.getByRole('region', { name: 'next steps' });
    await next.waitFor({ timeout: 90_000 });
    await next.getByRole('button', { name: 'Preview merge' }).click();
    await next.getByLabel('merge preview').waitFor();
    await expect(next.getByLabel('merge preview').textContent()).resolves.toContain('step 3: Add sub()');
    await expect(next.textContent()).resolves.toContain('cd ');
    await both(page, 'next-success', () => next.getByLabel('merge preview').waitFor());

    await next.getByRole('button', { name: 'Fast-forward main' }).click();
    // Moving the user's own branch asks first.
    const confirm = next.getByRole('group', { name: 'confirm the merge' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Fast-forward main' }).click();
    await next.getByText(/main is now at/).waitFor();
    expect(git('log', '-1', '--format=%s', 'main')).toBe('step 3: Add sub()');
    expect(git('status', '--porcelain')).toBe('');
    await next.getByRole('button', { name: 'Push to origin' }).click();
    await next.getByText(/Pushed .* to origin/).waitFor();
    const branch = git('for-each-ref', '--format=%(refname:short)', 'refs/heads/ratchet/');
    expect(execFileSync('git', ['rev-parse', branch], { cwd: remote, encoding: 'utf8' }).trim()).toBe(git('rev-parse', branch));
    await both(page, 'next-landed', () => next.getByText(/Pushed/).waitFor());
  });
});

// New task on real repositories: a Go module and an npm package show what detection found (never npm test
// for the Go one), and "Check project" runs the baseline check and shows its result — ready, and the test that already fails.
// Saves e2e/screenshots/screen-new-task-{go,go-checked,npm-checked}-<1400|1024>.png, to be looked at.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { commitAll, ROOT, startSpecEnv, type HostProcess, type SpecEnv } from './harness';
import { shootScreen } from './app-steps';

let spec: SpecEnv;
let browser: Browser;
let host: HostProcess | undefined;

beforeAll(async () => {
  spec = await startSpecEnv();
  ({ browser, host } = spec);
});

afterAll(async () => {
  await spec?.close();
});

/** A repository made with the project's own tool, `files` written, committed once. */
function repoWith(name: string, init: (dir: string) => void, files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-')), name);
  execFileSync('mkdir', ['-p', dir]);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  init(dir);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  execFileSync('git', ['add', '-A'], { cwd: dir });
  return commitAll(dir, 'initial');
}

/** A Go module (`go mod init`) whose one package has a passing and a failing test. */
function goRepo(): string {
  return repoWith('router', (d) => execFileSync('go', ['mod', 'init', 'example.com/router'], { cwd: d, stdio: 'ignore' }), {
    'router.go': 'package router\n\nimport "strings"\n\n// Clean drops a trailing slash.\nfunc Clean(p string) string { return strings.TrimSuffix(p, "") }\n',
    'router_test.go': [
      'package router',
      '',
      'import "testing"',
      '',
      'func TestCleanKeepsRoot(t *testing.T) {',
      '\tif Clean("/") != "/" {',
      '\t\tt.Fatal("root changed")',
      '\t}',
      '}',
      '',
      'func TestCleanDropsTrailingSlash(t *testing.T) {',
      '\tif got := Clean("/users/"); got != "/users" {',
      '\t\tt.Fatalf("Clean(/users/) = %q, want /users", got)',
      '\t}',
      '}',
      '',
    ].join('\n'),
  });
}

/** An npm package (`npm init -y`, a lockfile) whose test script runs node's own runner. */
function npmRepo(): string {
  return repoWith(
    'slugify',
    (d) => {
      execFileSync('npm', ['init', '-y'], { cwd: d, stdio: 'ignore' });
      writeFileSync(join(d, 'package.json'), JSON.stringify({ name: 'slugify', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2));
      execFileSync('npm', ['install', '--package-lock-only', '--offline'], { cwd: d, stdio: 'ignore' });
    },
    {
      'index.js': 'exports.slug = (s) => s.toLowerCase().replace(/\\s+/g, "-");\n',
      'index.test.js':
        'const test = require("node:test");\nconst assert = require("node:assert");\nconst { slug } = require("./index.js");\ntest("slugs", () => assert.equal(slug("A b"), "a-b"));\n',
    },
  );
}

async function openNewTask(page: Page, repo: string): Promise<void> {
  await page.getByRole('link', { name: 'Runs' }).click();
  await page.getByLabel('repository path').fill(repo);
  await page.getByRole('button', { name: 'Use this path' }).click();
  await page.getByRole('heading', { name: 'New task' }).waitFor();
}

const formValues = (page: Page) =>
  page
    .locator('form.new-task')
    .locator('input, textarea')
    .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));

async function checkProject(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Check project' }).click();
  const result = page.getByRole('region', { name: 'baseline check' });
  await result.waitFor({ timeout: 180_000 });
  return (await result.textContent()) ?? '';
}

describe('New task on a Go module and an npm package', () => {
  it('shows the detected setup and gates of each, and the baseline check’s result before any money is spent', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(host!.url);
    await page.getByLabel('repository path').waitFor();

    const go = goRepo();
    await openNewTask(page, go);
    // The command is a field that grows (a textarea): its value is read, not an attribute.
    await expect.poll(() => page.getByRole('textbox', { name: 'gate 1 command' }).inputValue(), { timeout: 30_000 }).toBe('go test ./...');
    expect((await formValues(page)).join('\n')).not.toMatch(/npm/);
    await expect(page.getByLabel('where the project settings come from').textContent()).resolves.toMatch(/Detected Go modules \(go\.mod\)/);
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Drop trailing slashes');
    await shootScreen(page, 'new-task-go', () => page.getByRole('group', { name: 'project' }).scrollIntoViewIfNeeded());
    const goResult = await checkProject(page);
    expect(goResult).toContain('Ready to run');
    expect(goResult).toMatch(/1 test already fails before the agent starts/);
    expect(goResult).toContain('TestCleanDropsTrailingSlash');
    await shootScreen(page, 'new-task-go-checked', () =>
      page.getByRole('region', { name: 'baseline check' }).getByText('Output (last lines)').scrollIntoViewIfNeeded(),
    );

    // `ratchet init` writes what was detected as the repository's workflow file: New task then shows the file (to trust), with the steps left to the task.
    execFileSync(process.execPath, [join(ROOT, 'bin', 'ratchet.mjs'), 'init', go], { env: { ...process.env, ...spec.env }, stdio: 'ignore' });
    execFileSync('git', ['add', 'ratchet.yml'], { cwd: go });
    commitAll(go, 'ratchet init');
    await openNewTask(page, go);
    await page.getByText(/leaves the steps to each task/).waitFor();
    await expect(page.getByLabel('where the project settings come from').textContent()).resolves.toMatch(/From the repository’s workflow file .*ratchet\.yml/);
    await expect(page.getByRole('textbox', { name: 'gate 1 command' }).inputValue()).resolves.toBe('go test ./...');
    // Checking runs the file's commands: only once trusted. The earlier result was for another commit and says so.
    await expect(page.getByRole('button', { name: /^Check (project|again)$/ }).isDisabled()).resolves.toBe(true);
    await page.getByText(/Checked with other settings or on an earlier commit/).waitFor();
    await shootScreen(page, 'new-task-go-init', () => page.getByRole('group', { name: 'project' }).scrollIntoViewIfNeeded());

    await openNewTask(page, npmRepo());
    // The command is a field that grows (a textarea): its value is read, not an attribute.
    await expect.poll(() => page.getByRole('textbox', { name: 'gate 1 command' }).inputValue(), { timeout: 30_000 }).toBe('npm test');
    await expect(page.getByRole('textbox', { name: 'setup commands' }).inputValue()).resolves.toBe('npm ci');
    await expect(page.getByRole('textbox', { name: 'setup network' }).inputValue()).resolves.toBe('registry:npm');
    const npm = await checkProject(page);
    expect(npm).toContain('Ready to run');
    expect(npm).toContain('every gate passed');
    await shootScreen(page, 'new-task-npm-checked', () =>
      page.getByRole('region', { name: 'baseline check' }).getByText('Output (last lines)').scrollIntoViewIfNeeded(),
    );
    await page.close();
  }, 240_000);
});

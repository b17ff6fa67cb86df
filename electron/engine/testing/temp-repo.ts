// Test helper: real temporary git repositories with a few files and one commit.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function tempDir(prefix = 'ratchet-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 't@example.com' },
  }).trim();
}

/** A repository on branch `main` with `files` committed once. */
export function makeRepo(files: Record<string, string> = { 'README.md': '# demo\n' }): string {
  const dir = tempDir('ratchet-repo-');
  sh(dir, 'init', '-q', '-b', 'main');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

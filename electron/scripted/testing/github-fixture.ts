// Test helper: a tiny npm project (its test is `node test.js`, passing on main), its bare remote, and the scripted
// GitHub serving that remote with one CI check, `test`, that runs the project's test command.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, sh, tempDir } from '../../engine/testing/temp-repo';
import { startScriptedGithub, type GithubScenario, type ScriptedGithub } from '../github-server';

export const TINY_TEST_JS = `const { value } = require('./value.js');
if (value() !== 42) { console.error('not ok 1 - value() returns 42 (got ' + value() + ')'); process.exit(1); }
console.log('ok 1 - value() returns 42');
`;

export const TINY_PROJECT = {
  'test.js': TINY_TEST_JS,
  'value.js': 'exports.value = () => 42;\n',
  'package.json': '{"name":"tiny","scripts":{"test":"node test.js"}}\n',
};

export interface GithubFixture {
  /** A clone with `origin` pointing at the bare remote, on main. */
  work: string;
  bare: string;
  cleanup(): void;
}

/** The tiny project on main, pushed to a new bare remote. */
export function githubProject(files: Record<string, string> = TINY_PROJECT): GithubFixture {
  const work = makeRepo(files);
  const bare = tempDir('ratchet-bare-');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  sh(work, 'remote', 'add', 'origin', bare);
  sh(work, 'push', '-q', 'origin', 'main');
  return { work, bare, cleanup: () => [work, bare].forEach((d) => rmSync(d, { recursive: true, force: true })) };
}

/** Commits `files` on `branch` (made from main when new) and pushes it; the new head. */
export function pushBranch(f: GithubFixture, branch: string, files: Record<string, string>, message = 'change'): string {
  const exists = sh(f.work, 'branch', '--list', branch) !== '';
  sh(f.work, 'checkout', '-q', ...(exists ? [branch] : ['-b', branch, 'main']));
  for (const [path, content] of Object.entries(files)) writeFileSync(join(f.work, path), content);
  sh(f.work, 'add', '-A');
  sh(f.work, 'commit', '-q', '-m', message);
  sh(f.work, 'push', '-q', 'origin', branch);
  return sh(f.work, 'rev-parse', 'HEAD');
}

/** The scripted GitHub over the fixture's remote, as acme/widget, with the check `test` running `node test.js` (and a trivial job per pending check). */
export function serveGithub(f: GithubFixture, scenario: GithubScenario = {}): Promise<ScriptedGithub> {
  const pending = (scenario.pendingChecks ?? []).map((name) => ({ name, command: 'true' }));
  return startScriptedGithub({ bare: f.bare, checks: [{ name: 'test', command: 'node test.js' }, ...pending], scenario });
}

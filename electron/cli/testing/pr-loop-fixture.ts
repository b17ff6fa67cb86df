// Test helper: `ratchet pr --watch` end to end against the scripted GitHub (its CI really runs the project's checks on
// each pushed commit). One scripted server and one project per test file (the scenarios are split over several files so
// they run side by side); each test is its own run (its own branch and pull request).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { PrDoc } from '../../../shared/pull-request';
import { tempDir } from '../../engine/testing/temp-repo';
import { startScriptedGithub, type ScriptedGithub } from '../../scripted/github-server';
import { githubProject, TINY_PROJECT, type GithubFixture } from '../../scripted/testing/github-fixture';
import { cli } from './run-cli';

// CI's check `test` runs the local gate and one more test the local gate does not: notes broken last must be mended.
const CI_JS = `const fs = require('fs');
const t = fs.existsSync('notes.txt') ? fs.readFileSync('notes.txt', 'utf8') : '';
console.log('TAP version 14');
if (t.lastIndexOf('broken') > t.lastIndexOf('mended')) { console.log('not ok 1 - the notes are mended'); console.log('1..1'); process.exit(1); }
console.log('ok 1 - the notes are mended');
console.log('1..1');
`;

// The agent: a shell script that reads its prompt. A CI fix mends the notes (unless they are stubborn), a review round
// answers its three comments (two done, one declined), a first step writes notes as its task says.
const AGENT = `
      case "$1" in
        *"at fixing CI"*) if grep -q stubborn notes.txt; then echo tried >> notes.txt; else echo mended >> notes.txt; fi ;;
        *"comments on its diff"*) echo reviewed >> notes.txt; printf '[1] done: first line reworded\\n[2] done: second line reworded\\n[3] declined: the third line is what the task asked for\\n' ;;
        *"Break CI"*) echo broken >> notes.txt ;;
        *"Stubborn"*) printf 'broken\\nstubborn\\n' >> notes.txt ;;
        *) printf 'one\\ntwo\\nthree\\n' >> notes.txt ;;
      esac`;

const workflow = (limits = '') => `agent:
  kind: command
  command:
    - sh
    - -c
    - |${AGENT}
    - agent
    - "{prompt}"
gates:
  test: "node test.js"
max_retries: 0
backoff: { base_s: 0, max_s: 0, jitter: 0 }
forge: { repo: acme/widget }
${limits}`;

/** Each scenario is a sandboxed run, then a watch over real CI jobs (and a fix step): seconds each, more on a busy machine. */
export const E2E_MS = 120_000;

export interface PrLoopFixture {
  f: GithubFixture;
  gh: ScriptedGithub;
  /** A workflow whose CI cap is one fix round (`limits: { ci_failure: 1 }`). */
  capWorkflow: string;
  /** A succeeded run of the task; its id. */
  run(task: string, extra?: string[]): Promise<string>;
  /** `ratchet pr <run> --json …`: exit code, stderr and the status document. */
  pr(runId: string, ...args: string[]): Promise<{ code: number; err: string; doc: { pr: PrDoc; status: string } }>;
  /** The run's steps as `title (attempts)`. */
  steps(runId: string): Promise<string[]>;
}

/**
 * Registers the file's beforeAll/afterAll: the project (TINY_PROJECT, its CI script and workflow) pushed to a bare
 * remote, the scripted GitHub over it with the checks `test` (the local gate and ci.js) and `deploy`, `test` required.
 * The returned object is filled in by the beforeAll.
 */
export function prLoopFixture(): PrLoopFixture {
  let env: NodeJS.ProcessEnv = {};
  const x = {
    async run(task: string, extra: string[] = []): Promise<string> {
      const r = await cli(['run', x.f.work, '--yes', '--trust', '--json', '--task', task, ...extra], env);
      expect(r.code, r.err).toBe(0);
      return (JSON.parse(r.out) as { id: string }).id;
    },
    async pr(runId: string, ...args: string[]) {
      const r = await cli(['pr', runId, '--json', ...args], env);
      return { code: r.code, err: r.err, doc: JSON.parse(r.out || '{}') as { pr: PrDoc; status: string } };
    },
    async steps(runId: string): Promise<string[]> {
      const doc = JSON.parse((await cli(['status', runId, '--json'], env)).out) as { steps: { title: string; attempts: unknown[] }[] };
      return doc.steps.map((s) => `${s.title} (${s.attempts.length})`);
    },
  } as PrLoopFixture;

  beforeAll(async () => {
    x.f = githubProject({ ...TINY_PROJECT, 'ci.js': CI_JS, 'ratchet.yml': workflow() });
    x.gh = await startScriptedGithub({
      bare: x.f.bare,
      checks: [
        { name: 'test', command: 'node test.js && node ci.js' },
        { name: 'deploy', command: 'true' },
      ],
      scenario: { requiredChecks: ['test'] },
    });
    env = { RATCHET_HOME: tempDir(), GITHUB_TOKEN: 'test-token', RATCHET_GITHUB_API_URL: x.gh.url, RATCHET_PR_POLL_MS: '40' };
    x.capWorkflow = join(tempDir(), 'cap.yml');
    writeFileSync(x.capWorkflow, workflow('limits: { ci_failure: 1 }\n'));
  }, 60_000);

  afterAll(async () => {
    await x.gh?.close();
    x.f?.cleanup();
  });

  return x;
}

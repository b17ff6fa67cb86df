// Integration: a run that did nothing does not succeed — an attempt that changed no file, a test gate that ran no tests — through the scripted server, real git and real gates.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../../shared/domain';
import { startScriptedServer, type ScriptedServer, type ScriptResponse } from '../../scripted/server';
import { createEngine } from '../engine';
import { create, fixtureProject, queue, say, turn } from '../testing/fixture-project';
import { TEST_SANDBOX_MODE } from '../testing/sandbox-mode';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const NO_WAIT = 'backoff: { base_s: 0, max_s: 0, jitter: 0 }';
const work = (file: string): ScriptResponse[] => [turn(create(file, `${file}\n`)), say('done')];

async function runOnce(yaml: string, responses: ScriptResponse[]) {
  const p = fixtureProject(yaml);
  server = await startScriptedServer({ script: { rules: queue(...responses) } });
  const engine = createEngine({ home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url }, sandbox: TEST_SANDBOX_MODE });
  try {
    // No gate on purpose (what the agent's own change decides is under test), so run without checks as the user would.
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile, noGates: true }));
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    const subjects = execFileSync('git', ['log', '--format=%s', doc.branch ?? 'HEAD'], { cwd: p.repo, encoding: 'utf8' })
      .trim()
      .split('\n');
    return { doc, subjects, requests: server.requests.map((r) => r.lastUserText ?? '') };
  } finally {
    engine.close();
    await engine.releaseSandbox();
  }
}

describe('a step whose attempts change nothing', () => {
  it('is not committed as an empty step: the agent is told its attempt changed no files, and the run fails when it never does', async () => {
    const { doc, subjects, requests } = await runOnce(`gates: {}\n${NO_WAIT}\nsteps:\n  - title: one\n`, [say('all done'), say('still nothing to do')]);
    expect(doc.status).toBe('failed');
    expect(doc.steps[0]!.attempts.map((a) => a.errorClass)).toEqual(['empty_attempt', 'no_change']);
    expect(subjects.some((s) => s.startsWith('step 1:'))).toBe(false);
    expect(requests[1]).toContain('your attempt changed no files');
    expect(doc.steps[0]!.attempts[0]!.message).toContain('your attempt changed no files');
  });

  it('succeeds once the retry makes the change', async () => {
    const { doc, subjects } = await runOnce(`gates: {}\n${NO_WAIT}\nsteps:\n  - title: one\n`, [say('all done'), ...work('a.txt')]);
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => a.errorClass)).toEqual(['empty_attempt', null]);
    expect(subjects).toContain('step 1: one');
  });

  it('is committed when the step says allow_empty: true', async () => {
    const { doc, subjects } = await runOnce(`gates: {}\n${NO_WAIT}\nsteps:\n  - title: one\n    allow_empty: true\n`, [say('nothing to change')]);
    expect(doc.status).toBe('succeeded');
    expect(subjects).toContain('step 1: one');
  });
});

describe('a test gate that ran no tests', () => {
  // `node --test` in a repository with no test file: exit 0, "ℹ tests 0".
  const gate = (extra = '') => `gates:\n  test: { run: "node --test"${extra} }\n${NO_WAIT}\nflaky_check: true\nmax_retries: 1\nsteps:\n  - title: one\n`;

  it('fails with "the gate ran no tests" instead of passing', async () => {
    const { doc, subjects } = await runOnce(gate(), [...work('a.txt'), ...work('b.txt')]);
    expect(doc.status).toBe('failed');
    const a = doc.steps[0]!.attempts[0]!;
    expect(a.errorClass).toBe('test_failure');
    expect(doc.reason).toContain('gave up');
    expect(a.message).toContain('the gate ran no tests');
    expect(subjects.some((s) => s.startsWith('step 1:'))).toBe(false);
  });

  it('passes when the gate says allow_no_tests: true', async () => {
    const { doc } = await runOnce(gate(', allow_no_tests: true'), work('a.txt'));
    expect(doc.status).toBe('succeeded');
  });
});

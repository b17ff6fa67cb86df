// CLI: per-task and per-step retry configuration shown with its sources, budget alerts on stderr, `resume --budget`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { startScriptedServer, type ScriptedServer, type ScriptResponse } from '../scripted/server';
import { create, fixtureProject, queue, say, turn } from '../engine/testing/fixture-project';
import { flipGate as flipGateCommand } from '../engine/testing/flip-gate';
import { tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';
import { money } from '../../shared/money';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const NO_WAIT = 'backoff: { base_s: 0, max_s: 0, jitter: 0 }\nflaky_check: false';
/** An attempt that writes `file` (so every attempt changes the tree) and ends. */
const work = (file: string): ScriptResponse[] => [turn(create(file, `${file}\n`)), say('done')];
/** A gate that fails the first `fails` times it runs, then passes, as a YAML string. */
const flipGate = (fails: number): string => JSON.stringify(flipGateCommand(fails));

async function runCli(yaml: string, responses: ScriptResponse[], extra: string[] = []) {
  const p = fixtureProject(yaml);
  server = await startScriptedServer({ script: { rules: queue(...responses) } });
  const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
  const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--yes', '--json', ...extra], env);
  return { p, env, r, doc: StatusDocument.parse(JSON.parse(r.out)) };
}

const BLOCK = '## Retry Configuration\nmax_retries: 0\ntimeout_seconds: 600\nallow_retry_on: [test_failure, compilation_error]\n';

describe('per-task and per-step retry configuration', () => {
  it('`ratchet check` shows the policy in force and where each value came from', async () => {
    const dir = tempDir();
    const file = join(dir, 'ratchet.yml');
    writeFileSync(file, 'gates: { test: "npm test" }\npreset: minimal\nmax_retries: 2\nsteps:\n  - title: one\n  - title: two\n    max_retries: 4\n');
    const plain = await cli(['check', file], { RATCHET_HOME: join(dir, 'home') });
    expect(plain.code).toBe(0);
    expect(plain.out).toContain('max_retries      2 (workflow)');
    expect(plain.out).toContain('timeout_seconds  1800 (default)');
    expect(plain.out).toContain('backoff          120 s doubling to 300 s, jitter 0.1 (preset)');
    expect(plain.out).toContain('step 2 (two): max_retries 4 (step)');
    const task = join(dir, 'task.md');
    writeFileSync(task, `# One\n\n${BLOCK}`);
    const withTask = await cli(['check', file, '--description', `@${task}`], { RATCHET_HOME: join(dir, 'home') });
    expect(withTask.out).toContain('max_retries      0 (task)');
    expect(withTask.out).toContain('timeout_seconds  600 (task)');
    expect(withTask.out).toContain('allow_retry_on   test_failure, compilation_error (task)');
    const bad = await cli(['check', file, '--description', '## Retry Configuration\nmax_retry: 1\n'], { RATCHET_HOME: join(dir, 'home') });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('max_retry');
  });

  it('a task\'s block overrides the workflow\'s max_retries: one attempt, and the status document says "task"', async () => {
    const { doc } = await runCli(
      `gates: { test: ${flipGate(5)} }\n${NO_WAIT}\nmax_retries: 3\nsteps:\n  - title: one\n`,
      [...work('a1'), ...work('a2')],
      ['--description', `Do it.\n\n${BLOCK}`],
    );
    expect(doc.status).toBe('failed');
    expect(doc.steps[0]!.attempts).toHaveLength(1);
    expect(doc.policy).toMatchObject({ maxRetries: 0, timeoutSeconds: 600, allowRetryOn: ['test_failure', 'compilation_error'] });
    expect(doc.policy?.sources).toMatchObject({ max_retries: 'task', timeout_seconds: 'task', allow_retry_on: 'task', backoff: 'workflow' });
  });

  it("a step's max_retries overrides the workflow's for that step only", async () => {
    const yaml = `gates: { test: ${flipGate(1)} }\n${NO_WAIT}\nmax_retries: 0\nsteps:\n  - title: one\n    max_retries: 1\n  - title: two\n`;
    const { doc, r } = await runCli(yaml, [...work('a1'), ...work('a2'), ...work('b1')]);
    expect(r.code).toBe(0);
    expect(doc.steps.map((s) => s.attempts.length)).toEqual([2, 1]);
    expect(doc.policy?.steps).toEqual([
      { index: 1, maxRetries: 1, source: 'step' },
      { index: 2, maxRetries: 0, source: 'workflow' },
    ]);
  });

  it('a bad block is refused before anything starts (exit 2)', async () => {
    const p = fixtureProject(`gates: { test: "true" }\nsteps:\n  - title: one\n`);
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--description', '## Retry Configuration\nallow_retry_on: [sometimes]\n', '--yes'], {
      RATCHET_HOME: p.home,
      ANTHROPIC_API_KEY: 'k',
    });
    expect(r.code).toBe(2);
    expect(r.err).toContain('allow_retry_on');
  });
});

describe('budgets a user can act on', () => {
  it('crossing alert_at prints a line on stderr', async () => {
    const { r } = await runCli(
      `gates: { test: ${flipGate(0)} }\n${NO_WAIT}\nbudget: { task_usd: 100, alert_at: 0.000001 }\nsteps:\n  - title: one\n  - title: two\n`,
      [...work('a1'), ...work('b1')],
    );
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/! budget alert: \$0\.\d+ of the task budget of \$100\.00 spent/);
  });

  it('a run paused for its task budget continues with `ratchet resume <id> --budget <usd>`, which persists with the run', async () => {
    const { doc, env } = await runCli(`gates: { test: ${flipGate(1)} }\n${NO_WAIT}\nbudget: { task_usd: 0.0001 }\nsteps:\n  - title: one\n  - title: two\n`, [
      ...work('a1'),
      ...work('a2'),
      ...work('b1'),
    ]);
    expect(doc.status).toBe('paused');
    expect(doc.reason).toContain('--budget');
    // A budget is a cap: no call fits $0.0001 plus 10 %, so the run paused having spent at most that.
    expect(doc.costUsd ?? 0).toBeLessThanOrEqual(0.0001 * 1.1);
    const low = await cli(['resume', doc.id, '--budget', '0', '--yes'], env);
    expect(low.code).toBe(2);
    expect(low.err).toContain('above 0');
    const bad = await cli(['resume', doc.id, '--budget', 'lots', '--yes'], env);
    expect(bad.code).toBe(2);
    const r = await cli(['resume', doc.id, '--budget', '10', '--yes', '--json'], env);
    expect(r.err).toContain('raised to $10.00');
    // What was spent, said as the status document counts it (a fraction of a cent in four decimals, never "$0.00").
    const spent = doc.costUsd ?? 0;
    expect(r.err).toContain(`(${money(spent)} spent so far)`);
    expect(r.code).toBe(0);
    const after = StatusDocument.parse(JSON.parse(r.out));
    expect(after.status).toBe('succeeded');
    expect(after.steps.map((s) => s.attempts.map((a) => a.outcome))).toEqual([['interrupted', 'failed', 'passed'], ['passed']]);
    const status = StatusDocument.parse(JSON.parse((await cli(['status', doc.id, '--json'], env)).out));
    expect(status.policy?.budget.taskUsd).toBe(10);
    expect(status.policy?.sources.task_usd).toBe('raised');
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkWorkflowText, parseWorkflow, readWorkflowSource } from './load-workflow';

const valid = `
gates:
  test: { run: "npm test", timeout: 120, report: reports/junit.xml }
  build: npm run build
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 20 }
max_retries: 2
backoff: { base_s: 1, max_s: 4, jitter: 0 }
retry:
  - not: gate.test
  - attempt: 3
    agent: { model: claude-opus-5-5 }
    session: new
  - exit: 4
limits: { test_failure: 3, compilation_error: 2 }
budget: { task_usd: 5, daily_usd: 50 }
steps:
  - title: Add health
    prompt: Add a health field.
    gates: [test]
  - title: Build it
`;

describe('parseWorkflow', () => {
  it('accepts a full workflow and fills defaults', () => {
    const r = parseWorkflow(valid);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.workflow.gates.test).toEqual({ run: 'npm test', timeout: 120, report: 'reports/junit.xml' });
    expect(r.workflow.gates.build?.run).toBe('npm run build');
    expect(r.workflow.gates.build?.timeout).toBeUndefined();
    expect(r.workflow.max_retries).toBe(2);
    expect(r.workflow.timeout_seconds).toBe(1800);
    expect(r.workflow.steps[1]).toEqual({ title: 'Build it', prompt: '' });
    expect(r.workflow.retry).toHaveLength(3);
    expect(r.workflow.budget?.alert_at).toBe(0.8);
  });

  it('leaves max_retries and backoff to the policy (preset or built-in defaults), and fills the rest', () => {
    const r = parseWorkflow('steps:\n  - title: one\n');
    if (!r.ok) throw new Error('expected ok');
    expect(r.workflow.max_retries).toBeUndefined();
    expect(r.workflow.backoff).toBeUndefined();
    expect(r.workflow.agent).toMatchObject({ kind: 'anthropic', model: 'claude-sonnet-5-5', max_turns: 40 });
    expect(r.workflow.flaky_check).toBe(true);
    expect(r.workflow.on_repeat).toEqual({ after: 3, action: 'new_session' });
  });

  it('reports a YAML syntax error with its line', () => {
    const r = parseWorkflow('steps:\n  - title: one\n    gates: [test\n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0]?.line).toBeGreaterThanOrEqual(3);
  });

  it('names the line of a wrong type and of an unknown key', () => {
    const r = parseWorkflow('gates:\n  test: { run: "x", timeout: "soon" }\nsteps:\n  - title: one\n    promt: typo\n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const timeout = r.problems.find((p) => p.path === 'gates.test.timeout');
    expect(timeout?.line).toBe(2);
    const typo = r.problems.find((p) => p.message.includes('promt'));
    expect(typo?.line).toBe(4);
  });

  it('refuses a step naming an unknown gate, with the line', () => {
    const r = parseWorkflow('gates:\n  test: npm test\nsteps:\n  - title: one\n    gates: [test, lint]\n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]?.message).toContain('`lint`');
    expect(r.problems[0]?.line).toBe(5);
  });

  it('refuses an empty steps list and a non-mapping document; a workflow without the key leaves steps to each task', () => {
    const a = parseWorkflow('gates: {}\nsteps: []\n');
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.problems[0]?.message).toContain('leave `steps` out to let each task give its own');
    const absent = parseWorkflow('gates:\n  test: go test ./...\n');
    expect(absent.ok && absent.workflow.steps).toEqual([]);
    const b = parseWorkflow('- just\n- a list\n');
    expect(b.ok).toBe(false);
  });

  it('refuses a retry entry naming an unknown gate and a bad user rule regex', () => {
    const r = parseWorkflow(
      'gates:\n  test: npm test\nretry:\n  - not: gate.build\n    exit: 3\nrules:\n  - { pattern: "([", class: crash }\nsteps:\n  - title: one\n',
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.path)).toContain('rules[0].pattern');
  });

  it('warns about a retry list that can never retry: exit at 1, entries after the exit, no test-failure retries left (issue 20 item 8)', () => {
    const w = (retry: string, extra = '') =>
      checkWorkflowText(`gates: { test: npm test }\n${extra}retry:\n${retry}steps:\n  - title: one\n`)
        .warnings.map((p) => p.message)
        .join('\n');
    expect(w('  - exit: 1\n')).toMatch(/can never retry.*exit: 1/);
    expect(w('  - attempt: 5\n    session: new\n  - exit: 4\n')).toMatch(/attempt 5 is never reached: `exit: 4`/);
    // Entries of only `attempt` filter no failure: that list still retries until the exit (issue 29 item 9); a `not` entry past the exit cannot.
    expect(w('  - attempt: 5\n    session: new\n  - exit: 4\n')).not.toMatch(/can never retry/);
    expect(w('  - not: gate.test\n  - exit: 1\n')).toMatch(/can never retry/);
    expect(w('  - not: gate.test\n  - exit: 4\n', 'max_retries: 0\n')).toMatch(/max_retries: 0.*no retry/);
    // A list that can retry gets none of these.
    expect(w('  - not: gate.test\n  - exit: 4\n')).toBe('');
    expect(w('  - exit: 3\n')).toBe('');
  });

  it("accepts a validator's `with:` inputs (seed 004), refuses `with` without `validate`, and warns about unused or missing inputs", () => {
    const good = checkWorkflowText(
      'gates: { test: npm test }\nretry:\n  - validate: "assess: Is {what} the cause?"\n    with: { what: the environment }\n  - exit: 4\nsteps:\n  - title: one\n',
    );
    expect(good.errors).toEqual([]);
    expect(good.warnings).toEqual([]);
    expect(good.workflow?.retry?.[0]?.with).toEqual({ what: 'the environment' });
    const orphan = checkWorkflowText('gates: { test: npm test }\nretry:\n  - attempt: 2\n    with: { what: x }\n  - exit: 4\nsteps:\n  - title: one\n');
    expect(orphan.errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
      expect.stringMatching(/^4: `with` gives a validator its inputs; it needs `validate`/),
    ]);
    const loose = checkWorkflowText(
      'gates: { test: npm test }\nretry:\n  - validate: "./check.sh {level} {mode}"\n    with: { level: 3, unused: true }\n  - exit: 4\nsteps:\n  - title: one\n',
    );
    expect(loose.errors).toEqual([]);
    expect(loose.warnings.map((w) => w.message)).toEqual([expect.stringContaining('uses {mode}'), expect.stringContaining('gives unused')]);
  });

  it('calls a workflow or a step that no gate checks invalid: a success must mean a check ran (issue 29 item 1)', () => {
    const none = checkWorkflowText('task: { title: x }\n');
    expect(none.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      expect.stringMatching(/^gates: the workflow defines no gate: nothing checks this work/),
    ]);
    const empty = checkWorkflowText('gates: {}\nsteps:\n  - title: one\n');
    expect(empty.errors.map((e) => `${e.line} ${e.path}`)).toEqual(['3 steps[0]']);
    const oneStep = checkWorkflowText('gates: { test: npm test }\nsteps:\n  - title: one\n  - title: two\n    gates: []\n');
    expect(oneStep.errors.map((e) => `${e.line} ${e.path}: ${e.message}`)).toEqual([
      expect.stringMatching(/^5 steps\[1\]\.gates: step "two" runs no gate \(`gates: \[\]`\): nothing checks this work — add a gate, or pass `--no-gates`$/),
    ]);
    expect(checkWorkflowText('gates: { test: npm test }\n').errors).toEqual([]);
    expect(checkWorkflowText(valid).errors).toEqual([]);
  });

  it("accepts seed 004's sticky table written as in the seed, and says nothing that would make a run of it fatal at its first failure (issue 29 item 9)", () => {
    const r = checkWorkflowText(
      'gates: { test: npm test }\nretry:\n  - attempt: 3\n    agent: { model: claude-sonnet-thinking }\n    session: new\n  - attempt: 5\n    agent: { model: claude-opus-5-5 }\n    session: new\n  - exit: 8\nsteps:\n  - title: one\n',
    );
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
  });
});

describe('reading a workflow file', () => {
  it('a FIFO or a link to /dev/zero named as the workflow is refused at once, saying why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-wf-'));
    try {
      execFileSync('mkfifo', [join(dir, 'ratchet.yml')]);
      symlinkSync('/dev/zero', join(dir, 'zero.yml'));
      expect(() => readWorkflowSource(join(dir, 'ratchet.yml'))).toThrow(/not a regular file \(a FIFO\)/);
      expect(() => readWorkflowSource(join(dir, 'zero.yml'))).toThrow(/not a regular file \(a device\)/);
      expect(() => readWorkflowSource(join(dir, 'none.yml'))).toThrow(/does not exist/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Integration: the retry policy end to end, through the real SDK, the scripted server, real git and real gates.
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../../shared/domain';
import { startScriptedServer, type ScriptedServer, type ScriptResponse } from '../../scripted/server';
import { createEngine } from '../engine';
import { create, fixtureProject, queue, say, turn } from '../testing/fixture-project';
import { flipGate } from '../testing/flip-gate';
import { TEST_SANDBOX_MODE } from '../testing/sandbox-mode';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const bash = (command: string): ScriptResponse => turn({ type: 'tool_use', name: 'bash', input: { command } });
/** An attempt that writes `file` (so every attempt changes the tree) and ends. */
const work = (file: string, text = file): ScriptResponse[] => [turn(create(file, `${text}\n`)), say('done')];

async function run(yaml: string, responses: ScriptResponse[]) {
  const p = fixtureProject(yaml);
  server = await startScriptedServer({ script: { rules: queue(...responses) } });
  const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } });
  const events: Array<{ type: string; payload: Record<string, unknown> }> = [];
  engine.onEvent((e) => events.push({ type: e.type, payload: e.payload }));
  // One plan here gives a step `gates: []` (the escalation is per step), which runs only without checks.
  const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile, noGates: true }));
  const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
  engine.close();
  return { doc, events, requests: server.requests, p };
}

const NO_WAIT = 'backoff: { base_s: 0, max_s: 0, jitter: 0 }';

describe('retry policy through the scripted server', () => {
  it('survives 429 and 500 answers through the SDK retries', async () => {
    const { doc, requests } = await run(`gates: { ok: "true" }\n${NO_WAIT}\nsteps:\n  - title: one\n`, [
      { error: { status: 429, retryAfter: 0 } },
      { error: { status: 500 } },
      ...work('a.txt'),
    ]);
    expect(doc.status).toBe('succeeded');
    expect(requests.map((r) => r.status)).toEqual([429, 500, 200, 200]);
    expect(doc.steps[0]!.attempts).toHaveLength(1);
  });

  it('turns a 429 the SDK could not ride out into a rate_limit retry that waits for retry-after', async () => {
    const limited = { error: { status: 429, retryAfter: 1 } } as const;
    const { doc, events } = await run(`gates: { ok: "true" }\n${NO_WAIT}\nsteps:\n  - title: one\n`, [limited, limited, limited, ...work('a.txt')]);
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([
      ['error', 'rate_limit'],
      ['passed', null],
    ]);
    expect(doc.steps[0]!.attempts[0]!.decision).toMatchObject({ action: 'retry', delayS: 1 });
    expect(events.some((e) => e.type === 'run.status' && e.payload.status === 'waiting' && e.payload.wakeAt)).toBe(true);
  });

  it('parks the run as waiting, with a durable wake_at, when retry-after is long', async () => {
    const limited = { error: { status: 429, retryAfter: 3600 } } as const;
    // The SDK itself would sleep for an hour on retry-after; x-should-retry: false hands the 429 straight to the policy.
    const once = { error: { status: 429, retryAfter: 3600, shouldRetry: false } } as const;
    void limited;
    const { doc } = await run(`gates: { ok: "true" }\n${NO_WAIT}\nsteps:\n  - title: one\n`, [once]);
    expect(doc.status).toBe('waiting');
    expect(doc.reason).toContain('parked');
    expect(doc.steps[0]!.attempts[0]!.decision).toMatchObject({ action: 'wait', delayS: 3600 });
  });

  it('escalates the model only from its attempt on, and only for that step', async () => {
    const yaml = `gates: { test: ${JSON.stringify(flipGate(2))} }
${NO_WAIT}
flaky_check: false
retry:
  - not: gate.test
  - attempt: 3
    agent: { model: claude-opus-5-5 }
  - exit: 5
steps:
  - title: one
    gates: [test]
  - title: two
    gates: []
`;
    const { doc, requests } = await run(yaml, [...work('a1'), ...work('a2'), ...work('a3'), ...work('b1')]);
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => a.model)).toEqual(['claude-sonnet-5-5', 'claude-sonnet-5-5', 'claude-opus-5-5']);
    expect(doc.steps[1]!.attempts.map((a) => a.model)).toEqual(['claude-sonnet-5-5']);
    expect(requests.map((r) => (r.body as { model: string }).model)).toEqual([
      'claude-sonnet-5-5',
      'claude-sonnet-5-5',
      'claude-sonnet-5-5',
      'claude-sonnet-5-5',
      'claude-opus-5-5',
      'claude-opus-5-5',
      'claude-sonnet-5-5',
      'claude-sonnet-5-5',
    ]);
    expect(doc.steps[0]!.attempts[1]!.decision?.reason).toContain('escalating to claude-opus-5-5');
    // The new agent starts a new session: its first request carries only the opening user message.
    expect((requests[4]!.body as { messages: unknown[] }).messages).toHaveLength(1);
  });

  it('continues the same session on a retry by default, so the conversation is re-read from the cache', async () => {
    const { doc, requests } = await run(`gates: { test: ${JSON.stringify(flipGate(1))} }\n${NO_WAIT}\nflaky_check: false\nsteps:\n  - title: one\n`, [
      ...work('a1'),
      ...work('a2'),
    ]);
    expect(doc.status).toBe('succeeded');
    const retry = requests[2]!.body as { messages: Array<{ role: string }> };
    expect(retry.messages.length).toBeGreaterThan(3);
    expect(requests[2]!.lastUserText).toContain('## Retry: this is attempt 2 of 4');
    expect(requests[2]!.lastUserText).not.toContain('## Step 1 of 1');
    expect(doc.steps[0]!.attempts[1]!.cacheReadTokens).toBeGreaterThan(doc.steps[0]!.attempts[1]!.inputTokens);
  });

  it('fails a missing dependency after one attempt', async () => {
    const { doc } = await run(`gates: { test: "node -e \\"require('left-pad-that-is-not-installed')\\"" }\n${NO_WAIT}\nsteps:\n  - title: one\n`, work('a1'));
    expect(doc.status).toBe('failed');
    expect(doc.steps[0]!.attempts.map((a) => a.errorClass)).toEqual(['missing_dependency']);
    expect(doc.reason).toContain('not retriable');
  });

  it('stops at the task budget with a reason naming it, before spending another attempt', async () => {
    const { doc, events } = await run(
      `gates: { test: ${JSON.stringify(flipGate(5))} }\n${NO_WAIT}\nflaky_check: false\nbudget: { task_usd: 0.0001, alert_at: 0.5 }\nsteps:\n  - title: one\n`,
      [...work('a1'), ...work('a2')],
    );
    expect(doc.status).toBe('paused');
    expect(doc.reason).toContain('task budget of $0.0001 reached');
    expect(doc.policy?.budget.taskUsd).toBe(0.0001);
    expect(doc.steps[0]!.attempts).toHaveLength(1);
    expect(events.filter((e) => e.type === 'budget.alert')).toHaveLength(0);
  });

  it('raises one budget alert when spending crosses alert_at', async () => {
    const yaml = `gates: { test: ${JSON.stringify(flipGate(1))} }\n${NO_WAIT}\nflaky_check: false\nbudget: { task_usd: 100, alert_at: 0.000001 }\nsteps:\n  - title: one\n  - title: two\n`;
    const { doc, events } = await run(yaml, [...work('a1'), ...work('a2'), ...work('b1')]);
    expect(doc.status).toBe('succeeded');
    const alerts = events.filter((e) => e.type === 'budget.alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.payload).toMatchObject({ kind: 'task', limitUsd: 100 });
  });

  it('marks a test that fails then passes on the unchanged tree as flaky, and moves on', async () => {
    const { doc, requests } = await run(`gates: { test: ${JSON.stringify(flipGate(1))} }\n${NO_WAIT}\nsteps:\n  - title: one\n`, work('a1'));
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => a.outcome)).toEqual(['flaky']);
    expect(requests).toHaveLength(2);
  });

  it('re-runs a crashed gate (after its restart command) before spending an agent attempt', async () => {
    // The gate crashes until its restart command has run (the marker lives in the run's TMPDIR, writable in the sandbox).
    const marker = `"$TMPDIR/restarted-${Math.random().toString(36).slice(2)}"`;
    const gate = `[ -f ${marker} ] || kill -SEGV $$; echo ok`;
    const yaml = `gates:\n  test: { run: ${JSON.stringify(gate)}, restart: ${JSON.stringify(`touch ${marker}`)} }\n${NO_WAIT}\nsteps:\n  - title: one\n`;
    const { doc, requests } = await run(yaml, work('a1'));
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => a.outcome)).toEqual(['passed']);
    expect(requests).toHaveLength(2);
  });

  it('retries a gate timeout once with the timeout doubled', async () => {
    const yaml = `gates:\n  test: { run: "sleep 1.5", timeout: 1 }\n${NO_WAIT}\nsteps:\n  - title: one\n`;
    const { doc } = await run(yaml, [...work('a1'), ...work('a2')]);
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([
      ['failed', 'timeout'],
      ['passed', null],
    ]);
    expect(doc.steps[0]!.attempts[0]!.decision?.overrides).toMatchObject({ gateTimeoutMultiplier: 2 });
  });

  it('stops early when the same failure comes back, and says so', async () => {
    const yaml = `gates: { test: "echo 'not ok 1 - adds'; exit 1" }\n${NO_WAIT}\nflaky_check: false\non_repeat: { after: 2, action: stop }\nsteps:\n  - title: one\n`;
    const { doc } = await run(yaml, [...work('a1'), ...work('a2'), ...work('a3')]);
    expect(doc.status).toBe('failed');
    expect(doc.steps[0]!.attempts).toHaveLength(2);
    const [a, b] = doc.steps[0]!.attempts;
    expect(a!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(b!.fingerprint).toBe(a!.fingerprint);
    expect(doc.reason).toContain('the same failure came back 2 attempts in a row');
  });

  it('worktree: reset goes back to the step start before the attempt', async () => {
    const yaml = `gates: { test: ${JSON.stringify(flipGate(1))} }\n${NO_WAIT}\nflaky_check: false\nretry:\n  - attempt: 2\n    worktree: reset\n    session: new\n  - exit: 4\nsteps:\n  - title: one\n`;
    const { doc, requests } = await run(yaml, [...work('junk.txt'), bash('test -f junk.txt && echo PRESENT || echo ABSENT'), ...work('b.txt')]);
    expect(doc.status).toBe('succeeded');
    expect(requests[3]!.lastUserText).toContain('ABSENT');
  });

  it('an entry prompt replaces the retry context, with {error} and {gate.*} filled in', async () => {
    const yaml = `gates: { test: ${JSON.stringify(flipGate(1, 'echo "not ok 1 - boom-output"; exit 1'))} }\n${NO_WAIT}\nflaky_check: false\nretry:\n  - not: gate.test\n    prompt: "Attempt {attempt}. Error was {error}. Gate said: {gate.test}"\n  - exit: 3\nsteps:\n  - title: one\n`;
    const { doc, requests } = await run(yaml, [...work('a1'), ...work('a2')]);
    expect(doc.status).toBe('succeeded');
    expect(requests[2]!.lastUserText).toMatch(/^Attempt 2\. Error was \w+: .*Gate said: .*boom-output/s);
    expect(requests[2]!.lastUserText).not.toContain('## Retry');
  });
});

describe('validators and retry now', () => {
  it('an `assess:` validator asks the agent, and its answer decides whether the entry applies', async () => {
    const yaml = `gates: { test: ${JSON.stringify(flipGate(1))} }\n${NO_WAIT}\nflaky_check: false\nretry:\n  - validate: "assess: Is the failure worth another try?"\n    agent: { model: claude-opus-5-5 }\n  - exit: 3\nsteps:\n  - title: one\n`;
    const { doc, requests } = await run(yaml, [...work('a1'), say('true'), ...work('a2')]);
    expect(doc.status).toBe('succeeded');
    expect(requests[2]!.lastUserText).toContain('Is the failure worth another try?');
    expect(doc.steps[0]!.attempts.map((a) => a.model)).toEqual(['claude-sonnet-5-5', 'claude-opus-5-5']);
  });

  it('a "false" assessment means no entry applies: the step stops', async () => {
    const yaml = `gates: { test: ${JSON.stringify(flipGate(1))} }\n${NO_WAIT}\nflaky_check: false\nretry:\n  - validate: "assess: Worth it?"\n  - exit: 3\nsteps:\n  - title: one\n`;
    const { doc } = await run(yaml, [...work('a1'), say('false')]);
    expect(doc.status).toBe('failed');
    expect(doc.reason).toContain('no retry entry applies');
  });

  it('"Retry now" ends a backoff wait at once', async () => {
    const p = fixtureProject(
      `gates: { test: ${JSON.stringify(flipGate(1))} }\nbackoff: { base_s: 600, max_s: 600, jitter: 0 }\nflaky_check: false\nsteps:\n  - title: one\n`,
    );
    server = await startScriptedServer({ script: { rules: queue(...work('a1'), ...work('a2')) } });
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } });
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
    // The status is written (and this event sent) synchronously just before the wait takes its own "Retry now" signal:
    // Retry now once that tick is over, not after a guessed delay.
    let retried: Promise<boolean> | undefined;
    engine.onEvent((e) => {
      if (e.type === 'run.status' && e.payload.status === 'waiting') retried ??= new Promise((done) => setImmediate(() => done(engine.retryNow(runId))));
    });
    const started = Date.now();
    const doc = await engine.execute(runId, new AbortController().signal);
    await expect(retried).resolves.toBe(true);
    expect(doc.status).toBe('succeeded');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(doc.steps[0]!.attempts[0]!.decision?.delayS).toBe(600);
    engine.close();
  });
});

describe('the task budget is a cap (issue 20 item 12)', () => {
  it('never spends more than 10 % past task_usd: each call is capped to what the budget leaves, then the run pauses and says so', async () => {
    // Each turn writes 150 output tokens ($0.0015 at Sonnet 5.5's $10/MTok) and the gate never passes: without the cap an
    // attempt that starts just under $0.004 spends as much again.
    const busy: ScriptResponse = { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo more >> notes.txt' } }], usage: { output_tokens: 150 } };
    const { doc, requests, p } = await run(
      `agent: { model: claude-sonnet-5-5 }\ngates: { test: "exit 1" }\n${NO_WAIT}\nflaky_check: false\nmax_retries: 5\nbudget: { task_usd: 0.004, alert_at: 1 }\nsteps:\n  - title: one\n`,
      Array.from({ length: 40 }, () => busy),
    );
    expect(doc.costUsd).not.toBeNull();
    expect(doc.costUsd!).toBeLessThanOrEqual(0.004 * 1.1);
    expect(doc.status).toBe('paused');
    // The shape the app and e2e read: "task budget of $X reached ($Y spent)", then why.
    expect(doc.reason).toMatch(/^task budget of \$0\.0040 reached \(\$0\.\d{4} spent\): the agent stopped before API call \d+/);
    expect(doc.reason).toMatch(/10 % past its budget/);
    // The last call asked for no more output than the budget left.
    expect(Math.min(...requests.map((r) => r.body.max_tokens as number))).toBeLessThan(8192);
    // Raising the budget to no more than was spent is refused: it would stop the run again at once.
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server!.url } });
    try {
      expect(() => engine.raiseBudget(doc.id, doc.costUsd! / 2)).toThrow(/already spent/);
    } finally {
      engine.close();
    }
  }, 60_000);
});

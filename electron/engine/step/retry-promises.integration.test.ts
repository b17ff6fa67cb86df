// Integration: the retry promises (fresh accounting on retry, API faults by class, the built-in defaults, the truthful summary, the conflict rebase, validators with inputs) through the scripted server, real git and real gates.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../../shared/domain';
import { startScriptedServer, type ScriptedServer, type ScriptResponse } from '../../scripted/server';
import { TEST_SANDBOX_MODE } from '../testing/sandbox-mode';
import { createEngine } from '../engine';
import { create, fixtureProject, queue, say, testFile, turn } from '../testing/fixture-project';
import { sh } from '../testing/temp-repo';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const work = (file: string, text = file): ScriptResponse[] => [turn(create(file, `${text}\n`)), say('done')];
const NO_WAIT = 'backoff: { base_s: 0, max_s: 0, jitter: 0 }';
const ALWAYS_FAILS = `"echo 'not ok 1 - adds'; exit 1"`;

/** A gate that runs `first` the first `times` times, then `then` (its counter lives in the run's TMPDIR, outside the worktree and writable in the sandbox). */
function phasedGate(steps: string[], last = 'echo ok'): string {
  const counter = `"$TMPDIR/phase-${Math.random().toString(36).slice(2)}"`;
  const cases = steps.map((s, i) => `${i}) ${s} ;;`).join(' ');
  return `n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n+1)) > ${counter}; case $n in ${cases} *) ${last} ;; esac`;
}

async function setup(yaml: string, responses: ScriptResponse[]) {
  const p = fixtureProject(yaml);
  server = await startScriptedServer({ script: { rules: queue(...responses) } });
  const engine = createEngine({ home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url }, sandbox: TEST_SANDBOX_MODE });
  const events: Array<{ type: string; payload: Record<string, unknown> }> = [];
  engine.onEvent((e) => events.push({ type: e.type, payload: e.payload }));
  // Several plans here give step one `gates: []` (a step that only commits), which runs only without checks.
  const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile, noGates: true }));
  return { p, engine, runId, events, srv: server };
}

const texts = (srv: ScriptedServer) => srv.requests.map((r) => r.lastUserText ?? '');

describe('item 1: a retry gives the failed step a new chance', () => {
  it('counts limits afresh after `retry`, keeps every attempt with its round, and restarts "attempt k of n"', async () => {
    const yaml = `gates: { test: ${ALWAYS_FAILS} }\n${NO_WAIT}\nflaky_check: false\non_repeat: { after: 2, action: retry }\nsteps:\n  - title: one\n    gates: []\n  - title: two\n    gates: [test]\n`;
    const attempts = (tag: string) => [1, 2, 3, 4].flatMap((i) => work(`${tag}${i}`));
    const { engine, runId, srv } = await setup(yaml, [...work('s1'), ...attempts('a'), ...attempts('b')]);
    const first = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    expect(first.status).toBe('failed');
    expect(first.steps[1]!.attempts).toHaveLength(4);
    const { doc } = await engine.retry(runId, { signal: new AbortController().signal });
    const after = StatusDocument.parse(doc);
    engine.close();
    expect(after.status).toBe('failed');
    expect(after.steps[1]!.attempts.map((a) => [a.n, a.round])).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 0],
      [5, 1],
      [6, 1],
      [7, 1],
      [8, 1],
    ]);
    expect(after.reason).toContain('gave up after 3 test failure retries');
    // The retried step's first prompt carries its last real failure.
    const retried = texts(srv)[10]!;
    expect(retried).toContain('not ok 1 - adds');
    expect(texts(srv).slice(10).join('\n')).toMatch(/attempt 4 of 4/);
    expect(texts(srv).slice(10).join('\n')).not.toMatch(/attempt [5-9] of/);
  });

  it('the first prompt after a retry carries the last real failure, never no_change', async () => {
    const yaml = `gates: { test: ${ALWAYS_FAILS} }\n${NO_WAIT}\nflaky_check: false\nsteps:\n  - title: one\n    gates: []\n  - title: two\n    gates: [test]\n`;
    // Step two: attempt 1 fails the test, attempt 2 changes nothing (no_change, fatal).
    const { engine, runId, srv } = await setup(yaml, [...work('s1'), ...work('a1'), say('nothing to do'), ...work('b1')]);
    const first = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    expect(first.steps[1]!.attempts.map((a) => a.errorClass)).toEqual(['test_failure', 'no_change']);
    await engine.retry(runId, { signal: new AbortController().signal });
    engine.close();
    const retried = texts(srv)[5]!;
    expect(retried).toContain('not ok 1 - adds');
    expect(retried).not.toContain('no_change');
  });

  it('the first prompt after a retry carries the same hints as a retry within the run did', async () => {
    const yaml = `gates: { test: ${ALWAYS_FAILS} }\n${NO_WAIT}\nflaky_check: false\nmax_retries: 1\nsteps:\n  - title: one\n    gates: []\n  - title: two\n    gates: [test]\n`;
    const { engine, runId, srv } = await setup(yaml, [...work('s1'), ...work('a1'), ...work('a2'), ...work('b1')]);
    const first = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    expect(first.status).toBe('failed');
    await engine.retry(runId, { signal: new AbortController().signal });
    engine.close();
    const hints = (t: string) => t.slice(t.indexOf('Hints:')).split('\n\n')[0];
    const inRun = texts(srv)[4]!;
    const afterRetry = texts(srv)[6]!;
    expect(inRun).toContain('Hints:');
    expect(afterRetry).toContain('Hints:');
    expect(hints(afterRetry)).toBe(hints(inRun));
  });

  it('a step ended by an attempt that changed nothing names the still-failing test under Remaining issues', async () => {
    const yaml = `gates: { test: ${ALWAYS_FAILS} }\n${NO_WAIT}\nflaky_check: false\nsteps:\n  - title: one\n    gates: [test]\n`;
    const { engine, runId } = await setup(yaml, [...work('a1'), say('nothing to do')]);
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.steps[0]!.attempts.map((a) => a.errorClass)).toEqual(['test_failure', 'no_change']);
    expect(doc.reason).toContain('Remaining issues:');
    expect(doc.reason).toMatch(/Remaining issues:[\s\S]*adds/);
  });
});

describe("seed 004's sticky table, run end to end (issue 20 item 8)", () => {
  it("attempts 1-2 use the step's agent, 3-4 the second, 5-7 the third, and exit: 8 ends the step, with no limits set", async () => {
    const yaml = `gates: { test: ${ALWAYS_FAILS} }\n${NO_WAIT}\nflaky_check: false\non_repeat: { after: 2, action: retry }
retry:
  - not: gate.test
  - attempt: 3
    agent: { model: claude-sonnet-4-5 }
  - attempt: 5
    agent: { model: claude-opus-4-5 }
    session: new
  - exit: 8
steps:
  - title: one
    gates: [test]
`;
    const { engine, runId, srv } = await setup(
      yaml,
      [1, 2, 3, 4, 5, 6, 7, 8].flatMap((i) => work(`a${i}`)),
    );
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.status).toBe('failed');
    expect(doc.reason).toContain('exit: 8');
    expect(doc.steps[0]!.attempts.map((a) => a.model)).toEqual([
      'claude-sonnet-5-5',
      'claude-sonnet-5-5',
      'claude-sonnet-4-5',
      'claude-sonnet-4-5',
      'claude-opus-4-5',
      'claude-opus-4-5',
      'claude-opus-4-5',
    ]);
    // Each attempt's two calls went to its own model.
    expect(srv.requests.map((r) => r.body.model as string).filter((_, i) => i % 2 === 0)).toEqual(doc.steps[0]!.attempts.map((a) => a.model));
  });
});

describe('item 1 (resume): a resumed step counts afresh too', () => {
  it('on_repeat counts from the resume: a paused step gets its two same-failure attempts again', async () => {
    const yaml = `gates: { test: ${ALWAYS_FAILS} }\n${NO_WAIT}\nflaky_check: false\non_repeat: { after: 2, action: escalate }\nsteps:\n  - title: one\n`;
    const { engine, runId } = await setup(
      yaml,
      [1, 2, 3, 4].flatMap((i) => work(`a${i}`)),
    );
    const first = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    expect(first.status).toBe('paused');
    const { doc } = await engine.resume(runId, { signal: new AbortController().signal });
    engine.close();
    const after = StatusDocument.parse(doc);
    expect(after.status).toBe('paused');
    expect(after.steps[0]!.attempts.map((a) => [a.n, a.round])).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 1],
    ]);
    expect(after.reason).toContain('2 earlier attempts');
  });

  it('a parked run waking at its wake_at continues its round (its rate_limit retries still count)', async () => {
    const once = { error: { status: 429, retryAfter: 3600, shouldRetry: false } } as const;
    const { engine, runId } = await setup(`gates: { ok: "true" }\n${NO_WAIT}\nsteps:\n  - title: one\n`, [once, ...work('a1')]);
    const parked = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    expect(parked.status).toBe('waiting');
    const { doc } = await engine.resume(runId, { signal: new AbortController().signal });
    engine.close();
    const after = StatusDocument.parse(doc);
    expect(after.status).toBe('succeeded');
    expect(after.steps[0]!.attempts.map((a) => [a.n, a.round, a.errorClass])).toEqual([
      [1, 0, 'rate_limit'],
      [2, 0, null],
    ]);
  });
});

describe('item 2: API faults follow their class whatever the retry list says', () => {
  it('a 429 beyond the SDK retries is a rate_limit retry, even with `- not: gate.test` / `- exit: 5`', async () => {
    const limited = { error: { status: 429, retryAfter: 0 } } as const;
    const yaml = `gates: { test: "true" }\n${NO_WAIT}\nretry:\n  - not: gate.test\n  - exit: 5\nsteps:\n  - title: one\n`;
    const { engine, runId } = await setup(yaml, [limited, limited, limited, ...work('a1')]);
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([
      ['error', 'rate_limit'],
      ['passed', null],
    ]);
  });
});

describe('item 2 (agent process): a crash of a CLI agent follows its class too', () => {
  it('a CLI agent that dies once is retried, with a retry list that names only the test gate', async () => {
    const counter = `"$TMPDIR/agent-${Math.random().toString(36).slice(2)}"`;
    // Dies the first time it runs (like a crashed CLI), then writes a file and ends.
    const script = `n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n+1)) > ${counter}; if [ "$n" -lt 1 ]; then echo "segfault" >&2; exit 139; fi; echo done > out.txt`;
    const yaml = `agent: { kind: command, command: ["sh", "-c", ${JSON.stringify(script)}] }\ngates: { test: "true" }\n${NO_WAIT}\nretry:\n  - not: gate.test\n  - exit: 5\nsteps:\n  - title: one\n`;
    const { engine, runId } = await setup(yaml, []);
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.steps[0]!.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([
      ['error', 'api_error'],
      ['passed', null],
    ]);
    expect(doc.status).toBe('succeeded');
  });
});

describe('item 3: the defaults honour the seeds', () => {
  it('without on_repeat, the same test failure still gets its 3 retries (4 attempts), in new sessions once it repeats', async () => {
    const yaml = `gates: { test: ${ALWAYS_FAILS} }\n${NO_WAIT}\nflaky_check: false\nsteps:\n  - title: one\n`;
    const { engine, runId, srv } = await setup(
      yaml,
      [1, 2, 3, 4].flatMap((i) => work(`a${i}`)),
    );
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.status).toBe('failed');
    expect(doc.steps[0]!.attempts).toHaveLength(4);
    expect(doc.reason).toContain('gave up after 3 test failure retries');
    // The repeat changed the strategy: attempt 4 starts a new session with a stronger hint.
    expect((srv.requests[6]!.body as { messages: unknown[] }).messages).toHaveLength(1);
    expect(texts(srv)[6]).toContain('came back 3 times');
  });

  it('a timeout retry re-runs the gate with the doubled timeout even when the agent changed nothing', async () => {
    const yaml = `gates:\n  test: { run: ${JSON.stringify(phasedGate(['sleep 1.6']))}, timeout: 1 }\n${NO_WAIT}\nsteps:\n  - title: one\n`;
    const { engine, runId } = await setup(yaml, [...work('a1'), say('the code is fine; the test was slow')]);
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.steps[0]!.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([
      ['failed', 'timeout'],
      ['passed', null],
    ]);
    expect(doc.status).toBe('succeeded');
  });

  it('"attempt k of n" never has k above n, whatever classes the failures change between', async () => {
    const gate = phasedGate([`echo 'not ok 1 - adds'; exit 1`, 'sleep 1.6']);
    const yaml = `gates:\n  test: { run: ${JSON.stringify(gate)}, timeout: 1 }\n${NO_WAIT}\nflaky_check: false\nsteps:\n  - title: one\n`;
    const { engine, runId, srv } = await setup(yaml, [...work('a1'), ...work('a2'), ...work('a3')]);
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.status).toBe('succeeded');
    const labels = texts(srv).flatMap((t) => [...t.matchAll(/attempt (\d+) of (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]));
    expect(labels.length).toBeGreaterThanOrEqual(2);
    for (const [k, n] of labels) expect(k).toBeLessThanOrEqual(n!);
  });
});

describe('item 4: the summary tells the truth', () => {
  it('the same failing test four times reads "no improvement", lists it once and ends with Next steps', async () => {
    const yaml = `gates: { test: ${ALWAYS_FAILS} }\n${NO_WAIT}\nflaky_check: false\non_repeat: { after: 2, action: retry }\nsteps:\n  - title: one\n`;
    const { engine, runId } = await setup(
      yaml,
      [1, 2, 3, 4].flatMap((i) => work(`a${i}`)),
    );
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    const reason = doc.reason ?? '';
    expect(reason).not.toContain('fixed');
    expect(reason.match(/\(no improvement\)/g)).toHaveLength(3);
    expect(reason.match(/- .*adds/g)).toHaveLength(1);
    expect(reason).toMatch(/Next steps:\n1\. Review the errors above/);
  });

  it('success after a retry says "succeeded on attempt k/n"', async () => {
    const yaml = `gates: { test: ${JSON.stringify(phasedGate([`echo 'not ok 1 - adds'; exit 1`]))} }\n${NO_WAIT}\nflaky_check: false\nsteps:\n  - title: one\n`;
    const { engine, runId, events } = await setup(yaml, [...work('a1'), ...work('a2')]);
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.status).toBe('succeeded');
    expect(events.some((e) => e.type === 'log' && String(e.payload.message).includes('succeeded on attempt 2/4'))).toBe(true);
  });
});

describe('item 6: a git conflict gets its one rebase', () => {
  const conflictOnce = (file: string) => phasedGate([`echo 'CONFLICT (content): Merge conflict in ${file}'; exit 1`]);

  it('rebases the run branch onto the moved base, tells the agent, and the retry goes on from there', async () => {
    const yaml = `gates: { test: ${JSON.stringify(conflictOnce('a.txt'))} }\n${NO_WAIT}\nflaky_check: false\nsteps:\n  - title: one\n    gates: []\n  - title: two\n    gates: [test]\n`;
    const { p, engine, runId, srv, events } = await setup(yaml, [...work('s1'), ...work('a1'), ...work('a2')]);
    // The base branch moves after the run started, with a change that does not touch the run's files.
    writeFileSync(join(p.repo, 'base.txt'), 'moved\n');
    sh(p.repo, 'add', '-A');
    sh(p.repo, 'commit', '-q', '-m', 'base moved');
    const tip = sh(p.repo, 'rev-parse', 'main');
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.status).toBe('succeeded');
    expect(sh(p.repo, 'merge-base', '--is-ancestor', tip, doc.branch)).toBe('');
    expect(
      sh(p.repo, 'log', '--format=%s', doc.branch)
        .split('\n')
        .filter((s) => s.startsWith('step ')),
    ).toEqual(['step 2: two', 'step 1: one']);
    expect(events.some((e) => e.type === 'log' && /rebased .* onto/.test(String(e.payload.message)))).toBe(true);
    expect(texts(srv)[4]).toContain('a.txt');
    expect(texts(srv)[4]).toMatch(/rebased/i);
  });

  it('a rebase that conflicts is aborted cleanly; after the one retry the run pauses with the files listed', async () => {
    const yaml = `gates: { test: ${JSON.stringify(`echo 'CONFLICT (content): Merge conflict in s1'; exit 1`)} }\n${NO_WAIT}\nflaky_check: false\nsteps:\n  - title: one\n    gates: []\n  - title: two\n    gates: [test]\n`;
    const { p, engine, runId, srv } = await setup(yaml, [...work('s1'), ...work('a1'), ...work('a2'), ...work('a3')]);
    writeFileSync(join(p.repo, 's1'), 'the base says otherwise\n');
    sh(p.repo, 'add', '-A');
    sh(p.repo, 'commit', '-q', '-m', 'base moved');
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.status).toBe('paused');
    expect(doc.steps[1]!.attempts).toHaveLength(2);
    expect(doc.reason).toContain('conflicting files: s1');
    expect(texts(srv)[4]).toContain('s1');
    // Nothing committed is lost and no rebase is left half done.
    expect(sh(p.repo, 'log', '--format=%s', doc.branch)).toContain('step 1: one');
    expect(sh(doc.worktree, 'status', '--porcelain=v2', '--branch')).toContain(`branch.head ${doc.branch}`);
  });
});

describe('item 10: validators with inputs', () => {
  it('`with:` values are templated into an assessment question', async () => {
    const gate = phasedGate([`echo 'not ok 1 - adds'; exit 1`]);
    const yaml = `gates: { test: ${JSON.stringify(gate)} }\n${NO_WAIT}\nflaky_check: false\nretry:\n  - validate: "assess: Is {subject} the cause of the failure?"\n    with: { subject: "the rounding code" }\n    agent: { model: claude-opus-5-5 }\n  - exit: 3\nsteps:\n  - title: one\n`;
    const { engine, runId, srv } = await setup(yaml, [...work('a1'), say('true'), ...work('a2')]);
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.status).toBe('succeeded');
    expect(texts(srv)[2]).toContain('Is the rounding code the cause of the failure?');
    expect(doc.steps[0]!.attempts.map((a) => a.model)).toEqual(['claude-sonnet-5-5', 'claude-opus-5-5']);
  });

  it('`with:` values are templated, shell-quoted, into a validator command', async () => {
    const gate = phasedGate([`echo 'not ok 1 - adds'; exit 1`]);
    const yaml = `gates: { test: ${JSON.stringify(gate)} }\n${NO_WAIT}\nflaky_check: false\nretry:\n  - validate: "test {word} = 'two words'"\n    with: { word: "two words" }\n  - exit: 3\nsteps:\n  - title: one\n`;
    const { engine, runId } = await setup(yaml, [...work('a1'), ...work('a2')]);
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.status).toBe('succeeded');
  });
});

describe("item 11: Claude Code's own rate limit is a rate_limit, retried after its wait, whatever the retry list says", () => {
  it("a CLI agent that prints Claude Code's recorded 429 result is parked and retried, not failed", async () => {
    const fixture = join(import.meta.dirname, '..', 'agents', 'fixtures', 'claude-code', 'api-error-429.stream.jsonl');
    const counter = `"$TMPDIR/cc-${Math.random().toString(36).slice(2)}"`;
    // The first run replays Claude Code's real 429 output (exit 1); the second does the work.
    const script = `n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n+1)) > ${counter}; if [ "$n" -lt 1 ]; then cat '${fixture}'; exit 1; fi; echo done > out.txt`;
    const yaml = `agent: { kind: command, command: ["sh", "-c", ${JSON.stringify(script)}] }\ngates: { test: "true" }\n${NO_WAIT}\nretry:\n  - not: gate.test\n  - exit: 5\nsteps:\n  - title: one\n`;
    const { engine, runId, events } = await setup(yaml, []);
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.steps[0]!.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([
      ['error', 'rate_limit'],
      ['passed', null],
    ]);
    expect(doc.status).toBe('succeeded');
    // It waited what Claude Code's retry-after told (7.76 s, rounded up), not the workflow's zero backoff.
    expect(doc.steps[0]!.attempts[0]!.decision).toMatchObject({ action: 'retry', delayS: 8 });
    expect(events.some((e) => e.type === 'run.status' && e.payload.status === 'waiting')).toBe(true);
  }, 60_000);
});

describe("an entry's {errors} and {failures}: seed 002's failing-test entries, not raw output only", () => {
  it("fills {failures} with the attempt's failing tests (name, Expected, Got, Location) and {errors} with every attempt's", async () => {
    const yaml = `gates: { test: "node --test --test-reporter=spec" }\n${NO_WAIT}\nflaky_check: false\nretry:\n  - not: gate.test\n    prompt: "Fix it.\\nNow:\\n{failures}\\nSo far:\\n{errors}"\n  - exit: 5\nsteps:\n  - title: add\n`;
    const bug = turn(create('src/add.mjs', 'export const add = (a, b) => a * b;\n'), create('test/add.test.mjs', testFile('adds', 'add', 'add', [2, 3], 5)));
    const { engine, runId, srv } = await setup(yaml, [bug, say('added'), turn(create('src/add.mjs', 'export const add = (a, b) => a + b;\n')), say('fixed')]);
    const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
    engine.close();
    expect(doc.status).toBe('succeeded');
    const retried = texts(srv).find((t) => t.startsWith('Fix it.'))!;
    expect(retried).toBeTruthy();
    const now = retried.slice(0, retried.indexOf('So far:'));
    expect(now).toContain('- **adds**');
    expect(now).toMatch(/Expected:.*5/);
    expect(now).toMatch(/Got:.*6/);
    expect(now).toMatch(/Location: \S*test\/add\.test\.mjs:\d+/);
    expect(retried.slice(retried.indexOf('So far:'))).toMatch(/Attempt 1: test_failure[\s\S]*- \*\*adds\*\*/);
  }, 60_000);
});

// The workflow's setup in a real run: run in the run's sandbox when the worktree is made, streamed and timed, the environment's failure when it fails, again only when its inputs change.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gateFailingWhile } from '../testing/recovery-fixtures';
import { makeRepo, tempDir } from '../testing/temp-repo';
import { closeEngine, envEngine, logLines, payloads, runWorkflow } from '../testing/worktree-env-fixtures';
import type { Engine } from '../engine';
import { progressLine } from '../../cli/progress';
import { environmentLines } from './prepare-worktree';

const AGENT = `agent: { kind: command, command: ["sh", "-c", "date +%s%N > work.txt"] }`;
let engine: Engine;
afterEach(async () => {
  if (engine) await closeEngine(engine);
});

describe('setup', () => {
  it('runs when the worktree is made, before the gates: its output streams as events, its time is in the status, what it made is not committed', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: { run: ["echo installing the dependencies", "mkdir -p deps && echo lib > deps/lib.txt"], timeout: 60 }
gates: { test: "test -f deps/lib.txt" }
${AGENT}
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    expect(payloads(r.events, 'setup.started')).toEqual([
      { reason: 'worktree', changed: [], commands: ['echo installing the dependencies', 'mkdir -p deps && echo lib > deps/lib.txt'] },
    ]);
    const streamed = payloads(r.events, 'setup.output')
      .map((p) => p.text)
      .join('');
    expect(streamed).toContain('$ echo installing the dependencies\ninstalling the dependencies');
    expect(payloads(r.events, 'setup.finished')).toEqual([expect.objectContaining({ outcome: 'ok', note: 'the worktree was made' })]);
    expect(r.doc.environment?.setup).toMatchObject({ outcome: 'ok', note: 'the worktree was made', message: null });
    expect(r.doc.environment?.setup?.durationMs).toBeGreaterThan(0);
    // Before the agent: the setup's events come before the first attempt's.
    const order = r.events.map((e) => e.type);
    expect(order.indexOf('setup.finished')).toBeLessThan(order.indexOf('attempt.started'));
    expect(r.committed()).toEqual(['work.txt']);
    expect(logLines(r.events)).toContain('setup created deps/: never committed');
    // What `ratchet run` prints as it goes, and `ratchet status` after.
    const printed = r.events.map((e) => progressLine(e, 1)).filter((l) => l?.includes('setup') || l?.includes('baseline'));
    expect(printed).toEqual([
      '  setup: echo installing the dependencies && mkdir -p deps && echo lib > deps/lib.txt',
      expect.stringMatching(/^ {2}setup done \(\d+\.\d s\)$/),
      '  setup created deps/: never committed',
      expect.stringMatching(/^ {2}baseline on the base commit: ready \(\d+\.\d s\)$/),
    ]);
    expect(environmentLines(r.doc.environment)).toEqual([
      expect.stringMatching(/^setup ok in \d+\.\d s \(the worktree was made\)$/),
      `baseline ready at ${r.doc.baseCommit.slice(0, 10)}`,
    ]);
  });

  it("that fails ends the run as the environment's problem before any agent attempt, with its own output and what to fix", async () => {
    engine = envEngine();
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "echo resolving; echo 'npm ERR! 404 Not Found - left-pad-nope' >&2; exit 3"
gates: { test: "true" }
${AGENT}
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('failed');
    expect(r.doc.reason).toMatch(/^Setup failed: `echo resolving; .*` exited with code 3 after \d+\.\d s\./);
    expect(r.doc.reason).toContain('npm ERR! 404 Not Found - left-pad-nope');
    expect(r.doc.reason).toContain("This is the worktree's environment, not the code: no agent attempt can fix it.");
    expect(r.doc.steps[0]!.attempts).toEqual([]);
    expect(r.doc.environment?.setup).toMatchObject({ outcome: 'failed' });
    expect(r.doc.environment?.setup?.outputTail).toContain('left-pad-nope');
  });

  it('that runs past setup.timeout is stopped and said so', async () => {
    engine = envEngine();
    const repo = makeRepo();
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: { run: "sleep 30", timeout: 1 }
gates: { test: "true" }
${AGENT}
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('failed');
    expect(r.doc.reason).toMatch(/^Setup failed: `sleep 30` did not finish within setup.timeout \(1 s\)/);
  });

  it('runs again before the gates when the agent changed one of its inputs (a manifest), and says which', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n', 'README.md': 'x\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "echo run >> setup-count.txt"
gates: { test: "true" }
agent: { kind: command, command: ["sh", "-c", "echo '{\\"name\\":\\"a\\",\\"dependencies\\":{\\"b\\":\\"1\\"}}' > package.json"] }
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    expect(payloads(r.events, 'setup.started').map((p) => [p.reason, p.changed])).toEqual([
      ['worktree', []],
      ['inputs', ['package.json']],
    ]);
    expect(readFileSync(join(r.worktree, 'setup-count.txt'), 'utf8')).toBe('run\nrun\n');
    // The agent's change is committed; the file setup made is not.
    expect(r.committed()).toEqual(['package.json']);
  });

  it('is not run again by a retry when its inputs did not change (their hashes are in the store, not the worktree)', async () => {
    engine = envEngine();
    // Step 2's gate fails while the flag exists: on the base commit (the baseline check) and on step 2's first attempt.
    const flag = join(tempDir('ratchet-flag-'), 'fail');
    writeFileSync(flag, '');
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "echo run >> setup-count.txt"
gates: { plain: "true", guarded: ${JSON.stringify(gateFailingWhile(flag))} }
limits: { test_failure: 0 }
flaky_check: false
${AGENT}
steps: [{ title: one, gates: [plain] }, { title: two, gates: [guarded] }]
`,
    );
    expect(r.doc.status).toBe('failed');
    rmSync(flag);
    const { doc } = await engine.retry(r.runId, { signal: new AbortController().signal });
    expect(doc.status).toBe('succeeded');
    expect(readFileSync(join(r.worktree, 'setup-count.txt'), 'utf8')).toBe('run\n');
    expect(payloads(r.events, 'setup.started')).toHaveLength(1);
    expect(existsSync(join(r.worktree, 'work.txt'))).toBe(true);
  });

  it('may install what a gate runs: a gate command the checkout does not have is not refused up front when setup can make it (the baseline check says if it still is missing)', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "mkdir -p .venv/bin && printf '#!/bin/sh\\necho tests pass\\n' > .venv/bin/check && chmod +x .venv/bin/check"
gates: { test: ".venv/bin/check" }
${AGENT}
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
  });

  it('runs again, with copy and dependencies, when the worktree was made again (a retry after its folder was deleted)', async () => {
    engine = envEngine();
    const flag = join(tempDir('ratchet-flag-'), 'fail');
    writeFileSync(flag, '');
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    writeFileSync(join(repo, '.env'), 'A=1\n');
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "echo run >> setup-count.txt"
copy: [.env]
gates: { plain: "test -f setup-count.txt && test -f .env", guarded: ${JSON.stringify(gateFailingWhile(flag))} }
limits: { test_failure: 0 }
flaky_check: false
${AGENT}
steps: [{ title: one, gates: [plain] }, { title: two, gates: [plain, guarded] }]
`,
    );
    expect(r.doc.status).toBe('failed');
    rmSync(r.worktree, { recursive: true, force: true });
    rmSync(flag);
    const { doc } = await engine.retry(r.runId, { signal: new AbortController().signal });
    expect(`${doc.status} ${doc.reason ?? ''}`).toBe('succeeded ');
    expect(payloads(r.events, 'setup.started').map((p) => p.reason)).toEqual(['worktree', 'worktree']);
    expect(readFileSync(join(r.worktree, 'setup-count.txt'), 'utf8')).toBe('run\n');
    expect(logLines(r.events)).toContain('the worktree was made again: files are copied and setup runs again');
  });
});

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument, RunListItem } from '../../shared/domain';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { create, fixtureProject, queue, replace, say, testFile, turn } from '../engine/testing/fixture-project';
import { sh, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

let server: ScriptedServer | undefined;

/** A one-step workflow (add()) with no backoff, plus one extra setting. */
const oneStep = (setting: string) => `
gates:
  test: "node --test --test-reporter=tap"
${setting}
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
  - title: Add add()
`;
/** The agent writes add() and its test, with `body` as the function's result expression. */
const writeAdd = (body: string) =>
  turn(create('src/add.mjs', `export const add = (a, b) => ${body};\n`), create('test/add.test.mjs', testFile('adds', 'add', 'add', [2, 3], 5)));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ratchet run (through the real SDK and the scripted server)', () => {
  it('runs 3 steps; step 2 fails its test once and the retry with the error fixes it', async () => {
    const p = fixtureProject();
    server = await startScriptedServer({
      script: {
        rules: queue(
          // step 1
          writeAdd('a + b'),
          say('Added add().'),
          // step 2, attempt 1: a bug
          turn(create('src/mul.mjs', 'export const mul = (a, b) => a * a;\n'), create('test/mul.test.mjs', testFile('multiplies', 'mul', 'mul', [2, 3], 6))),
          say('Added mul().'),
          // step 2, attempt 2: the fix
          turn(replace('src/mul.mjs', 'a * a', 'a * b')),
          say('Fixed mul().'),
          // step 3
          turn(create('src/sub.mjs', 'export const sub = (a, b) => a - b;\n'), create('test/sub.test.mjs', testFile('subtracts', 'sub', 'sub', [5, 3], 2))),
          say('Added sub().'),
        ),
      },
    });
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'sk-test-secret', ANTHROPIC_BASE_URL: server.url };
    const userHead = sh(p.repo, 'rev-parse', 'HEAD');
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--task', 'Calculator', '--yes', '--json'], env);
    expect(r.err).toContain('retry 1 of 3');
    expect(r.code).toBe(0);
    const doc = StatusDocument.parse(JSON.parse(r.out));
    expect(doc.status).toBe('succeeded');
    expect(doc.reason).toBeNull();
    expect(doc.branch).toMatch(/^ratchet\/calculator-[0-9a-f]{6}$/);
    expect(doc.steps.map((s) => [s.index, s.status, s.attempts.length])).toEqual([
      [1, 'succeeded', 1],
      [2, 'succeeded', 2],
      [3, 'succeeded', 1],
    ]);
    const [first, second] = doc.steps[1]!.attempts;
    expect(first).toMatchObject({ n: 1, outcome: 'failed', errorClass: 'test_failure', model: 'claude-sonnet-5-5' });
    expect(second).toMatchObject({ n: 2, outcome: 'passed', errorClass: null });
    expect(first!.inputTokens + first!.cacheWriteTokens + first!.cacheReadTokens).toBeGreaterThan(0);
    // The stable prefix (system, tools, task and plan) is read from the cache by later attempts.
    expect(second!.cacheReadTokens).toBeGreaterThan(0);
    expect(doc.costUsd).toBeGreaterThan(0);

    // The retry carried the gate's output, the failing test, and "attempt 2 of 4".
    const retryRequest = server.requests[4]!;
    expect(retryRequest.lastUserText).toContain('attempt 2 of 4');
    expect(retryRequest.lastUserText).toContain('multiplies');
    expect(retryRequest.lastUserText).toMatch(/expected 6, got 4|not ok/);
    expect(retryRequest.lastUserText).toContain('a * a');

    // Git: three step commits on the branch, the user's checkout untouched.
    const subjects = sh(p.repo, 'log', '--format=%s', `${doc.baseCommit}..${doc.branch}`).split('\n');
    expect(subjects).toEqual(['step 3: Add sub()', 'step 2: Add mul()', 'step 1: Add add()']);
    expect(doc.steps.map((s) => s.commit)).toEqual(sh(p.repo, 'log', '--format=%H', `${doc.baseCommit}..${doc.branch}`).split('\n').reverse());
    expect(sh(p.repo, 'rev-parse', 'HEAD')).toBe(userHead);
    expect(sh(p.repo, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(p.repo, 'src'))).toBe(false);
    // Every attempt's tree is kept under a hidden ref, beside the run's metadata (for `ratchet recover`).
    const refs = sh(p.repo, 'for-each-ref', '--format=%(refname)', `refs/ratchet/${doc.id}`).split('\n');
    expect(refs.filter((r) => /\/\d+\/\d+$/.test(r))).toHaveLength(4);
    expect(refs).toContain(`refs/ratchet/${doc.id}/meta`);

    // The key never reached the model, the store or the progress output.
    for (const req of server.requests) expect(JSON.stringify(req.body)).not.toContain('sk-test-secret');
    for (const f of readdirSync(p.home).filter((f) => f.startsWith('ratchet.db'))) {
      expect(readFileSync(join(p.home, f)).includes('sk-test-secret')).toBe(false);
    }
    expect(r.err).not.toContain('sk-test-secret');

    const status = await cli(['status', doc.id, '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out)).toEqual(doc);
    const list = await cli(['list', '--json'], env);
    const items = RunListItem.array().parse(JSON.parse(list.out));
    expect(items).toEqual([
      { id: doc.id, status: 'succeeded', repo: doc.repo, branch: doc.branch, createdAt: expect.any(String), reasonCode: null, checked: true },
    ]);
  });

  it('fails early when a retry changes nothing, and keeps the work in a rescue commit', async () => {
    const p = fixtureProject();
    server = await startScriptedServer({
      script: {
        rules: queue(writeAdd('a - b'), say('Added add().'), say('I believe it is correct already.')),
      },
    });
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--yes', '--json'], env);
    expect(r.code).toBe(1);
    const doc = StatusDocument.parse(JSON.parse(r.out));
    expect(doc.status).toBe('failed');
    expect(doc.reason).toContain('changed nothing');
    expect(doc.reason).toContain('Attempts summary:');
    expect(doc.reason).toContain('1. Initial: 1 test failed');
    expect(doc.steps[0]!.attempts.map((a) => a.errorClass)).toEqual(['test_failure', 'no_change']);
    expect(server.requests).toHaveLength(3);
    const subjects = sh(p.repo, 'log', '--format=%s', `${doc.baseCommit}..${doc.branch}`);
    expect(subjects).toMatch(/^rescue: step 1 unfinished/);
    expect(sh(p.repo, 'show', `${doc.branch}:src/add.mjs`)).toContain('a - b');
  });

  it('gives up after max_retries with a summary of every attempt', async () => {
    const p = fixtureProject(oneStep('max_retries: 1'));
    server = await startScriptedServer({
      script: {
        rules: queue(writeAdd('a - b'), say('done'), turn(replace('src/add.mjs', 'a - b', 'a * b')), say('fixed')),
      },
    });
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--json'], {
      RATCHET_HOME: p.home,
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server.url,
    });
    expect(r.code).toBe(1);
    const doc = StatusDocument.parse(JSON.parse(r.out));
    expect(doc.reason).toContain('gave up after 1 test failure retry');
    expect(doc.reason).toContain('2. Retry 1: 1 test failed (no improvement)');
    expect(doc.reason).toMatch(/Remaining issues:\n- adds: expected 5, got 6/);
  });
});

describe('per-attempt timeout', () => {
  it('stops an agent that runs past timeout_seconds and retries', async () => {
    const p = fixtureProject(oneStep('timeout_seconds: 1'));
    server = await startScriptedServer({
      script: {
        rules: queue({ delayMs: 3000, content: [{ type: 'text', text: 'thinking very slowly' }] }, writeAdd('a + b'), say('done')),
      },
    });
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--json'], {
      RATCHET_HOME: p.home,
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server.url,
    });
    const doc = StatusDocument.parse(JSON.parse(r.out));
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([
      ['error', 'timeout'],
      ['passed', null],
    ]);
  });
});

describe('bad input', () => {
  const env = () => ({ RATCHET_HOME: join(tempDir(), 'home'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });

  it('refuses a folder that is not a git repository, with exit 2 and nothing stored', async () => {
    const e = env();
    const p = fixtureProject();
    const r = await cli(['run', tempDir(), '--workflow', p.workflowFile, '--json'], e);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/is not a git repository\. Run `git init`/);
    const list = await cli(['list', '--json'], e);
    expect(JSON.parse(list.out)).toEqual([]);
  });

  it('refuses a missing workflow, a malformed one (with its line), an unknown gate, a missing gate command', async () => {
    const p = fixtureProject();
    const missing = await cli(['run', p.repo], env());
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no ratchet.yml');

    const bad = join(tempDir(), 'bad.yml');
    writeFileSync(bad, 'gates:\n  test: { run: "x", timeout: "soon" }\nsteps:\n  - title: a\n');
    const malformed = await cli(['run', p.repo, '--workflow', bad], env());
    expect(malformed.code).toBe(2);
    expect(malformed.err).toContain(`${bad}:2: gates.test.timeout`);

    writeFileSync(bad, 'gates:\n  test: node --test\nsteps:\n  - title: a\n    gates: [lint]\n');
    const unknownGate = await cli(['run', p.repo, '--workflow', bad], env());
    expect(unknownGate.code).toBe(2);
    expect(unknownGate.err).toContain('`lint`, which is not defined');

    writeFileSync(bad, 'gates:\n  test: definitely-not-a-command-xyz --run\nsteps:\n  - title: a\n');
    const noCmd = await cli(['run', p.repo, '--workflow', bad], env());
    expect(noCmd.code).toBe(2);
    expect(noCmd.err).toContain('`definitely-not-a-command-xyz` was not found');
    expect(sh(p.repo, 'branch', '--list', 'ratchet/*')).toBe('');
  });

  it('refuses unknown commands, flags and run ids with exit 2', async () => {
    expect((await cli(['frobnicate'], env())).code).toBe(2);
    expect((await cli(['run', '--bogus'], env())).code).toBe(2);
    const st = await cli(['status', 'nope', '--json'], env());
    expect(st.code).toBe(2);
    expect(st.err).toContain('No run with id nope');
  });
});

describe('ratchet check', () => {
  const check = async (yaml: string) => {
    const file = join(tempDir(), 'ratchet.yml');
    writeFileSync(file, yaml);
    return { file, ...(await cli(['check', file], { RATCHET_HOME: join(tempDir(), 'home') })) };
  };

  it('accepts a valid workflow and warns about seed 004 safety rules, naming entry and line', async () => {
    const r = await check(`gates: { test: "npm test" }
retry:
  - not: gate.test
  - attempt: 3
    agent: { model: claude-opus-5-5 }
  - attempt: 4
    worktree: reset
  - exit: 5
steps:
  - title: one
`);
    expect(r.code).toBe(0);
    expect(r.out).toContain('valid — 1 steps, gates: test, 2 warning(s)');
    expect(r.err).toContain(`${r.file}:4: warning: retry[1] (entry 2): switches agent without \`session: new\``);
    expect(r.err).toContain(`${r.file}:6: warning: retry[2] (entry 3): \`worktree: reset\` with a continued session`);
  });

  it('refuses a retry list without exit, and an entry with two conditions, with exit 1', async () => {
    const noExit = await check('gates: { test: "npm test" }\nretry:\n  - not: gate.test\nsteps:\n  - title: one\n');
    expect(noExit.code).toBe(1);
    expect(noExit.err).toMatch(/:3: error: retry: the retry list has no `exit: N` entry/);
    const two = await check('gates: { test: "npm test" }\nretry:\n  - attempt: 2\n    exit: 3\nsteps:\n  - title: one\n');
    expect(two.code).toBe(1);
    expect(two.err).toContain(':3: error: retry[0]: a retry entry has exactly one condition, this one has attempt and exit');
  });

  it('a run refuses a workflow whose retry list has no exit (exit 2)', async () => {
    const p = fixtureProject('gates: { test: "true" }\nretry:\n  - not: gate.test\nsteps:\n  - title: one\n');
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile], { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('no `exit: N` entry');
  });
});

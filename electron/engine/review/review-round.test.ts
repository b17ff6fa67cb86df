// A review round end to end through the engine: comments on two files kept in the store (and across a restart), sent
// once as one agent round (a new step through the step machine and its gate), answered per comment, then followed.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../scripted/server';
import { createEngine } from '../engine';
import { create, fixtureProject, queue, replace, say, turn } from '../testing/fixture-project';
import { TEST_SANDBOX_MODE } from '../testing/sandbox-mode';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WORKFLOW = `
gates:
  files: { run: "test -f a.txt", timeout: 30 }
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
  - title: Write a
    prompt: Write a.txt.
  - title: Write b
    prompt: Write b.txt.
`;

const FIVE = (p: string) => ['one', 'two', 'three', 'four', 'five'].map((w) => `${p}${w}`).join('\n') + '\n';

describe('a review round', () => {
  it('sends three comments on two files in one agent round: one request holds them all, one commit, three answers; comments follow their lines', async () => {
    const p = fixtureProject(WORKFLOW);
    server = await startScriptedServer({
      script: {
        rules: queue(
          turn(create('a.txt', FIVE('a-'))),
          say('wrote a'),
          turn(create('b.txt', FIVE('b-'))),
          say('wrote b'),
          // The review round: one turn of edits, then the answers.
          turn(replace('a.txt', 'a-two\n', 'A-TWO\n'), replace('a.txt', 'a-one\n', 'a-zero\na-one\n'), replace('b.txt', 'b-three\n', 'B-THREE\n')),
          say(
            'Addressed the review.\n[1] done: renamed two in capitals\n[2] declined: four is right as it is,\nit matches the spec\n[3] done: three in capitals',
          ),
        ),
      },
    });
    const env = { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    let engine = createEngine({ home: p.home, env, sandbox: TEST_SANDBOX_MODE });
    let runId: string;
    try {
      runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
      expect((await engine.execute(runId, new AbortController().signal)).status).toBe('succeeded');
      await engine.review.comment(runId, { file: 'a.txt', line: 2, body: 'Spell two in capitals.' });
      await engine.review.comment(runId, { file: 'a.txt', line: 4, body: 'Should four be here?' });
      await engine.review.comment(runId, { file: 'b.txt', line: 3, body: 'Spell three in capitals.' });
      await expect(engine.review.comment(runId, { file: 'b.txt', line: 9, body: 'x' })).rejects.toThrow(/b.txt has 5 lines/);
    } finally {
      engine.close();
      await engine.releaseSandbox();
    }
    // Kept in the store: a new engine (a restart) finds them pending.
    engine = createEngine({ home: p.home, env, sandbox: TEST_SANDBOX_MODE });
    try {
      expect((await engine.review.list(runId)).comments.map((c) => c.state)).toEqual(['pending', 'pending', 'pending']);
      const before = server.requests.length;
      const sent = await engine.review.send(runId, { signal: new AbortController().signal });
      expect(sent.doc.status).toBe('succeeded');
      const round = server.requests.slice(before);
      expect(round).toHaveLength(2);
      const asked = round[0]!.lastUserText ?? '';
      for (const text of [
        'a.txt:2',
        'Spell two in capitals.',
        'a.txt:4',
        'Should four be here?',
        'b.txt:3',
        'Spell three in capitals.',
        '+a-two',
        '+b-three',
        '[1] done:',
      ])
        expect(asked).toContain(text);
      // One commit for the round, made by the step machine after its gate passed.
      const subjects = execFileSync('git', ['log', '--format=%s', sent.doc.branch!], { cwd: p.repo, encoding: 'utf8' }).trim().split('\n');
      expect(subjects.slice(0, 3)).toEqual(['step 3: Address review (3 comments)', 'step 2: Write b', 'step 1: Write a']);
      const commit = execFileSync('git', ['rev-parse', sent.doc.branch!], { cwd: p.repo, encoding: 'utf8' }).trim();
      expect(sent.round).toMatchObject({ status: 'answered', commit_sha: commit, step_index: 3, on_step: null });
      expect(sent.comments.map((c) => [c.state, c.verdict, c.answer, c.addressed_commit])).toEqual([
        ['answered', 'done', 'renamed two in capitals', commit],
        ['answered', 'declined', 'four is right as it is,\nit matches the spec', null],
        ['answered', 'done', 'three in capitals', commit],
      ]);
      // Rewritten lines are gone (outdated); the untouched one moved down with the line added above it.
      expect(sent.comments.map((c) => [c.anchor_commit, c.anchor_line])).toEqual([
        [commit, null],
        [commit, 5],
        [commit, null],
      ]);
      // Nothing is left to send.
      await expect(engine.review.send(runId, { signal: new AbortController().signal })).rejects.toThrow(/no pending review comment/);
    } finally {
      engine.close();
      await engine.releaseSandbox();
    }
  }, 60_000);
  it('a round that changes nothing stops early (empty_attempt, then no_change): the round failed, its answers kept, no commit', async () => {
    const p = fixtureProject(WORKFLOW);
    const declined = say('[1] declined: two is right');
    server = await startScriptedServer({
      script: { rules: queue(turn(create('a.txt', FIVE('a-'))), say('wrote a'), turn(create('b.txt', FIVE('b-'))), say('wrote b'), declined, declined) },
    });
    const engine = createEngine({ home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url }, sandbox: TEST_SANDBOX_MODE });
    try {
      const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
      await engine.execute(runId, new AbortController().signal);
      await engine.review.comment(runId, { file: 'a.txt', line: 2, body: 'Spell two in capitals.' });
      const sent = await engine.review.send(runId, { signal: new AbortController().signal });
      expect(sent.doc.steps[2]!.attempts.map((a) => a.errorClass)).toEqual(['empty_attempt', 'no_change']);
      expect(sent.round).toMatchObject({ status: 'failed', commit_sha: null });
      expect(sent.comments.map((c) => [c.state, c.verdict, c.answer, c.addressed_commit])).toEqual([['answered', 'declined', 'two is right', null]]);
    } finally {
      engine.close();
      await engine.releaseSandbox();
    }
  }, 60_000);
});

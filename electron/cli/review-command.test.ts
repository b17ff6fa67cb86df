// `ratchet review`: three comments on two files (two flags and a review file), sent once: one agent request holds all
// three, one commit, three answers printed; bad input keeps nothing (exit 2).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReviewDoc } from '../../shared/contract/review';
import { StatusDocument } from '../../shared/domain';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { create, fixtureProject, queue, replace, say, turn } from '../engine/testing/fixture-project';
import { tempDir } from '../engine/testing/temp-repo';
import { parseLocation, parseReviewFile } from './review-command';
import { cli } from './testing/run-cli';

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
  - title: Write a and b
    prompt: Write a.txt and b.txt.
`;

describe('ratchet review', () => {
  it('sends three comments on two files in one round: one request holds all three, one commit, three answers', async () => {
    const p = fixtureProject(WORKFLOW);
    server = await startScriptedServer({
      script: {
        rules: queue(
          turn(create('a.txt', 'alpha\nbeta\ngamma\n'), create('b.txt', 'one\ntwo\n')),
          say('wrote them'),
          turn(replace('a.txt', 'beta\n', 'BETA\n'), replace('b.txt', 'two\n', 'TWO\n')),
          say('[1] done: beta in capitals\n[2] declined: gamma stays\n[3] done: two in capitals'),
        ),
      },
    });
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const run = await cli(['run', p.repo, '--workflow', p.workflowFile, '--yes', '--json'], env);
    expect(run.code).toBe(0);
    const runId = StatusDocument.parse(JSON.parse(run.out)).id;
    const before = server.requests.length;

    // A line the branch does not have: exit 2, and none of the comments is kept.
    const bad = await cli(['review', runId, '--comment', 'a.txt:2', 'Capitals.', '--comment', 'b.txt:7', 'No such line.'], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('b.txt has 2 lines');
    const none = ReviewDoc.parse(JSON.parse((await cli(['review', runId, '--list', '--json'], env)).out));
    expect(none.comments).toEqual([]);

    const file = join(tempDir(), 'review.md');
    writeFileSync(file, '# Review\n\n## b.txt:2\nSpell two\nin capitals.\n');
    const r = await cli(
      ['review', runId, '--comment', 'a.txt:2', 'Spell beta in capitals.', '--comment', 'a.txt:3', 'Is gamma right?', '--from', file, '--json'],
      env,
    );
    expect(r.code, r.err).toBe(0);
    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(2);
    for (const text of ['a.txt:2', 'Spell beta in capitals.', 'a.txt:3', 'Is gamma right?', 'b.txt:2', 'Spell two\nin capitals.'])
      expect(requests[0]!.lastUserText).toContain(text);
    const doc = ReviewDoc.parse(JSON.parse(r.out));
    const branch = StatusDocument.parse(JSON.parse(run.out)).branch!;
    const head = execFileSync('git', ['rev-parse', branch], { cwd: p.repo, encoding: 'utf8' }).trim();
    expect(execFileSync('git', ['log', '--format=%s', branch], { cwd: p.repo, encoding: 'utf8' }).trim().split('\n').slice(0, 2)).toEqual([
      'step 2: Address review of step 1 (3 comments)',
      'step 1: Write a and b',
    ]);
    expect(doc.rounds).toMatchObject([{ step: 2, onStep: 1, status: 'answered', commit: head }]);
    expect(doc.comments.map((c) => [c.file, c.line, c.source, c.verdict, c.answer, c.addressedCommit])).toEqual([
      ['a.txt', 2, 'cli', 'done', 'beta in capitals', head],
      ['a.txt', 3, 'cli', 'declined', 'gamma stays', null],
      ['b.txt', 2, 'cli', 'done', 'two in capitals', head],
    ]);
    // In words: each comment with its answer.
    const words = await cli(['review', runId, '--list'], env);
    expect(words.out).toContain(`a.txt:2 (outdated): done in ${head.slice(0, 10)}\n    > Spell beta in capitals.\n    beta in capitals`);
    expect(words.out).toContain('a.txt:3: declined\n    > Is gamma right?\n    gamma stays');
    // Nothing pending: exit 2 with what to do.
    const again = await cli(['review', runId], env);
    expect(again.code).toBe(2);
    expect(again.err).toContain('no pending review comment');
  }, 60_000);
});

describe('review input', () => {
  it('reads <file>:<line> and ranges, and a review file of headed comments', () => {
    expect(parseLocation('src/a b.ts:12')).toEqual({ file: 'src/a b.ts', line: 12, endLine: 12 });
    expect(parseLocation('a.ts:3-5')).toEqual({ file: 'a.ts', line: 3, endLine: 5 });
    for (const bad of ['a.ts', 'a.ts:0', 'a.ts:5-3', ':3x']) expect(() => parseLocation(bad)).toThrow(/place is|count from 1/);
    expect(parseReviewFile('intro\n## a.ts:1\nfirst\n\nmore\n### `b/c.ts:2-4`\nsecond\n')).toEqual([
      { file: 'a.ts', line: 1, endLine: 1, body: 'first\n\nmore', source: 'cli' },
      { file: 'b/c.ts', line: 2, endLine: 4, body: 'second', source: 'cli' },
    ]);
    expect(() => parseReviewFile('## a.ts:1\n\n')).toThrow(/has no text/);
  });
});

// The app's review through the service: the run's diff, three comments on two files, "Send to agent" as one round
// started by the scheduler, and the answers under the comments once the round's events say it ended.
import { describe, expect, it } from 'vitest';
import type { ReviewDoc } from '../../../shared/contract';
import { create, queue, replace, say, turn } from '../testing/fixture-project';
import { makeRepo, sh } from '../testing/temp-repo';
import { callResult, callValue, until } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';

const harness = serviceHarness();

describe('review.* methods', () => {
  it('comment on the run diff, send once, and read three answers under their comments', async () => {
    const { engine, service, events } = await harness.start({
      server: {
        script: {
          rules: queue(
            turn(create('a.txt', 'alpha\nbeta\n'), create('b.txt', 'one\ntwo\n')),
            say('done'),
            turn(replace('a.txt', 'alpha\n', 'ALPHA\n'), replace('b.txt', 'one\n', 'ONE\n')),
            say('[1] done: capitals\n[2] declined: beta is fine\n[3] done: capitals'),
          ),
        },
      },
    });
    const { runId } = await callValue<{ runId: string }>(service, 'runs.start', {
      repo: makeRepo(),
      title: 'Review',
      steps: [{ title: 'Write' }],
      gates: { ok: 'true' },
    });
    await until(() => engine.store.getRun(runId)?.status === 'succeeded');
    const diff = await callValue<{ diff: string }>(service, 'review.diff', { runId });
    expect(diff.diff).toContain('+alpha');
    expect(diff.diff).toContain('+two');
    expect((await callValue<{ diff: string }>(service, 'review.diff', { runId, step: 1 })).diff).toBe(diff.diff);
    // A diff's unchanged lines, opened: read at the diff's `to`, a commit of the run; any other commit is refused.
    const { to, from } = await callValue<{ to: string; from: string }>(service, 'review.diff', { runId });
    const repo = engine.store.getRun(runId)!.repo_path;
    expect(await callValue(service, 'review.fileLines', { runId, commit: to, path: 'a.txt', from: 2, count: 5 })).toEqual({ lines: ['beta'], total: 2 });
    expect(await callValue(service, 'review.fileLines', { runId, commit: from, path: 'README.md', from: 1, count: 1 })).toEqual({
      lines: ['# demo'],
      total: 1,
    });
    const stranger = sh(repo, 'commit-tree', `${to}^{tree}`, '-m', 'not the run’s');
    expect(await callResult(service, 'review.fileLines', { runId, commit: stranger, path: 'a.txt', from: 1, count: 5 })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('is not part of run') },
    });
    await callValue(service, 'review.comment', { runId, file: 'a.txt', line: 1, body: 'Capitals?' });
    await callValue(service, 'review.comment', { runId, file: 'a.txt', line: 2, body: 'And beta?' });
    const third = await callValue<{ id: number }>(service, 'review.comment', { runId, file: 'b.txt', line: 1, body: 'Capitals too' });
    await callValue(service, 'review.edit', { runId, id: third.id, body: 'Capitals too.' });
    expect(await callValue(service, 'review.send', { runId })).toEqual({ queued: false });
    await until(() =>
      events.some((e) => e.name === 'runs.onEvent' && (e.payload as { type: string; payload: { status: string } }).payload.status === 'answered'),
    );
    const doc = await callValue<ReviewDoc>(service, 'review.get', { runId });
    expect(doc.rounds.map((r) => r.status)).toEqual(['answered']);
    expect(doc.comments.map((c) => [c.body, c.verdict, c.answer])).toEqual([
      ['Capitals?', 'done', 'capitals'],
      ['And beta?', 'declined', 'beta is fine'],
      ['Capitals too.', 'done', 'capitals'],
    ]);
    const again = await callResult(service, 'review.send', { runId });
    expect(again).toMatchObject({ ok: false, error: { code: 'bad_arguments' } });
    const edited = await callResult(service, 'review.edit', { runId, id: third.id, body: 'x' });
    expect(edited).toMatchObject({ ok: false, error: { message: expect.stringContaining('already sent') } });
  }, 60_000);
});

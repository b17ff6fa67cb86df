// Review rounds counted like retries: the dashboard's summary and the weekly report say how many rounds ran, what
// their steps cost and which comments the agent declined — from the store's own rows, the same whichever way it loads.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStats, loadStatsFromRows } from './stats-load';
import { reportMarkdown } from './stats';
import { openDatabase } from '../store/open-store';
import { ReviewStore } from '../store/review-queries';
import { seedRun } from '../store/testing/seed-run';
import { Store } from '../store/store';

const end = new Date('2026-11-21T15:30:00Z');

describe('review rounds in the statistics', () => {
  it('counts two rounds (one failed), their steps’ API cost and the declined comment, in the summary and the weekly report', () => {
    const { db } = openDatabase(mkdtempSync(join(tmpdir(), 'ratchet-review-stats-')));
    let t = end.getTime() - 3_600_000;
    const clock = () => new Date((t += 1000));
    const store = new Store(db, clock);
    const reviews = new ReviewStore(db, clock);
    const runId = seedRun(store, 1);
    const comment = (file: string, line: number, body: string) =>
      reviews.addComment({ runId, source: 'app', madeOn: 'a'.repeat(40), file, line, endLine: line, lineText: 'x', body }).id;
    const round = (step: number, ids: number[], cost: number, status: 'answered' | 'failed', verdicts: Array<'done' | 'declined'>) => {
      const r = reviews.startRound(runId, { stepIndex: step, onStep: null, headBefore: 'a'.repeat(40), commentIds: ids });
      const attempt = store.startAttempt({
        runId,
        stepIndex: step,
        n: 1,
        agentKind: 'anthropic',
        model: 'claude-sonnet-5-5',
        prompt: 'p',
        preCommit: 'a'.repeat(40),
      });
      store.recordApiCall(runId, attempt, {
        model: 'claude-sonnet-5-5',
        inputTokens: 1,
        outputTokens: 1,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: cost,
      });
      reviews.finishRound(r.id, {
        status,
        commit: status === 'answered' ? 'c'.repeat(40) : null,
        answers: ids.map((commentId, i) => ({
          commentId,
          verdict: verdicts[i]!,
          answer: verdicts[i] === 'declined' ? 'The helper would hide the error.' : 'Done.',
        })),
      });
    };
    round(2, [comment('src/a.ts', 3, 'Use the helper'), comment('src/b.ts', 9, 'Name it')], 0.25, 'answered', ['declined', 'done']);
    round(3, [comment('src/a.ts', 12, 'Add a test')], 0.5, 'failed', ['done']);

    const expected = {
      rounds: 2,
      failed: 1,
      costUsd: 0.75,
      comments: 3,
      declinedCount: 1,
      declined: [{ runId, file: 'src/a.ts', line: 3, body: 'Use the helper', answer: 'The helper would hide the error.' }],
    };
    const s = loadStats(db, 7, end, null);
    expect(s.reviewRounds).toEqual(expected);
    expect(loadStatsFromRows(db, 7, end, null).reviewRounds).toEqual(expected);
    const md = reportMarkdown(s, end);
    expect(md).toContain('**Review rounds:** 2 rounds (1 failed) for 3 comments, costing $0.75; 1 comment declined');
    expect(md).toContain('- declined src/a.ts:3 "Use the helper": The helper would hide the error.');
    // A week with no round says nothing of them.
    expect(reportMarkdown(loadStats(db, 7, new Date('2027-03-01T12:00:00Z'), null), end)).not.toContain('Review rounds');
  });
});

// Dev fixtures: a run's review as the fake bridge keeps it (a two-file diff, comments in memory, a round the agent
// answers at once), so the review screen can be looked at and tested without an engine.
import type { MethodInput, MethodOutput, ReviewCommentDoc, ReviewDoc } from '../../shared/contract';

const FROM = 'b'.repeat(40);
const TO = 'c'.repeat(40);

/** A diff of `n` changed lines in src/big.ts (the bench's size when large) and a small change in src/player.ts. */
export function makeReviewDiff(n = 40): string {
  const big = Array.from({ length: n }, (_, i) => `+export const value${i + 1} = ${i + 1};`);
  return [
    'diff --git a/src/player.ts b/src/player.ts',
    'index 1111111..2222222 100644',
    '--- a/src/player.ts',
    '+++ b/src/player.ts',
    '@@ -1,5 +1,7 @@',
    ' export class Player {',
    '   name: string;',
    '+  health = 100;',
    '+  takeDamage(n: number) { this.health -= n; }',
    '   constructor(name: string) {',
    '     this.name = name;',
    '   }',
    'diff --git a/src/big.ts b/src/big.ts',
    'new file mode 100644',
    'index 0000000..3333333',
    '--- /dev/null',
    '+++ b/src/big.ts',
    `@@ -0,0 +1,${n} @@`,
    ...big,
    '',
  ].join('\n');
}

/** src/player.ts as the diff's new side holds it: the hunk's seven lines, then the rest of the class. */
export const PLAYER_TS = [
  'export class Player {',
  '  name: string;',
  '  health = 100;',
  '  takeDamage(n: number) { this.health -= n; }',
  '  constructor(name: string) {',
  '    this.name = name;',
  '  }',
  '',
  '  rename(name: string) {',
  '    this.name = name;',
  '  }',
  '',
  '  toString() {',
  '    return `Player ${this.name}`;',
  '  }',
  '}',
];

export function createFakeReview(now: () => Date, emit: (runId: string, payload: Record<string, unknown>) => void) {
  const reviews = new Map<string, ReviewDoc>();
  let nextId = 1;
  const of = (runId: string): ReviewDoc => {
    let r = reviews.get(runId);
    if (!r) reviews.set(runId, (r = { runId, comments: [], rounds: [] }));
    return r;
  };
  return {
    diff: (_: MethodInput<'review.diff'>): MethodOutput<'review.diff'> => ({ diff: makeReviewDiff(), from: FROM, to: TO }),
    get: ({ runId }: MethodInput<'review.get'>): ReviewDoc => of(runId),
    fileLines: ({ path, from, count }: MethodInput<'review.fileLines'>): MethodOutput<'review.fileLines'> => {
      if (path !== 'src/player.ts') throw new Error(`Commit ${TO.slice(0, 10)} has no file ${path}.`);
      return { lines: PLAYER_TS.slice(from - 1, from - 1 + count), total: PLAYER_TS.length };
    },
    comment: ({ runId, file, line, endLine, body }: MethodInput<'review.comment'>): ReviewCommentDoc => {
      const c: ReviewCommentDoc = {
        id: nextId++,
        runId,
        source: 'app',
        externalId: null,
        madeOn: TO,
        file,
        line,
        endLine: endLine ?? line,
        body,
        anchorCommit: TO,
        anchorLine: line,
        anchorEndLine: endLine ?? line,
        outdated: false,
        state: 'pending',
        roundId: null,
        verdict: null,
        answer: null,
        addressedCommit: null,
        createdAt: now().toISOString(),
      };
      of(runId).comments.push(c);
      emit(runId, { round: null, step: null, status: 'comments', commit: null, comments: of(runId).comments.length });
      return c;
    },
    edit: ({ runId, id, body }: MethodInput<'review.edit'>) => {
      const c = of(runId).comments.find((x) => x.id === id && x.state === 'pending');
      if (c) c.body = body;
      return { ok: true as const };
    },
    remove: ({ runId, id }: MethodInput<'review.remove'>) => {
      const r = of(runId);
      r.comments = r.comments.filter((x) => x.id !== id || x.state !== 'pending');
      return { ok: true as const };
    },
    /** The round is answered at once: every other comment done in a new commit, the rest declined. */
    send: ({ runId }: MethodInput<'review.send'>) => {
      const r = of(runId);
      const id = r.rounds.length + 1;
      const commit = 'd'.repeat(40);
      const sent = r.comments.filter((c) => c.state === 'pending');
      r.rounds.push({
        id,
        runId,
        step: 4,
        onStep: null,
        headBefore: TO,
        status: 'answered',
        commit,
        createdAt: now().toISOString(),
        finishedAt: now().toISOString(),
      });
      sent.forEach((c, i) => {
        Object.assign(c, {
          state: 'answered',
          roundId: id,
          verdict: i % 2 === 0 ? 'done' : 'declined',
          answer: i % 2 === 0 ? 'Changed as asked.' : 'Left as it is: the tests rely on it.',
          addressedCommit: i % 2 === 0 ? commit : null,
        });
      });
      setTimeout(() => emit(runId, { round: id, step: 4, status: 'answered', commit, comments: sent.length }), 0);
      return { queued: false };
    },
  };
}

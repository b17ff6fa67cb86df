// The step machine starts an attempt (worktree reset, session, prompt, the agent's run) and takes in what the attempt left.
import { attemptPrompt, attemptsLimit } from './step-prompt';
import type { StepKit, Transition } from './step-kit';
import type { AttemptArtifacts, StepCommand, StepState } from './step-state';
import { tddPrompt } from './step-tdd';

/** Budget passed: start the next attempt. */
export function beginAttempt(kit: StepKit, s: StepState): Transition {
  const { cfg, log } = kit;
  const commands: StepCommand[] = [];
  if (s.acct.attempts > 0 && s.acct.active.worktree === 'reset') {
    // Past a test-first step's red test, the implementation starts again from that test, not from nothing.
    const redTree = cfg.tdd && s.red?.tree ? s.red.tree : null;
    commands.push(
      redTree ? { kind: 'resetWorktree', to: s.stepStart, tree: redTree } : { kind: 'resetWorktree', to: s.stepStart },
      log(
        redTree
          ? `worktree reset to the step's start with its test-first test (attempt ${s.red!.n})`
          : `worktree reset to the step's start (${s.stepStart.slice(0, 10)})`,
      ),
    );
  }
  const agent = kit.agentConfig(s);
  const agentKey = `${agent.kind}:${agent.model}`;
  const canContinue = s.lastSession !== null && s.lastSession.id !== null && s.lastSession.agent === agentKey;
  const wantsContinue = (s.acct.active.session ?? 'continue') === 'continue' && !s.strategy?.freshSession;
  // The implementation after a test-first step's test continues the session that wrote it, like a retry.
  const afterRed = cfg.tdd != null && s.red !== null && s.lastFailure === null && s.acct.attempts > 0;
  const session: 'new' | 'continue' = (s.lastFailure || afterRed) && wantsContinue && canContinue ? 'continue' : 'new';
  const n = s.nextN;
  const k = s.acct.attempts + 1;
  const of = attemptsLimit(cfg.policy, s.acct, k, kit.writingTest(s) || kit.redThisRound(s) ? 1 : 0);
  const p = attemptPrompt(cfg, s, n, k, of, session);
  const prompt = tddPrompt(kit, s, p.prompt, session);
  const tddNote = !cfg.tdd
    ? ''
    : s.red === null
      ? ' (test first: it writes the test; the gates must fail on it)'
      : s.lastFailure === null
        ? ' (test first: the implementation, now that its test fails)'
        : '';
  if (n > 1 || tddNote)
    commands.push(
      log(
        `attempt ${n}${s.round > 0 ? ` (${k} of ${of} since the ${ordinal(s.round)} retry/resume)` : ''}${session === 'continue' ? ' (same session)' : ''}${tddNote}`,
      ),
    );
  commands.push({
    kind: 'runAgent',
    n,
    round: s.round,
    prompt,
    agent,
    session,
    sessionId: session === 'continue' ? (s.lastSession?.id ?? null) : null,
    overrides: { ...s.acct.active },
    preCommit: s.stepStart,
    ...(kit.writingTest(s) ? { listChanged: true } : {}),
  });
  return {
    state: {
      ...s,
      phase: 'agent',
      nextN: n + 1,
      errorLog: p.errorLog,
      prev: p.state ?? s.prev,
      notes: [],
      strategy: null,
      current: { n, k, of, agentKey, attemptId: null, tree: null, treeRef: null, diff: null, sessionId: null, failure: null, fingerprint: null },
    },
    commands,
  };
}

export function withArtifacts(s: StepState, a: AttemptArtifacts): StepState {
  const current = s.current && { ...s.current, attemptId: a.attemptId, tree: a.tree, treeRef: a.treeRef, diff: a.diff, sessionId: a.sessionId };
  return { ...s, current, lastSession: { id: a.sessionId, agent: s.current?.agentKey ?? '' } };
}

function ordinal(n: number): string {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
}

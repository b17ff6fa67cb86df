// The step machine's handlers of the events that end an agent's run, its gates, its commit, a rebase, a sandbox violation and a stop.
import { NO_TESTS_MESSAGE } from './attempt-gates';
import { withArtifacts } from './step-attempt';
import { onFailure } from './step-failure';
import { NO_FAILURE_FIELDS, unfailedRecord, type StepKit, type Transition } from './step-kit';
import type { StepCommand, StepEvent, StepState } from './step-state';
import { onRed, violation } from './step-tdd';
import { isTestFile, noTestMessage, passesMessage } from './tdd';

type EventOf<T extends StepEvent['type']> = Extract<StepEvent, { type: T }>;

export const EMPTY_ATTEMPT_MESSAGE =
  "your attempt changed no files: the step's change must be made in the worktree (a step that changes nothing needs allow_empty: true)";

export function onAgentFinished(kit: StepKit, s: StepState, e: EventOf<'agentFinished'>, now: Date): Transition {
  const { cfg } = kit;
  const s1 = withArtifacts(s, e);
  if (e.timedOut) {
    return onFailure(
      kit,
      s1,
      { ...NO_FAILURE_FIELDS, errorClass: 'timeout', message: `the agent did not finish within timeout_seconds (${cfg.agentTimeoutS} s)` },
      false,
      now,
    );
  }
  // An unchanged tree is no progress, except after a gate timeout: the gate is run again with its doubled timeout.
  const gateTimedOut = s.lastFailure?.errorClass === 'timeout' && s.lastFailure.gate !== null;
  if (s.lastTree !== null && e.tree === s.lastTree && !gateTimedOut) {
    return onFailure(kit, s1, { ...NO_FAILURE_FIELDS, errorClass: 'no_change', message: 'the agent made no changes since the previous attempt' }, false, now);
  }
  // A step is a change: an attempt that changed no file is not a success (unless the step allows it), and the
  // agent is told so on the retry. Not after a gate timeout either: the same tree is run again on purpose.
  if (e.unchanged && !cfg.step.allow_empty && !gateTimedOut) {
    return onFailure(kit, s1, { ...NO_FAILURE_FIELDS, errorClass: 'empty_attempt', message: EMPTY_ATTEMPT_MESSAGE }, false, now);
  }
  // A test-first step's test attempt must add a test: without one, the gates are not worth running.
  if (cfg.tdd && kit.writingTest(s1) && s1.current) {
    const changed = e.changed ?? [];
    const testFiles = changed.filter((f) => isTestFile(f, cfg.tdd!.tests));
    if (!testFiles.length) return onFailure(kit, s1, violation(kit, noTestMessage(cfg.tdd, changed)), false, now);
    return {
      state: { ...s1, phase: 'gates', current: { ...s1.current, testFiles } },
      commands: [{ kind: 'runGates', attemptId: e.attemptId, timeoutMultiplier: s.acct.active.gateTimeoutMultiplier ?? 1 }],
    };
  }
  return {
    state: { ...s1, phase: 'gates' },
    commands: [{ kind: 'runGates', attemptId: e.attemptId, timeoutMultiplier: s.acct.active.gateTimeoutMultiplier ?? 1 }],
  };
}

export function onGatesFinished(kit: StepKit, s: StepState, e: EventOf<'gatesFinished'>, now: Date): Transition {
  const { cfg } = kit;
  const notes = e.notes.map((m) => kit.log(m, 'warn'));
  if (cfg.tdd && kit.writingTest(s) && s.current) {
    // The test attempt: its gates must fail, on the code (a failing test, or code that does not build yet without
    // what the step adds). Passing is the rule broken; the environment, a timeout or a gate that ran no tests are
    // failures like any other.
    if (!e.failure) {
      const t = onFailure(kit, s, violation(kit, passesMessage(s.current.testFiles ?? [], e.flaky)), false, now);
      return { state: t.state, commands: [...notes, ...t.commands] };
    }
    if ((e.failure.errorClass === 'test_failure' || e.failure.errorClass === 'compilation_error') && !e.failure.message.includes(NO_TESTS_MESSAGE)) {
      return onRed(kit, s, e.failure, notes);
    }
  }
  if (e.failure) {
    const t = onFailure(kit, s, e.failure, false, now);
    return { state: t.state, commands: [...notes, ...t.commands] };
  }
  const finishAs = kit.finishData(s, { outcome: e.flaky ? 'flaky' : 'passed', summary: e.notes.length ? e.notes.join('; ') : 'gates passed' });
  return {
    state: { ...s, phase: 'committing' },
    commands: [...notes, { kind: 'commit', attemptId: s.current!.attemptId!, message: `step ${cfg.index}: ${cfg.step.title}`, finish: finishAs }],
  };
}

export function onCommitted(kit: StepKit, s: StepState, e: EventOf<'committed'>): Transition {
  const cur = s.current!;
  const history = [...s.history, unfailedRecord(s, cur.n, 'passed')];
  // "Succeeded on attempt k/n", whenever the step needed more than one attempt (in this round or before it).
  const earlier = s.history.some((h) => h.round < s.round);
  // A test-first step's test attempt is not a retry: its implementation passing first time passed "at once".
  const said: StepCommand[] =
    cur.k > (kit.redThisRound(s) ? 2 : 1) || earlier
      ? [
          kit.log(`succeeded on attempt ${cur.k}/${cur.of}${earlier ? ` since the retry/resume (attempt ${cur.n} of the step)` : ''}`),
          { kind: 'notify', event: 'step.succeeded_after_retry', attempts: cur.k, maxAttempts: cur.of },
        ]
      : [];
  return kit.finish({ ...s, history }, { kind: 'done', commit: e.sha }, said);
}

export function onRebased(kit: StepKit, s: StepState, e: EventOf<'rebased'>): Transition {
  const { log } = kit;
  const files = [...new Set([...s.acct.conflictFiles, ...e.files])];
  const acct = { ...s.acct, conflictFiles: files };
  const listed = files.length ? ` Git reported conflicts in: ${files.join(', ')}.` : '';
  let note: string;
  const commands: StepCommand[] = [];
  let stepStart = s.stepStart;
  if (!e.moved) {
    note = `Git conflict: the base branch has not moved, so there was nothing to rebase onto.${listed} Resolve the conflict markers in those files (no merge or rebase is in progress any more) and make the step's change apply cleanly.`;
  } else if (e.ok) {
    stepStart = e.newStart ?? s.stepStart;
    note = `Git conflict: the base branch ${e.base ?? ''} moved, so Ratchet rebased this run's branch onto it (${(e.onto ?? '').slice(0, 10)}); your work in progress was kept.${listed} Check those files against the new base and make the step's change apply on top of it.`;
    commands.push(log(`rebased the run's branch onto ${e.base ?? 'the base'} (${(e.onto ?? '').slice(0, 10)}) after a git conflict`));
  } else {
    note = `Git conflict: the base branch ${e.base ?? ''} moved, and rebasing this run's branch onto it conflicted${listed ? ` in: ${e.files.join(', ') || files.join(', ')}` : ''}. The rebase was aborted; the branch and your work are unchanged. Make the step's change without touching what conflicts, or so that it applies on the new base.`;
    commands.push(log(`rebasing onto ${e.base ?? 'the base'} conflicted in ${e.files.join(', ') || 'unknown files'}; the rebase was aborted`, 'warn'));
  }
  return { state: { ...s, acct, stepStart, phase: 'budget', notes: [...s.notes, note] }, commands: [...commands, { kind: 'checkBudget' }] };
}

export function onWorktreeViolated(kit: StepKit, s: StepState, e: EventOf<'worktreeViolated'>, now: Date): Transition {
  // Ended in the agent phase, the attempt is known only by its id (it has no tree: nothing was staged).
  const s1 =
    e.attemptId !== undefined && s.current
      ? {
          ...s,
          current: { ...s.current, attemptId: e.attemptId, sessionId: e.sessionId ?? null },
          lastSession: { id: e.sessionId ?? null, agent: s.current.agentKey },
        }
      : s;
  return onFailure(kit, s1, { ...NO_FAILURE_FIELDS, errorClass: 'sandbox_violation', message: e.message }, false, now);
}

export function onStopped(kit: StepKit, s: StepState, e: EventOf<'stopped'>): Transition {
  const { cfg } = kit;
  const s1 = e.attempt ? withArtifacts(s, e.attempt) : s;
  const commands: StepCommand[] = [];
  if (s1.current?.attemptId != null && (s.phase === 'agent' || s.phase === 'gates')) {
    commands.push({
      kind: 'finishAttempt',
      attemptId: s1.current.attemptId,
      finish: kit.finishData(s1, { outcome: 'interrupted', errorMessage: 'Stopped before it finished.' }),
    });
  }
  const reason = s.phase === 'waiting' ? `stopped while waiting to retry step ${cfg.index}` : `stopped during step ${cfg.index}`;
  return kit.finish(s1, { kind: 'stopped', reason }, commands);
}

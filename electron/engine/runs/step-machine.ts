// The step's state machine: next(state, event, now) → { state, commands }. Pure: no git, no store, no clock but `now`; the step runner's adapters carry out the commands.
import type { ErrorClass } from '../../../shared/domain';
import type { AgentConfig } from '../workflow/schema';
import type { Failure } from './attempt-gates';
import { errorClassLabel } from '../../../shared/error-classes';
import { NO_TESTS_MESSAGE } from './attempt-gates';
import { attemptsSummary, testIdentity } from './attempt-summary';
import { checkBudget } from './budget';
import { hintsFor } from './classify';
import { decideAfterFailure } from './decide';
import { fingerprint } from './fingerprint';
import { attemptPrompt, attemptsLimit, conflictFilesIn, remainingIssues } from './step-prompt';
import { emptyAccounting, type AttemptArtifacts, type FinishData, type MachineConfig, type StepCommand, type StepEvent, type StepState } from './step-state';
import { implementInstructions, isTestFile, keepTestNote, noTestMessage, passesMessage, redSummary, testFirstInstructions, type RedTest } from './tdd';

export interface Transition {
  state: StepState;
  commands: StepCommand[];
}

export const EMPTY_ATTEMPT_MESSAGE =
  "your attempt changed no files: the step's change must be made in the worktree (a step that changes nothing needs allow_empty: true)";

const NO_FAILURE_FIELDS = { hints: [], failures: [], gate: null, failedGates: [], outputs: {}, agentFatal: false, retryAfterS: null };

export function initialState(index: number, stepStart: string, round = 0): StepState {
  return {
    index,
    round,
    phase: 'idle',
    stepStart,
    nextN: 1,
    history: [],
    acct: emptyAccounting(),
    lastFailure: null,
    lastDiff: null,
    lastTree: null,
    lastSession: null,
    prev: undefined,
    errorLog: [],
    strategy: null,
    notes: [],
    current: null,
    outcome: null,
    red: null,
  };
}

export interface StepMachine {
  next(state: StepState, event: StepEvent, now: Date): Transition;
}

export function createStepMachine(cfg: MachineConfig): StepMachine {
  const log = (message: string, level: 'info' | 'warn' = 'info'): StepCommand => ({ kind: 'log', level, message: `step ${cfg.index}: ${message}` });
  const finish = (s: StepState, outcome: NonNullable<StepState['outcome']>, commands: StepCommand[] = []): Transition => ({
    state: { ...s, phase: 'finished', outcome, current: null },
    commands: [...commands, { kind: 'finish', outcome }],
  });
  const finishData = (s: StepState, over: Partial<FinishData> & Pick<FinishData, 'outcome'>): FinishData => ({
    errorClass: null,
    errorMessage: null,
    summary: null,
    failures: [],
    fingerprint: null,
    treeRef: s.current?.treeRef ?? null,
    treeSha: s.current?.tree ?? null,
    diff: s.current?.diff ?? null,
    sessionId: s.current?.sessionId ?? null,
    ...over,
  });

  /** A test-first step whose test has not failed yet: its attempts write the test. */
  const writingTest = (s: StepState): boolean => cfg.tdd != null && s.red === null;
  /** This round spent an attempt on the test (not a retry: the implementation's first attempt comes after it). */
  const redThisRound = (s: StepState): boolean => s.history.some((h) => h.outcome === 'red' && h.round === s.round);

  /** The prompt of a test-first step's attempt: the test-only rule while writing the test, then the failing test to make pass. */
  function tddPrompt(s: StepState, prompt: string, session: 'new' | 'continue'): string {
    if (!cfg.tdd) return prompt;
    if (s.red === null) return `${prompt}\n\n${testFirstInstructions(cfg.tdd)}`;
    // The first implementation attempt: in the test's session it needs only what to do now; in a new one, the step too.
    if (s.lastFailure === null) return session === 'continue' ? implementInstructions(s.red) : `${prompt}\n\n${implementInstructions(s.red)}`;
    return `${prompt}\n\n${keepTestNote(s.red)}`;
  }

  function agentConfig(s: StepState): AgentConfig {
    return { ...cfg.agent, ...s.acct.active.agent } as AgentConfig;
  }

  /** Budget passed: start the next attempt. */
  function beginAttempt(s: StepState): Transition {
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
    const agent = agentConfig(s);
    const agentKey = `${agent.kind}:${agent.model}`;
    const canContinue = s.lastSession !== null && s.lastSession.id !== null && s.lastSession.agent === agentKey;
    const wantsContinue = (s.acct.active.session ?? 'continue') === 'continue' && !s.strategy?.freshSession;
    // The implementation after a test-first step's test continues the session that wrote it, like a retry.
    const afterRed = cfg.tdd != null && s.red !== null && s.lastFailure === null && s.acct.attempts > 0;
    const session: 'new' | 'continue' = (s.lastFailure || afterRed) && wantsContinue && canContinue ? 'continue' : 'new';
    const n = s.nextN;
    const k = s.acct.attempts + 1;
    const of = attemptsLimit(cfg.policy, s.acct, k, writingTest(s) || redThisRound(s) ? 1 : 0);
    const p = attemptPrompt(cfg, s, n, k, of, session);
    const prompt = tddPrompt(s, p.prompt, session);
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
      ...(writingTest(s) ? { listChanged: true } : {}),
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

  function withArtifacts(s: StepState, a: AttemptArtifacts): StepState {
    const current = s.current && { ...s.current, attemptId: a.attemptId, tree: a.tree, treeRef: a.treeRef, diff: a.diff, sessionId: a.sessionId };
    return { ...s, current, lastSession: { id: a.sessionId, agent: s.current?.agentKey ?? '' } };
  }

  /** The attempt failed: record it, then ask the validators (when the retry list has any) or decide. */
  function onFailure(s: StepState, failure: Failure, apiFault: boolean, now: Date, knownFiles: readonly string[] = []): Transition {
    const cur = s.current!;
    // A sandbox violation is not a failure of the code: nothing to fingerprint, no validator to ask (they would run in the worktree it concerns).
    const untouchable = failure.errorClass === 'sandbox_violation';
    const fp =
      failure.agentFatal || untouchable || failure.errorClass === 'no_change' || failure.errorClass === 'empty_attempt'
        ? null
        : fingerprint({ errorClass: failure.errorClass, failures: failure.failures, output: failure.gate?.output ?? failure.message, root: cfg.worktree });
    const files = failure.errorClass === 'git_conflict' ? [...knownFiles, ...conflictFilesIn(`${failure.message}\n${failure.gate?.output ?? ''}`)] : [];
    const outcome: FinishData['outcome'] = failure.gate ? 'failed' : 'error';
    const record = {
      n: cur.n,
      round: s.round,
      outcome,
      errorClass: failure.errorClass,
      message: failure.message,
      failedTests: [...new Set(failure.failures.map(testIdentity))],
      fingerprint: fp,
      apiFault,
      overrides: null,
    };
    const next: StepState = {
      ...s,
      history: [...s.history, record],
      current: { ...cur, failure, fingerprint: fp },
      acct: { ...s.acct, conflictFiles: [...new Set([...s.acct.conflictFiles, ...files])] },
    };
    const commands: StepCommand[] = [
      {
        kind: 'finishAttempt',
        attemptId: cur.attemptId!,
        finish: finishData(next, {
          outcome,
          errorClass: failure.errorClass,
          errorMessage: failure.message,
          summary: `${errorClassLabel(failure.errorClass)}: ${failure.message}`,
          failures: failure.failures,
          fingerprint: fp,
        }),
      },
    ];
    const hasValidators = cfg.policy.entries.some((e) => e.validate !== undefined);
    if (hasValidators && !apiFault && !untouchable && failure.errorClass !== 'no_change' && failure.errorClass !== 'empty_attempt') {
      return {
        state: { ...next, phase: 'validating' },
        commands: [...commands, { kind: 'validate', attemptId: cur.attemptId!, failure, agent: agentConfig(s) }],
      };
    }
    const d = decide(next, new Map(), apiFault, now);
    return { state: d.state, commands: [...commands, ...d.commands] };
  }

  /** A test-first violation: retried like a test failure (its limit follows test_failure's), the rule said in the agent's context. */
  function violation(message: string): Failure {
    return { ...NO_FAILURE_FIELDS, errorClass: 'tdd_violation', message, hints: hintsFor('tdd_violation', '', []), failedGates: [...(cfg.tdd?.gates ?? [])] };
  }

  /** The test attempt's gates failed on its code, as they should: the attempt is kept as `red`, and the implementation starts. */
  function onRed(s: StepState, failure: Failure, commands: StepCommand[]): Transition {
    const cur = s.current!;
    const red: RedTest = {
      n: cur.n,
      testFiles: cur.testFiles ?? [],
      failures: failure.failures,
      output: (failure.gate?.output ?? failure.message).slice(-8000),
      gate: failure.gate?.name ?? null,
      tree: cur.tree,
    };
    const summary = redSummary(red);
    const record = {
      n: cur.n,
      round: s.round,
      outcome: 'red',
      errorClass: null,
      message: null,
      failedTests: [],
      fingerprint: null,
      apiFault: false,
      overrides: null,
    };
    const next: StepState = {
      ...s,
      phase: 'budget',
      red,
      history: [...s.history, record],
      // An attempt of the round (retry entries' `attempt: N` and `exit: N` count it), not a failure: no class retry is spent.
      acct: { ...s.acct, attempts: s.acct.attempts + 1, entryAttempts: s.acct.entryAttempts + 1 },
      lastTree: cur.tree,
      lastDiff: cur.diff,
      lastFailure: null,
      strategy: null,
      current: null,
    };
    return {
      state: next,
      commands: [
        ...commands,
        { kind: 'finishAttempt', attemptId: cur.attemptId!, finish: finishData(s, { outcome: 'red', summary, failures: failure.failures }) },
        { kind: 'checkBudget' },
      ],
    };
  }

  function decide(s: StepState, validated: ReadonlyMap<number, boolean>, apiFault: boolean, now: Date): Transition {
    const cur = s.current!;
    const failure = cur.failure!;
    const acct = s.acct;
    const inRound = { attempts: acct.attempts + 1, entryAttempts: acct.entryAttempts + (apiFault ? 0 : 1) };
    let sameInARow = 1;
    for (let i = acct.fingerprints.length - 1; i >= 0 && cur.fingerprint !== null && acct.fingerprints[i] === cur.fingerprint; i--) sameInARow++;
    const decision = decideAfterFailure({
      policy: cfg.policy,
      attempt: inRound.entryAttempts,
      apiFault,
      roundAttempts: inRound.attempts,
      errorClass: failure.errorClass,
      message: failure.message,
      classRetriesUsed: acct.classRetries[failure.errorClass] ?? 0,
      agentFatal: failure.agentFatal,
      retryAfterS: failure.retryAfterS,
      failedGates: failure.failedGates,
      validated,
      active: acct.active,
      sameFailureInARow: sameInARow,
      rng: drawn ?? cfg.rng,
      unresolved: failure.errorClass === 'no_change' ? (s.lastFailure?.errorClass ?? null) : null,
    });
    const history = s.history.map((h, i) => (i === s.history.length - 1 ? { ...h, overrides: { ...decision.overrides } } : h));
    const nextAcct = {
      ...acct,
      ...inRound,
      classRetries: { ...acct.classRetries, [failure.errorClass]: (acct.classRetries[failure.errorClass] ?? 0) + 1 },
      classesSeen: acct.classesSeen.includes(failure.errorClass) ? acct.classesSeen : [...acct.classesSeen, failure.errorClass],
      fingerprints: [...acct.fingerprints, cur.fingerprint],
      active: decision.action === 'retry' ? decision.overrides : acct.active,
    };
    const record: StepCommand = {
      kind: 'recordDecision',
      attemptId: cur.attemptId!,
      n: cur.n,
      decision: { ...decision, overrides: { ...decision.overrides } },
      fingerprint: cur.fingerprint,
    };
    const s2: StepState = { ...s, history, acct: nextAcct };

    if (decision.action === 'fatal' || decision.action === 'escalate' || decision.action === 'done') {
      const mine = history.filter((h) => h.round === s.round);
      const files = nextAcct.conflictFiles.length ? `; conflicting files: ${nextAcct.conflictFiles.join(', ')}` : '';
      const reason = `step ${cfg.index} "${cfg.step.title}" ${decision.action === 'escalate' ? 'needs you' : 'failed'}: ${decision.reason}${files}`;
      // An attempt that changed nothing (or was cut short) fixed nothing: what remains is the last real failure.
      const stillFailing =
        (failure.errorClass === 'no_change' || failure.errorClass === 'empty_attempt' || apiFault) && s.lastFailure ? s.lastFailure : failure;
      const summary = attemptsSummary(mine, remainingIssues(stillFailing), { earlier: history.length - mine.length, said: reason });
      const counts = { attempts: cur.k, maxAttempts: cur.of, why: `${decision.reason}${files}` };
      return finish(
        s2,
        decision.action === 'escalate'
          ? { kind: 'escalate', reason, summary, ...counts }
          : { kind: 'fatal', reason, summary, errorClass: failure.errorClass, ...counts },
        [record],
      );
    }
    if (decision.action === 'wait') {
      return finish(s2, { kind: 'parked', reason: decision.reason, wakeAt: inSeconds(now, decision.delayS) }, [record]);
    }
    // A retry: what this attempt left becomes what the next one is told about. Neither no_change nor an API fault
    // replaces a real failure: the next attempt still needs the gate output and the failing tests.
    const keepReal = (failure.errorClass === 'no_change' || failure.errorClass === 'empty_attempt' || apiFault) && s.lastFailure !== null;
    const keptNote = !keepReal
      ? null
      : apiFault
        ? `The previous attempt was cut short (${failure.errorClass}: ${failure.message}); its changes are still in the worktree.`
        : failure.errorClass === 'empty_attempt'
          ? `The previous attempt changed no files, so the failure below is still there: ${failure.message}.`
          : null;
    const retrying: StepState = {
      ...s2,
      lastTree: cur.tree,
      lastFailure: keepReal ? s.lastFailure : failure,
      notes: keptNote ? [...s.notes, keptNote] : s.notes,
      lastDiff: cur.diff,
      strategy: decision.strategy ?? null,
      current: null,
    };
    if (decision.delayS > 0) {
      return {
        state: { ...retrying, phase: 'waiting' },
        commands: [record, { kind: 'sleep', delayS: decision.delayS, wakeAt: inSeconds(now, decision.delayS), reason: decision.reason }],
      };
    }
    const after = afterWait(retrying);
    return { state: after.state, commands: [record, ...after.commands] };
  }

  /** Before the next attempt: a git conflict first gets its one rebase onto the moved base. */
  function afterWait(s: StepState): Transition {
    if (s.lastFailure?.errorClass === 'git_conflict') {
      if (!s.acct.rebaseTried) {
        return { state: { ...s, phase: 'rebasing', acct: { ...s.acct, rebaseTried: true } }, commands: [{ kind: 'abortInProgress' }, { kind: 'rebase' }] };
      }
      return { state: { ...s, phase: 'budget' }, commands: [{ kind: 'abortInProgress' }, { kind: 'checkBudget' }] };
    }
    return { state: { ...s, phase: 'budget' }, commands: [{ kind: 'checkBudget' }] };
  }

  // The event's own random draw while next() handles it (synchronous: set on entry, cleared on exit).
  let drawn: (() => number) | undefined;
  function next(s: StepState, e: StepEvent, now: Date): Transition {
    const draw = e.draw;
    drawn = draw === undefined ? undefined : () => draw;
    try {
      return handle(s, e, now);
    } finally {
      drawn = undefined;
    }
  }

  function handle(s: StepState, e: StepEvent, now: Date): Transition {
    switch (e.type) {
      case 'start':
        return { state: { ...s, phase: 'budget' }, commands: [{ kind: 'checkBudget' }] };
      case 'roundStarted':
        // The step gets a new chance: limits, exit, on_repeat and "attempt k of n" count from here. The last real
        // failure stays for the prompt; the first attempt is not refused for changing nothing (the user may have
        // fixed the cause outside the tree).
        return { state: { ...s, round: e.round, acct: emptyAccounting(), lastTree: null, lastSession: null, strategy: null, notes: [] }, commands: [] };
      case 'budgetChecked': {
        // Budgets are checked before every attempt (cost control).
        const verdict = checkBudget(e.facts);
        if (!verdict.ok) {
          return finish(s, { kind: 'budget', budget: verdict.kind, reason: verdict.reason, wakeAt: verdict.kind === 'daily' ? e.dayNext : null });
        }
        const alerts: StepCommand[] = verdict.alerts.map((a) => ({ kind: 'budgetAlert', budget: a.kind, spentUsd: a.spent, limitUsd: a.limit }));
        const t = beginAttempt(s);
        return { state: t.state, commands: [...alerts, ...t.commands] };
      }
      case 'agentFinished': {
        const s1 = withArtifacts(s, e);
        if (e.timedOut) {
          return onFailure(
            s1,
            { ...NO_FAILURE_FIELDS, errorClass: 'timeout', message: `the agent did not finish within timeout_seconds (${cfg.agentTimeoutS} s)` },
            false,
            now,
          );
        }
        // An unchanged tree is no progress, except after a gate timeout: the gate is run again with its doubled timeout.
        const gateTimedOut = s.lastFailure?.errorClass === 'timeout' && s.lastFailure.gate !== null;
        if (s.lastTree !== null && e.tree === s.lastTree && !gateTimedOut) {
          return onFailure(s1, { ...NO_FAILURE_FIELDS, errorClass: 'no_change', message: 'the agent made no changes since the previous attempt' }, false, now);
        }
        // A step is a change: an attempt that changed no file is not a success (unless the step allows it), and the
        // agent is told so on the retry. Not after a gate timeout either: the same tree is run again on purpose.
        if (e.unchanged && !cfg.step.allow_empty && !gateTimedOut) {
          return onFailure(s1, { ...NO_FAILURE_FIELDS, errorClass: 'empty_attempt', message: EMPTY_ATTEMPT_MESSAGE }, false, now);
        }
        // A test-first step's test attempt must add a test: without one, the gates are not worth running.
        if (cfg.tdd && writingTest(s1) && s1.current) {
          const changed = e.changed ?? [];
          const testFiles = changed.filter((f) => isTestFile(f, cfg.tdd!.tests));
          if (!testFiles.length) return onFailure(s1, violation(noTestMessage(cfg.tdd, changed)), false, now);
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
      case 'budgetStopped': {
        const s1 = withArtifacts(s, e);
        const closed: StepCommand = {
          kind: 'finishAttempt',
          attemptId: e.attemptId,
          finish: finishData(s1, { outcome: 'interrupted', errorMessage: e.reason }),
        };
        return finish(s1, { kind: 'budget', budget: e.budget, reason: e.reason, wakeAt: e.wakeAt }, [closed]);
      }
      case 'apiError':
        return onFailure(
          withArtifacts(s, e),
          { ...NO_FAILURE_FIELDS, errorClass: e.errorClass, message: e.message, agentFatal: !e.retriable, retryAfterS: e.retryAfterS },
          isApiFault(e.errorClass),
          now,
        );
      case 'gatesFinished': {
        const notes = e.notes.map((m) => log(m, 'warn'));
        if (cfg.tdd && writingTest(s) && s.current) {
          // The test attempt: its gates must fail, on the code (a failing test, or code that does not build yet without
          // what the step adds). Passing is the rule broken; the environment, a timeout or a gate that ran no tests are
          // failures like any other.
          if (!e.failure) {
            const t = onFailure(s, violation(passesMessage(s.current.testFiles ?? [], e.flaky)), false, now);
            return { state: t.state, commands: [...notes, ...t.commands] };
          }
          if ((e.failure.errorClass === 'test_failure' || e.failure.errorClass === 'compilation_error') && !e.failure.message.includes(NO_TESTS_MESSAGE)) {
            return onRed(s, e.failure, notes);
          }
        }
        if (e.failure) {
          const t = onFailure(s, e.failure, false, now);
          return { state: t.state, commands: [...notes, ...t.commands] };
        }
        const finishAs = finishData(s, { outcome: e.flaky ? 'flaky' : 'passed', summary: e.notes.length ? e.notes.join('; ') : 'gates passed' });
        return {
          state: { ...s, phase: 'committing' },
          commands: [...notes, { kind: 'commit', attemptId: s.current!.attemptId!, message: `step ${cfg.index}: ${cfg.step.title}`, finish: finishAs }],
        };
      }
      case 'validated':
        return decide(s, new Map(e.results), false, now);
      case 'committed': {
        const cur = s.current!;
        const history = [
          ...s.history,
          {
            n: cur.n,
            round: s.round,
            outcome: 'passed',
            errorClass: null,
            message: null,
            failedTests: [],
            fingerprint: null,
            apiFault: false,
            overrides: null,
          },
        ];
        // "Succeeded on attempt k/n", whenever the step needed more than one attempt (in this round or before it).
        const earlier = s.history.some((h) => h.round < s.round);
        // A test-first step's test attempt is not a retry: its implementation passing first time passed "at once".
        const said: StepCommand[] =
          cur.k > (redThisRound(s) ? 2 : 1) || earlier
            ? [
                log(`succeeded on attempt ${cur.k}/${cur.of}${earlier ? ` since the retry/resume (attempt ${cur.n} of the step)` : ''}`),
                { kind: 'notify', event: 'step.succeeded_after_retry', attempts: cur.k, maxAttempts: cur.of },
              ]
            : [];
        return finish({ ...s, history }, { kind: 'done', commit: e.sha }, said);
      }
      case 'commitConflicted':
        return onFailure(
          s,
          { ...NO_FAILURE_FIELDS, errorClass: 'git_conflict', message: `${e.message}; conflicting files: ${e.files.join(', ')}`, failedGates: [] },
          false,
          now,
          e.files,
        );
      case 'timerFired':
        return afterWait(s);
      case 'rebased': {
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
      case 'worktreeViolated': {
        // Ended in the agent phase, the attempt is known only by its id (it has no tree: nothing was staged).
        const s1 =
          e.attemptId !== undefined && s.current
            ? {
                ...s,
                current: { ...s.current, attemptId: e.attemptId, sessionId: e.sessionId ?? null },
                lastSession: { id: e.sessionId ?? null, agent: s.current.agentKey },
              }
            : s;
        return onFailure(s1, { ...NO_FAILURE_FIELDS, errorClass: 'sandbox_violation', message: e.message }, false, now);
      }
      case 'stopped': {
        const s1 = e.attempt ? withArtifacts(s, e.attempt) : s;
        const commands: StepCommand[] = [];
        if (s1.current?.attemptId != null && (s.phase === 'agent' || s.phase === 'gates')) {
          commands.push({
            kind: 'finishAttempt',
            attemptId: s1.current.attemptId,
            finish: finishData(s1, { outcome: 'interrupted', errorMessage: 'Stopped before it finished.' }),
          });
        }
        const reason = s.phase === 'waiting' ? `stopped while waiting to retry step ${cfg.index}` : `stopped during step ${cfg.index}`;
        return finish(s1, { kind: 'stopped', reason }, commands);
      }
    }
  }

  return { next };
}

/** Failures of the agent's API or process: their class limits, retry-after and parking decide, whatever the retry entries say. */
export const isApiFault = (c: ErrorClass): boolean => c === 'rate_limit' || c === 'api_error' || c === 'crash';

const inSeconds = (now: Date, s: number): string => new Date(now.getTime() + s * 1000).toISOString();

function ordinal(n: number): string {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
}

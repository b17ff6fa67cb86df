// What the step machine's parts share: its config, the event's random draw, and the small builders of logs, finishes and attempt records.
import type { AgentConfig } from '../workflow/schema';
import type { AttemptRecord, FinishData, MachineConfig, StepCommand, StepState } from './step-state';

export interface Transition {
  state: StepState;
  commands: StepCommand[];
}

export const NO_FAILURE_FIELDS = { hints: [], failures: [], gate: null, failedGates: [], outputs: {}, agentFatal: false, retryAfterS: null };

/** The history record of an attempt that did not fail: its test failing as it should (`red`), or its gates passing. */
export function unfailedRecord(s: StepState, n: number, outcome: 'red' | 'passed'): AttemptRecord {
  return { n, round: s.round, outcome, errorClass: null, message: null, failedTests: [], fingerprint: null, apiFault: false, overrides: null };
}

/** One machine's config and helpers, handed to each of its parts. */
export interface StepKit {
  cfg: MachineConfig;
  /** The random source of the decision: the event's own draw while next() handles it, else the config's. */
  rng(): () => number;
  log(message: string, level?: 'info' | 'warn'): StepCommand;
  finish(s: StepState, outcome: NonNullable<StepState['outcome']>, commands?: StepCommand[]): Transition;
  finishData(s: StepState, over: Partial<FinishData> & Pick<FinishData, 'outcome'>): FinishData;
  /** A test-first step whose test has not failed yet: its attempts write the test. */
  writingTest(s: StepState): boolean;
  /** This round spent an attempt on the test (not a retry: the implementation's first attempt comes after it). */
  redThisRound(s: StepState): boolean;
  agentConfig(s: StepState): AgentConfig;
}

export function createStepKit(cfg: MachineConfig, rng: () => () => number): StepKit {
  return {
    cfg,
    rng,
    log: (message, level = 'info') => ({ kind: 'log', level, message: `step ${cfg.index}: ${message}` }),
    finish: (s, outcome, commands = []) => ({
      state: { ...s, phase: 'finished', outcome, current: null },
      commands: [...commands, { kind: 'finish', outcome }],
    }),
    finishData: (s, over) => ({
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
    }),
    writingTest: (s) => cfg.tdd != null && s.red === null,
    redThisRound: (s) => s.history.some((h) => h.outcome === 'red' && h.round === s.round),
    agentConfig: (s) => ({ ...cfg.agent, ...s.acct.active.agent }) as AgentConfig,
  };
}

// The engine's inputs and the shapes of a run's creation and execution: what createEngine takes and its callers pass.
import type { Agent } from '../agents/agent';
import type { SharedDay } from '../policy/budget';
import type { RunEvent } from '../run/run-machine';
import type { RunNoticesOptions } from '../notify/run-notices';
import type { RunJail, SandboxMode } from '../sandbox/os-sandbox';
import type { LeaseOwner } from '../store/run-lease';
import type { TrustItem } from '../trust/trust-items';
import type { RunWorkflowTrust } from '../trust/run-trust';
import type { AgentConfig, StepConfig, Workflow } from '../workflow/schema';

export interface EngineDeps {
  /** All state: the database and the worktrees. */
  home: string;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  rng?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Builds the agent for a run; tests and the demo may swap it. */
  agentFor?: (config: AgentConfig, jail?: RunJail) => Agent;
  pricingFile?: string;
  /** How often the owner of a run renews its lease (default 5 s). */
  heartbeatMs?: number;
  /** How long a lease lasts without renewal before another process may take the run over (default 120 s). */
  leaseMs?: number;
  /** `off` (the CLI's --no-sandbox) runs without the OS sandbox; `auto` (default) sandboxes, or refuses where there is none. */
  sandbox?: SandboxMode;
  /** A team worker's day (policy/budget.ts dayFacts): the team's daily budget and the other workers' spend today. */
  sharedDay?: () => SharedDay;
  /** Notification delivery (ntfy, webhook): tests shorten its timeouts; the targets come from the workflow and Settings. */
  notify?: Pick<RunNoticesOptions, 'tuning' | 'flushMs' | 'fetch'>;
}

export interface StartRunInput {
  repo: string;
  workflowFile?: string;
  /** A workflow built in the app (already validated); takes the place of a file. */
  workflow?: Workflow;
  title?: string;
  description?: string;
  /** The user trusts the repository's own workflow file as it is now (`--trust`, or the app's Trust button). */
  trust?: boolean;
  /** The hash of the workflow content the user was shown (the prompt, the app's workflow.load): any other content is refused. */
  trustSha256?: string;
  /** `workflowFile` is the repository's own file found for the user (the app), not one the user named: it needs trust. */
  repoWorkflow?: boolean;
  /** Steps written for this task in place of the file's (the app's plan over the repository's workflow file). */
  steps?: StepConfig[];
  /** The plan comes later (`--draft`): a workflow file without steps is fine. */
  planLater?: boolean;
  /** The task budget typed for this run (New task): over the workflow's and Settings' task_usd (workflow/run-budget.ts). */
  taskBudgetUsd?: number;
  /** The user chose to run steps no gate checks (`--no-gates`, the app's "Run without checks"); otherwise such a plan is refused. */
  noGates?: boolean;
}

export interface PreparedRun {
  repoRoot: string;
  repoName: string;
  headCommit: string;
  baseBranch: string | null;
  workflow: Workflow;
  workflowFile: string;
  title: string;
  description: string;
  /** Set when the workflow is the repository's own file: the trusted version the run starts from. */
  trustedWorkflow?: RunWorkflowTrust;
  /** With trustedWorkflow: what that version runs and allows (`ratchet trust` prints it). */
  trustItems?: TrustItem[];
}

export interface ExecuteOptions {
  /** Set when a run continues (retry or resume): the prompt lists the completed step commits and where to continue. */
  continuation?: {
    turnBudget: number | null;
    /** What the agent must know before it continues (the base moved and conflicts). */
    notes?: readonly string[];
    /** The files merging the moved base conflicted in when it continued: the run does not succeed while they still conflict. */
    baseConflicts?: readonly string[];
  };
  auto?: 'step' | 'phase' | 'run';
  /** The lease the caller took (resume, retry); without one, execute takes it. */
  lease?: LeaseOwner;
  /**
   * Interactive auto-progress: with `auto: 'step'`, asked after each step instead of pausing —
   * `yes` goes on one more step, `no` pauses here, `auto` runs to the end of the phase.
   */
  confirmNext?: ConfirmNext;
  /**
   * The pre-run check answered "not ready" (a gate fails for the environment on the base commit): start the agent
   * anyway (the CLI's --run-anyway), with a warning, instead of failing the run before any agent money.
   */
  runAnyway?: boolean;
  /** Each event the run machine is told, in order, while it decides (a team worker answers its durable step with them). */
  observe?: (e: RunEvent) => void;
}

export type ConfirmNext = (q: {
  done: { index: number; title: string };
  next: { index: number; title: string; phase: string | null };
  total: number;
}) => Promise<'yes' | 'no' | 'auto'>;

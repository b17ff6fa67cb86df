// The scripted GitHub server's CI: each commit pushed to the bare remote gets one workflow run whose jobs really run
// the project's commands on that commit (in a fresh checkout) and report a check run with the job's log, as GitHub
// Actions does. Scenario knobs bend one job's first run (flaky, runner lost), its environment (broken everywhere, the
// base included) or hold it queued for good.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { BareRemote } from './github-git';

export interface CheckSpec {
  /** The check's name, as a job's name shows in GitHub (`test`, `lint`). */
  name: string;
  /** A shell command run in the commit's checkout; exit 0 is success. */
  command: string;
  timeoutMs?: number;
}

export interface GithubScenario {
  /** The branch protection's required checks on the default branch; none means no protection. */
  requiredChecks?: string[];
  /** Checks whose first run on a commit outside the default branch fails with a test failure, once per server. */
  flakyOnce?: string[];
  /** Checks whose first run on a commit outside the default branch loses its runner (exit 143, no test output), once. */
  infrastructureLossOnce?: string[];
  /** Checks whose environment is broken: they fail on every commit, the default branch's head included. */
  brokenOnBase?: string[];
  /** Checks that are queued and never start. */
  pendingChecks?: string[];
  /** The request (counted from 1 among those that reach a route) answered with a secondary rate limit. */
  secondaryRateLimit?: { atRequest: number; retryAfterSeconds: number };
}

export type CheckConclusion = 'success' | 'failure' | 'cancelled' | 'timed_out';

export interface CheckRun {
  id: number;
  /** The workflow run it belongs to (one per pushed commit). */
  runId: number;
  attempt: number;
  name: string;
  headSha: string;
  headBranch: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: CheckConclusion | null;
  log: string;
  startedAt: string | null;
  completedAt: string | null;
}

export interface WorkflowRun {
  id: number;
  headSha: string;
  headBranch: string;
  attempt: number;
}

const BROKEN_ENVIRONMENT = [
  '##[group]Set up job',
  'Current runner version: 2.321.0',
  '##[endgroup]',
  '##[group]Run actions/setup-node@v4',
  '##[error]Unable to resolve action actions/setup-node@v4: the runner image no longer provides the requested toolchain.',
  '##[error]Process completed with exit code 1.',
];

const LOST_RUNNER = [
  '##[group]Set up job',
  'Current runner version: 2.321.0',
  '##[endgroup]',
  '##[error]The runner has received a shutdown signal. This can happen when the runner service is stopped, or a manually started runner is canceled.',
  '##[error]Process completed with exit code 143.',
];

const flakyFailure = (command: string): string[] => [
  `##[group]Run ${command}`,
  `${command}`,
  '##[endgroup]',
  'TAP version 14',
  'not ok 1 - settles before the deadline',
  '  ---',
  '  message: timed out after 2000ms waiting for the queue to drain',
  '  ...',
  '1..1',
  '# fail 1',
  '##[error]Process completed with exit code 1.',
];

function stamp(lines: string[], at: Date): string {
  const iso = at.toISOString().replace('Z', '0000Z');
  return lines.map((l) => `${iso} ${l}`).join('\n') + '\n';
}

export class ScriptedCi {
  readonly checkRuns: CheckRun[] = [];
  readonly workflowRuns: WorkflowRun[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly spent = new Set<string>();
  private readonly children = new Set<ChildProcess>();
  private closed = false;

  constructor(
    private readonly remote: BareRemote,
    private readonly checks: () => readonly CheckSpec[],
    private readonly scenario: () => GithubScenario,
    private readonly defaultBranch: string,
    private readonly nextId: () => number,
  ) {}

  /** A commit arrived on a branch: one workflow run with one job per check. */
  pushed(sha: string, branch: string): void {
    if (this.workflowRuns.some((r) => r.headSha === sha)) return; // the same commit on another branch runs once
    const run: WorkflowRun = { id: this.nextId(), headSha: sha, headBranch: branch, attempt: 1 };
    this.workflowRuns.push(run);
    for (const spec of this.checks()) this.start(run, spec);
  }

  /** Re-runs the run's failed jobs (its latest attempt of each check that did not succeed); false when none failed. */
  rerunFailed(runId: number): boolean {
    const run = this.workflowRuns.find((r) => r.id === runId);
    if (!run) return false;
    const failed = this.checks().filter((spec) => {
      const latest = this.latest(run.id, spec.name);
      return latest?.status === 'completed' && latest.conclusion !== 'success';
    });
    if (failed.length === 0) return false;
    run.attempt++;
    for (const spec of failed) this.start(run, spec);
    return true;
  }

  latest(runId: number, name: string): CheckRun | undefined {
    return this.checkRuns.filter((c) => c.runId === runId && c.name === name).at(-1);
  }

  /** Resolves when every job that will ever run has finished (queued-for-good jobs aside). */
  idle(): Promise<void> {
    return this.queue;
  }

  close(): void {
    this.closed = true;
    for (const child of this.children) killGroup(child);
  }

  private start(run: WorkflowRun, spec: CheckSpec): void {
    const check: CheckRun = {
      id: this.nextId(),
      runId: run.id,
      attempt: run.attempt,
      name: spec.name,
      headSha: run.headSha,
      headBranch: run.headBranch,
      status: 'queued',
      conclusion: null,
      log: '',
      startedAt: null,
      completedAt: null,
    };
    this.checkRuns.push(check);
    if (this.scenario().pendingChecks?.includes(spec.name)) return;
    // One job at a time: the machine running the tests is shared, as a small runner pool would be.
    this.queue = this.queue.then(() => this.execute(check, spec)).catch(() => undefined);
  }

  private async execute(check: CheckRun, spec: CheckSpec): Promise<void> {
    if (this.closed) return;
    check.status = 'in_progress';
    check.startedAt = new Date().toISOString();
    const scenario = this.scenario();
    const onBase = check.headBranch === this.defaultBranch;
    const once = (knob: string, names: string[] | undefined): boolean => {
      if (onBase || !names?.includes(spec.name) || this.spent.has(`${knob}:${spec.name}`)) return false;
      this.spent.add(`${knob}:${spec.name}`);
      return true;
    };
    let lines: string[];
    let conclusion: CheckConclusion;
    if (scenario.brokenOnBase?.includes(spec.name)) [lines, conclusion] = [BROKEN_ENVIRONMENT, 'failure'];
    else if (once('lost', scenario.infrastructureLossOnce)) [lines, conclusion] = [LOST_RUNNER, 'failure'];
    else if (once('flaky', scenario.flakyOnce)) [lines, conclusion] = [flakyFailure(spec.command), 'failure'];
    else [lines, conclusion] = await this.runCommand(check.headSha, spec);
    check.log = stamp(lines, new Date());
    check.status = 'completed';
    check.conclusion = conclusion;
    check.completedAt = new Date().toISOString();
  }

  /** The check's command, really run on the commit's files. */
  private async runCommand(sha: string, spec: CheckSpec): Promise<[string[], CheckConclusion]> {
    const dir = await this.remote.checkout(sha);
    try {
      const { output, code, timedOut } = await new Promise<{ output: string; code: number; timedOut: boolean }>((resolve) => {
        const child = spawn('sh', ['-c', spec.command], {
          cwd: dir,
          detached: true,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_SHA: sha },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        this.children.add(child);
        const chunks: Buffer[] = [];
        child.stdout.on('data', (c: Buffer) => chunks.push(c));
        child.stderr.on('data', (c: Buffer) => chunks.push(c));
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          killGroup(child);
        }, spec.timeoutMs ?? 120_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          this.children.delete(child);
          resolve({ output: Buffer.concat(chunks).toString('utf8'), code: code ?? 143, timedOut });
        });
      });
      const body = output.replace(/\n$/, '').split('\n');
      const lines = [`##[group]Run ${spec.command}`, spec.command, '##[endgroup]', ...body];
      if (timedOut) return [[...lines, '##[error]The job running on runner has exceeded the maximum execution time.'], 'timed_out'];
      if (code !== 0) return [[...lines, `##[error]Process completed with exit code ${code}.`], 'failure'];
      return [lines, 'success'];
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}.index`, { force: true });
    }
  }
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

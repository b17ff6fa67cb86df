// The run loop's adapters: execute takes the run's lease and sandbox, makes the store agree with git, then carries out
// the run machine's commands (run/run-machine.ts) until it ends the run. Every run status it writes is the machine's.
import type { StatusDocument } from '../../../shared/domain';
import type { Agent } from '../agents/agent';
import type { EngineContext } from './engine-context';
import { isUserStop, RatchetError, runNotFound } from '../errors';
import { rescueCommit } from '../git/repo-git';
import { clearStaleLocks, mergeConflicts } from '../git/run-refs';
import { currentTip, reconcileWithGit } from './run-recovery';
import type { RunRow } from '../store/store';
import type { ExecuteOptions } from './run-options';
import { apiKeyHash } from '../run/api-hold';
import { applyRunCommands } from '../run/apply-run-commands';
import { stepPolicies } from '../policy/policy-doc';
import { progressNote, systemPrompt, taskContext } from '../prompts/prompts';
import { initialRunState, nextRun, type RunCommand, type RunEvent, type StepRef } from '../run/run-machine';
import { raisedTaskBudget } from '../run/status-document';
import { runStep } from '../step/step-runner';
import { parseTaskRetryConfig } from '../policy/task-retry-config';
import type { AgentConfig } from '../workflow/schema';
import { baselineNote } from '../worktree-env/prepare-worktree';
import { prepareRunEnvironment, type WorktreeEnvHooks } from '../worktree-env/run-environment';

export function createExecute(ctx: EngineContext) {
  const { store, deps, now, rng, sleep, hold, skipControllers, status, noticesFor, committedSteps, requireApiKey, requireSandbox, sandbox } = ctx;
  const { keepRunState, runStateOf } = ctx.keeper;
  const agentFor = (config: AgentConfig, jail?: Parameters<EngineContext['agentFor']>[1]) => ctx.agentFor(config, jail);

  /** Executes the run's remaining steps in this process. Resolves with the final status document. */
  /**
   * Executes the run's remaining steps in this process and resolves with the final status document. Before anything
   * else it makes the store agree with the branch (a crash may have left a commit without its checkpoint, a lock, or a
   * half-finished attempt), so every path — first run, retry, resume — starts from what git says is done.
   */
  async function execute(runId: string, callerSignal: AbortSignal, opts: ExecuteOptions = {}): Promise<StatusDocument> {
    const run = store.getRun(runId);
    if (!run) throw runNotFound(runId);
    const workflow = store.getWorkflow(runId);
    const plan = store.getPlan(runId);
    if (!plan) throw new RatchetError('no_plan', 'No plan found.');
    if (run.status === 'waiting_approval')
      throw new RatchetError(
        'needs_approval',
        `Run ${runId} waits for its plan to be approved: \`ratchet resume ${runId} --approve\` (or Approve in the app).`,
      );
    requireApiKey(workflow);
    requireSandbox();
    // One owner per run: the caller's lease (resume, retry) or a new one (run_busy if another process holds it).
    // Taken before the first await: a run without an owner meanwhile would be taken for an interrupted one.
    const held = hold(runId, opts.lease);
    let jail: Awaited<ReturnType<ReturnType<typeof sandbox>['forRun']>>;
    try {
      jail = await sandbox().forRun({
        worktree: run.worktree,
        repo: run.repo_path,
        network: workflow.sandbox?.network ?? [],
        envNames: workflow.sandbox?.env ?? [],
        limits: workflow.sandbox?.limits,
      });
    } catch (err) {
      held.release();
      throw err;
    }
    // Losing the lease (another process took the run over after it ran out) stops this execution.
    const signal = AbortSignal.any([callerSignal, held.lost]);
    store.closeDeadAttempts(runId);
    clearStaleLocks(run.repo_path, run.worktree);
    const recon = await reconcileWithGit(store, run).catch((err: unknown) => {
      held.release();
      throw err;
    });
    // A continuation that asked the agent to resolve conflicts with the moved base has the machine check the base before success.
    const conflictedBefore = opts.continuation?.baseConflicts ?? [];
    const machine = { state: initialRunState(runId, { auto: opts.auto, interactive: Boolean(opts.confirmNext), checkBase: conflictedBefore.length > 0 }) };
    const allDone = recon.completed.length === store.getSteps(runId).filter((s) => s.status !== 'skipped').length && recon.next === null;
    const reconciled: RunEvent = { type: 'reconciled', allDone };
    opts.observe?.(reconciled);
    const first = nextRun(machine.state, reconciled, now());
    machine.state = first.state;
    // Before the run loop proper: its status (and, running, the state kept in git, so a process that dies now is
    // recovered as interrupted, not as it ended before). The worktree's preparation runs below, inside the loop.
    for (const c of first.commands) {
      if (c.kind === 'setStatus') applyRunCommands(store, runId, [c]);
      if (c.kind === 'keepState') await keepRunState(runId).catch(() => undefined);
    }
    if (machine.state.ended) {
      jail.release();
      held.release();
      return status(runId);
    }
    // One agent per kind and model for the whole run, so `session: continue` finds its conversation.
    const agents = new Map<string, Agent>();
    const agentForRun = (config: AgentConfig): Agent => {
      const key = `${config.kind}:${config.model}:${(config.command ?? []).join(' ')}`;
      let a = agents.get(key);
      if (!a) {
        a = agentFor(config, jail);
        agents.set(key, a);
      }
      return a;
    };
    // Each step gets its own policy: workflow < the task's "## Retry Configuration" < the step's keys < a raised budget.
    const policies = stepPolicies(workflow, parseTaskRetryConfig(store.getTaskDescription(runId)), plan.steps, raisedTaskBudget(run));
    const system = systemPrompt(run.worktree);
    const completedCommits = recon.completed.map((c) => ({ sha: c.sha, subject: c.subject }));
    // The context is the one the run started with (cached across a retry); the progress goes with the continued step's prompt.
    let context = taskContext({ title: run.task_title, description: store.getTaskDescription(runId), steps: plan.steps });
    const progress = opts.continuation ? progressNote({ completed: completedCommits, from: recon.next ?? 1, notes: opts.continuation.notes }) : undefined;
    let stepsRun = 0;
    const workflowForRun = opts.continuation?.turnBudget
      ? { ...workflow, agent: { ...workflow.agent, max_turns: Math.min(workflow.agent.max_turns, opts.continuation.turnBudget) } }
      : workflow;
    // HEAD after the step just committed; forgotten whenever the user had the worktree between steps.
    let head: string | undefined;
    const skip = () => {
      const c = new AbortController();
      skipControllers.set(runId, c);
      return c.signal;
    };
    // Notifications go out from here (the engine's process, never the sandbox); they never hold the run up.
    const notes = noticesFor(runId, workflow);
    const notify = { succeededAfterRetry: notes.stepSucceededAfterRetry, budgetAlert: notes.budgetAlert };
    let worktreeEnv: WorktreeEnvHooks | undefined;
    const stepRef = (s: { step_index: number; title: string; phase: string | null }): StepRef => ({ index: s.step_index, title: s.title, phase: s.phase });

    /** Carries out one of the run machine's commands; the event it produces, if any, goes back to the machine. */
    /** The files merging the moved base into the run's branch still conflicts in (none when the base has not moved). */
    const stillConflicting = async (r: RunRow): Promise<string[]> => {
      if (!r.base_branch) return [];
      const tip = await currentTip(r.repo_path, r.base_branch);
      if (!tip || tip === r.base_commit) return [];
      return mergeConflicts(r.repo_path, r.branch, tip);
    };
    const carryOut = async (c: RunCommand): Promise<RunEvent | null> => {
      switch (c.kind) {
        case 'setStatus':
          applyRunCommands(store, runId, [c]);
          return null;
        case 'checkBase':
          return { type: 'baseChecked', baseBranch: run.base_branch ?? '', conflicts: await stillConflicting(run) };
        case 'keepState':
          await keepRunState(runId).catch(() => undefined);
          return null;
        case 'prepare': {
          // The worktree's environment before any agent money: copy, dependencies, setup, the gates' view of the code, the baseline check.
          const ready = await prepareRunEnvironment({
            store,
            runId,
            checkout: run.repo_path,
            worktree: run.worktree,
            baseCommit: run.base_commit,
            workflow,
            steps: plan.steps,
            atBase: recon.completed.length === 0 && store.getAttempts(runId).length === 0,
            runAnyway: opts.runAnyway,
            jail,
            signal,
            now,
          });
          if (ready.kind === 'stopped') return { type: 'prepared', ready: 'stopped', userStop: isUserStop(callerSignal.reason), leaseLost: held.lost.aborted };
          if (ready.kind === 'failed') return { type: 'prepared', ready: 'failed', reason: ready.reason };
          // The run's commands get the environment setup made ready (a worktree venv first…); letting go stays the sandbox's.
          const owned = jail;
          jail = { ...ready.jail, release: () => owned.release() };
          worktreeEnv = ready.hooks;
          context += baselineNote(ready.baseline);
          const steps = store.getSteps(runId);
          return {
            type: 'prepared',
            ready: 'ready',
            pending: steps.filter((s) => s.status !== 'succeeded' && s.status !== 'skipped').map(stepRef),
            total: steps.length,
          };
        }
        case 'forgetHead':
          head = undefined;
          return null;
        case 'ask':
          return { type: 'answered', answer: await opts.confirmNext!({ done: { index: c.done.index, title: c.done.title }, next: c.next, total: c.total }) };
        case 'runStep': {
          const s = c.step;
          stepsRun += 1;
          store.event(runId, 'step.started', { step: s.index, title: s.title });
          const policy = policies[s.index - 1] ?? stepPolicies(workflow, null, [{ title: s.title, prompt: '' }], raisedTaskBudget(run))[0]!;
          const outcome = await runStep(
            {
              store,
              agentFor: agentForRun,
              env: jail.env,
              jail,
              now,
              sleep,
              rng,
              notify,
              apiKeyHash: apiKeyHash(deps.env),
              worktreeEnv,
              sharedDay: deps.sharedDay,
            },
            {
              runId,
              worktree: run.worktree,
              workflow: { ...workflowForRun, timeout_seconds: policy.timeoutSeconds },
              policy,
              steps: plan.steps,
              index: s.index,
              system,
              context,
              signal,
              skipWait: skip,
              head,
              preamble: stepsRun === 1 ? progress : undefined,
            },
          );
          if (outcome.kind === 'done') head = outcome.commit;
          return {
            type: 'stepFinished',
            outcome,
            userStop: isUserStop(callerSignal.reason),
            leaseLost: held.lost.aborted,
            committedSteps: committedSteps(runId),
          };
        }
        case 'setStepStatus':
          store.setStepStatus(runId, c.index, c.status);
          return null;
        case 'rescue': {
          const rescue = await rescueCommit(run.repo_path, run.worktree, `rescue: step ${c.step.index} unfinished (${c.errorClass ?? 'failed'})`);
          if (rescue && 'sha' in rescue) {
            store.event(runId, 'rescue.committed', { step: c.step.index, commit: rescue.sha });
            return { type: 'rescued', note: ` The unfinished work is kept in rescue commit ${rescue.sha.slice(0, 10)} on ${run.branch}.` };
          }
          return { type: 'rescued', note: rescue ? ` No rescue commit was made: ${rescue.refused}.` : '' };
        }
        case 'notifyNeedsYou':
          notes.needsYou({ index: c.step.index, title: c.step.title }, c.what, c.extra);
          return null;
        case 'notifyFailed':
          notes.runFailed(c.step && { index: c.step.index, title: c.step.title }, c.attempts, c.maxAttempts, c.cause);
          return null;
        case 'notifySucceeded':
          notes.runSucceeded();
          return null;
        case 'end':
          return null;
      }
    };

    /** The adapter loop: feed the machine an event, carry out its commands, until it ends the run. */
    const drive = async (event: RunEvent): Promise<void> => {
      let next: RunEvent | null = event;
      while (next) {
        opts.observe?.(next);
        const t = nextRun(machine.state, next, now());
        machine.state = t.state;
        next = null;
        for (const c of t.commands) next = (await carryOut(c)) ?? next;
        if (machine.state.ended) return;
      }
    };
    try {
      const prepared = first.commands.some((c) => c.kind === 'prepare') ? await carryOut({ kind: 'prepare' }) : null;
      if (prepared) await drive(prepared);
      return status(runId);
    } catch (err) {
      const crashed: RunEvent = { type: 'crashed', message: (err as Error).message };
      if (!machine.state.ended) opts.observe?.(crashed);
      const t = nextRun(machine.state, crashed, now());
      machine.state = t.state;
      for (const c of t.commands) await carryOut(c);
      throw err;
    } finally {
      skipControllers.delete(runId);
      // How the run stands now, read before the lease goes (a Resume may start at once) and written to git after it.
      const kept = runStateOf(runId);
      // Bounded: deliveries still in flight get a few seconds, so a CLI run does not exit before they are sent or logged.
      await notes.flush();
      // A finished run's private folder goes; one that can resume keeps it (a command agent's session lives there).
      if (store.getRun(runId)?.finished_at) jail.release();
      held.release();
      // Kept in git, so `ratchet recover` brings the run back as it was if the database is lost. Not awaited: the run
      // has ended for its callers (the app's Resume may come at once); `settled()` waits for it before a process exits.
      if (kept) void keepRunState(runId, kept).catch(() => undefined);
    }
  }

  return execute;
}

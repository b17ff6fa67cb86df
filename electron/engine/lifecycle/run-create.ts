// A new run: everything about it validated without changing anything (prepareRun), then its worktree, meta ref and
// store rows made (createRun); "Start again" (restart) is a new run of the same task.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RatchetError, runNotFound } from '../errors';
import type { EngineContext } from './engine-context';
import { findMissingCommand } from '../gates/missing-command';
import { createWorktree, inspectRepo } from '../git/repo-git';
import { writeRunMeta } from '../git/run-refs';
import { applyRunCommands } from '../run/apply-run-commands';
import { runLife } from '../run/run-machine';
import { checkEntries } from '../workflow/retry-check';
import { parseTaskRetryConfig } from '../policy/task-retry-config';
import type { PreparedRun, StartRunInput } from './run-options';
import { newId } from '../store/store';
import { setRunEstimate } from '../store/estimate-queries';
import { estimateFor, workflowKey } from '../estimate/estimate-load';
import { checkTrust } from '../trust/check-trust';
import { assertRunTrusted, recordRunTrust, runTrust } from '../trust/run-trust';
import { trustItems } from '../trust/trust-items';
import { findWorkflowFile, loadWorkflowSource } from '../workflow/load-workflow';
import type { Workflow } from '../workflow/schema';
import { withRunBudget } from '../workflow/run-budget';
import { withTaskSteps } from '../workflow/task-steps';
import { assertChecked } from '../workflow/gate-coverage';

/** The workflow as written into the repository's meta ref: without `notify`, whose URLs may carry a token (they stay in Ratchet's store). */
export function withoutNotify(workflow: Workflow): Workflow {
  const { notify: _notify, ...rest } = workflow;
  return rest;
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'task'
  );
}

export function createRunMaker(ctx: EngineContext) {
  const { store, trustStore, deps, now, home } = ctx;
  const { requireApiKey, requireSandbox, noticesFor } = ctx;

  /** Validates everything about a new run without changing anything (except recording trust the user gave). */
  async function prepareRun(input: StartRunInput): Promise<PreparedRun> {
    const repo = await inspectRepo(input.repo);
    let workflowFile = input.workflowFile ? resolve(input.workflowFile) : undefined;
    if (input.workflow) workflowFile = '(written in the app)';
    else if (!workflowFile) {
      workflowFile = findWorkflowFile(repo.root) ?? undefined;
      if (!workflowFile) {
        throw new RatchetError(
          'workflow_missing',
          `No workflow: ${repo.root} has no ratchet.yml or .ratchet/workflow.yml. Run \`ratchet init ${repo.root}\` to write one from what the repository uses, or pass --workflow <file>.`,
        );
      }
    }
    // Read once: the content hashed for trust is the content that runs.
    const source = input.workflow ? null : loadWorkflowSource(workflowFile as string);
    const workflow = withTaskSteps(input.workflow ?? source!.workflow, input, workflowFile as string);
    // A success means a check ran: a step no gate checks is refused here, before trust, an agent or a worktree.
    assertChecked(workflow, workflowFile as string, input.noGates);
    // Workspace trust: a workflow file found in the repository (not one the user named) runs only once trusted.
    const trustedWorkflow =
      source && (!input.workflowFile || input.repoWorkflow)
        ? checkTrust(trustStore, repo.root, source, { trust: Boolean(input.trust), shownSha256: input.trustSha256, now })
        : undefined;
    const entryErrors = checkEntries(workflow.retry ?? []).filter((m) => m.level === 'error');
    if (entryErrors.length) {
      throw new RatchetError(
        'workflow_invalid',
        `The workflow's retry list is not valid:\n${entryErrors.map((m) => `${workflowFile}: retry${m.entry !== null ? `[${m.entry}]` : ''}: ${m.message}`).join('\n')}\nCheck it with \`ratchet check ${workflowFile}\`.`,
      );
    }
    const used = new Set(workflow.steps.flatMap((s) => s.gates ?? Object.keys(workflow.gates)));
    for (const name of used) {
      const gate = workflow.gates[name];
      if (!gate) continue;
      const missing = findMissingCommand(gate.run, repo.root, deps.env);
      // With a setup, the command may be what setup installs in the worktree: the baseline check says if it still is missing.
      if (missing && !workflow.setup) {
        throw new RatchetError(
          'gate_command_missing',
          `Gate \`${name}\` runs \`${gate.run}\`, but \`${missing}\` was not found (PATH or the repository). Install it or fix the gate's \`run\` in ${workflowFile}.`,
        );
      }
    }
    requireApiKey(workflow);
    requireSandbox();
    const title = input.title?.trim() || workflow.task?.title || workflow.steps[0]?.title || 'Task';
    const description = input.description ?? workflow.task?.description ?? '';
    // A bad "## Retry Configuration" block is refused before anything starts (exit 2), not found mid-run.
    parseTaskRetryConfig(description);
    // Budgets: the workflow's own, else Settings', with the task budget typed in New task over either (run-budget.ts).
    const withBudget = withRunBudget(workflow, ctx.settings().budget, input.taskBudgetUsd);
    return {
      repoRoot: repo.root,
      repoName: repo.name,
      headCommit: repo.headCommit,
      baseBranch: repo.branch,
      workflow: withBudget,
      workflowFile: workflowFile as string,
      title,
      description,
      ...(trustedWorkflow ? { trustedWorkflow, trustItems: trustItems(workflow) } : {}),
    };
  }

  /**
   * "Start again": a new run of the same task (title, description) with the plan the run follows now and the workflow it
   * was started with, from the repository's current HEAD. The old run is left as it is. A run started from the
   * repository's own workflow file keeps to the version trusted then (refused, as a retry is, if that trust no longer stands).
   */
  async function restart(runId: string, opts: { trust?: boolean } = {}): Promise<string> {
    const run = store.getRun(runId);
    if (!run) throw runNotFound(runId);
    if (['running', 'planning', 'queued'].includes(run.status))
      throw new RatchetError('run_busy', `Run ${runId} is ${run.status}; stop it before starting it again.`);
    assertRunTrusted(store, trustStore, runId, { trust: opts.trust, now });
    const trusted = runTrust(store, runId);
    const plan = store.getPlan(runId);
    const workflow = store.getWorkflow(runId);
    const prepared = await prepareRun({
      repo: run.repo_path,
      title: run.task_title,
      description: store.getTaskDescription(runId),
      workflow: plan ? { ...workflow, steps: plan.steps } : workflow,
      // Started again as it was started: a run the user let go without checks stays so.
      noGates: run.checked === 0,
    });
    const fresh = await createRun(trusted ? { ...prepared, trustedWorkflow: trusted } : prepared);
    store.event(runId, 'log', { level: 'info', message: `started again as run ${fresh}` });
    store.event(fresh, 'log', { level: 'info', message: `started again from run ${runId}` });
    return fresh;
  }

  /** `awaitApproval`: an agent-drafted plan — the run waits in `waiting_approval` until `approve`. */
  /** `runId`: the id the run already has elsewhere (a team run, named by whoever submitted it); a new one otherwise. */
  async function createRun(p: PreparedRun, opts: { awaitApproval?: boolean; runId?: string } = {}): Promise<string> {
    const runId = opts.runId ?? newId();
    const short = runId.slice(-6);
    const branch = `ratchet/${slugify(p.title)}-${short}`;
    const worktree = worktreeFor(p.repoName, runId);
    // Git first, the database last: a kill at any point leaves either nothing the store knows about (a stray
    // branch at most), a run `ratchet recover` can rebuild from its meta ref, or a complete resumable run.
    try {
      await createWorktree(p.repoRoot, worktree, branch, p.headCommit);
      await writeRunMeta(p.repoRoot, {
        runId,
        branch,
        baseCommit: p.headCommit,
        baseBranch: p.baseBranch,
        worktree,
        title: p.title,
        description: p.description,
        workflow: withoutNotify(p.workflow),
        planRevision: 1,
        createdAt: now().toISOString(),
      });
    } catch (err) {
      throw new RatchetError(
        'worktree_failed',
        `Could not create the worktree at ${worktree}: ${(err as Error).message}. Nothing was started; check the folder and the repository, then run again.`,
        { cause: err },
      );
    }
    store.createRun({
      runId,
      repoPath: p.repoRoot,
      repoName: p.repoName,
      title: p.title,
      description: p.description,
      workflow: p.workflow,
      baseBranch: p.baseBranch,
      baseCommit: p.headCommit,
      branch,
      worktree,
      workflowKey: workflowKey(p.repoRoot, p.workflowFile),
    });
    recordStartEstimate(runId, p);
    if (p.trustedWorkflow) recordRunTrust(store, runId, p.trustedWorkflow);
    if (opts.awaitApproval) {
      applyRunCommands(store, runId, runLife(runId, { type: 'planDrafted' }, now()));
      const notes = noticesFor(runId, p.workflow);
      notes.needsYou(null, 'approval');
      await notes.flush();
    }
    return runId;
  }

  /**
   * The estimate a run starts with, in the status document from its first moment. Made from the runs before this one;
   * an estimate that cannot be made (a damaged row) is left out rather than stopping the run.
   */
  function recordStartEstimate(runId: string, p: PreparedRun): void {
    try {
      const est = estimateFor(store.db, {
        repoRoot: p.repoRoot,
        workflowFile: p.workflowFile,
        workflow: p.workflow,
        description: p.description,
        pricing: ctx.pricing(),
      });
      setRunEstimate(store.db, runId, JSON.stringify(est));
    } catch (err) {
      store.event(runId, 'log', { level: 'warn', message: `no estimate: ${(err as Error).message}` });
    }
  }

  /** Where a run's worktree goes: Settings' worktree folder, else RATCHET_WORKTREES, else $RATCHET_HOME/worktrees. */
  function worktreeFor(repoName: string, runId: string): string {
    const folder = ctx.settings().worktreeFolder;
    const worktreeRoot = folder ? resolve(folder) : deps.env.RATCHET_WORKTREES ? resolve(deps.env.RATCHET_WORKTREES) : join(home, 'worktrees');
    mkdirSync(worktreeRoot, { recursive: true });
    return join(worktreeRoot, `${slugify(repoName)}-${runId.slice(-6)}`);
  }

  return { prepareRun, createRun, restart, worktreeFor };
}

// Opening a run's pull request: push its branch, then open the pull request from it — or update the one already open
// for that branch (idempotent) — with a title and body written from the run, and record it with the run.
import type { Store } from '../store/store';
import { RatchetError, runNotFound } from '../errors';
import { pushRemote, pushRun } from '../git/run-merge';
import { statusDocument } from '../run/status-document';
import { RunPrStore } from '../store/run-pr';
import type { PrDoc } from '../../../shared/pull-request';
import type { Forge, ForgeCheck, PullRequest } from './forge';
import { chooseRepo, githubApiUrl, githubToken } from './forge-config';
import { githubForge } from './github';
import { pullBody, pullTitle } from './pull-body';

export interface ForgeForRunOptions {
  env: NodeJS.ProcessEnv;
  /** --github-repo */
  repoFlag?: string | undefined;
  onWait?: (seconds: number, why: string) => void;
}

/** The forge a run's pull request lives on: the token and API from the environment, the repository as chooseRepo says. */
export async function forgeForRun(store: Store, runId: string, o: ForgeForRunOptions): Promise<Forge> {
  const run = store.getRun(runId);
  if (!run) throw runNotFound(runId);
  const token = githubToken(o.env);
  if (!token)
    throw new RatchetError(
      'forge_no_token',
      'No GitHub token: set GITHUB_TOKEN (or GH_TOKEN) to a token that can push pull requests to the repository, then try again.',
    );
  const apiUrl = githubApiUrl(o.env);
  const remote = await pushRemote(run.repo_path, run.base_branch);
  const { repo } = chooseRepo({ flag: o.repoFlag, workflow: store.getWorkflow(runId).forge?.repo, remoteUrl: remote?.url ?? null, apiUrl });
  return githubForge({ token, apiUrl, repo, ...(o.onWait ? { onWait: o.onWait } : {}) });
}

/** The checks as the status document carries them: required ones first, in the protection's order, a missing one as not concluded. */
export function prChecks(checks: readonly ForgeCheck[], required: readonly string[]): PrDoc['checks'] {
  const out: PrDoc['checks'] = required.map((name) => ({ name, conclusion: checks.find((c) => c.name === name)?.conclusion ?? null, required: true }));
  for (const c of checks) if (!required.includes(c.name)) out.push({ name: c.name, conclusion: c.conclusion, required: false });
  return out;
}

export function prDocOf(pr: PullRequest, checks: PrDoc['checks'], rounds: PrDoc['rounds']): PrDoc {
  return { number: pr.number, url: pr.url, state: pr.state, headSha: pr.headSha, merged: pr.merged, checks, rounds };
}

export interface OpenPullResult {
  pr: PullRequest;
  created: boolean;
  doc: PrDoc;
  /** Set when the task came from an issue and the comment linking the new pull request could not be posted (why). */
  issueCommentError?: string;
}

/** Pushes a succeeded run's branch and opens (or updates) its pull request into `base` (default: the branch it started from). */
export async function openPull(
  store: Store,
  forge: Forge,
  runId: string,
  o: { base?: string | undefined; draft: boolean; now: () => string },
): Promise<OpenPullResult> {
  const run = store.getRun(runId);
  if (!run) throw runNotFound(runId);
  if (run.status !== 'succeeded') {
    throw new RatchetError('bad_arguments', `Run ${runId} has not succeeded (it is ${run.status}); only a succeeded run opens a pull request.`);
  }
  const base = o.base ?? run.base_branch ?? (await forge.defaultBranch());
  await pushRun(run.repo_path, run.branch, run.base_branch);
  const doc = statusDocument(store, run);
  const gatesPassed = new Map<number, string[]>();
  for (const step of store.getSteps(runId)) {
    const last = store.getAttempts(runId, step.step_index).at(-1);
    if (last)
      gatesPassed.set(
        step.step_index,
        store
          .getGateResults(last.id)
          .filter((g) => g.passed)
          .map((g) => g.gate),
      );
  }
  const title = pullTitle(run.task_title);
  const issue = store.getWorkflow(runId).forge?.issue;
  const body = pullBody({ doc, taskTitle: run.task_title, taskDescription: store.getTaskDescription(runId), gatesPassed, issue });
  const open = await forge.findOpenPull(run.branch, base);
  const pr = open ? await forge.updatePull(open.number, { title, body }) : await forge.createPull({ head: run.branch, base, title, body, draft: o.draft });
  const required = await forge.requiredChecks(base);
  const prs = new RunPrStore(store);
  const rounds = prs.get(runId)?.rounds ?? [];
  const saved = prDocOf(pr, prChecks(await forge.checks(pr.headSha), required), rounds);
  prs.put(runId, `${forge.repo.owner}/${forge.repo.name}`, saved, o.now());
  // The issue hears of its pull request once: when it is opened, not on each update.
  let issueCommentError: string | undefined;
  if (issue && !open) {
    await forge.commentOnIssue(issue, `Ratchet opened ${pr.url} for this issue (run \`${runId}\`).`).catch((e: unknown) => {
      issueCommentError = e instanceof Error ? e.message : String(e);
    });
  }
  return { pr, created: !open, doc: saved, ...(issueCommentError ? { issueCommentError } : {}) };
}

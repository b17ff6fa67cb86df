// The forge port: what the pull-request loop asks of a code host (GitHub first, others behind the same shape), in the
// loop's own words. Adapters (github.ts) translate; the loop never sees a client library's types.

export interface ForgeRepo {
  owner: string;
  name: string;
}

export interface PullRequest {
  number: number;
  url: string;
  state: 'open' | 'closed';
  merged: boolean;
  draft: boolean;
  title: string;
  body: string;
  headBranch: string;
  headSha: string;
  baseBranch: string;
  /** The base branch's head as the forge last saw it (where "broken on the base" is looked for). */
  baseSha: string;
  /** null while the forge is still computing it. */
  mergeable: boolean | null;
  /** The forge's own word for how it stands (`clean`, `blocked`, `dirty`, `unstable`, `unknown`…). */
  mergeableState: string;
}

export type CheckConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required' | 'stale' | 'startup_failure';

/** One check on a commit: a check run (a CI job) or a commit status, by name. */
export interface ForgeCheck {
  name: string;
  kind: 'check_run' | 'status';
  /** The check run's id (its job's id for GitHub Actions); null for a commit status. */
  id: number | null;
  status: 'queued' | 'in_progress' | 'completed' | 'pending' | 'waiting' | 'requested';
  /** null until it concludes. */
  conclusion: CheckConclusion | null;
  detailsUrl: string | null;
}

export interface ReviewComment {
  id: number;
  path: string;
  line: number | null;
  body: string;
  diffHunk: string;
  author: string;
  inReplyTo: number | null;
}

export interface Review {
  id: number;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';
  author: string;
  body: string;
  commitSha: string | null;
}

export interface Issue {
  number: number;
  url: string;
  title: string;
  body: string;
  comments: string[];
}

export type MergeMethod = 'merge' | 'squash' | 'rebase';

/** How many requests went out and how many of them the forge counted against its rate limit (a 304 is free). */
export interface ForgeUsage {
  requests: number;
  counted: number;
  notModified: number;
}

export interface Forge {
  readonly kind: 'github';
  readonly repo: ForgeRepo;
  defaultBranch(): Promise<string>;
  /** The open pull request from `head` into `base`, if there is one. */
  findOpenPull(head: string, base: string): Promise<PullRequest | null>;
  createPull(p: { head: string; base: string; title: string; body: string; draft: boolean }): Promise<PullRequest>;
  updatePull(number: number, p: { title?: string; body?: string }): Promise<PullRequest>;
  getPull(number: number): Promise<PullRequest>;
  /** The checks the base branch's protection requires; empty when it requires none (or is not protected). */
  requiredChecks(branch: string): Promise<string[]>;
  /** The latest check run of each name and the latest status of each context on a commit. */
  checks(sha: string): Promise<ForgeCheck[]>;
  /** The whole log of a check run's job. */
  jobLog(checkId: number): Promise<string>;
  /** Re-runs the failed jobs of the workflow run a check run belongs to. */
  rerunFailedJobs(checkId: number): Promise<void>;
  reviews(pullNumber: number): Promise<Review[]>;
  reviewComments(pullNumber: number, reviewId: number): Promise<ReviewComment[]>;
  replyToReviewComment(pullNumber: number, commentId: number, body: string): Promise<void>;
  merge(pullNumber: number, method: MergeMethod, headSha: string): Promise<{ sha: string }>;
  issue(number: number): Promise<Issue>;
  commentOnIssue(number: number, body: string): Promise<void>;
  usage(): ForgeUsage;
}

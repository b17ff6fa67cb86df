// What the scripted GitHub server holds besides git: pull requests, reviews and their line comments, issues and their
// comments, commit statuses; and the JSON GitHub answers for each (the fields its clients read, in GitHub's names).
import type { BareRemote } from './github-git';
import type { CheckRun, ScriptedCi } from './github-ci';

export interface Pull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  state: 'open' | 'closed';
  draft: boolean;
  merged: boolean;
  mergeCommitSha: string | null;
  /** The head commit when it was last read from the remote (a closed pull request keeps its last). */
  headSha: string;
  user: string;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface Review {
  id: number;
  pullNumber: number;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED';
  body: string;
  commitId: string;
  user: string;
  submittedAt: string;
}

export interface ReviewComment {
  id: number;
  pullNumber: number;
  reviewId: number | null;
  path: string;
  line: number;
  body: string;
  diffHunk: string;
  commitId: string;
  inReplyToId: number | null;
  user: string;
  createdAt: string;
}

export interface IssueComment {
  id: number;
  issueNumber: number;
  body: string;
  user: string;
  createdAt: string;
}

export interface Issue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  user: string;
  createdAt: string;
}

export interface CommitStatus {
  id: number;
  sha: string;
  context: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  description: string | null;
  targetUrl: string | null;
  createdAt: string;
}

/** How a pull request stands for merging, as GitHub's `mergeable_state` says it, and what holds it. */
export interface Mergeability {
  mergeable: boolean;
  state: 'clean' | 'blocked' | 'dirty' | 'unstable';
  /** Why it may not be merged yet, in GitHub's words; empty when it may. */
  blockers: string[];
}

export class GithubState {
  readonly pulls: Pull[] = [];
  readonly reviews: Review[] = [];
  readonly reviewComments: ReviewComment[] = [];
  readonly issues: Issue[] = [];
  readonly issueComments: IssueComment[] = [];
  readonly statuses: CommitStatus[] = [];
  private id = 1000;
  /** Pull requests and issues share one number sequence, as on GitHub. */
  private number = 0;

  constructor(
    readonly owner: string,
    readonly name: string,
    readonly defaultBranch: string,
    readonly apiUrl: () => string,
    readonly remote: BareRemote,
    readonly ci: () => ScriptedCi,
    readonly requiredChecks: () => readonly string[],
  ) {}

  nextId = (): number => ++this.id;
  nextNumber = (): number => ++this.number;

  get fullName(): string {
    return `${this.owner}/${this.name}`;
  }

  get webUrl(): string {
    return `${this.apiUrl()}/${this.fullName}`;
  }

  user(login: string): Record<string, unknown> {
    return {
      login,
      id: login.length * 7919,
      node_id: `U_${login}`,
      type: login.endsWith('[bot]') ? 'Bot' : 'User',
      site_admin: false,
      html_url: `${this.apiUrl()}/${login}`,
    };
  }

  repoJson(): Record<string, unknown> {
    return {
      id: 4242,
      node_id: 'R_scripted',
      name: this.name,
      full_name: this.fullName,
      private: true,
      owner: this.user(this.owner),
      html_url: this.webUrl,
      url: `${this.apiUrl()}/repos/${this.fullName}`,
      default_branch: this.defaultBranch,
      allow_squash_merge: true,
      allow_merge_commit: true,
      allow_rebase_merge: true,
      permissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
    };
  }

  /** The latest check run of each name on a commit (GitHub's `filter=latest`). */
  latestChecks(sha: string): CheckRun[] {
    const latest = new Map<string, CheckRun>();
    for (const c of this.ci().checkRuns) if (c.headSha === sha) latest.set(c.name, c);
    return [...latest.values()];
  }

  checkRunJson(c: CheckRun): Record<string, unknown> {
    const failed = c.status === 'completed' && c.conclusion !== 'success';
    return {
      id: c.id,
      node_id: `CR_${c.id}`,
      head_sha: c.headSha,
      external_id: String(c.id),
      url: `${this.apiUrl()}/repos/${this.fullName}/check-runs/${c.id}`,
      html_url: `${this.webUrl}/actions/runs/${c.runId}/job/${c.id}`,
      details_url: `${this.webUrl}/actions/runs/${c.runId}/job/${c.id}`,
      status: c.status,
      conclusion: c.conclusion,
      started_at: c.startedAt,
      completed_at: c.completedAt,
      name: c.name,
      output: { title: failed ? `${c.name} failed` : null, summary: null, text: null, annotations_count: 0, annotations_url: '' },
      check_suite: { id: c.runId },
      app: { id: 15368, slug: 'github-actions', name: 'GitHub Actions', owner: this.user('github') },
      pull_requests: this.pulls
        .filter((p) => p.state === 'open' && p.headSha === c.headSha)
        .map((p) => ({ number: p.number, url: `${this.apiUrl()}/repos/${this.fullName}/pulls/${p.number}` })),
    };
  }

  jobJson(c: CheckRun): Record<string, unknown> {
    return {
      id: c.id,
      run_id: c.runId,
      run_attempt: c.attempt,
      run_url: `${this.apiUrl()}/repos/${this.fullName}/actions/runs/${c.runId}`,
      node_id: `J_${c.id}`,
      head_sha: c.headSha,
      head_branch: c.headBranch,
      url: `${this.apiUrl()}/repos/${this.fullName}/actions/jobs/${c.id}`,
      html_url: `${this.webUrl}/actions/runs/${c.runId}/job/${c.id}`,
      status: c.status,
      conclusion: c.conclusion,
      started_at: c.startedAt ?? new Date().toISOString(),
      completed_at: c.completedAt,
      name: c.name,
      steps: [],
      check_run_url: `${this.apiUrl()}/repos/${this.fullName}/check-runs/${c.id}`,
      labels: ['ubuntu-latest'],
      runner_id: 1,
      runner_name: 'scripted-runner',
      workflow_name: 'CI',
      created_at: c.startedAt ?? new Date().toISOString(),
    };
  }

  async headOf(pull: Pull): Promise<string> {
    if (pull.state === 'open') pull.headSha = (await this.remote.resolve(`heads/${pull.head}`)) ?? pull.headSha;
    return pull.headSha;
  }

  /** Whether the pull request may be merged now: no conflict, every required check green on its head, no change requested. */
  async mergeability(pull: Pull): Promise<Mergeability> {
    const head = await this.headOf(pull);
    const base = await this.remote.resolve(`heads/${pull.base}`);
    if (!base || !(await this.remote.mergeTree(base, head))) return { mergeable: false, state: 'dirty', blockers: ['Pull Request is not mergeable'] };
    const checks = this.latestChecks(head);
    const blockers: string[] = [];
    for (const name of this.requiredChecks()) {
      const check = checks.find((c) => c.name === name);
      const status = this.statuses.filter((s) => s.sha === head && s.context === name).at(-1);
      const green = check ? check.status === 'completed' && check.conclusion === 'success' : status?.state === 'success';
      const pending = check ? check.status !== 'completed' : status?.state === 'pending';
      if (!green) blockers.push(`Required status check "${name}" is ${!check && !status ? 'expected' : pending ? 'pending' : 'failing'}.`);
    }
    const latestByUser = new Map<string, Review>();
    for (const r of this.reviews) if (r.pullNumber === pull.number && r.state !== 'COMMENTED') latestByUser.set(r.user, r);
    if ([...latestByUser.values()].some((r) => r.state === 'CHANGES_REQUESTED')) blockers.push('Changes have been requested.');
    if (blockers.length) return { mergeable: true, state: 'blocked', blockers };
    const unstable = checks.some((c) => c.status === 'completed' && c.conclusion !== 'success');
    return { mergeable: true, state: unstable ? 'unstable' : 'clean', blockers: [] };
  }

  async pullJson(pull: Pull, withMergeability = true): Promise<Record<string, unknown>> {
    const headSha = await this.headOf(pull);
    const baseSha = (await this.remote.resolve(`heads/${pull.base}`)) ?? '';
    const m = withMergeability && pull.state === 'open' ? await this.mergeability(pull) : null;
    const branch = (ref: string, sha: string): Record<string, unknown> => ({
      label: `${this.owner}:${ref}`,
      ref,
      sha,
      user: this.user(this.owner),
      repo: this.repoJson(),
    });
    const api = `${this.apiUrl()}/repos/${this.fullName}`;
    return {
      url: `${api}/pulls/${pull.number}`,
      id: pull.number * 1000 + 7,
      node_id: `PR_${pull.number}`,
      html_url: `${this.webUrl}/pull/${pull.number}`,
      diff_url: `${this.webUrl}/pull/${pull.number}.diff`,
      patch_url: `${this.webUrl}/pull/${pull.number}.patch`,
      issue_url: `${api}/issues/${pull.number}`,
      commits_url: `${api}/pulls/${pull.number}/commits`,
      review_comments_url: `${api}/pulls/${pull.number}/comments`,
      comments_url: `${api}/issues/${pull.number}/comments`,
      statuses_url: `${api}/statuses/${headSha}`,
      number: pull.number,
      state: pull.state,
      locked: false,
      title: pull.title,
      body: pull.body,
      user: this.user(pull.user),
      labels: [],
      milestone: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      draft: pull.draft,
      created_at: pull.createdAt,
      updated_at: pull.updatedAt,
      closed_at: pull.closedAt,
      merged_at: pull.merged ? pull.closedAt : null,
      merge_commit_sha: pull.mergeCommitSha,
      head: branch(pull.head, headSha),
      base: branch(pull.base, baseSha),
      author_association: 'OWNER',
      auto_merge: null,
      active_lock_reason: null,
      merged: pull.merged,
      mergeable: m ? m.mergeable : null,
      rebaseable: m ? m.mergeable : null,
      mergeable_state: m ? m.state : 'unknown',
      merged_by: pull.merged ? this.user(pull.user) : null,
      comments: this.issueComments.filter((c) => c.issueNumber === pull.number).length,
      review_comments: this.reviewComments.filter((c) => c.pullNumber === pull.number).length,
      maintainer_can_modify: false,
      commits: 1,
      additions: 0,
      deletions: 0,
      changed_files: baseSha ? await this.remote.changedFiles(baseSha, headSha) : 0,
    };
  }

  reviewJson(r: Review): Record<string, unknown> {
    return {
      id: r.id,
      node_id: `PRR_${r.id}`,
      user: this.user(r.user),
      body: r.body,
      state: r.state,
      html_url: `${this.webUrl}/pull/${r.pullNumber}#pullrequestreview-${r.id}`,
      pull_request_url: `${this.apiUrl()}/repos/${this.fullName}/pulls/${r.pullNumber}`,
      submitted_at: r.submittedAt,
      commit_id: r.commitId,
      author_association: 'COLLABORATOR',
      _links: {
        html: { href: `${this.webUrl}/pull/${r.pullNumber}` },
        pull_request: { href: `${this.apiUrl()}/repos/${this.fullName}/pulls/${r.pullNumber}` },
      },
    };
  }

  reviewCommentJson(c: ReviewComment): Record<string, unknown> {
    return {
      id: c.id,
      node_id: `PRRC_${c.id}`,
      url: `${this.apiUrl()}/repos/${this.fullName}/pulls/comments/${c.id}`,
      pull_request_review_id: c.reviewId,
      diff_hunk: c.diffHunk,
      path: c.path,
      line: c.line,
      original_line: c.line,
      side: 'RIGHT',
      position: null,
      commit_id: c.commitId,
      original_commit_id: c.commitId,
      in_reply_to_id: c.inReplyToId ?? undefined,
      user: this.user(c.user),
      body: c.body,
      created_at: c.createdAt,
      updated_at: c.createdAt,
      html_url: `${this.webUrl}/pull/${c.pullNumber}#discussion_r${c.id}`,
      pull_request_url: `${this.apiUrl()}/repos/${this.fullName}/pulls/${c.pullNumber}`,
      author_association: 'COLLABORATOR',
      _links: { self: { href: '' }, html: { href: '' }, pull_request: { href: '' } },
    };
  }

  issueJson(i: Issue): Record<string, unknown> {
    return {
      id: i.number * 1000 + 3,
      node_id: `I_${i.number}`,
      url: `${this.apiUrl()}/repos/${this.fullName}/issues/${i.number}`,
      html_url: `${this.webUrl}/issues/${i.number}`,
      number: i.number,
      state: i.state,
      title: i.title,
      body: i.body,
      user: this.user(i.user),
      labels: [],
      assignees: [],
      comments: this.issueComments.filter((c) => c.issueNumber === i.number).length,
      created_at: i.createdAt,
      updated_at: i.createdAt,
      closed_at: null,
      author_association: 'OWNER',
      locked: false,
    };
  }

  issueCommentJson(c: IssueComment): Record<string, unknown> {
    return {
      id: c.id,
      node_id: `IC_${c.id}`,
      url: `${this.apiUrl()}/repos/${this.fullName}/issues/comments/${c.id}`,
      html_url: `${this.webUrl}/issues/${c.issueNumber}#issuecomment-${c.id}`,
      issue_url: `${this.apiUrl()}/repos/${this.fullName}/issues/${c.issueNumber}`,
      body: c.body,
      user: this.user(c.user),
      created_at: c.createdAt,
      updated_at: c.createdAt,
      author_association: 'OWNER',
    };
  }

  statusJson(s: CommitStatus): Record<string, unknown> {
    return {
      id: s.id,
      node_id: `SC_${s.id}`,
      url: `${this.apiUrl()}/repos/${this.fullName}/statuses/${s.sha}`,
      state: s.state,
      description: s.description,
      target_url: s.targetUrl,
      context: s.context,
      created_at: s.createdAt,
      updated_at: s.createdAt,
      avatar_url: null,
      creator: this.user('ci-bot'),
    };
  }
}

// The forge port over GitHub's REST API, through Octokit with its throttling (primary and secondary rate limits waited
// out) and retry plugins, and conditional requests: each GET's ETag is kept, so an answer that has not changed comes
// back 304, which GitHub does not count against the rate limit.
import { Octokit } from '@octokit/rest';
import { throttling } from '@octokit/plugin-throttling';
import { retry } from '@octokit/plugin-retry';
import { RatchetError } from '../errors';
import type { CheckConclusion, Forge, ForgeCheck, ForgeRepo, ForgeUsage, PullRequest, Review, ReviewComment } from './forge';

const RatchetOctokit = Octokit.plugin(throttling, retry);
type Client = InstanceType<typeof RatchetOctokit>;

export interface GithubForgeOptions {
  token: string;
  /** The REST API's root: GitHub's public API, GitHub Enterprise's `https://<host>/api/v3`, or a scripted server. */
  apiUrl: string;
  repo: ForgeRepo;
  /** Told each time a rate limit makes the client wait, with the seconds it waits and why. */
  onWait?: (seconds: number, why: 'rate limit' | 'secondary rate limit') => void;
  /** How many times a request that hit a rate limit is tried again (default 3). */
  rateLimitRetries?: number;
}

/** How many ETag'd answers are kept (one per URL watched: the pull request, its checks, its reviews…). */
const ETAG_CAP = 500;

interface Cached {
  etag: string;
  response: unknown;
}

type RawPull = Awaited<ReturnType<Client['pulls']['get']>>['data'];

function statusOf(e: unknown): number | undefined {
  const s = (e as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}

/** A failed call as a sentence that says what to do; the token never appears in it. */
function forgeError(e: unknown, what: string, repo: ForgeRepo): RatchetError {
  const status = statusOf(e);
  const said = ((e as { response?: { data?: { message?: unknown } } })?.response?.data?.message ?? (e as Error)?.message ?? String(e)) as string;
  const slug = `${repo.owner}/${repo.name}`;
  if (status === 401)
    return new RatchetError(
      'forge_auth',
      `GitHub refused the token while ${what} (401 ${said}). Set GITHUB_TOKEN or GH_TOKEN to a token that can read and write ${slug}.`,
      { cause: e },
    );
  if (status === 404)
    return new RatchetError('forge_not_found', `GitHub answered 404 while ${what}: ${slug} does not exist or the token cannot see it (${said}).`, { cause: e });
  return new RatchetError('forge_failed', `GitHub refused ${what}${status ? ` (${status})` : ''}: ${said}`, { cause: e });
}

function pullOf(p: RawPull | Awaited<ReturnType<Client['pulls']['list']>>['data'][number]): PullRequest {
  const full = p as Partial<RawPull>;
  return {
    number: p.number,
    url: p.html_url,
    state: p.state === 'closed' ? 'closed' : 'open',
    merged: full.merged ?? p.merged_at !== null,
    draft: p.draft ?? false,
    title: p.title,
    body: p.body ?? '',
    headBranch: p.head.ref,
    headSha: p.head.sha,
    baseBranch: p.base.ref,
    baseSha: p.base.sha,
    mergeable: full.mergeable ?? null,
    mergeableState: full.mergeable_state ?? 'unknown',
  };
}

export function githubForge(opts: GithubForgeOptions): Forge {
  const usage: ForgeUsage = { requests: 0, counted: 0, notModified: 0 };
  const retries = opts.rateLimitRetries ?? 3;
  const baseFetch = globalThis.fetch;
  const octokit: Client = new RatchetOctokit({
    auth: opts.token,
    baseUrl: opts.apiUrl.replace(/\/+$/, ''),
    userAgent: 'ratchet',
    // Octokit's default logger warns on every 304 (a watch's normal answer) on the process's stderr; Ratchet says
    // what matters itself (the errors below, onWait).
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    request: {
      // Counted where the bytes go out, so a request the plugins send again is counted again, as GitHub counts it.
      fetch: async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
        const res = await baseFetch(input, init);
        usage.requests++;
        if (res.status === 304) usage.notModified++;
        else usage.counted++;
        return res;
      },
    },
    throttle: {
      onRateLimit: (after: number, _o: unknown, _k: unknown, count: number) => {
        if (count >= retries) return false;
        opts.onWait?.(after, 'rate limit');
        return true;
      },
      onSecondaryRateLimit: (after: number, _o: unknown, _k: unknown, count: number) => {
        if (count >= retries) return false;
        opts.onWait?.(after, 'secondary rate limit');
        return true;
      },
    },
  });

  const etags = new Map<string, Cached>();
  octokit.hook.wrap('request', async (request, options) => {
    const method = String(options.method ?? 'GET').toUpperCase();
    if (method !== 'GET') return request(options);
    const key = octokit.request.endpoint(options).url;
    const cached = etags.get(key);
    if (cached) options.headers = { ...options.headers, 'if-none-match': cached.etag };
    try {
      const res = await request(options);
      const etag = (res.headers as Record<string, unknown>).etag;
      if (typeof etag === 'string') {
        etags.delete(key);
        etags.set(key, { etag, response: res });
        if (etags.size > ETAG_CAP) etags.delete(etags.keys().next().value as string);
      }
      return res;
    } catch (e) {
      if (statusOf(e) === 304 && cached) return cached.response as Awaited<ReturnType<typeof request>>;
      throw e;
    }
  });

  const repo = { owner: opts.repo.owner, repo: opts.repo.name };
  const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      throw forgeError(e, what, opts.repo);
    }
  };

  return {
    kind: 'github',
    repo: opts.repo,
    usage: () => ({ ...usage }),

    defaultBranch: () => call('reading the repository', async () => (await octokit.repos.get(repo)).data.default_branch),

    findOpenPull: (head, base) =>
      call(`looking for the pull request of ${head}`, async () => {
        const { data } = await octokit.pulls.list({ ...repo, head: `${opts.repo.owner}:${head}`, base, state: 'open', per_page: 10 });
        return data[0] ? pullOf(data[0]) : null;
      }),

    createPull: (p) => call(`opening a pull request from ${p.head} into ${p.base}`, async () => pullOf((await octokit.pulls.create({ ...repo, ...p })).data)),

    updatePull: (number, p) =>
      call(`updating pull request #${number}`, async () => pullOf((await octokit.pulls.update({ ...repo, pull_number: number, ...p })).data)),

    getPull: (number) => call(`reading pull request #${number}`, async () => pullOf((await octokit.pulls.get({ ...repo, pull_number: number })).data)),

    requiredChecks: (branch) =>
      call(`reading the protection of ${branch}`, async () => {
        // The branch's own answer carries its required checks to anyone who can read it (the protection endpoint
        // itself wants an admin token).
        const { data } = await octokit.repos.getBranch({ ...repo, branch });
        return data.protection?.required_status_checks?.contexts ?? [];
      }),

    checks: (sha) =>
      call(`reading the checks of ${sha.slice(0, 8)}`, async () => {
        const [runs, combined] = await Promise.all([
          octokit.checks.listForRef({ ...repo, ref: sha, filter: 'latest', per_page: 100 }),
          octokit.repos.getCombinedStatusForRef({ ...repo, ref: sha, per_page: 100 }),
        ]);
        const out: ForgeCheck[] = runs.data.check_runs.map((c) => ({
          name: c.name,
          kind: 'check_run',
          id: c.id,
          status: c.status,
          conclusion: (c.conclusion ?? null) as CheckConclusion | null,
          detailsUrl: c.details_url ?? c.html_url ?? null,
        }));
        for (const s of combined.data.statuses) {
          const done = s.state !== 'pending';
          out.push({
            name: s.context,
            kind: 'status',
            id: null,
            status: done ? 'completed' : 'pending',
            conclusion: !done ? null : s.state === 'success' ? 'success' : 'failure',
            detailsUrl: s.target_url ?? null,
          });
        }
        return out;
      }),

    jobLog: (checkId) =>
      call(`reading the log of job ${checkId}`, async () => {
        const { data } = await octokit.actions.downloadJobLogsForWorkflowRun({ ...repo, job_id: checkId });
        return typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer).toString('utf8');
      }),

    rerunFailedJobs: (checkId) =>
      call(`re-running the failed jobs of job ${checkId}`, async () => {
        const { data: job } = await octokit.actions.getJobForWorkflowRun({ ...repo, job_id: checkId });
        await octokit.actions.reRunWorkflowFailedJobs({ ...repo, run_id: job.run_id });
      }),

    reviews: (pullNumber) =>
      call(`reading the reviews of #${pullNumber}`, async () => {
        const { data } = await octokit.pulls.listReviews({ ...repo, pull_number: pullNumber, per_page: 100 });
        return data.map((r): Review => ({
          id: r.id,
          state: r.state as Review['state'],
          author: r.user?.login ?? '',
          body: r.body,
          commitSha: r.commit_id ?? null,
        }));
      }),

    reviewComments: (pullNumber, reviewId) =>
      call(`reading the comments of review ${reviewId}`, async () => {
        const { data } = await octokit.pulls.listCommentsForReview({ ...repo, pull_number: pullNumber, review_id: reviewId, per_page: 100 });
        return data.map((c): ReviewComment => ({
          id: c.id,
          path: c.path,
          line: (c as { line?: number | null }).line ?? null,
          body: c.body,
          diffHunk: c.diff_hunk,
          author: c.user?.login ?? '',
          inReplyTo: c.in_reply_to_id ?? null,
        }));
      }),

    replyToReviewComment: (pullNumber, commentId, body) =>
      call(`replying on a review thread of #${pullNumber}`, async () => {
        await octokit.pulls.createReplyForReviewComment({ ...repo, pull_number: pullNumber, comment_id: commentId, body });
      }),

    merge: (pullNumber, method, headSha) =>
      call(`merging #${pullNumber}`, async () => ({
        sha: (await octokit.pulls.merge({ ...repo, pull_number: pullNumber, merge_method: method, sha: headSha })).data.sha,
      })),

    issue: (number) =>
      call(`reading issue #${number}`, async () => {
        const [{ data: issue }, { data: comments }] = await Promise.all([
          octokit.issues.get({ ...repo, issue_number: number }),
          octokit.issues.listComments({ ...repo, issue_number: number, per_page: 100 }),
        ]);
        return { number, url: issue.html_url, title: issue.title, body: issue.body ?? '', comments: comments.map((c) => c.body ?? '') };
      }),

    commentOnIssue: (number, body) =>
      call(`commenting on #${number}`, async () => {
        await octokit.issues.createComment({ ...repo, issue_number: number, body });
      }),
  };
}

// The operations the scripted GitHub server answers, by GitHub's operation id: what the pull-request loop calls
// (repository, refs, pulls, checks and statuses, job logs and re-runs, branch protection, reviews, issues).
import type { ScriptedCi } from './github-ci';
import type { GithubState, Pull } from './github-state';

export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  login: string;
  state: GithubState;
  ci: ScriptedCi;
  requiredChecks: readonly string[];
  /** Where the server serves raw job logs (what GitHub's log download redirects to). */
  logUrl: (jobId: number) => string;
}

export interface Answer {
  status: number;
  json?: unknown;
  headers?: Record<string, string>;
}

const ok = (json: unknown, status = 200): Answer => ({ status, json });
const fail = (status: number, message: string): Answer => ({
  status,
  json: { message, documentation_url: 'https://docs.github.com/rest', status: String(status) },
});
const notFound = (): Answer => fail(404, 'Not Found');
const now = (): string => new Date().toISOString();
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function page<T>(items: T[], query: URLSearchParams): T[] {
  const perPage = Math.min(100, Number(query.get('per_page') ?? 30));
  const n = Math.max(1, Number(query.get('page') ?? 1));
  return items.slice((n - 1) * perPage, n * perPage);
}

function pullOf(ctx: RouteContext): Pull | undefined {
  return ctx.state.pulls.find((p) => p.number === Number(ctx.params.pull_number));
}

type Handler = (ctx: RouteContext) => Answer | Promise<Answer>;

export const ROUTES: Record<string, Handler> = {
  'users/get-authenticated': (ctx) => ok(ctx.state.user(ctx.login)),
  'repos/get': (ctx) => ok(ctx.state.repoJson()),

  'git/get-ref': async (ctx) => {
    const ref = ctx.params.ref ?? '';
    const sha = ref.startsWith('heads/') ? await ctx.state.remote.resolve(ref) : null;
    if (!sha) return notFound();
    return ok({ ref: `refs/${ref}`, node_id: `REF_${ref}`, url: '', object: { type: 'commit', sha, url: '' } });
  },

  'repos/get-branch': async (ctx) => {
    const sha = await ctx.state.remote.resolve(`heads/${ctx.params.branch ?? ''}`);
    if (!sha) return fail(404, 'Branch not found');
    const protectedBranch = ctx.params.branch === ctx.state.defaultBranch && ctx.requiredChecks.length > 0;
    const contexts = protectedBranch ? [...ctx.requiredChecks] : [];
    return ok({
      name: ctx.params.branch,
      commit: { sha, url: '' },
      protected: protectedBranch,
      protection: {
        enabled: protectedBranch,
        required_status_checks: {
          enforcement_level: protectedBranch ? 'non_admins' : 'off',
          contexts,
          checks: contexts.map((context) => ({ context, app_id: null })),
        },
      },
      _links: { self: '', html: '' },
      protection_url: '',
    });
  },

  'repos/get-status-checks-protection': (ctx) => {
    if (ctx.params.branch !== ctx.state.defaultBranch || ctx.requiredChecks.length === 0) return fail(404, 'Required status checks not enabled');
    return ok({
      url: '',
      strict: false,
      contexts: [...ctx.requiredChecks],
      checks: ctx.requiredChecks.map((context) => ({ context, app_id: null })),
      contexts_url: '',
    });
  },

  'pulls/list': async (ctx) => {
    const state = ctx.query.get('state') ?? 'open';
    const head = ctx.query.get('head');
    const base = ctx.query.get('base');
    const found = ctx.state.pulls
      .filter((p) => state === 'all' || p.state === state)
      .filter((p) => !head || `${ctx.state.owner}:${p.head}` === head)
      .filter((p) => !base || p.base === base)
      .reverse();
    return ok(await Promise.all(page(found, ctx.query).map((p) => ctx.state.pullJson(p, false))));
  },

  'pulls/create': async (ctx) => {
    const head = str(ctx.body.head) ?? '';
    const branch = head.includes(':') ? head.slice(head.indexOf(':') + 1) : head;
    const base = str(ctx.body.base) ?? '';
    const headSha = await ctx.state.remote.resolve(`heads/${branch}`);
    const baseSha = await ctx.state.remote.resolve(`heads/${base}`);
    const invalid = (field: string, code: string, message?: string): Answer => ({
      status: 422,
      json: {
        message: 'Validation Failed',
        errors: [{ resource: 'PullRequest', field, code, ...(message ? { message } : {}) }],
        documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
        status: '422',
      },
    });
    if (!headSha) return invalid('head', 'invalid');
    if (!baseSha) return invalid('base', 'invalid');
    if (ctx.state.pulls.some((p) => p.state === 'open' && p.head === branch && p.base === base)) {
      return invalid('', 'custom', `A pull request already exists for ${ctx.state.owner}:${branch}.`);
    }
    if (headSha === baseSha || (await ctx.state.remote.isAncestor(headSha, baseSha))) return invalid('', 'custom', `No commits between ${base} and ${branch}`);
    if (!str(ctx.body.title)) return invalid('title', 'missing_field');
    const pull: Pull = {
      number: ctx.state.nextNumber(),
      title: str(ctx.body.title) ?? '',
      body: str(ctx.body.body) ?? '',
      head: branch,
      base,
      state: 'open',
      draft: ctx.body.draft === true,
      merged: false,
      mergeCommitSha: null,
      headSha,
      user: ctx.login,
      createdAt: now(),
      updatedAt: now(),
      closedAt: null,
    };
    ctx.state.pulls.push(pull);
    return ok(await ctx.state.pullJson(pull), 201);
  },

  'pulls/get': async (ctx) => {
    const pull = pullOf(ctx);
    return pull ? ok(await ctx.state.pullJson(pull)) : notFound();
  },

  'pulls/update': async (ctx) => {
    const pull = pullOf(ctx);
    if (!pull) return notFound();
    if (str(ctx.body.title) !== undefined) pull.title = str(ctx.body.title) ?? pull.title;
    if (str(ctx.body.body) !== undefined) pull.body = str(ctx.body.body) ?? pull.body;
    if (str(ctx.body.base) !== undefined) pull.base = str(ctx.body.base) ?? pull.base;
    if (ctx.body.state === 'closed' && pull.state === 'open') [pull.state, pull.closedAt] = ['closed', now()];
    if (ctx.body.state === 'open' && pull.state === 'closed' && !pull.merged) [pull.state, pull.closedAt] = ['open', null];
    pull.updatedAt = now();
    return ok(await ctx.state.pullJson(pull));
  },

  'pulls/check-if-merged': (ctx) => (pullOf(ctx)?.merged ? { status: 204 } : notFound()),

  'pulls/merge': async (ctx) => {
    const pull = pullOf(ctx);
    if (!pull) return notFound();
    if (pull.state !== 'open') return fail(405, 'Pull Request is not mergeable');
    const head = await ctx.state.headOf(pull);
    const wanted = str(ctx.body.sha);
    if (wanted && wanted !== head) return fail(409, 'Head branch was modified. Review and try the merge again.');
    const m = await ctx.state.mergeability(pull);
    if (m.blockers.length) return fail(405, m.blockers.length > 1 ? `Repository rule violations found\n\n${m.blockers.join('\n')}` : (m.blockers[0] as string));
    const method = (str(ctx.body.merge_method) ?? 'merge') as 'merge' | 'squash' | 'rebase';
    const title =
      str(ctx.body.commit_title) ??
      (method === 'squash' ? `${pull.title} (#${pull.number})` : `Merge pull request #${pull.number} from ${ctx.state.owner}/${pull.head}`);
    const sha = await ctx.state.remote.merge(pull.base, head, method, title);
    if (!sha) return fail(405, 'Pull Request is not mergeable');
    Object.assign(pull, { merged: true, state: 'closed', mergeCommitSha: sha, closedAt: now(), updatedAt: now() });
    return ok({ sha, merged: true, message: 'Pull Request successfully merged' });
  },

  'checks/list-for-ref': async (ctx) => {
    const sha = await ctx.state.remote.resolve(ctx.params.ref ?? '');
    if (!sha) return fail(422, `No commit found for SHA: ${ctx.params.ref}`);
    let runs = ctx.query.get('filter') === 'all' ? ctx.ci.checkRuns.filter((c) => c.headSha === sha) : ctx.state.latestChecks(sha);
    const name = ctx.query.get('check_name');
    const status = ctx.query.get('status');
    if (name) runs = runs.filter((c) => c.name === name);
    if (status) runs = runs.filter((c) => c.status === status);
    return ok({ total_count: runs.length, check_runs: page(runs, ctx.query).map((c) => ctx.state.checkRunJson(c)) });
  },

  'checks/get': (ctx) => {
    const c = ctx.ci.checkRuns.find((r) => r.id === Number(ctx.params.check_run_id));
    return c ? ok(ctx.state.checkRunJson(c)) : notFound();
  },

  'actions/get-job-for-workflow-run': (ctx) => {
    const c = ctx.ci.checkRuns.find((r) => r.id === Number(ctx.params.job_id));
    return c ? ok(ctx.state.jobJson(c)) : notFound();
  },

  'actions/download-job-logs-for-workflow-run': (ctx) => {
    const c = ctx.ci.checkRuns.find((r) => r.id === Number(ctx.params.job_id));
    if (!c) return notFound();
    if (c.status !== 'completed') return fail(404, 'Not Found'); // GitHub has no log to give before the job ends
    return { status: 302, headers: { location: ctx.logUrl(c.id) } };
  },

  'actions/re-run-workflow-failed-jobs': (ctx) => {
    const run = ctx.ci.workflowRuns.find((r) => r.id === Number(ctx.params.run_id));
    if (!run) return notFound();
    return ctx.ci.rerunFailed(run.id) ? ok({}, 201) : fail(403, 'This workflow run cannot be rerun: no failed jobs.');
  },

  'repos/get-combined-status-for-ref': async (ctx) => {
    const sha = await ctx.state.remote.resolve(ctx.params.ref ?? '');
    if (!sha) return notFound();
    const latest = new Map<string, (typeof ctx.state.statuses)[number]>();
    for (const s of ctx.state.statuses) if (s.sha === sha) latest.set(s.context, s);
    const statuses = [...latest.values()];
    const state = statuses.some((s) => s.state === 'failure' || s.state === 'error')
      ? 'failure'
      : statuses.length === 0 || statuses.some((s) => s.state === 'pending')
        ? 'pending'
        : 'success';
    return ok({
      state,
      sha,
      total_count: statuses.length,
      statuses: statuses.map((s) => ctx.state.statusJson(s)),
      repository: ctx.state.repoJson(),
      commit_url: '',
      url: '',
    });
  },

  'repos/list-commit-statuses-for-ref': async (ctx) => {
    const sha = await ctx.state.remote.resolve(ctx.params.ref ?? '');
    if (!sha) return notFound();
    return ok(page(ctx.state.statuses.filter((s) => s.sha === sha).reverse(), ctx.query).map((s) => ctx.state.statusJson(s)));
  },

  'repos/create-commit-status': (ctx) => {
    const s = {
      id: ctx.state.nextId(),
      sha: ctx.params.sha ?? '',
      context: str(ctx.body.context) ?? 'default',
      state: ctx.body.state as 'error' | 'failure' | 'pending' | 'success',
      description: str(ctx.body.description) ?? null,
      targetUrl: str(ctx.body.target_url) ?? null,
      createdAt: now(),
    };
    ctx.state.statuses.push(s);
    return ok(ctx.state.statusJson(s), 201);
  },

  'pulls/list-reviews': (ctx) => {
    if (!pullOf(ctx)) return notFound();
    return ok(
      page(
        ctx.state.reviews.filter((r) => r.pullNumber === Number(ctx.params.pull_number)),
        ctx.query,
      ).map((r) => ctx.state.reviewJson(r)),
    );
  },

  'pulls/list-comments-for-review': (ctx) => {
    const review = ctx.state.reviews.find((r) => r.id === Number(ctx.params.review_id) && r.pullNumber === Number(ctx.params.pull_number));
    if (!review) return notFound();
    return ok(
      page(
        ctx.state.reviewComments.filter((c) => c.reviewId === review.id),
        ctx.query,
      ).map((c) => ctx.state.reviewCommentJson(c)),
    );
  },

  'pulls/list-review-comments': (ctx) => {
    if (!pullOf(ctx)) return notFound();
    return ok(
      page(
        ctx.state.reviewComments.filter((c) => c.pullNumber === Number(ctx.params.pull_number)),
        ctx.query,
      ).map((c) => ctx.state.reviewCommentJson(c)),
    );
  },

  'pulls/create-reply-for-review-comment': async (ctx) => {
    const pull = pullOf(ctx);
    const parent = ctx.state.reviewComments.find((c) => c.id === Number(ctx.params.comment_id) && c.pullNumber === pull?.number);
    if (!pull || !parent) return notFound();
    const reply = {
      ...parent,
      id: ctx.state.nextId(),
      reviewId: null,
      body: str(ctx.body.body) ?? '',
      inReplyToId: parent.inReplyToId ?? parent.id,
      commitId: await ctx.state.headOf(pull),
      user: ctx.login,
      createdAt: now(),
    };
    ctx.state.reviewComments.push(reply);
    return ok(ctx.state.reviewCommentJson(reply), 201);
  },

  'issues/get': (ctx) => {
    const n = Number(ctx.params.issue_number);
    const issue = ctx.state.issues.find((i) => i.number === n);
    return issue ? ok(ctx.state.issueJson(issue)) : notFound();
  },

  'issues/list-comments': (ctx) => {
    const n = Number(ctx.params.issue_number);
    if (!ctx.state.issues.some((i) => i.number === n) && !ctx.state.pulls.some((p) => p.number === n)) return notFound();
    return ok(
      page(
        ctx.state.issueComments.filter((c) => c.issueNumber === n),
        ctx.query,
      ).map((c) => ctx.state.issueCommentJson(c)),
    );
  },

  'issues/create-comment': (ctx) => {
    const n = Number(ctx.params.issue_number);
    if (!ctx.state.issues.some((i) => i.number === n) && !ctx.state.pulls.some((p) => p.number === n)) return notFound();
    const comment = { id: ctx.state.nextId(), issueNumber: n, body: str(ctx.body.body) ?? '', user: ctx.login, createdAt: now() };
    ctx.state.issueComments.push(comment);
    return ok(ctx.state.issueCommentJson(comment), 201);
  },
};

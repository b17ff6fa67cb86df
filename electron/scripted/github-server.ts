// A scripted stand-in for GitHub's REST API, for tests and benchmarks of the pull-request loop: every request is
// checked against GitHub's published description (github-openapi.ts), a bare repository plays the remote, and a
// commit pushed there gets CI that really runs the project's commands (github-ci.ts). It counts requests against the
// rate limit as GitHub does (a 304 to a conditional request is free) and can answer a secondary rate limit.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BareRemote } from './github-git';
import { ScriptedCi, type CheckSpec, type GithubScenario } from './github-ci';
import { isRefusal, matchOperation, refusalOf } from './github-openapi';
import { ROUTES, type Answer } from './github-routes';
import { GithubState, type Review, type ReviewComment } from './github-state';

export type { CheckSpec, GithubScenario, CheckRun } from './github-ci';
export type { Pull, Review, ReviewComment, Issue } from './github-state';

export interface ScriptedGithubOptions {
  /** The bare repository that stands in for the remote (the one Ratchet pushes to). */
  bare: string;
  /** owner/name (default acme/widget). */
  repo?: string;
  defaultBranch?: string;
  /** The CI's jobs, each a check run on every pushed commit. */
  checks?: CheckSpec[];
  scenario?: GithubScenario;
  /** Tokens accepted, each with the login it acts as (default: `test-token` as `ratchet-bot`). */
  tokens?: Record<string, string>;
  port?: number;
  /** The core rate limit per hour (default 5000). */
  rateLimit?: number;
}

export interface GithubRequestRecord {
  method: string;
  path: string;
  operationId: string | null;
  status: number;
  /** Whether GitHub would count it against the rate limit (a 304 is free, as is asking for the limit). */
  counted: boolean;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface ScriptedGithub {
  url: string;
  port: number;
  owner: string;
  name: string;
  requests: GithubRequestRecord[];
  state: GithubState;
  ci: ScriptedCi;
  /** Requests counted against the rate limit so far. */
  rateLimitUsed(): number;
  setScenario(s: GithubScenario): void;
  /** Reads the remote's branches and starts CI on each new head (also done before every request). */
  sync(): Promise<void>;
  /** Syncs, then waits for every CI job that will run to finish. */
  idle(): Promise<void>;
  /** A reviewer submits a review on a pull request, with line comments on the new side of its diff. */
  submitReview(
    pullNumber: number,
    review: { state: Review['state']; body?: string; user?: string; comments?: { path: string; line: number; body: string }[] },
  ): Promise<Review>;
  addIssue(issue: { title: string; body: string; comments?: string[] }): number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function startScriptedGithub(opts: ScriptedGithubOptions): Promise<ScriptedGithub> {
  const [owner, name] = (opts.repo ?? 'acme/widget').split('/') as [string, string];
  const defaultBranch = opts.defaultBranch ?? 'main';
  const tokens = opts.tokens ?? { 'test-token': 'ratchet-bot' };
  const limit = opts.rateLimit ?? 5000;
  const remote = new BareRemote(opts.bare);
  let scenario: GithubScenario = opts.scenario ?? {};
  let url = '';
  const requiredChecks = (): readonly string[] => scenario.requiredChecks ?? [];
  let ci: ScriptedCi | null = null;
  const state = new GithubState(
    owner,
    name,
    defaultBranch,
    () => url,
    remote,
    () => ci as ScriptedCi,
    requiredChecks,
  );
  ci = new ScriptedCi(
    remote,
    () => opts.checks ?? [],
    () => scenario,
    defaultBranch,
    state.nextId,
  );
  const requests: GithubRequestRecord[] = [];
  let used = 0;
  let routed = 0;
  let blockedUntil = 0;
  const resetAt = Math.floor(Date.now() / 1000) + 3600;
  const seen = new Map<string, string>();

  const sync = async (): Promise<void> => {
    for (const [branch, sha] of await remote.branches()) {
      if (seen.get(branch) === sha) continue;
      seen.set(branch, sha);
      (ci as ScriptedCi).pushed(sha, branch);
    }
  };

  const rateHeaders = (): Record<string, string> => ({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, limit - used)),
    'x-ratelimit-used': String(used),
    'x-ratelimit-reset': String(resetAt),
    'x-ratelimit-resource': 'core',
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    const method = req.method ?? 'GET';
    const full = new URL(req.url ?? '/', 'http://127.0.0.1');
    // GitHub Enterprise serves the same API under /api/v3.
    const path = full.pathname.replace(/^\/api\/v3(?=\/)/, '');
    let json: unknown;
    let parsed = false;
    try {
      json = JSON.parse(text);
      parsed = true;
    } catch {
      // answered below if the operation takes a body
    }
    const rec: GithubRequestRecord = { method, path, operationId: null, status: 0, counted: false, headers: req.headers, body: parsed ? json : text };
    requests.push(rec);
    const send = (a: Answer): void => {
      rec.status = a.status;
      const headers: Record<string, string> = { 'x-github-api-version-selected': '2022-11-28', ...rateHeaders(), ...a.headers };
      if (a.json === undefined) {
        res.writeHead(a.status, headers);
        res.end();
        return;
      }
      const body = JSON.stringify(a.json);
      if (method === 'GET' && a.status === 200) {
        const etag = `W/"${createHash('sha256').update(body).digest('hex').slice(0, 40)}"`;
        headers.etag = etag;
        if (req.headers['if-none-match'] === etag) {
          // GitHub does not count a conditional request answered 304 against the rate limit.
          if (rec.counted) used--;
          rec.counted = false;
          rec.status = 304;
          res.writeHead(304, { ...headers, ...rateHeaders() });
          res.end();
          return;
        }
      }
      res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(body);
    };
    const fail = (status: number, message: string, extra: Record<string, string> = {}): void =>
      send({ status, json: { message, documentation_url: 'https://docs.github.com/rest', status: String(status) }, headers: extra });

    // A finished job's log, where the log download redirects (GitHub's is a signed blob URL, asked without a token).
    const logMatch = /^\/_logs\/jobs\/(\d+)$/.exec(path);
    if (logMatch && method === 'GET') {
      const job = (ci as ScriptedCi).checkRuns.find((c) => c.id === Number(logMatch[1]));
      rec.status = job ? 200 : 404;
      res.writeHead(rec.status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(job?.log ?? 'Not Found');
      return;
    }

    const auth = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const login = auth ? tokens[auth] : undefined;
    if (!login) return fail(401, auth ? 'Bad credentials' : 'Requires authentication');

    if (method === 'GET' && path === '/rate_limit') {
      const core = { limit, used, remaining: Math.max(0, limit - used), reset: resetAt };
      return send({ status: 200, json: { resources: { core }, rate: core } });
    }

    const op = matchOperation(method, path);
    if (isRefusal(op)) return fail(op.status, op.message);
    rec.operationId = op.operationId;
    const repoOf = op.pathParams.owner !== undefined ? `${op.pathParams.owner}/${op.pathParams.repo}` : null;
    if (repoOf !== null && repoOf.toLowerCase() !== state.fullName.toLowerCase()) return fail(404, 'Not Found');
    const refused = refusalOf(op, full.searchParams, { text, json, parsed });
    if (refused) return fail(refused.status, refused.message);

    routed++;
    rec.counted = true;
    used++;
    const nowMs = Date.now();
    const limited = scenario.secondaryRateLimit;
    if (limited && (routed === limited.atRequest || nowMs < blockedUntil)) {
      if (routed === limited.atRequest) blockedUntil = nowMs + limited.retryAfterSeconds * 1000;
      return fail(
        403,
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
        { 'retry-after': String(Math.max(1, Math.ceil((blockedUntil - nowMs) / 1000))) },
      );
    }

    const route = ROUTES[op.operationId];
    if (!route) return fail(501, `scripted GitHub: ${op.operationId} (${method} ${op.template}) is in GitHub's description but not answered here`);
    await sync();
    const body = parsed && json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
    send(
      await route({
        params: op.pathParams,
        query: full.searchParams,
        body,
        login,
        state,
        ci: ci as ScriptedCi,
        requiredChecks: requiredChecks(),
        logUrl: (id) => `${url}/_logs/jobs/${id}`,
      }),
    );
  };

  const submitReview: ScriptedGithub['submitReview'] = async (pullNumber, r) => {
    const pull = state.pulls.find((p) => p.number === pullNumber);
    if (!pull) throw new Error(`scripted GitHub: no pull request #${pullNumber}`);
    await sync();
    const head = await state.headOf(pull);
    const base = (await remote.resolve(`heads/${pull.base}`)) ?? head;
    const review: Review = {
      id: state.nextId(),
      pullNumber,
      state: r.state,
      body: r.body ?? '',
      commitId: head,
      user: r.user ?? 'reviewer',
      submittedAt: new Date().toISOString(),
    };
    const comments: ReviewComment[] = [];
    for (const c of r.comments ?? []) {
      const diffHunk = await remote.diffHunk(base, head, c.path, c.line);
      if (diffHunk === null) throw new Error(`scripted GitHub: ${c.path}:${c.line} is not in the diff of #${pullNumber} (GitHub refuses such a comment)`);
      comments.push({
        id: state.nextId(),
        pullNumber,
        reviewId: review.id,
        path: c.path,
        line: c.line,
        body: c.body,
        diffHunk,
        commitId: head,
        inReplyToId: null,
        user: review.user,
        createdAt: review.submittedAt,
      });
    }
    state.reviews.push(review);
    state.reviewComments.push(...comments);
    return review;
  };

  const addIssue: ScriptedGithub['addIssue'] = (issue) => {
    const number = state.nextNumber();
    const at = new Date().toISOString();
    state.issues.push({ number, title: issue.title, body: issue.body, state: 'open', user: 'reporter', createdAt: at });
    for (const body of issue.comments ?? []) state.issueComments.push({ id: state.nextId(), issueNumber: number, body, user: 'reporter', createdAt: at });
    return number;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `scripted GitHub crashed: ${(err as Error)?.message ?? String(err)}` }));
      } else res.destroy();
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      url = `http://127.0.0.1:${port}`;
      let closing: Promise<void> | null = null;
      resolve({
        url,
        port,
        owner,
        name,
        requests,
        state,
        ci: ci as ScriptedCi,
        rateLimitUsed: () => used,
        setScenario: (s) => (scenario = s),
        sync,
        idle: async () => {
          await sync();
          await (ci as ScriptedCi).idle();
        },
        submitReview,
        addIssue,
        close: () => {
          closing ??= new Promise<void>((done, fail) => {
            (ci as ScriptedCi).close();
            server.close((err) => (err ? fail(err) : done()));
            server.closeAllConnections();
          });
          return closing;
        },
      });
    });
  });
}

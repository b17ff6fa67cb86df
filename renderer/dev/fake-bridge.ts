// A fake RatchetBridge answering from typed fixtures, with a little state (stop, retry, resume emit events), for the dev page and tests.
import type { CallResult, EngineEventDoc, MethodInput, MethodName, MethodOutput, RatchetBridge, RunSummary } from '../../shared/contract';
import type { RunReasonCode, StatusDocument } from '../../shared/domain';
import { headOf, indexLog, logPage } from '../../shared/line-index';
import { ScheduleDoc } from '../../shared/contract/schedules';
import { checkCron, cronTimeText } from '../../shared/cron-text';
import { makeAttempt, makeBigOutput } from './fixtures-attempts';
import {
  APP_INFO,
  DRAFT,
  WORKFLOW,
  makeBaseline,
  makeDetected,
  makeImprovements,
  makeRecent,
  makeReport,
  makeResumeInfo,
  makeSettings,
  makeStats,
} from './fixtures-misc';
import { makeRuns, REPO } from './fixtures-runs';
import { createFakeReview } from './fixtures-review';
import { createFakeGithub } from './fixtures-github';

type Handler<M extends MethodName> = (input: MethodInput<M>) => MethodOutput<M> | Promise<MethodOutput<M>>;
export type Overrides = { [M in MethodName]?: Handler<M> };

export interface FakeBridge {
  bridge: RatchetBridge & { pathForFile?(file: File): string };
  calls: Array<{ method: string; input: unknown }>;
  emit(event: string, payload: unknown): void;
  /** Emits an engine event for a run (ids keep increasing). */
  engineEvent(runId: string, type: string, payload: Record<string, unknown>): EngineEventDoc;
  /** Adds an event to the run's history (what runs.events answers) without pushing it live. */
  record(runId: string, type: string, payload: Record<string, unknown>, at: string): EngineEventDoc;
  runs: Map<string, { doc: StatusDocument; summary: RunSummary }>;
  history: EngineEventDoc[];
}

export interface FakeOptions {
  now?: number;
  overrides?: Overrides;
  /** Milliseconds every answer waits, to see loading states. */
  latencyMs?: number;
  pathForFile?: (file: File) => string;
}

class Fail extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function createFakeBridge(opts: FakeOptions = {}): FakeBridge {
  const now = opts.now ?? Date.now();
  const runs = new Map(makeRuns(now).map((r) => [r.doc.id, r]));
  const priorities = new Map<string, number>();
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const calls: FakeBridge['calls'] = [];
  const history: EngineEventDoc[] = [];
  const settings = makeSettings();
  let bigOutput: string | null = null;
  let eventId = 1000;
  let newRuns = 0;

  const emit = (event: string, payload: unknown) => {
    for (const fn of listeners.get(event) ?? []) fn(payload);
  };
  const engineEvent = (runId: string, type: string, payload: Record<string, unknown>): EngineEventDoc => {
    const e = { id: ++eventId, runId, at: new Date().toISOString(), type, payload };
    history.push(e);
    emit('runs.onEvent', e);
    return e;
  };
  const record = (runId: string, type: string, payload: Record<string, unknown>, at: string): EngineEventDoc => {
    const e = { id: ++eventId, runId, at, type, payload };
    history.push(e);
    return e;
  };
  const run = (runId: string) => {
    const r = runs.get(runId);
    if (!r) throw new Fail('not_found', `No run ${runId}.`);
    return r;
  };
  const setStatus = (runId: string, status: StatusDocument['status'], reason: string | null = null, reasonCode: RunReasonCode | null = null) => {
    const r = run(runId);
    r.doc = { ...r.doc, status, reason, reasonCode };
    r.summary = { ...r.summary, status, reason, reasonCode, wakeAt: null };
    // Emitted after the answer, as the engine does: the call returns, then its events arrive.
    setTimeout(() => engineEvent(runId, 'run.status', { status, reason, reasonCode, wakeAt: null }), 0);
  };

  // Repositories whose workflow file the user trusted (by starting a run with Trust), until revoked.
  const trustedRepos = new Set<string>();
  const schedules = new Map<string, ScheduleDoc>();
  const NO_TEAM = { url: null, source: 'none' as const, warning: null };
  const noTeamRun = ({ runId }: { runId: string }): { ok: true } => {
    throw new Fail('run_not_found', `No team run with id ${runId}.`);
  };
  const review = createFakeReview(
    () => new Date(now),
    (runId, payload) => engineEvent(runId, 'review.round', payload),
  );
  const github = createFakeGithub();
  const handlers: { [M in MethodName]: Handler<M> } = {
    'github.settings': github.settings,
    'github.set': github.set,
    'pr.get': github.get,
    'pr.open': github.open,
    'pr.setOptions': github.setOptions,
    'issues.read': github.issue,
    'review.diff': review.diff,
    'review.fileLines': review.fileLines,
    'review.get': review.get,
    'review.comment': review.comment,
    'review.edit': review.edit,
    'review.remove': review.remove,
    'review.send': review.send,
    'app.info': () => APP_INFO,
    'repos.inspect': ({ path }) => {
      if (!path.startsWith('/')) throw new Fail('bad_path', 'Give an absolute path to the repository folder.');
      if (/not-a-repo|tmp/.test(path)) throw new Fail('not_a_repo', `${path} is not a git repository: run \`git init\` there first, or pick another folder.`);
      return {
        root: path.replace(/\/+$/, ''),
        name: path.split('/').filter(Boolean).at(-1) ?? path,
        headCommit: '3c9e0b1f5a7d2e84c6b0a9f1d3e5c7b9a1f2e4d6',
        branch: 'main',
      };
    },
    'repos.recent': () => makeRecent(now),
    'repos.pick': () => ({ path: REPO }),
    'repos.browse': ({ dir }) => {
      const d = (dir ?? '/home/dev').replace(/\/+$/, '') || '/';
      const parent = d === '/' ? null : d.slice(0, d.lastIndexOf('/')) || '/';
      const names = d === '/home/dev' ? ['code', 'notes'] : d === '/home/dev/code' ? ['game', 'website'] : [];
      return {
        dir: d,
        parent,
        isGitRepo: d === REPO,
        truncated: 0,
        entries: names.map((name) => ({ name, path: `${d === '/' ? '' : d}/${name}`, isGitRepo: `${d}/${name}` === REPO || name === 'website' })),
      };
    },
    // The fixture repository has a workflow file; any other folder has none.
    'workflow.load': ({ repo }) =>
      repo === REPO
        ? { ...WORKFLOW, trust: WORKFLOW.trust && { ...WORKFLOW.trust, trusted: trustedRepos.has(repo) } }
        : { file: null, steps: [], gates: {}, problems: [], setup: null, copy: [], trust: null },
    'project.detect': ({ repo }) => makeDetected(repo),
    'project.baseline': ({ repo }) => {
      setTimeout(() => emit('project.onBaseline', { repo, phase: 'setup', gate: null, state: 'started', ok: null, durationMs: null }), 0);
      return makeBaseline(now);
    },
    'trust.revoke': ({ repo }) => ({ repo, revoked: trustedRepos.delete(repo) ? 1 : 0 }),
    'plans.draft': () => DRAFT,
    'plans.get': ({ runId }) => {
      const r = run(runId);
      const prompts = new Map(WORKFLOW.steps.map((s) => [s.title, s]));
      return {
        revision: 1,
        steps: r.doc.steps
          .filter((s) => s.status !== 'skipped')
          .map((s) => ({ title: s.title, prompt: prompts.get(s.title)?.prompt ?? `Prompt of ${s.title}.`, gates: prompts.get(s.title)?.gates })),
        gates: WORKFLOW.gates,
      };
    },
    'plans.revise': ({ runId, steps }) => {
      const r = run(runId);
      const kept = r.doc.steps.filter((s, i) => s.status === 'succeeded' && steps[i]?.title === s.title).map((s) => s.index);
      r.doc = {
        ...r.doc,
        steps: steps.map((s, i) =>
          r.doc.steps[i]?.title === s.title ? r.doc.steps[i]! : { index: i + 1, title: s.title, status: 'pending', commit: null, attempts: [] },
        ),
      };
      setTimeout(() => engineEvent(runId, 'plan.revised', { revision: 2, steps: steps.length, kept, reset: [] }), 0);
      return { revision: 2, kept, reset: [] };
    },
    'runs.list': () => [...runs.values()].map((r) => r.summary),
    'runs.get': ({ runId }) => run(runId).doc,
    'runs.attempt': ({ runId, step, n, outputHeadLines }) => {
      const d = makeAttempt(run(runId).doc, step, n, now, () => (bigOutput ??= makeBigOutput()));
      if (!d) throw new Fail('not_found', `Run ${runId} has no attempt ${n} of step ${step}.`);
      return { ...d, gates: d.gates.map((g) => headOf(g, outputHeadLines)) };
    },
    'runs.gateLog': ({ runId, step, n, gate, from, count }) => {
      const g = makeAttempt(run(runId).doc, step, n, now, () => (bigOutput ??= makeBigOutput()))?.gates.find((x) => x.gate === gate);
      if (!g) throw new Fail('gate_not_found', `Attempt ${n} of step ${step} has no gate ${gate}.`);
      return logPage(indexLog(g.output), from, count);
    },
    'runs.events': ({ runId, afterId, limit }) => history.filter((e) => e.runId === runId && e.id > (afterId ?? 0)).slice(0, limit),
    'runs.attemptDiff': ({ runId, step, n, against }) => {
      const d = makeAttempt(run(runId).doc, step, n, now, () => (bigOutput ??= makeBigOutput()));
      if (!d) throw new Fail('not_found', `Run ${runId} has no attempt ${n} of step ${step}.`);
      // An attempt with no saved tree (under way, or left by a dead process) is read from the worktree, as the engine does.
      const live = d.outcome === 'running' || d.outcome === 'interrupted';
      return {
        diff: d.diff ?? '',
        against: n > 1 && against === 'previous' ? 'previous' : against === 'run' ? 'run' : 'step',
        fromAttempt: n > 1 && against === 'previous' ? n - 1 : null,
        live,
      };
    },
    // What the fixtures' history would say of any task: 23 runs like it, its steps sharing it alike.
    'runs.estimate': (input) => {
      const n = (input.steps ?? WORKFLOW.steps).length || 1;
      const share = (x: number) => Math.round((x / n) * 100) / 100;
      return {
        usd: { p50: 0.4, p90: 1.1 },
        minutes: { p50: 6.2, p90: 13.8 },
        basis: { runs: 23 },
        confidence: 'ok' as const,
        steps: Array.from({ length: n }, () => ({ usd: { p50: share(0.4), p90: share(1.1) }, minutes: { p50: share(6.2), p90: share(13.8) } })),
      };
    },
    'runs.start': (input) => {
      if (input.trust) trustedRepos.add(input.repo);
      const id = `r-new${++newRuns}`;
      const steps = (input.steps ?? WORKFLOW.steps).map((s, i) => ({ index: i + 1, title: s.title, status: 'pending' as const, commit: null, attempts: [] }));
      const doc: StatusDocument = {
        id,
        status: 'running',
        reason: null,
        repo: input.repo,
        branch: `ratchet/new-task-${id}`,
        worktree: `/home/dev/.config/ratchet/worktrees/${id}`,
        baseCommit: '3c9e0b1f',
        costUsd: 0,
        steps,
        resumes: [],
      };
      runs.set(id, {
        doc,
        summary: {
          id,
          status: 'running',
          repo: input.repo,
          branch: doc.branch,
          createdAt: new Date().toISOString(),
          title: input.title,
          reason: null,
          wakeAt: null,
          updatedAt: new Date().toISOString(),
          stepsDone: 0,
          stepsTotal: steps.length,
          costUsd: 0,
        },
      });
      setTimeout(
        () => engineEvent(id, 'run.created', { repo: input.repo, branch: doc.branch, worktree: doc.worktree, baseCommit: doc.baseCommit, steps: steps.length }),
        0,
      );
      return { runId: id };
    },
    'runs.retry': ({ runId }) => {
      setStatus(runId, 'running');
      return { ok: true };
    },
    'runs.restart': ({ runId }) => {
      const old = run(runId);
      const id = `r-new${++newRuns}`;
      const steps = old.doc.steps.map((s) => ({ index: s.index, title: s.title, status: 'pending' as const, commit: null, attempts: [] }));
      const doc: StatusDocument = { ...old.doc, id, status: 'running', reason: null, branch: `ratchet/again-${id}`, costUsd: 0, steps, resumes: [] };
      runs.set(id, {
        doc,
        summary: {
          ...old.summary,
          id,
          status: 'running',
          branch: doc.branch,
          createdAt: new Date().toISOString(),
          reason: null,
          wakeAt: null,
          updatedAt: new Date().toISOString(),
          stepsDone: 0,
          stepsTotal: steps.length,
          costUsd: 0,
        },
      });
      setTimeout(
        () => engineEvent(id, 'run.created', { repo: doc.repo, branch: doc.branch, worktree: doc.worktree, baseCommit: doc.baseCommit, steps: steps.length }),
        0,
      );
      return { runId: id };
    },
    'runs.resumeInfo': ({ runId }) => makeResumeInfo(run(runId).doc, run(runId).summary.title, now),
    'runs.interrupted': () => [...runs.values()].filter((r) => r.summary.status === 'interrupted').map((r) => r.summary),
    'runs.resume': ({ runId }) => {
      setStatus(runId, 'running');
      return { ok: true };
    },
    'runs.raiseBudget': ({ taskUsd }) => ({ taskUsd, spentUsd: null }),
    'runs.approve': ({ runId }) => {
      setStatus(runId, 'running');
      return { ok: true };
    },
    'runs.stop': ({ runId }) => {
      setStatus(
        runId,
        'cancelled',
        'Stopped by you during step 1. The work in progress stays in the worktree; resume to continue, or start again.',
        'stopped_by_user',
      );
      return { ok: true };
    },
    'runs.setPriority': ({ runId, priority }) => {
      run(runId);
      priorities.set(runId, priority);
      setTimeout(() => engineEvent(runId, 'run.status', { status: run(runId).summary.status, reason: null, wakeAt: null }), 0);
      return { ok: true as const };
    },
    'stats.whatIf': () => ({
      policy: { limits: {}, taskUsd: null },
      runs: 0,
      actual: { succeeded: 0, failed: 0, needsYou: 0, budget: 0, unknown: 0, costUsd: 0 },
      simulated: { succeeded: 0, failed: 0, needsYou: 0, budget: 0, unknown: 0, costUsd: 0 },
      changed: [],
      changedCount: 0,
      assumptions: [],
    }),
    'runs.queue': () => {
      const all = [...runs.values()].map((r) => r.summary);
      const queued = all
        .filter((r) => r.status === 'queued')
        .map((r) => ({ runId: r.id, title: r.title, priority: priorities.get(r.id) ?? 0, queuedAt: r.createdAt, action: 'execute' as const }))
        .sort((a, b) => b.priority - a.priority || a.queuedAt.localeCompare(b.queuedAt))
        .map((q, i) => ({ ...q, position: i + 1 }));
      return { concurrency: 2, active: all.filter((r) => ['running', 'waiting', 'planning'].includes(r.status)).map((r) => r.id), queued, holds: [] };
    },
    'runs.retryNow': ({ runId }) => {
      const waiting = run(runId).summary.status === 'waiting';
      if (waiting) setStatus(runId, 'running');
      return { skipped: waiting };
    },
    'runs.skipStep': ({ runId, step }) => {
      const r = run(runId);
      r.doc = { ...r.doc, steps: r.doc.steps.map((s) => (s.index === step ? { ...s, status: 'skipped' } : s)) };
      setTimeout(() => engineEvent(runId, 'step.status', { step, status: 'skipped' }), 0);
      return { ok: true };
    },
    'runs.mergePreview': ({ runId }) => {
      const r = run(runId);
      return {
        base: 'main',
        branch: r.doc.branch,
        baseTip: r.doc.baseCommit.padEnd(40, '0'),
        branchTip: '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432',
        commits: r.doc.steps
          .filter((s) => s.commit)
          .map((s) => ({ sha: (s.commit ?? '').padEnd(40, '0'), subject: `step ${s.index}: ${s.title}` }))
          .reverse(),
        diffstat:
          ' src/player.ts      | 24 ++++++++++++++++++++++--\n src/player.test.ts | 31 +++++++++++++++++++++++++++++++\n 2 files changed, 53 insertions(+), 2 deletions(-)',
        canFastForward: true,
        conflicts: [],
        checkout: { path: r.doc.repo, dirty: false },
        upToDate: false,
        blocked: null,
        remote: {
          name: 'origin',
          url: 'git@github.com:dev/game.git',
          pullRequestUrl: `https://github.com/dev/game/compare/main...${encodeURIComponent(r.doc.branch)}?expand=1`,
        },
      };
    },
    'runs.merge': ({ mode }) => ({ commit: '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432', mode, base: 'main' }),
    'runs.push': ({ runId }) => ({
      remote: 'origin',
      remoteUrl: 'git@github.com:dev/game.git',
      pullRequestUrl: `https://github.com/dev/game/compare/main...${encodeURIComponent(run(runId).doc.branch)}?expand=1`,
    }),
    'runs.openWorktree': () => ({ ok: true as const }),
    'stats.summary': ({ days }) => makeStats(now, days ?? 7),
    'stats.report': ({ days }) => {
      const s = makeStats(now, days ?? 7);
      return { markdown: makeReport(s, makeImprovements(s)) };
    },
    'stats.improvements': ({ days }) => ({ items: makeImprovements(makeStats(now, days ?? 7)) }),
    // Schedules as the dev page keeps them: in memory, checked by the same cron helper the engine uses.
    'schedules.list': () => [...schedules.values()],
    'schedules.add': (input) => {
      const c = checkCron(input.cron, input.tz ?? null, new Date(now));
      if (!c.ok) throw new Error(c.message);
      const s = ScheduleDoc.parse({
        ...input,
        id: `sch-${schedules.size + 1}`,
        paused: false,
        problem: null,
        lastTickAt: null,
        lastRunId: null,
        nextAt: c.next[0]!.toISOString(),
        createdAt: new Date(now).toISOString(),
      });
      schedules.set(s.id, s);
      return s;
    },
    'schedules.remove': ({ id }) => (schedules.delete(id), { ok: true as const }),
    'schedules.setPaused': ({ id, paused }) => Object.assign(schedules.get(id)!, { paused }),
    'schedules.preview': ({ cron, tz }) => {
      const c = checkCron(cron, tz ?? null, new Date(now));
      return c.ok ? { error: null, next: c.next.map((d) => ({ at: d.toISOString(), text: cronTimeText(d, tz ?? null) })) } : { error: c.message, next: [] };
    },
    'settings.get': () => settings,
    'settings.set': (patch) => Object.assign(settings, patch),
    'settings.setApiKey': ({ key }) => Object.assign(settings, { apiKeySet: key !== null, apiKeySource: key ? 'safe_storage' : 'none' }),
    // No team here: the dev page is one machine (team mode is seen end to end in e2e/team.e2e.test.ts).
    'team.settings': () => NO_TEAM,
    'team.setUrl': () => {
      throw new Fail('team_unreachable', 'The dev page has no team database.');
    },
    'team.overview': () => ({ ...NO_TEAM, overview: null, error: null }),
    'team.list': () => [],
    'team.status': ({ runId }) => {
      throw new Fail('run_not_found', `No team run with id ${runId}.`);
    },
    'team.stop': noTeamRun,
    'team.resume': noTeamRun,
    'team.retry': noTeamRun,
    'team.setPriority': noTeamRun,
    'team.raiseBudget': noTeamRun,
    'team.stats': () => null,
    'team.follow': noTeamRun,
    'team.unfollow': () => ({ ok: true as const }),
  };

  const bridge: FakeBridge['bridge'] = {
    async invoke(method, input): Promise<CallResult<unknown>> {
      calls.push({ method, input });
      if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
      const h = (opts.overrides?.[method as MethodName] ?? handlers[method as MethodName]) as ((i: unknown) => unknown) | undefined;
      if (!h) return { ok: false, error: { code: 'unknown_method', message: `No method ${method}.` } };
      try {
        return { ok: true, value: await h(input) };
      } catch (err) {
        return { ok: false, error: { code: err instanceof Fail ? err.code : 'internal', message: err instanceof Error ? err.message : String(err) } };
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  if (opts.pathForFile) bridge.pathForFile = opts.pathForFile;
  return { bridge, calls, emit, engineEvent, record, runs, history };
}

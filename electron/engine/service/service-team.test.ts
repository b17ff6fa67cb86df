// The service's team glue: the team database's URL kept like the API key (checked before it is kept, never answered
// with its password), and the team.* methods and "Run on team workers" over a real team database where PostgreSQL runs.
import { afterEach, describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../../shared/contract';
import { RatchetError } from '../errors';
import { NO_POSTGRES_REASON, teamDatabase, teamRepo } from '../testing/team-fixtures';
import { callResult, callValue } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';
import { createTeamService, memoryTeamUrl, unreachable } from './service-team';
import type { TeamClient } from '../team/team-client';

const URL_WITH_SECRET = 'postgres://alice:s3cr%40t-pw@db.example:5432/ratchet';

describe('memoryTeamUrl (the headless host’s store)', () => {
  it('answers RATCHET_TEAM_URL until a URL is saved, keeps that in memory only, and falls back when it is removed', async () => {
    const store = memoryTeamUrl('postgres://env@h/db');
    expect([store.get(), store.source, store.warning]).toEqual(['postgres://env@h/db', 'environment', null]);
    await store.set(' postgres://saved@h/db ');
    expect([store.get(), store.source]).toEqual(['postgres://saved@h/db', 'session']);
    expect(store.warning).toMatch(/memory only .*RATCHET_TEAM_URL/);
    await store.set(null);
    expect([store.get(), store.source]).toEqual(['postgres://env@h/db', 'environment']);
    expect(memoryTeamUrl(undefined).source).toBe('none');
  });
});

describe('unreachable', () => {
  it('says what to do, with the password hidden even where the driver repeats the URL or the password', () => {
    const e = unreachable(URL_WITH_SECRET, new Error(`connect ECONNREFUSED for ${URL_WITH_SECRET} (password s3cr@t-pw)`));
    expect(e).toBeInstanceOf(RatchetError);
    expect(e.code).toBe('team_unreachable');
    expect(e.message).not.toContain('s3cr');
    expect(e.message).toContain('postgres://alice:***@db.example:5432/ratchet');
    expect(e.message).toMatch(/Check the URL .*PostgreSQL accepts connections/);
  });
});

describe('createTeamService without a database', () => {
  it('keeps nothing when the connection fails, and never answers the password', async () => {
    const store = memoryTeamUrl(null);
    let opened = 0;
    const team = createTeamService(store, async () => {
      opened++;
      throw new Error('password authentication failed for user "alice"');
    });
    await expect(team.handlers['team.setUrl']({ url: URL_WITH_SECRET })).rejects.toMatchObject({ code: 'team_unreachable' });
    expect(opened).toBe(1);
    expect(store.get()).toBeNull();
    expect(await team.handlers['team.settings']({})).toEqual({ url: null, source: 'none', warning: null });
    // Nothing set: no team runs, and acting on one says where to set the team.
    expect(await team.handlers['team.list']({})).toEqual([]);
    await expect(team.handlers['team.stop']({ runId: 'x' })).rejects.toMatchObject({ code: 'team_not_set' });

    await store.set(URL_WITH_SECRET);
    const settings = await team.handlers['team.settings']({});
    expect(settings.url).toBe('postgres://alice:***@db.example:5432/ratchet');
    // The overview reports the failure as a sentence (Settings shows it) instead of failing the screen.
    const overview = await team.handlers['team.overview']({});
    expect(overview.overview).toBeNull();
    expect(overview.error).toMatch(/^Could not use the team database at postgres:\/\/alice:\*\*\*@/);
    expect(JSON.stringify(overview)).not.toContain('s3cr');
  });

  it('refuses a URL that is not a PostgreSQL one before trying it', async () => {
    let opened = 0;
    const team = createTeamService(memoryTeamUrl(null), async () => {
      opened++;
      return {} as TeamClient;
    });
    await expect(team.handlers['team.setUrl']({ url: 'mysql://x@h/db' })).rejects.toMatchObject({ code: 'bad_arguments' });
    expect(opened).toBe(0);
  });
});

describe('following a team run’s events', () => {
  /** A client whose events() hands out what the test pushes, as the team client's stream does, until the run ends. */
  function fakeClient() {
    const waiting: Array<() => void> = [];
    const batches: Array<{ worker: string; event: { id: number; runId: string; at: string; type: string; payload: Record<string, unknown> } } | 'end'> = [];
    let reads = 0;
    const client = {
      url: 'postgres://u@h/db',
      async *events(runId: string, signal?: AbortSignal) {
        reads++;
        let i = 0;
        for (;;) {
          while (i >= batches.length) await new Promise<void>((r) => waiting.push(r));
          const b = batches[i++]!;
          if (b === 'end') return;
          yield b;
          if (signal?.aborted) return;
        }
      },
      async close() {},
    } as unknown as TeamClient;
    const push = (type: string, payload: Record<string, unknown> = {}) => {
      batches.push({ worker: 'w-1', event: { id: batches.length + 1, runId: 'r-1', at: new Date(0).toISOString(), type, payload } });
      for (const w of waiting.splice(0)) w();
    };
    const end = () => {
      batches.push('end');
      for (const w of waiting.splice(0)) w();
    };
    return { client, push, end, reads: () => reads };
  }
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it('pushes each event with the follow token until unfollow, and a new follow replaces the old one', async () => {
    const fake = fakeClient();
    const got: Array<{ follow: string; type: string; worker: string }> = [];
    const team = createTeamService(
      memoryTeamUrl('postgres://u@h/db'),
      async () => fake.client,
      (e) => got.push({ follow: e.follow, type: e.event.type, worker: e.worker }),
    );
    await team.handlers['team.follow']({ runId: 'r-1', follow: 'a' });
    fake.push('step.started', { step: 1 });
    await tick();
    expect(got).toEqual([{ follow: 'a', type: 'step.started', worker: 'w-1' }]);

    // A second follow (the screen opened again) reads from the stream's start under its own token; the first stops.
    await team.handlers['team.follow']({ runId: 'r-1', follow: 'b' });
    fake.push('attempt.started', { step: 1, n: 1 });
    await tick();
    expect(got.filter((e) => e.follow === 'b').map((e) => e.type)).toEqual(['step.started', 'attempt.started']);
    expect(got.filter((e) => e.follow === 'a').map((e) => e.type)).toEqual(['step.started']);
    expect(fake.reads()).toBe(2);

    // An unfollow with another token does nothing; with its own, nothing more comes.
    await team.handlers['team.unfollow']({ runId: 'r-1', follow: 'a' });
    fake.push('gate.started', { attemptId: 1, gate: 'test' });
    await tick();
    expect(got.at(-1)).toEqual({ follow: 'b', type: 'gate.started', worker: 'w-1' });
    await team.handlers['team.unfollow']({ runId: 'r-1', follow: 'b' });
    const before = got.length;
    fake.push('gate.finished', { attemptId: 1, gate: 'test', passed: true });
    fake.end();
    await tick();
    expect(got.length).toBe(before);
    await team.close();
  });

  it('says where to set the team when none is set, and answers no numbers (not zeros)', async () => {
    const team = createTeamService(memoryTeamUrl(null));
    await expect(team.handlers['team.follow']({ runId: 'r-1', follow: 'a' })).rejects.toMatchObject({ code: 'team_not_set' });
    await expect(team.handlers['team.raiseBudget']({ runId: 'r-1', usd: 1 })).rejects.toMatchObject({ code: 'team_not_set' });
    expect(await team.handlers['team.stats']({ days: 7 })).toBeNull();
  });

  it('passes Raise budget to the client, its refusal as it said it', async () => {
    const raised: Array<[string, number]> = [];
    const client = {
      url: 'postgres://u@h/db',
      async raiseBudget(runId: string, usd: number) {
        if (usd <= 0.4) throw new RatchetError('bad_arguments', `Team run ${runId} has already spent $0.40; give it more than that.`);
        raised.push([runId, usd]);
      },
      async close() {},
    } as unknown as TeamClient;
    const team = createTeamService(memoryTeamUrl('postgres://u@h/db'), async () => client);
    await expect(team.handlers['team.raiseBudget']({ runId: 'r-1', usd: 0.3 })).rejects.toThrow('has already spent $0.40; give it more than that.');
    expect(await team.handlers['team.raiseBudget']({ runId: 'r-1', usd: 1 })).toEqual({ ok: true });
    expect(raised).toEqual([['r-1', 1]]);
  });
});

const harness = serviceHarness();
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(NO_POSTGRES_REASON)(`the service's team methods on a team database (${NO_POSTGRES_REASON ?? 'PostgreSQL'})`, () => {
  it('checks and keeps the URL, lists the team, submits "Run on team workers", and steers the queued run', async () => {
    const db = await teamDatabase();
    cleanups.push(db.drop);
    const { service } = await harness.start();
    expect(METHOD_NAMES.filter((m) => m.startsWith('team.')).every((m) => m in service.handlers)).toBe(true);

    // A wrong password: refused with what to do, nothing kept.
    const bad = new URL(db.url);
    bad.password = 'not-the-password';
    const refused = await callResult(service, 'team.setUrl', { url: bad.toString() });
    expect(refused).toMatchObject({ ok: false, error: { code: 'team_unreachable' } });
    expect(JSON.stringify(refused)).not.toContain('not-the-password');
    expect(await callValue(service, 'team.settings', {})).toMatchObject({ url: null, source: 'none' });

    const saved = await callValue<{ url: string; source: string; overview: { workers: unknown[]; limits: { global: number } } }>(service, 'team.setUrl', {
      url: db.url,
    });
    expect(saved.source).toBe('session');
    const password = new URL(db.url).password;
    if (password) expect(saved.url).not.toContain(`:${password}@`);
    expect(saved.overview.workers).toEqual([]);
    expect(saved.overview.limits.global).toBeGreaterThan(0);
    expect(await callValue(service, 'team.list', {})).toEqual([]);

    // "Run on team workers": the same prepare and trust as a local start, then the team's queue (no worker: it waits there).
    const repo = teamRepo();
    const { runId } = await callValue<{ runId: string }>(service, 'runs.start', {
      repo: repo.repo,
      title: 'On the team',
      workflowFile: repo.workflowFile,
      trust: true,
      team: true,
    });
    const listed = await callValue<Array<{ id: string; status: string; worker: string | null; title: string }>>(service, 'team.list', {});
    expect(listed).toEqual([expect.objectContaining({ id: runId, title: 'On the team', status: 'queued', worker: null })]);
    // Not a local run: the local list does not have it.
    expect(await callValue<unknown[]>(service, 'runs.list', {})).toEqual([]);
    const status = await callValue<{ item: { id: string }; doc: unknown }>(service, 'team.status', { runId });
    expect(status).toMatchObject({ item: { id: runId }, doc: null });

    await callValue(service, 'team.setPriority', { runId, priority: 100 });
    expect((await callValue<{ item: { priority: number } }>(service, 'team.status', { runId })).item.priority).toBe(100);
    await callValue(service, 'team.stop', { runId });
    expect((await callValue<{ item: { status: string } }>(service, 'team.status', { runId })).item.status).toBe('cancelled');
    // A run that is not queued any more cannot be moved in the queue.
    expect(await callResult(service, 'team.setPriority', { runId, priority: -100 })).toMatchObject({ ok: false, error: { code: 'bad_arguments' } });

    // Raise budget on a run that is not paused for it: the budget is kept, the run stays where it is.
    await callValue(service, 'team.raiseBudget', { runId, usd: 2 });
    expect((await callValue<{ item: { status: string } }>(service, 'team.status', { runId })).item.status).toBe('cancelled');
    expect(await callResult(service, 'team.raiseBudget', { runId: 'no-such-run', usd: 2 })).toMatchObject({ ok: false, error: { code: 'run_not_found' } });

    // The dashboard's and the weekly report's team numbers: the one run, cancelled, nothing spent.
    const stats = await callValue<{ runs: number; open: number; spentTodayUsd: number; dailyBudgetUsd: number | null }>(service, 'team.stats', { days: 7 });
    expect(stats).toMatchObject({ runs: 1, open: 0, spentTodayUsd: 0 });
    const report = await callValue<{ markdown: string }>(service, 'stats.report', { days: 7 });
    expect(report.markdown).toContain('## Team');
    expect(report.markdown).toContain('- **Team runs:** 1 run (0 succeeded, 0 failed, 0 open)');

    // Forgetting the team: no team runs shown any more, no team numbers, no Team section.
    expect(await callValue(service, 'team.setUrl', { url: null })).toMatchObject({ url: null, source: 'none', overview: null, error: null });
    expect(await callValue(service, 'team.list', {})).toEqual([]);
    expect(await callValue(service, 'team.stats', { days: 7 })).toBeNull();
    expect((await callValue<{ markdown: string }>(service, 'stats.report', { days: 7 })).markdown).not.toContain('## Team');
  }, 60_000);
});

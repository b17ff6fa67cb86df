// The after-success methods and the browser host's key and folder answers, through the service, on a real run in a real repository.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { EventName } from '../../../shared/contract';
import { until } from '../../../shared/testing/until';
import { startScriptedServer } from '../../scripted/server';
import { callResult } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';

const harness = serviceHarness();
const call = callResult;
const value = <T>(r: Awaited<ReturnType<typeof call>>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
};

async function succeededRun() {
  const { engine, service } = await harness.start();
  const events: Array<{ name: EventName; payload: { type?: string; payload?: { status?: string } } }> = [];
  service.subscribe((name, payload) => events.push({ name, payload: payload as never }));
  const repo = makeRepo();
  const { runId } = value<{ runId: string }>(
    await call(service, 'runs.start', { repo, title: 'Land me', steps: [{ title: 'One' }, { title: 'Two' }], gates: { ok: 'true' }, preset: 'minimal' }),
  );
  await until(() => events.some((e) => e.payload.type === 'run.status' && e.payload.payload?.status === 'succeeded'), {
    ms: 20_000,
    describe: 'the run to succeed',
  });
  return { service, repo, runId, engine };
}

describe('after success: merge preview, merge, push (service)', () => {
  it('previews, then fast-forwards the clean checked-out base; pushes to a bare remote', async () => {
    const { service, repo, runId, engine } = await succeededRun();
    const branch = engine.store.getRun(runId)!.branch;
    const preview = value<{ commits: Array<{ subject: string }>; canFastForward: boolean; blocked: string | null; remote: unknown; baseTip: string }>(
      await call(service, 'runs.mergePreview', { runId }),
    );
    expect(preview.commits.map((c) => c.subject)).toEqual(['step 2: Two', 'step 1: One']);
    expect(preview).toMatchObject({ canFastForward: true, blocked: null, remote: null });
    expect(await call(service, 'runs.push', { runId })).toMatchObject({ ok: false, error: { code: 'no_remote' } });
    const merged = value<{ commit: string; base: string }>(await call(service, 'runs.merge', { runId, mode: 'ff-only', expectBaseTip: preview.baseTip }));
    expect(merged.base).toBe('main');
    expect(sh(repo, 'rev-parse', 'main')).toBe(merged.commit);
    expect(readFileSync(join(repo, 'steps', '2.txt'), 'utf8')).toContain('step 2');
    const remote = tempDir();
    sh(remote, 'init', '-q', '--bare');
    sh(repo, 'remote', 'add', 'origin', remote);
    expect(await call(service, 'runs.push', { runId })).toMatchObject({ ok: true, value: { remote: 'origin', pullRequestUrl: null } });
    expect(sh(remote, 'rev-parse', branch)).toBe(sh(repo, 'rev-parse', branch));
  });

  it('says a browser cannot open a terminal, and gives the cd command instead', async () => {
    const { service, runId, engine } = await succeededRun();
    expect(await call(service, 'runs.openWorktree', { runId, with: 'terminal' })).toMatchObject({
      ok: false,
      error: { code: 'not_available', message: expect.stringContaining(`cd ${engine.store.getRun(runId)!.worktree}`) },
    });
  });
});

describe("New task's agent choice", () => {
  it('runs app-written steps with Claude Code as a command agent when asked', async () => {
    const engine = harness.engine({});
    const service = harness.service(engine, { version: '0', env: {} });
    const { runId } = value<{ runId: string }>(
      await call(service, 'runs.start', { repo: makeRepo(), title: 'CC', steps: [{ title: 'One' }], gates: { ok: 'true' }, agent: 'claude-code' }),
    );
    const agent = engine.store.getWorkflow(runId).agent;
    expect(agent.kind).toBe('command');
    expect(agent.command?.slice(0, 3)).toEqual(['claude', '-p', '{prompt}']);
    expect(await call(service, 'runs.start', { repo: makeRepo(), title: 'x', steps: [{ title: 'One' }], agent: 'codex' })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
  });
});

describe('the browser host', () => {
  it('stores a key saved from the app for the session and uses it; removing it falls back to the environment', async () => {
    // The key is checked with the API before it is kept: the scripted server stands in for it.
    const api = await startScriptedServer({ script: { rules: [] } });
    onTestFinished(() => api.close());
    const engine = harness.engine({});
    const env: NodeJS.ProcessEnv = { ANTHROPIC_BASE_URL: api.url };
    const service = harness.service(engine, { version: '0', env });
    expect(await call(service, 'settings.get', {})).toMatchObject({ ok: true, value: { apiKeySet: false, apiKeySource: 'none' } });
    expect(await call(service, 'settings.setApiKey', { key: 'sk-ant-123' })).toMatchObject({ ok: true, value: { apiKeySet: true, apiKeySource: 'session' } });
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-123');
    expect(await call(service, 'settings.setApiKey', { key: 'two words' })).toMatchObject({ ok: false, error: { code: 'bad_arguments' } });
    expect(await call(service, 'settings.setApiKey', { key: null })).toMatchObject({ ok: true, value: { apiKeySet: false, apiKeySource: 'none' } });
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  });

  it('lists folders for the folder browser', async () => {
    const engine = harness.engine({});
    const service = harness.service(engine, { version: '0', env: {} });
    const parent = tempDir();
    const repo = join(parent, 'app');
    sh(parent, 'clone', '-q', makeRepo(), 'app');
    const listing = value<{ dir: string; entries: Array<{ path: string; isGitRepo: boolean }> }>(await call(service, 'repos.browse', { dir: parent }));
    expect(listing.entries).toEqual([{ name: 'app', path: repo, isGitRepo: true }]);
    expect(await call(service, 'repos.browse', { dir: join(repo, 'missing') })).toMatchObject({ ok: false, error: { code: 'not_a_directory' } });
  });
});

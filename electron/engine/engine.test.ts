import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { createEngine } from './engine';
import { create, fixtureProject, queue, say, testFile, turn } from './testing/fixture-project';
import { sh } from './testing/temp-repo';
import { TEST_SANDBOX_MODE } from './testing/sandbox-mode';
import { until } from '../../shared/testing/until';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('engine', () => {
  it('a stop during a gate pauses the run, keeps the work in the worktree, and is not counted as a crash', async () => {
    const p = fixtureProject(`
gates:
  test: { run: "touch gate-running; sleep 30", timeout: 60 }
steps:
  - title: Slow step
`);
    server = await startScriptedServer({ script: { rules: queue(turn(create('a.txt', 'work in progress\n')), say('done')) } });
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } });
    const controller = new AbortController();
    const prepared = await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile });
    const runId = await engine.createRun(prepared);
    // Stop once the gate's command runs (it touched its file in the worktree), not after a guessed delay.
    let stopped: Promise<number> | undefined;
    engine.onEvent((e) => {
      if (e.type === 'gate.started')
        stopped ??= until(() => existsSync(join(engine.status(runId).worktree, 'gate-running')), { ms: 20_000, describe: 'the gate to start' }).then(() => {
          controller.abort();
          return Date.now();
        });
    });
    const doc = await engine.execute(runId, controller.signal);
    expect(stopped, 'the gate never started').toBeDefined();
    expect(Date.now() - (await stopped!)).toBeLessThan(10_000);
    expect(doc.status).toBe('paused');
    expect(doc.reason).toContain('stopped during step 1');
    expect(doc.steps[0]!.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([['interrupted', null]]);
    expect(existsSync(join(doc.worktree, 'a.txt'))).toBe(true);
    engine.close();
  });

  it('marks a run whose process died as interrupted', async () => {
    const p = fixtureProject();
    server = await startScriptedServer({
      script: {
        rules: queue(
          turn(create('src/add.mjs', 'export const add = (a, b) => a + b;\n'), create('test/add.test.mjs', testFile('adds', 'add', 'add', [1, 1], 2))),
          say('ok'),
        ),
      },
    });
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } });
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
    // As if a process that no longer exists had been running it.
    engine.store.setRunStatus(runId, 'running', null);
    engine.store.claimRun(runId, 2 ** 22 + 12345, (await import('node:os')).hostname());
    expect(engine.detectInterrupted()).toEqual([runId]);
    expect(engine.status(runId).status).toBe('interrupted');
    expect(engine.detectInterrupted()).toEqual([]);
    // The branch and worktree are still there for a resume.
    expect(sh(p.repo, 'branch', '--list', 'ratchet/*')).toContain('ratchet/');
    engine.close();
  });
});

describe('user settings under the workflow file', () => {
  it('give a run the budgets of settings.json when its workflow sets none, and its own budget wins otherwise', async () => {
    const p = fixtureProject();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(p.home, { recursive: true });
    writeFileSync(join(p.home, 'settings.json'), JSON.stringify({ budget: { taskUsd: 2, dailyUsd: 9, alertAt: 0.5 } }));
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k' } });
    const prepared = await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile });
    expect(prepared.workflow.budget).toEqual({ task_usd: 2, daily_usd: 9, alert_at: 0.5 });
    const own = fixtureProject('gates: { ok: "true" }\nbudget: { task_usd: 1 }\nsteps:\n  - title: one\n');
    const mine = await engine.prepareRun({ repo: own.repo, workflowFile: own.workflowFile });
    expect(mine.workflow.budget).toEqual({ task_usd: 1, alert_at: 0.8 });
    engine.close();
  });

  it('give a run Settings\u2019 alert threshold alone too, as the app does (the preset\u2019s daily budget then alerts there)', async () => {
    const p = fixtureProject();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(p.home, { recursive: true });
    writeFileSync(join(p.home, 'settings.json'), JSON.stringify({ budget: { alertAt: 0.5 } }));
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k' } });
    const prepared = await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile });
    expect(prepared.workflow.budget).toEqual({ alert_at: 0.5 });
    engine.close();
  });
});

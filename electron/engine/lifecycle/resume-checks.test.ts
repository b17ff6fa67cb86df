// The resume checks and confirmation: no empty rescue commits, and the plan names phase, agent and model.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../scripted/server';
import { renderResumePlan } from '../../cli/resume-view';
import { createEngine, type Engine } from '../engine';
import { asIfDiedAtStep, byStep, setup } from '../testing/recovery-fixtures';
import { sh } from '../testing/temp-repo';
import { TEST_SANDBOX_MODE } from '../testing/sandbox-mode';

let server: ScriptedServer | undefined;
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) e.close();
  await server?.close();
  server = undefined;
});
const signal = () => new AbortController().signal;

/** A 3-step run whose process "died" during step 2, its work left uncommitted in the worktree. */
async function interruptedAtStep2(extra = '') {
  const p = setup(3, extra);
  server ??= await startScriptedServer({ script: byStep });
  const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } });
  engines.push(engine);
  const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
  writeFileSync(p.flag, 'x');
  await engine.execute(runId, signal());
  rmSync(p.flag);
  const run = engine.store.getRun(runId)!;
  asIfDiedAtStep(engine.store, runId, 2, run.worktree);
  return { p, engine, runId, run };
}

describe('resume checks (seed 003)', () => {
  it('a wrong branch with a dirty tree: the changes go to a stash, and no empty `rescue:` commit is made', async () => {
    const { engine, runId, run } = await interruptedAtStep2();
    sh(run.worktree, 'stash', '-q', '-u');
    sh(run.worktree, 'checkout', '-q', '-b', 'somewhere-else');
    writeFileSync(join(run.worktree, 'stray.txt'), 'stray\n');
    const { doc, notes } = await engine.resume(runId, { signal: signal() });
    expect(doc.status).toBe('succeeded');
    const subjects = sh(run.repo_path, 'log', '--format=%s', `${run.base_commit}..${run.branch}`).split('\n');
    expect(subjects.filter((s) => s.startsWith('rescue:'))).toEqual([]);
    // Every commit on the branch changes something.
    for (const sha of sh(run.repo_path, 'log', '--format=%H', `${run.base_commit}..${run.branch}`).split('\n')) {
      expect(sh(run.repo_path, 'show', '--format=', '--name-only', sha)).not.toBe('');
    }
    expect(sh(run.worktree, 'stash', 'list')).toContain('changes found on the wrong branch');
    expect(sh(run.worktree, 'stash', 'show', '--include-untracked', '--name-only', 'stash@{0}')).toContain('stray.txt');
    expect(notes.join('\n')).toMatch(/already kept/);
  });

  it("the confirmation shows phase x/total, the last step with its agent/model and status, and the next step's agent/model", async () => {
    const p = setup(3);
    // Phases: steps 1-2 in "Core maths", step 3 in "Polish".
    const wf = p.workflowFile;
    const { readFileSync } = await import('node:fs');
    writeFileSync(
      wf,
      readFileSync(wf, 'utf8')
        .replace('  - title: Step number 1\n', '  - title: Step number 1\n    phase: Core maths\n')
        .replace('  - title: Step number 2\n', '  - title: Step number 2\n    phase: Core maths\n')
        .replace('  - title: Step number 3\n', '  - title: Step number 3\n    phase: Polish\n'),
    );
    server ??= await startScriptedServer({ script: byStep });
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } });
    engines.push(engine);
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: wf }));
    writeFileSync(p.flag, 'x');
    await engine.execute(runId, signal());
    const text = renderResumePlan(await engine.inspectResume(runId));
    expect(text).toContain('Phase: 1/2 - Core maths');
    expect(text).toMatch(/Last step: 2\/3 Step number 2 \(anthropic, claude-sonnet-5-5\) - failed/);
    expect(text).toContain('Agent to invoke: anthropic, claude-sonnet-5-5');
  });
});

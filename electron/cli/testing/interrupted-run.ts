// Test harness for the CLI's resume commands: a run whose process "died" during step 2, made with the engine and left
// as a killed process leaves it (step 2 running, the run claimed by a process that is gone).
import { rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../scripted/server';
import { createEngine } from '../../engine/engine';
import { byStep, setup } from '../../engine/testing/recovery-fixtures';
import { TEST_SANDBOX_MODE } from '../../engine/testing/sandbox-mode';
import { sh, tempDir } from '../../engine/testing/temp-repo';

/**
 * A run of 3 steps interrupted in step 2, with a scripted model server (closed when the test ends) and the CLI's env.
 * `gitState`: also leave the run's git state ref saying "running", as written when the execution started.
 */
export async function interruptedRun(opts: { gitState?: boolean } = {}): Promise<{
  p: ReturnType<typeof setup>;
  env: { RATCHET_HOME: string; ANTHROPIC_API_KEY: string; ANTHROPIC_BASE_URL: string };
  runId: string;
  server: ScriptedServer;
}> {
  const p = setup(3);
  const server = await startScriptedServer({ script: byStep });
  onTestFinished(() => server.close());
  const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
  const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ...env } });
  const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
  // Step 2's gate fails while the flag exists: the run stops there, and is then made to look as if it died mid-step.
  writeFileSync(p.flag, 'x');
  await engine.execute(runId, new AbortController().signal);
  rmSync(p.flag);
  engine.store.setStepStatus(runId, 2, 'running');
  engine.store.setRunStatus(runId, 'running', null);
  engine.store.claimRun(runId, 2 ** 22 + 7, hostname());
  await engine.settled();
  engine.close();
  if (opts.gitState) {
    const state = join(tempDir(), 'state.json');
    writeFileSync(state, JSON.stringify({ status: 'running', reason: null, finishedAt: null, steps: [], attempts: [] }));
    sh(p.repo, 'update-ref', `refs/ratchet/${runId}/state`, sh(p.repo, 'hash-object', '-w', state));
  }
  return { p, env, runId, server };
}

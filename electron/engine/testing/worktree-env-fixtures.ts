// Test helper: real runs (a shell command as the agent, sandboxed where the machine can) of a workflow against a real repository, with the events they wrote.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StatusDocument } from '../../../shared/domain';
import { createEngine, type Engine } from '../engine';
import type { EngineEvent } from '../store/store';
import { TEST_SANDBOX_MODE } from './sandbox-mode';
import { tempDir } from './temp-repo';

export interface EnvRun {
  engine: Engine;
  runId: string;
  doc: StatusDocument;
  events: EngineEvent[];
  worktree: string;
  /** Files in the worktree's HEAD commit (the last step's). */
  committed(rev?: string): string[];
}

/** An engine on a fresh home, sandboxed where this machine can; closed by `close`. */
export function envEngine(env: NodeJS.ProcessEnv = process.env): Engine {
  return createEngine({ home: join(tempDir('ratchet-env-home-'), 'home'), env: { ...env, ANTHROPIC_API_KEY: 'k' }, sandbox: TEST_SANDBOX_MODE });
}

export async function closeEngine(engine: Engine): Promise<void> {
  engine.close();
  await engine.releaseSandbox();
}

/** Creates and executes a run of `workflow` (YAML, kept outside the repository) on `repo`. */
export async function runWorkflow(engine: Engine, repo: string, workflow: string): Promise<EnvRun> {
  const file = join(tempDir('ratchet-env-wf-'), 'ratchet.yml');
  writeFileSync(file, workflow);
  const events: EngineEvent[] = [];
  engine.onEvent((e) => events.push(e));
  const runId = await engine.createRun(await engine.prepareRun({ repo, workflowFile: file }));
  const doc = await engine.execute(runId, new AbortController().signal);
  const worktree = engine.store.getRun(runId)!.worktree;
  return { engine, runId, doc, events, worktree, committed: (rev = 'HEAD') => changedIn(worktree, rev) };
}

/** The files a commit changed. */
export function changedIn(dir: string, rev = 'HEAD'): string[] {
  return execFileSync('git', ['show', '--name-only', '--format=', rev], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean).sort();
}

/** The payloads of one event type, in order. */
export function payloads(events: readonly EngineEvent[], type: string): Array<Record<string, unknown>> {
  return events.filter((e) => e.type === type).map((e) => e.payload);
}

/** The log lines the run wrote. */
export function logLines(events: readonly EngineEvent[]): string[] {
  return payloads(events, 'log').map((p) => String(p.message));
}

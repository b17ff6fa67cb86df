// The demo's setup, shared by `npm run demo` and `ratchet serve --demo`: a copy of the demo repository and the scripted agent.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Service } from '../engine';
import { loadScriptFile } from '../scripted/script-schema';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';

export const RESOURCES = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../resources');

export interface Demo {
  repo: string;
  work: string;
  server: ScriptedServer;
  /** Environment for the engine: the scripted server instead of the API, and a placeholder key. */
  env: NodeJS.ProcessEnv;
}

export async function startDemo(base: NodeJS.ProcessEnv = process.env): Promise<Demo> {
  const work = mkdtempSync(join(tmpdir(), 'ratchet-demo-'));
  const repo = join(work, 'calc');
  cpSync(join(RESOURCES, 'demo-repo'), repo, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Ratchet Demo', '-c', 'user.email=demo@localhost', ...args], { cwd: repo, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'Demo calculator');
  const server = await startScriptedServer({ script: loadScriptFile(join(RESOURCES, 'demo-script.json')) });
  return { repo, work, server, env: { ...base, ANTHROPIC_API_KEY: 'demo-key', ANTHROPIC_BASE_URL: server.url } };
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'paused', 'interrupted']);

export interface DemoRuns {
  /** The first run (3 steps; step 2 fails its test, the retry fixes it). */
  first: string;
  /** The second run, started when the first ends (its one step fails for good: Revise plan and Retry). */
  second: Promise<string>;
}

/**
 * What `npm run demo -- --app` shows by itself: the first run starts at once; when it ends, the second starts.
 * Both go through the service, as the app's New task would, so the app follows them live.
 */
export async function startDemoRuns(service: Service, demo: Demo): Promise<DemoRuns> {
  const start = service.handlers['runs.start'];
  // The demo's own workflow files (shipped with it, not written by an agent): trusted by the demo that starts them.
  const { runId: first } = await start({ repo: demo.repo, title: 'Calculator', description: '', workflowFile: join(demo.repo, 'ratchet.yml'), trust: true });
  const second = new Promise<string>((resolveSecond, reject) => {
    const off = service.subscribe((event, payload) => {
      const e = payload as { type?: string; runId?: string; payload?: { status?: string } };
      if (event !== 'runs.onEvent' || e.type !== 'run.status' || e.runId !== first || !TERMINAL.has(String(e.payload?.status))) return;
      off();
      start({ repo: demo.repo, title: 'Division that refuses zero', description: '', workflowFile: join(RESOURCES, 'demo-second.yml'), trust: true }).then(
        (r) => resolveSecond(r.runId),
        reject,
      );
    });
  });
  second.catch(() => undefined);
  return { first, second };
}

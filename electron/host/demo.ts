// The demo's setup, shared by `npm run demo` and `ratchet serve --demo`: a copy of the demo repository and the scripted agent.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Ratchet Demo', '-c', 'user.email=demo@localhost', ...args], { cwd: repo, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'Demo calculator');
  const server = await startScriptedServer({ script: loadScriptFile(join(RESOURCES, 'demo-script.json')) });
  return { repo, work, server, env: { ...base, ANTHROPIC_API_KEY: 'demo-key', ANTHROPIC_BASE_URL: server.url } };
}

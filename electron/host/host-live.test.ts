// A run started by `ratchet run` in a terminal shows up live in the browser app: its events arrive over the host's
// WebSocket as they happen, with no reload (the engine behind the host watches the store for other writers).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEventDoc } from '../../shared/contract';
import { create, queue, say, turn } from '../engine/testing/fixture-project';
import { until } from '../../shared/testing/until';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { connect, startTestHost, type TestHost } from './testing/test-host';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

let server: ScriptedServer | undefined;
let host: TestHost | undefined;
afterEach(async () => {
  await host?.close();
  await server?.close();
  host = undefined;
  server = undefined;
});

describe('runs started from the CLI', () => {
  it('stream into a connected app while they run', async () => {
    server = await startScriptedServer({ script: { rules: queue(turn(create('a.txt', 'a\n')), say('done')) } });
    const home = tempDir();
    host = await startTestHost({ home });
    const h = host.host;
    const ws = await connect(h.port, { origin: `http://127.0.0.1:${h.port}`, cookie: `${h.cookie}=${h.token}` });
    const events: EngineEventDoc[] = [];
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { event?: string; payload?: EngineEventDoc };
      if (m.event === 'runs.onEvent' && m.payload) events.push(m.payload);
    });

    const repo = makeRepo({ 'README.md': '# live\n' });
    const workflowFile = join(tempDir(), 'ratchet.yml');
    writeFileSync(workflowFile, 'gates:\n  ok: "test -f a.txt"\nsteps:\n  - title: Write a\n');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, RATCHET_HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const code = await new Promise<number | null>((ok) => {
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'ratchet.mjs'), 'run', repo, '--workflow', workflowFile, '--yes', '--json'], {
        cwd: ROOT,
        env,
        stdio: 'ignore',
      });
      child.once('exit', ok);
    });
    expect(code).toBe(0);
    await until(() => events.some((e) => e.type === 'run.status' && e.payload.status === 'succeeded'), {
      ms: 5_000,
      describe: 'the succeeded status over the socket',
    });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run.created');
    expect(types).toEqual(expect.arrayContaining(['step.started', 'attempt.started', 'gate.finished', 'step.committed']));
    expect(events.at(-1)).toMatchObject({ type: 'run.status', payload: { status: 'succeeded' } });
    expect(new Set(events.map((e) => e.runId)).size).toBe(1);
    ws.close();
  }, 60_000);
});

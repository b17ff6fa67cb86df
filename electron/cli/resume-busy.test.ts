// One owner per run, end to end: two real `ratchet resume <id>` processes started at once — exactly one runs the
// run, the other exits 2 saying which process on which host has it, and no step gets a second agent.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { createEngine } from '../engine/engine';
import { create } from '../engine/testing/fixture-project';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptResponse } from '../scripted/server';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const BIN = join(ROOT, 'bin', 'ratchet.mjs');

const WORKFLOW = `gates:
  one: "test -f steps/1.txt"
  two: "test -f steps/2.txt"
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 6 }
max_retries: 1
backoff: { base_s: 0, max_s: 0, jitter: 0 }
flaky_check: false
steps:
  - title: Write file 1
    prompt: Write steps/1.txt.
    gates: [one]
  - title: Write file 2
    prompt: Write steps/2.txt.
    gates: [two]
`;

/** Each step: a slow bash call (so the two processes overlap), then a file; "done" after a tool result. */
function script(req: RecordedRequest): ScriptResponse {
  const messages = (req.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.at(-1);
  if (Array.isArray(last?.content) && (last.content as Array<{ type?: string }>).some((b) => b.type === 'tool_result'))
    return { content: [{ type: 'text', text: 'done' }] };
  const k = /## Step (\d+) of/.exec(JSON.stringify(messages))?.[1] ?? '1';
  return { content: [{ type: 'tool_use', name: 'bash', input: { command: k === '1' ? 'sleep 4' : 'sleep 1' } }, create(`steps/${k}.txt`, `${k}\n`)] };
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.once('close', (code) => ok({ code, out, err }));
  });
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('two `ratchet resume <id>` at once', () => {
  it('exactly one runs; the other exits 2 with "busy in process N on host H"', async () => {
    server = await startScriptedServer({ script });
    const repo = makeRepo({ 'README.md': '# busy\n' });
    const home = tempDir();
    const workflowFile = join(tempDir(), 'ratchet.yml');
    writeFileSync(workflowFile, WORKFLOW);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      RATCHET_HOME: home,
      ANTHROPIC_API_KEY: 'sk-busy',
      ANTHROPIC_BASE_URL: server.url,
    };
    // An interrupted run, as a killed process leaves it.
    const engine = createEngine({ home, env });
    const runId = await engine.createRun(await engine.prepareRun({ repo, workflowFile }));
    engine.store.setRunStatus(runId, 'interrupted', 'The process running this run stopped during it.');
    engine.close();

    const [a, b] = await Promise.all([cli(['resume', runId, '--yes', '--json'], env), cli(['resume', runId, '--yes', '--json'], env)]);
    const winner = a.code === 0 ? a : b;
    const loser = a.code === 0 ? b : a;
    expect([a.code, b.code].sort(), `A: ${a.code} ${a.err}\nB: ${b.code} ${b.err}`).toEqual([0, 2]);
    expect(loser.err).toMatch(new RegExp(`Run ${runId} is busy in process \\d+ on host \\S+`));
    const doc = StatusDocument.parse(JSON.parse(winner.out));
    expect(doc.status).toBe('succeeded');
    // One agent per step: no attempt of a second process, nothing failed.
    expect(doc.steps.map((s) => s.attempts.map((x) => x.outcome))).toEqual([['passed'], ['passed']]);
    // The lease is given back when the run ends.
    const after = createEngine({ home, env });
    expect(after.store.getRun(runId)).toMatchObject({ owner_pid: null, owner_token: null, lease_until: null });
    after.close();
  }, 90_000);
});

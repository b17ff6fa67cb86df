import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../scripted/server';
import { queue, say, turn } from '../testing/fixture-project';
import { until } from '../testing/service-calls';
import { tempDir } from '../testing/temp-repo';
import type { AgentRunInput, TranscriptEntry } from './agent';
import { createAnthropicAgent } from './anthropic-agent';
import { createCommandAgent } from './command-agent';
import { loadPricing } from './pricing';
import { DEFAULT_PRICING_FILE } from '../engine';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function input(worktree: string, over: Partial<AgentRunInput> = {}) {
  const usage: Array<{ model: string; cost: number | null }> = [];
  const transcript: TranscriptEntry[] = [];
  const value: AgentRunInput = {
    worktree,
    system: 'You are a coding agent.',
    context: 'Task: demo',
    prompt: 'Step 1',
    model: 'claude-sonnet-5-5',
    maxTurns: 5,
    maxTokens: 1024,
    session: 'new',
    sessionId: null,
    signal: new AbortController().signal,
    onUsage: (model, _u, cost) => usage.push({ model, cost }),
    onTranscript: (e) => transcript.push(e),
    ...over,
  };
  return { value, usage, transcript };
}

describe('anthropic agent', () => {
  const pricing = loadPricing(DEFAULT_PRICING_FILE);

  it('hands malformed tool input back to the model as a tool error and goes on', async () => {
    server = await startScriptedServer({
      script: {
        rules: queue(
          turn({ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'create', path: 42 } }),
          turn({ type: 'tool_use', name: 'no_such_tool', input: {} }),
          turn({ type: 'tool_use', name: 'bash', input: { command: 'echo hi > out.txt; echo $ANTHROPIC_API_KEY' } }),
          say('done'),
        ),
      },
    });
    const wt = tempDir();
    const agent = createAnthropicAgent({ apiKey: 'sk-secret-123', baseURL: server.url, pricing, env: { ...process.env, ANTHROPIC_API_KEY: 'sk-secret-123' } });
    const run = input(wt);
    const result = await agent.run(run.value);
    expect(result.stop).toBe('end_turn');
    expect(result.turns).toBe(4);
    const toolResults = run.transcript.filter((e) => e.kind === 'tool_result');
    expect(toolResults.map((e) => e.isError)).toEqual([true, true, false]);
    expect(toolResults[0]?.text).toMatch(/path/);
    expect(toolResults[2]?.text).not.toContain('sk-secret-123');
    expect(readFileSync(join(wt, 'out.txt'), 'utf8')).toBe('hi\n');
    // The tool result went back to the model with is_error set.
    const second = server.requests[1]!.body as { messages: Array<{ content: Array<{ type: string; is_error?: boolean }> }> };
    expect(second.messages.at(-1)?.content[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(run.usage).toHaveLength(4);
    expect(run.usage.every((u) => u.cost !== null && u.cost > 0)).toBe(true);
  });

  it('stops at the turn budget and marks the stable prefix for caching', async () => {
    server = await startScriptedServer({ script: { rules: [{ response: turn({ type: 'tool_use', name: 'bash', input: { command: 'true' } }) }] } });
    const agent = createAnthropicAgent({ apiKey: 'k', baseURL: server.url, pricing, env: {} });
    const run = input(tempDir(), { maxTurns: 3 });
    const result = await agent.run(run.value);
    expect(result.stop).toBe('max_turns');
    expect(server.requests).toHaveLength(3);
    const body = server.requests[0]!.body as { system: Array<{ cache_control?: unknown }>; messages: Array<{ content: Array<{ cache_control?: unknown }> }> };
    expect(body.system[0]?.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages[0]?.content[0]?.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages[0]?.content[1]?.cache_control).toBeUndefined();
  });

  it('reports a 400 as an API error no retry can fix, and survives a 529 through the SDK retries', async () => {
    server = await startScriptedServer({
      script: { rules: queue({ error: { status: 529, retryAfter: 0 } }, say('ok'), { error: { status: 400, message: 'bad model' } }) },
    });
    const agent = createAnthropicAgent({ apiKey: 'k', baseURL: server.url, pricing, env: {} });
    const ok = await agent.run(input(tempDir()).value);
    expect(ok.stop).toBe('end_turn');
    const bad = await agent.run(input(tempDir()).value);
    expect(bad.stop).toBe('error');
    expect(bad.error).toMatchObject({ errorClass: 'api_error', status: 400, retriable: false });
  });

  it('prices an unknown model as unknown (null), not zero', async () => {
    server = await startScriptedServer({ script: { rules: queue(say('ok')) } });
    const agent = createAnthropicAgent({ apiKey: 'k', baseURL: server.url, pricing, env: {} });
    const run = input(tempDir(), { model: 'claude-imaginary-9' });
    await agent.run(run.value);
    expect(run.usage).toEqual([{ model: 'claude-imaginary-9', cost: null }]);
  });
});

describe('command agent', () => {
  function fakeCli(lines: string[], exit = 0): string {
    const dir = tempDir();
    const file = join(dir, 'fake-claude.mjs');
    writeFileSync(
      file,
      `#!/usr/bin/env node\nimport { writeFileSync } from 'node:fs';\nwriteFileSync('prompt.txt', process.argv.slice(2).join(' '));\n` +
        lines.map((l) => `console.log(${JSON.stringify(l)});`).join('\n') +
        `\nprocess.exit(${exit});\n`,
    );
    chmodSync(file, 0o755);
    return file;
  }

  it('parses Claude Code stream-json for transcript, cost and session', async () => {
    const cli = fakeCli([
      JSON.stringify({ type: 'system', subtype: 'init', session_id: 'sess-1' }),
      JSON.stringify({
        type: 'assistant',
        message: {
          content: [
            { type: 'text', text: 'Working on it' },
            { type: 'tool_use', name: 'Edit', input: { file_path: 'a.ts' } },
          ],
        },
      }),
      'not json at all',
      JSON.stringify({ type: 'result', subtype: 'success', is_error: false, total_cost_usd: 0.0421, num_turns: 3, session_id: 'sess-1', result: 'done' }),
    ]);
    const wt = tempDir();
    const agent = createCommandAgent({ command: [process.execPath, cli, '-p', '{prompt}', '--max-turns', '{max_turns}'], promptVia: 'arg', env: process.env });
    const run = input(wt, { maxTurns: 7 });
    const result = await agent.run(run.value);
    expect(result).toMatchObject({ stop: 'end_turn', sessionId: 'sess-1', reportedCostUsd: 0.0421, turns: 3 });
    expect(run.transcript.map((e) => e.kind)).toEqual(['text', 'tool_use', 'text']);
    expect(readFileSync(join(wt, 'prompt.txt'), 'utf8')).toContain('--max-turns 7');
  });

  it("records the tokens of Claude Code's stream-json usage once per attempt, at the CLI's own cost (no double count)", async () => {
    const usage = { input_tokens: 1200, output_tokens: 340, cache_read_input_tokens: 5000, cache_creation_input_tokens: 800 };
    const cli = fakeCli([
      JSON.stringify({ type: 'system', subtype: 'init', session_id: 's' }),
      JSON.stringify({ type: 'result', subtype: 'success', is_error: false, total_cost_usd: 0.0421, num_turns: 2, session_id: 's', result: 'done', usage }),
    ]);
    const seen: Array<{ model: string; u: unknown; cost: number | null }> = [];
    const agent = createCommandAgent({ command: [process.execPath, cli], promptVia: 'stdin', env: process.env });
    const result = await agent.run(input(tempDir(), { onUsage: (model, u, cost) => seen.push({ model, u, cost }) }).value);
    expect(seen).toEqual([
      { model: 'claude-sonnet-5-5', u: { inputTokens: 1200, outputTokens: 340, cacheReadTokens: 5000, cacheWriteTokens: 800 }, cost: 0.0421 },
    ]);
    // Already recorded through onUsage: the caller must not record the reported cost a second time.
    expect(result.reportedCostUsd).toBeNull();
  });

  it("prices Claude Code's usage by the pricing table when the CLI reports no cost", async () => {
    const cli = fakeCli([
      JSON.stringify({ type: 'result', subtype: 'success', is_error: false, num_turns: 1, result: 'ok', usage: { input_tokens: 1_000_000, output_tokens: 0 } }),
    ]);
    const pricing = loadPricing(DEFAULT_PRICING_FILE);
    const seen: Array<number | null> = [];
    const agent = createCommandAgent({ command: [process.execPath, cli], promptVia: 'stdin', env: process.env, pricing });
    await agent.run(input(tempDir(), { onUsage: (_m, _u, cost) => seen.push(cost) }).value);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThan(0);
  });

  it('reports is_error and a failing exit as an agent error', async () => {
    const cli = fakeCli([JSON.stringify({ type: 'result', is_error: true, result: 'Credit balance too low', total_cost_usd: 0 })], 1);
    const agent = createCommandAgent({ command: [process.execPath, cli], promptVia: 'stdin', env: process.env });
    const result = await agent.run(input(tempDir()).value);
    expect(result.stop).toBe('error');
    expect(result.error?.message).toContain('Credit balance too low');
  });

  it('sends a prompt past the argument limit (128 KiB) through stdin instead of failing with E2BIG', async () => {
    const dir = tempDir();
    const file = join(dir, 'fake-claude.mjs');
    writeFileSync(
      file,
      `#!/usr/bin/env node\nimport { readFileSync, writeFileSync } from 'node:fs';\n` +
        `writeFileSync('argv.txt', process.argv.slice(2).join(' '));\nwriteFileSync('stdin.txt', readFileSync(0, 'utf8'));\n` +
        `console.log(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, num_turns: 1, result: 'ok' }));\n`,
    );
    chmodSync(file, 0o755);
    const wt = tempDir();
    const agent = createCommandAgent({ command: [process.execPath, file, '-p', '{prompt}'], promptVia: 'arg', env: process.env });
    const longPrompt = 'x'.repeat(200 * 1024);
    const result = await agent.run(input(wt, { prompt: longPrompt }).value);
    expect(result.error).toBeNull();
    expect(result.stop).toBe('end_turn');
    expect(readFileSync(join(wt, 'stdin.txt'), 'utf8')).toContain(longPrompt);
    expect(readFileSync(join(wt, 'argv.txt'), 'utf8')).toBe('-p');
  });

  it('stops a CLI agent that ignores SIGTERM when the attempt is aborted: the whole group is gone after the grace period', async () => {
    const dir = tempDir();
    const file = join(dir, 'stubborn.mjs');
    // Ignores SIGTERM, writes its pid, and a child of its own that ignores SIGTERM too.
    writeFileSync(
      file,
      `import { spawn } from 'node:child_process';\nimport { writeFileSync } from 'node:fs';\nprocess.on('SIGTERM', () => {});\n` +
        `const c = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });\n` +
        `writeFileSync('pids.txt', process.pid + ' ' + c.pid);\nsetInterval(() => {}, 1000);\n`,
    );
    const wt = tempDir();
    const controller = new AbortController();
    const agent = createCommandAgent({ command: [process.execPath, file], promptVia: 'stdin', env: process.env });
    const running = agent.run(input(wt, { signal: controller.signal }).value);
    await until(() => existsSync(join(wt, 'pids.txt')));
    const pids = readFileSync(join(wt, 'pids.txt'), 'utf8').split(' ').map(Number);
    controller.abort();
    await running;
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await until(() => pids.every((pid) => !alive(pid)), 10_000).catch(() => undefined);
    expect(pids.filter(alive)).toEqual([]);
  }, 20_000);

  it('reports a program that does not exist', async () => {
    const agent = createCommandAgent({ command: ['/nonexistent/claude'], promptVia: 'arg', env: process.env });
    const result = await agent.run(input(tempDir()).value);
    expect(result.stop).toBe('error');
    expect(result.error?.retriable).toBe(false);
    expect(existsSync('/nonexistent/claude')).toBe(false);
  });
});

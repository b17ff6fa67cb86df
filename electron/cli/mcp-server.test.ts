import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StatusDocument } from '../../shared/domain';
import { createEngine, createService } from '../engine';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { create, fixtureProject, queue, replace, say, testFile, turn } from '../engine/testing/fixture-project';
import { SANDBOX_AVAILABLE, TEST_SANDBOX_MODE } from '../engine/testing/sandbox-mode';
import { LogsOutput, createMcpServer } from './mcp-tools';
import { cli } from './testing/run-cli';

const ROOT = resolve(__dirname, '../..');
let server: ScriptedServer | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await server?.close();
  server = undefined;
});

/** Two steps, no retry: step 2's first attempt fails its test, so the run fails; the retry's attempt fixes it. */
const TWO_STEPS = `
gates:
  test: { run: "node --test --test-reporter=tap", timeout: 60 }
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }
max_retries: 0
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
  - title: Add add()
    prompt: Write src/add.mjs exporting add(a, b) with a test.
  - title: Add mul()
    prompt: Write src/mul.mjs exporting mul(a, b) with a test.
`;

async function fixture() {
  const p = fixtureProject(TWO_STEPS);
  server = await startScriptedServer({
    script: {
      rules: queue(
        turn(create('src/add.mjs', 'export const add = (a, b) => a + b;\n'), create('test/add.test.mjs', testFile('adds', 'add', 'add', [2, 3], 5))),
        say('Added add().'),
        turn(create('src/mul.mjs', 'export const mul = (a, b) => a * a;\n'), create('test/mul.test.mjs', testFile('multiplies', 'mul', 'mul', [2, 3], 6))),
        say('Added mul().'),
        // The retry's attempt: the fix.
        turn(replace('src/mul.mjs', 'a * a', 'a * b')),
        say('Fixed mul().'),
      ),
    },
  });
  const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'sk-test-secret', ANTHROPIC_BASE_URL: server.url };
  return { p, env };
}

type Tool = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;
const toolOf =
  (client: Client): Tool =>
  async (name, args) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

const ENDED = ['failed', 'succeeded', 'paused'];
/** Calls status until the run has ended after `attempts` attempts in all (polling, as a client follows a run). */
async function follow(call: Tool, runId: string, attempts: number): Promise<StatusDocument> {
  const started = Date.now();
  for (;;) {
    const doc = StatusDocument.parse((await call('status', { runId })).structuredContent);
    if (ENDED.includes(doc.status) && doc.steps.reduce((n, s) => n + s.attempts.length, 0) >= attempts) return doc;
    if (Date.now() - started > 90_000) throw new Error(`run ${runId} stayed ${doc.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The whole story an MCP client tells: refused until trusted, a run started and followed, a failing step's tests read, a retry. */
async function story(call: Tool, p: { repo: string; workflowFile: string }, env: Record<string, string>) {
  const input = { repo: p.repo, workflowFile: p.workflowFile, title: 'Calculator' };
  const refused = await call('run', input);
  expect(refused.isError).toBe(true);
  const text = (refused.content[0] as { text: string }).text;
  expect(text).toContain('not trusted yet');
  expect(text).toContain(`ratchet trust ${JSON.stringify(p.repo)} --workflow ${JSON.stringify(p.workflowFile)}`);
  const trusted = await cli(['trust', p.repo, '--workflow', p.workflowFile], env);
  expect(trusted.code, trusted.err).toBe(0);

  const started = await call('run', input);
  expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
  const runId = (started.structuredContent as { runId: string }).runId;
  const failed = await follow(call, runId, 2);
  expect(failed.status).toBe('failed');
  expect(failed.steps.map((s) => s.status)).toEqual(['succeeded', 'failed']);

  const logs = LogsOutput.parse((await call('logs', { runId, step: 2, count: 5 })).structuredContent);
  expect(logs).toMatchObject({ step: 2, n: 1, outcome: 'failed', errorClass: 'test_failure' });
  expect(logs.gates[0]?.failures.map((f) => f.name)).toContain('multiplies');
  expect(logs.log).toMatchObject({ gate: 'test', from: 0 });
  expect(logs.log!.lines).toHaveLength(5);
  expect(logs.log!.total).toBeGreaterThan(5);
  const next = LogsOutput.parse((await call('logs', { runId, step: 2, from: 5, count: 1000 })).structuredContent);
  expect(next.log!.lines.join('\n')).toMatch(/not ok .*multiplies/);

  const retried = await call('retry', { runId });
  expect(retried.isError, JSON.stringify(retried.content)).toBeFalsy();
  const done = await follow(call, runId, 3);
  expect(done.status).toBe('succeeded');
  expect(done.steps[1]!.attempts.map((a) => a.outcome)).toEqual(['failed', 'passed']);
  const listed = (await call('list', {})).structuredContent as { runs: { id: string }[] };
  expect(listed.runs.map((r) => r.id)).toEqual([runId]);
  return runId;
}

describe('ratchet mcp', () => {
  it('the SDK client in-process starts a run, follows it to the end, reads the failing step’s tests and retries it; untrusted files are refused', async () => {
    const { p, env } = await fixture();
    const engine = createEngine({ home: p.home, env: { ...process.env, ...env }, sandbox: TEST_SANDBOX_MODE });
    const service = createService(engine, { host: 'headless', version: '0', env: { ...process.env, ...env } });
    const mcp = createMcpServer({ handlers: service.handlers, checkRunTrust: engine.checkRunTrust, team: false, version: '0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '0' });
    await Promise.all([mcp.connect(a), client.connect(b)]);
    cleanups.push(async () => {
      await client.close();
      await service.close();
      engine.close();
    });
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(['estimate', 'list', 'logs', 'resume', 'retry', 'review', 'run', 'status', 'stop'].sort());
    // Input and output schemas come from the contract: trust is not an input a client can pass.
    const run = (await client.listTools()).tools.find((t) => t.name === 'run')!;
    expect(Object.keys(run.inputSchema.properties ?? {})).toContain('workflowFile');
    expect(Object.keys(run.inputSchema.properties ?? {})).not.toContain('trust');
    const runId = await story(toolOf(client), p, env);

    // A workflow no longer trusted: retry refuses and names the command that trusts it again.
    const revoked = await cli(['trust', p.repo, '--revoke'], env);
    expect(revoked.code).toBe(0);
    const refused = await toolOf(client)('retry', { runId });
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toContain(`ratchet retry ${runId} --trust`);
  }, 120_000);

  it('team mode: run submits to the team, status and list answer the team’s documents, logs and review are for local runs', async () => {
    const submitted: unknown[] = [];
    const handlers = {
      'runs.start': async (input: unknown) => (submitted.push(input), { runId: 'team-1' }),
      'team.list': async () => [],
    } as unknown as Parameters<typeof createMcpServer>[0]['handlers'];
    const mcp = createMcpServer({ handlers, checkRunTrust: () => undefined, team: true, version: '0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '0' });
    await Promise.all([mcp.connect(a), client.connect(b)]);
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['estimate', 'list', 'resume', 'retry', 'run', 'status', 'stop']);
    const r = await toolOf(client)('run', { repo: '/r', title: 'T' });
    expect(r.structuredContent).toEqual({ runId: 'team-1' });
    expect(submitted).toEqual([expect.objectContaining({ repo: '/r', title: 'T', team: true })]);
    expect((await toolOf(client)('list', {})).structuredContent).toEqual({ runs: [] });
  });

  it.skipIf(!SANDBOX_AVAILABLE)(
    'the built CLI serves the same tools over stdio to the SDK client in a child process',
    async () => {
      const { p, env } = await fixture();
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(ROOT, 'out/cli/entry.mjs'), 'mcp'],
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'test', version: '0' });
      await client.connect(transport);
      cleanups.push(() => client.close());
      await story(toolOf(client), p, env);
    },
    120_000,
  );

  it('`ratchet mcp` answers an MCP initialize on stdout and nothing else there', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'out/cli/entry.mjs'), 'mcp'], { env: { PATH: process.env.PATH, RATCHET_HOME: fixtureProject().home } });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })}\n`,
    );
    const started = Date.now();
    while (!out.includes('\n') && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    const code = await new Promise((r) => child.once('exit', r));
    const reply = JSON.parse(out.split('\n')[0]!) as { result: { serverInfo: { name: string }; capabilities: { tools?: unknown } } };
    expect(reply.result.serverInfo.name).toBe('ratchet');
    expect(reply.result.capabilities.tools).toBeDefined();
    expect(code).toBe(0);
  }, 30_000);
});

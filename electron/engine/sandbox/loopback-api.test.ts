// A command agent (Claude Code) reaches the API endpoint it is configured with when that is a gateway on this machine (ANTHROPIC_BASE_URL on loopback), that host:port only — or is told at once why it cannot.
import { existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandAgent } from '../agents/command-agent';
import type { AgentRunResult } from '../agents/agent';
import { tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { noProxyCovers, noProxyExport } from './loopback';
import { createOsSandbox, type OsSandbox, type OwnedRunJail } from './os-sandbox';
import { anthropicApiHost } from './sandbox-policy';

let ratchetHome: string;
let sandbox: OsSandbox;
let api: Server;
let other: Server;
let apiPort: number;
let otherPort: number;
let n = 0;

async function listen(body: string): Promise<[Server, number]> {
  const s = createServer((_req, res) => res.end(body));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return [s, (s.address() as AddressInfo).port];
}

beforeAll(async () => {
  ratchetHome = realpathSync(tempDir('ratchet-loopback-home-'));
  sandbox = createOsSandbox({ mode: 'auto', ratchetHome, env: process.env });
  [api, apiPort] = await listen('api reached');
  [other, otherPort] = await listen('other reached');
});
afterAll(async () => {
  api?.close();
  other?.close();
  await sandbox?.dispose();
  rmSync(ratchetHome, { recursive: true, force: true });
});

/** Runs a command agent whose "CLI" is `script`, configured with ANTHROPIC_BASE_URL = `baseUrl`, as the engine builds it. */
async function agentRun(baseUrl: string, script: string): Promise<{ result: AgentRunResult; text: string; ms: number; worktree: string }> {
  const worktree = join(ratchetHome, 'worktrees', `lb-${process.pid}-${++n}`);
  mkdirSync(worktree, { recursive: true });
  const jail: OwnedRunJail = await sandbox.forRun({ worktree, network: [], envNames: [] });
  const env = { ANTHROPIC_BASE_URL: baseUrl };
  const agent = createCommandAgent({
    command: ['sh', '-c', script],
    promptVia: 'stdin',
    env: { ...jail.env, ...env },
    jail,
    apiHosts: [anthropicApiHost(env)],
  });
  const started = Date.now();
  try {
    const result = await agent.run({
      worktree,
      system: 's',
      context: 'c',
      prompt: 'p',
      model: 'm',
      maxTurns: 1,
      maxTokens: 1,
      session: 'new',
      sessionId: null,
      signal: new AbortController().signal,
      onUsage() {},
      onTranscript() {},
    });
    return { result, text: result.transcript.map((e) => e.text).join('\n'), ms: Date.now() - started, worktree };
  } finally {
    jail.release();
  }
}

describe('NO_PROXY for a command that must reach a loopback or private host through the proxy', () => {
  it('drops exactly the entries that would send that host direct', () => {
    expect(noProxyCovers('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(noProxyCovers('10.0.0.0/8', '10.1.2.3')).toBe(true);
    expect(noProxyCovers('192.168.0.0/16', '10.1.2.3')).toBe(false);
    expect(noProxyCovers('localhost', '127.0.0.1')).toBe(false);
    const line = noProxyExport(['127.0.0.1:4010']);
    expect(line).toMatch(/^export NO_PROXY='[^']*' no_proxy='[^']*'$/);
    expect(line).toContain('localhost');
    expect(line).not.toMatch(/[',]127\.0\.0\.1[,']/);
    expect(noProxyExport(['llm.example.test'])).toBe('');
  });
});

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'a command agent whose API is on this machine' : `loopback API — skipped: ${NO_SANDBOX_REASON}`, () => {
  it('reaches ANTHROPIC_BASE_URL on 127.0.0.1:<port> through the sandbox, and no other loopback port', async () => {
    // The "CLI": any HTTP client that honours the proxy variables, as Claude Code does.
    const { text } = await agentRun(
      `http://127.0.0.1:${apiPort}`,
      `curl -sS -m 5 "$ANTHROPIC_BASE_URL/v1/messages" 2>&1; echo; curl -sS -m 5 http://127.0.0.1:${otherPort}/ 2>&1; echo; curl -sS -m 5 --noproxy '*' http://127.0.0.1:${otherPort}/ 2>&1; echo`,
    );
    expect(text).toContain('api reached');
    expect(text).not.toContain('other reached');
  }, 60_000);

  it('says at once, before starting the agent, when nothing answers at that loopback endpoint', async () => {
    const [closed, port] = await listen('');
    await new Promise<void>((r) => closed.close(() => r()));
    const { result, ms, worktree } = await agentRun(`http://127.0.0.1:${port}`, 'touch started');
    expect(result.stop).toBe('error');
    expect(result.error?.message).toContain(`127.0.0.1:${port}`);
    expect(result.error?.message).toContain('ANTHROPIC_BASE_URL');
    expect(existsSync(join(worktree, 'started'))).toBe(false);
    expect(ms).toBeLessThan(10_000);
  }, 30_000);
});

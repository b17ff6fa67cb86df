// The engine sandboxes a whole run: a command agent and its gates cannot write outside the worktree; ratchet.yml's `sandbox:` key is validated.
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { privateRoot } from './private-dirs';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { WorkflowFile } from '../workflow/schema';

describe('ratchet.yml sandbox key', () => {
  const base = { steps: [{ title: 'one' }] };
  it('takes hosts (with *. and :port) and variable names', () => {
    const w = WorkflowFile.parse({ ...base, sandbox: { network: ['registry.example.com', '*.example.org', '127.0.0.1:5432'], env: ['NODE_OPTIONS'] } });
    expect(w.sandbox).toEqual({ network: ['registry.example.com', '*.example.org', '127.0.0.1:5432'], env: ['NODE_OPTIONS'] });
  });
  it('refuses URLs, bad names and unknown keys', () => {
    expect(WorkflowFile.safeParse({ ...base, sandbox: { network: ['https://example.com/x'] } }).success).toBe(false);
    expect(WorkflowFile.safeParse({ ...base, sandbox: { env: ['A-B'] } }).success).toBe(false);
    expect(WorkflowFile.safeParse({ ...base, sandbox: { write: ['/'] } }).success).toBe(false);
  });
});

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'a sandboxed run' : `a sandboxed run — skipped: ${NO_SANDBOX_REASON}`, () => {
  it('keeps a command agent and its gate inside the worktree, and commits what they wrote there', async () => {
    const repo = realpathSync(makeRepo({ 'a.txt': 'a\n' }));
    const agent = `echo agent > "${repo}/escaped-agent"; echo work > work.txt`;
    const gate = `echo gate > "${repo}/escaped-gate"; test -f work.txt`;
    writeFileSync(
      join(repo, 'ratchet.yml'),
      `gates: { ok: ${JSON.stringify(gate)} }\nagent: { kind: command, command: ["sh", "-c", ${JSON.stringify(agent)}] }\nsteps:\n  - title: one\n`,
    );
    sh(repo, 'add', 'ratchet.yml');
    sh(repo, 'commit', '-qm', 'workflow');
    const engine = createEngine({ home: tempDir('ratchet-sbx-engine-'), env: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-secret' } });
    try {
      expect(engine.sandboxStatus().state).toBe('on');
      const runId = await engine.createRun(await engine.prepareRun({ repo, trust: true }));
      const doc = await engine.execute(runId, new AbortController().signal);
      expect(doc.status).toBe('succeeded');
      expect(existsSync(join(repo, 'escaped-agent'))).toBe(false);
      expect(existsSync(join(repo, 'escaped-gate'))).toBe(false);
      expect(readFileSync(join(engine.store.getRun(runId)!.worktree, 'work.txt'), 'utf8')).toBe('work\n');
    } finally {
      engine.close();
      await engine.releaseSandbox();
    }
  });

  it("applies the workflow's sandbox.limits (a gate past file_mb fails as resource_exhaustion, not retried) and removes the run's private folder when it ends", async () => {
    const repo = realpathSync(makeRepo({ 'a.txt': 'a\n' }));
    writeFileSync(
      join(repo, 'ratchet.yml'),
      'gates: { big: "head -c 3000000 /dev/zero > big.bin" }\nagent: { kind: command, command: ["sh", "-c", "echo work > work.txt"] }\nsandbox: { limits: { file_mb: 1 } }\nsteps:\n  - title: one\n',
    );
    sh(repo, 'add', 'ratchet.yml');
    sh(repo, 'commit', '-qm', 'workflow');
    const engine = createEngine({ home: tempDir('ratchet-sbx-engine-'), env: process.env });
    try {
      const runId = await engine.createRun(await engine.prepareRun({ repo, trust: true }));
      const doc = await engine.execute(runId, new AbortController().signal);
      expect(doc.status).toBe('failed');
      expect(engine.store.getAttempts(runId).map((a) => a.error_class)).toEqual(['resource_exhaustion']);
      // Failed is final: its private folder is gone (a paused run keeps its own, for a command agent's session).
      expect(existsSync(join(privateRoot(), basename(engine.store.getRun(runId)!.worktree)))).toBe(false);
    } finally {
      engine.close();
      await engine.releaseSandbox();
    }
  });
});

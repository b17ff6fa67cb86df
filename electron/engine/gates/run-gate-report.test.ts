// A gate's report is a file the agent controls: what sits at its path never holds Ratchet up.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../testing/temp-repo';
import { closeEngine, envEngine, logLines, runWorkflow } from '../testing/worktree-env-fixtures';
import { runGate } from './run-gate';

let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'ratchet-gate-report-'));
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("a gate's report path", () => {
  it('a FIFO the gate leaves at its report path: the result comes back at once, the report ignored with a note', async () => {
    const cwd = fs.mkdtempSync(path.join(root, 'fifo-'));
    const started = performance.now();
    const r = await Promise.race([
      runGate({ name: 'test', run: 'mkfifo junit.xml; echo 1 failed; exit 1', timeoutS: 20, report: 'junit.xml' }, { cwd, env: process.env }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
    ]);
    expect(r, 'the gate never came back').not.toBeNull();
    expect(performance.now() - started).toBeLessThan(5000);
    expect(r!.passed).toBe(false);
    expect(r!.reportXml).toBeNull();
    expect(r!.reportNote).toMatch(/junit\.xml.*not a regular file/);
  });

  it('a link to /dev/zero at the report path is not read', async () => {
    const cwd = fs.mkdtempSync(path.join(root, 'zero-'));
    const r = await runGate({ name: 'test', run: 'ln -s /dev/zero junit.xml; exit 1', timeoutS: 20, report: 'junit.xml' }, { cwd, env: process.env });
    expect(r.reportXml).toBeNull();
    expect(r.reportNote).toMatch(/junit\.xml/);
  });
});

describe('a run whose gate leaves a FIFO at its report path', () => {
  it('ends (the gate fails as its exit code says) and its log says the report was ignored', async () => {
    const engine = envEngine();
    try {
      const repo = makeRepo({ 'README.md': '# app\n' });
      const r = await runWorkflow(
        engine,
        repo,
        `
gates: { test: { run: "mkfifo junit.xml; echo 'FAILED test_x'; exit 1", report: junit.xml } }
agent: { kind: command, command: ["sh", "-c", "date > work.txt"] }
max_retries: 0
steps: [{ title: one }]
`,
      );
      expect(r.doc.status).toBe('failed');
      expect(logLines(r.events).join('\n')).toMatch(/gate test: report ignored: junit\.xml is not a regular file \(a FIFO\)/);
    } finally {
      await closeEngine(engine);
    }
  }, 60_000);
});

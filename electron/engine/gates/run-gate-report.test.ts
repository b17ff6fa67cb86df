// A gate's report is a file the agent controls: what sits at its path never holds Ratchet up.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

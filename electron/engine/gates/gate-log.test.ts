// The whole gate output is read as it streams: a failure anywhere in a long log is kept (with its original line
// numbers) and parsed, and memory stays bounded however much a gate prints.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyGateFailure } from '../failures/classify';
import { GateLog, readGapNote } from './gate-log';
import { FAILURE_LINE_MARKERS, FAILURE_PARSERS, isFailureLine, parseFailures } from './parse-failures';
import { runGate } from './run-gate';

let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'ratchet-gate-log-'));
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** 10,001 TAP lines (the plan and 10,000 test points, about 885 KB), one failing at line 7,321, as in issue 29. */
function tapScript(dir: string): string {
  const file = path.join(dir, 'tap.js');
  fs.writeFileSync(
    file,
    [
      "const pad = 'x'.repeat(60);",
      "let out = '1..10000\\n';",
      'for (let i = 1; i <= 10000; i++) {',
      '  out += i === 7320 ? `not ok ${i} - parses the 7320th record ${pad}\\n` : `ok ${i} - handles record ${i} ${pad}\\n`;',
      '}',
      'process.stdout.write(out);',
      'process.exitCode = 1;',
    ].join('\n'),
  );
  return file;
}

describe('a long gate log keeps its failure', () => {
  it('finds a TAP failure at line 7,321 of 10,001, keeps it with its original line number, and never quotes the plan', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'tap-'));
    const script = tapScript(dir);
    const r = await runGate({ name: 'test', run: `"${process.execPath}" "${script}"`, timeoutS: 60 }, { cwd: dir, env: process.env });
    expect(r.outputBytes).toBeGreaterThan(800_000);
    expect(r.outputLines).toBe(10_001);
    expect(r.output.length).toBeLessThan(200_000);
    // The failing line is kept, and the notes around it say which original lines were left out.
    const lines = r.output.split('\n');
    const at = lines.findIndex((l) => l.startsWith('not ok 7320 '));
    expect(at).toBeGreaterThan(0);
    const before = lines
      .slice(0, at)
      .reverse()
      .find((l) => readGapNote(l) !== null)!;
    const gap = readGapNote(before)!;
    expect(gap.last + (at - lines.indexOf(before))).toBe(7_321);

    const failures = parseFailures({ output: r.output, reportXml: r.reportXml });
    expect(failures.map((f) => f.name)).toEqual([expect.stringContaining('parses the 7320th record')]);
    const c = classifyGateFailure(r, failures);
    expect(c.errorClass).toBe('test_failure');
    expect(c.message).not.toMatch(/1\.\.10000|^ok /);
  }, 60_000);

  it('with no failure marker, the unknown-error line is never a plan or an ok line', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'plan-'));
    const r = await runGate({ name: 'test', run: `printf 'ok 1 - a\\nok 2 - b\\n1..2\\n'; exit 1`, timeoutS: 20 }, { cwd: dir, env: process.env });
    const c = classifyGateFailure(r, parseFailures({ output: r.output }));
    expect(c.message).not.toMatch(/1\.\.2|ok 2 - b/);
  });

  it('keeps every failure of a 100,000-line log within its excerpt budget, in order, with notes between', () => {
    const log = new GateLog({ isFailureLine, headBytes: 1024, tailBytes: 1024 });
    const failing = new Set([5_000, 20_000, 77_777]);
    for (let i = 1; i <= 100_000; i++) log.push(failing.has(i) ? `not ok ${i} - case ${i}\n  ---\n  message: boom ${i}\n  ...\n` : `ok ${i} - case ${i}\n`);
    log.end();
    const text = log.toString();
    for (const n of failing) expect(text).toContain(`not ok ${n} - case ${n}\n  ---\n  message: boom ${n}`);
    expect(text.length).toBeLessThan(20_000);
    expect(parseFailures({ output: text }).map((f) => f.name)).toEqual(['case 5000', 'case 20000', 'case 77777']);
  });

  it('keeps a failure the fast chunk scan cannot see at a line start: coloured, or a marker inside a line (a compiler error)', () => {
    const log = new GateLog({ isFailureLine, markers: FAILURE_LINE_MARKERS, headBytes: 1024, tailBytes: 1024 });
    for (let i = 1; i <= 50_000; i++) {
      if (i === 10_000) log.push('\u001b[31mnot ok 10000 - coloured case\u001b[39m\n');
      else if (i === 30_000) log.push('src/lib.c:12:5: error: expected ‘;’ before ‘}’ token\n');
      else log.push(`ok ${i} - case ${i}\n`);
    }
    log.end();
    const text = log.toString();
    expect(text).toContain('not ok 10000 - coloured case');
    expect(text).toContain('src/lib.c:12:5: error: expected');
  });

  it('every output parser carries the marker that keeps its failures in a long log', () => {
    expect(FAILURE_PARSERS.filter((p) => !p.marker).map((p) => p.id)).toEqual([]);
  });

  it('gives back a short output byte for byte', () => {
    for (const text of ['', 'a', 'a\n', 'a\nb', 'a\r\nb\r\n', 'é\n\n\n']) {
      const log = new GateLog({ isFailureLine });
      for (const ch of Buffer.from(text)) log.push(Buffer.from([ch]));
      log.end();
      expect(log.toString()).toBe(text);
    }
  });
});

describe('a monorepo gate log', () => {
  it("keeps a failure behind pnpm's per-line prefix in the middle of a long output, and parses it from the root", () => {
    const log = new GateLog({ isFailureLine, markers: FAILURE_LINE_MARKERS, headBytes: 1024, tailBytes: 1024 });
    const filler = (n: number): string => Array.from({ length: n }, (_, i) => `packages/core test:  ✓ test/t${i}.test.ts (1 test) 3ms\n`).join('');
    log.push('packages/core test$ vitest run\npackages/prompts test$ vitest run\n');
    log.push(filler(2000));
    log.push('packages/prompts test:  FAIL  test/select.test.ts > select > picks by position\n');
    log.push("packages/prompts test: AssertionError: expected 'b' to be 'a' // Object.is equality\n");
    log.push('packages/prompts test:  ❯ test/select.test.ts:16:41\n');
    log.push(filler(2000));
    log.end();
    const kept = log.toString();
    expect(kept.length).toBeLessThan(20_000);
    expect(kept).toContain('packages/prompts test:  FAIL  test/select.test.ts > select > picks by position');
    const [f] = parseFailures({ output: kept });
    expect(f).toMatchObject({ name: 'test/select.test.ts > select > picks by position', file: 'packages/prompts/test/select.test.ts', line: 16 });
  });
});

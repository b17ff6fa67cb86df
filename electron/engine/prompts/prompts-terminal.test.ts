// What reaches the agent is text, not terminal: real runs recorded on a pseudo-terminal with colour forced on
// (gates/corpus/tty, scripts/record-corpus/record-tty.sh) go into the retry prompt with no escape byte and every
// failing test's name in one piece.
/* eslint-disable no-control-regex -- escape bytes are what these tests look for */
import { describe, expect, it } from 'vitest';
import { loadCorpus, normName } from '../gates/testing/failure-corpus';
import { parseFailures } from '../gates/parse-failures';
import { classifyGateFailure } from '../failures/classify';
import { retryContext } from './prompts';

const cases = loadCorpus().filter((c) => c.id.startsWith('tty/'));

/** The last part of a test's name as the tool prints it on its line ("list > adds numbers" → "adds numbers"). */
function leaf(name: string): string {
  return name
    .split(/ > | › |::|\//)
    .pop()!
    .trim();
}

describe('gate output recorded on a terminal with colour forced on reaches the agent as text', () => {
  it('has the five runners recorded', () => {
    expect(cases.map((c) => c.id).sort()).toEqual(['tty/cargo', 'tty/go', 'tty/jest', 'tty/pytest', 'tty/vitest']);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s: no escape byte or carriage return, each failing test named in one piece', (_id, c) => {
    const failures = parseFailures({ output: c.output, reportXml: c.report });
    const gate = {
      name: 'test',
      command: 'npm test',
      passed: false,
      exitCode: c.exitCode,
      signal: null,
      timedOut: false,
      durationMs: 1000,
      output: c.output,
      outputBytes: c.output.length,
      reportXml: null,
      spawnError: null,
    };
    const cls = classifyGateFailure(gate, failures);
    const prompt = retryContext({
      attempt: 2,
      maxAttempts: 3,
      errorClass: cls.errorClass,
      message: cls.message,
      gateLabel: 'the `test` gate',
      output: c.output,
      failures,
      hints: cls.hints,
      previousDiff: null,
    });
    expect(prompt).not.toMatch(/[\u001b\u009b\r\u0008]/);
    const quoted = prompt.slice(prompt.indexOf('Output of the `test` gate'));
    for (const t of c.truth.failures) {
      // In the quoted output as printed, and among the parsed failures.
      expect(quoted).toContain(leaf(t.name!));
      expect(failures.some((f) => normName(f.name).endsWith(normName(leaf(t.name!))))).toBe(true);
    }
  });

  it('the recordings really are terminal output (so the test above can fail)', () => {
    for (const c of cases.filter((x) => x.id !== 'tty/go')) expect(c.output).toMatch(/\u001b\[/);
    // vitest on a terminal redraws its progress lines (cursor up, erase line).
    expect(cases.find((c) => c.id === 'tty/vitest')!.output).toMatch(/\u001b\[1A|\u001b\[2K/);
  });
});

// @vitest-environment jsdom
// Tests for gate output: a huge output renders only the visible rows; exit status, size and line count are shown.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { GateOutput, LiveGateOutput } from './GateOutput';
import { installFake, stubLayout } from '../test-helpers';
import { applyDetailEvent, emptyDetail, useRunDetail, type RunDetail } from '../stores/run-detail';
import type { EngineEventDoc } from '../../../shared/contract';

stubLayout();

afterEach(cleanup);

describe('GateOutput', () => {
  it('keeps the DOM small for 200 000 lines of output', () => {
    const output = Array.from({ length: 200_000 }, (_, i) => `line ${i + 1} \u001b[32mok\u001b[39m`).join('\n');
    render(
      <GateOutput
        gate={{
          gate: 'build',
          command: 'npm run build',
          passed: false,
          exitCode: 2,
          signal: null,
          timedOut: false,
          durationMs: 96_400,
          output,
          outputBytes: output.length,
          failures: [],
        }}
      />,
    );
    expect(screen.getByText(/exit 2 · 1 min 36 s · .* MB · 200,000 lines/)).toBeTruthy();
    const rows = screen.getByRole('log').querySelectorAll('.vline');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(200);
    expect(rows[0]!.textContent).toBe('1line 1 ok');
  });

  it("numbers a kept log as the whole output and says how many lines that had, not the kept copy's (issue 29 item 2)", () => {
    const kept = ['1..10000', 'ok 1 - a', '[… lines 3–7,320 elided (112 KB) …]', 'not ok 7319 - broken', '[… lines 7,322–10,001 elided (41.7 KB) …]', ''].join(
      '\n',
    );
    render(
      <GateOutput
        gate={{
          gate: 'test',
          command: 'npm test',
          passed: false,
          exitCode: 1,
          signal: null,
          timedOut: false,
          durationMs: 1000,
          output: kept,
          outputBytes: 906_752,
          failures: [],
        }}
      />,
    );
    expect(screen.getByText(/885\.5 KB · 10,001 lines \(5 kept\)/)).toBeTruthy();
    const rows = [...screen.getByRole('log').querySelectorAll('.vline')].map((r) => r.textContent);
    expect(rows).toContain('7321not ok 7319 - broken');
    expect(rows).toContain('2ok 1 - a');
  });

  it('reads "stopped", not "failed", for a gate the user\'s Stop cut short', () => {
    const gate = {
      gate: 'test',
      command: 'npm test',
      passed: false,
      exitCode: null,
      signal: 'SIGTERM',
      timedOut: false,
      durationMs: 1000,
      output: 'warming up 1\n',
      outputBytes: 13,
      failures: [],
    };
    const { unmount } = render(<GateOutput gate={gate} stopped />);
    expect(screen.getByText('test stopped')).toBeTruthy();
    expect(screen.queryByText('test failed')).toBeNull();
    unmount();
    render(<GateOutput gate={gate} />);
    expect(screen.getByText('test failed')).toBeTruthy();
  });

  it('says "1 line", not "1 lines" (issue 20 item 23)', () => {
    render(
      <GateOutput
        gate={{
          gate: 'lint',
          command: 'npm run lint',
          passed: true,
          exitCode: 0,
          signal: null,
          timedOut: false,
          durationMs: 10,
          output: 'ok',
          outputBytes: 2,
          failures: [],
        }}
      />,
    );
    expect(screen.getByText(/ · 1 line$/)).toBeTruthy();
  });

  it('does not count the newline that ends the output as a line (issue 34 item 10)', () => {
    const gate = { gate: 'test', command: 'npm test', passed: true, exitCode: 0, signal: null, timedOut: false, durationMs: 10, failures: [] };
    render(<GateOutput gate={{ ...gate, output: 'ok 1\nok 2\n', outputBytes: 10 }} />);
    expect(screen.getByText(/ · 2 lines$/)).toBeTruthy();
  });

  it('names a timeout and a signal instead of an exit code', () => {
    render(
      <GateOutput
        gate={{
          gate: 'test',
          command: 'npm test',
          passed: false,
          exitCode: null,
          signal: 'SIGSEGV',
          timedOut: false,
          durationMs: 10,
          output: '',
          outputBytes: 0,
          failures: [],
        }}
      />,
    );
    expect(screen.getByText(/killed by SIGSEGV/)).toBeTruthy();
    expect(screen.getByText('No output.')).toBeTruthy();
  });

  it('pages a long log: draws its first lines at once and fetches the lines scrolled to (runs.gateLog)', async () => {
    const all = Array.from({ length: 30_000 }, (_, i) => `line ${i + 1}`);
    const fake = installFake({
      overrides: { 'runs.gateLog': ({ from, count }) => ({ from, lines: all.slice(from, from + count), total: all.length }) },
    });
    const head = all.slice(0, 500).join('\n');
    render(
      <GateOutput
        attempt={{ runId: 'r', step: 1, n: 2 }}
        gate={{
          gate: 'test',
          command: 'npm test',
          passed: false,
          exitCode: 1,
          signal: null,
          timedOut: false,
          durationMs: 10,
          output: head,
          outputBytes: 300_000,
          failures: [],
          partial: true,
          lineCount: all.length,
        }}
      />,
    );
    expect(screen.getByText(/30,000 lines/)).toBeTruthy();
    const log = screen.getByRole('log', { name: 'output of gate test' });
    expect(log.querySelector('.vline')!.textContent).toBe('1line 1');
    // The first screens are in the head: nothing was fetched for them.
    expect(fake.calls.filter((c) => c.method === 'runs.gateLog')).toEqual([]);
    act(() => {
      log.scrollTop = 20_000 * 18;
      log.dispatchEvent(new Event('scroll'));
    });
    await waitFor(() => expect(log.textContent).toContain('line 20001'));
    const asked = fake.calls.filter((c) => c.method === 'runs.gateLog').map((c) => c.input as { from: number; count: number; gate: string; n: number });
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((a) => a.gate === 'test' && a.n === 2 && a.count <= 1000)).toBe(true);
    expect(asked.some((a) => a.from <= 20_000 && a.from + a.count > 20_000)).toBe(true);
  });

  it("shows a running gate's output as it streams in", () => {
    installFake();
    let id = 0;
    const ev = (type: string, payload: Record<string, unknown>): EngineEventDoc => ({ id: ++id, runId: 'r', at: new Date().toISOString(), type, payload });
    let d: RunDetail = { ...emptyDetail('r'), status: 'ready' };
    d = applyDetailEvent(d, ev('attempt.started', { attemptId: 7, step: 1, n: 1 }));
    d = applyDetailEvent(d, ev('gate.started', { attemptId: 7, gate: 'test', command: 'npm test' }));
    act(() => useRunDetail.setState({ byId: { r: d } }));
    render(<LiveGateOutput runId="r" attemptKey="1:1" />);
    expect(screen.getByText('No output yet.')).toBeTruthy();
    const push = (text: string) =>
      act(() => {
        d = applyDetailEvent(d, ev('gate.output', { attemptId: 7, gate: 'test', text, skippedBytes: 0, seq: id }));
        useRunDetail.setState({ byId: { r: d } });
      });
    push('building\n');
    push('ok 1 - adds two numbers\n');
    const log = screen.getByRole('log', { name: 'live output of gate test' });
    expect(log.textContent).toContain('building');
    expect(log.textContent).toContain('ok 1 - adds two numbers');
  });
});

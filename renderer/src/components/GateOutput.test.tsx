// @vitest-environment jsdom
// Tests for gate output: a huge output renders only the visible rows; exit status, size and line count are shown.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { GateOutput } from './GateOutput';
import { stubLayout } from '../test-helpers';

stubLayout();

afterEach(cleanup);

describe('GateOutput', () => {
  it('keeps the DOM small for 200 000 lines of output', () => {
    const output = Array.from({ length: 200_000 }, (_, i) => `line ${i + 1} \u001b[32mok\u001b[39m`).join('\n');
    render(<GateOutput gate={{ gate: 'build', command: 'npm run build', passed: false, exitCode: 2, signal: null, timedOut: false, durationMs: 96_400, output, outputBytes: output.length, failures: [] }} />);
    expect(screen.getByText(/exit 2 · 1m 36s · .* MB · 200,000 lines/)).toBeTruthy();
    const rows = screen.getByRole('log').querySelectorAll('.vline');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(200);
    expect(rows[0]!.textContent).toBe('1line 1 ok');
  });

  it('names a timeout and a signal instead of an exit code', () => {
    render(<GateOutput gate={{ gate: 'test', command: 'npm test', passed: false, exitCode: null, signal: 'SIGSEGV', timedOut: false, durationMs: 10, output: '', outputBytes: 0, failures: [] }} />);
    expect(screen.getByText(/killed by SIGSEGV/)).toBeTruthy();
    expect(screen.getByText('No output.')).toBeTruthy();
  });
});

// @vitest-environment jsdom
// Tests for the attempt panel: the latest attempt first, and a failed attempt's error class, decision, gate and failing tests.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RUN_IDS } from '../../dev/fixtures-runs';
import { installFake } from '../test-helpers';
import { useRunDetail } from '../stores/run-detail';
import { AttemptPanel } from './AttemptPanel';

afterEach(cleanup);
// The diff view loads on first use (outside the entry chunk): loaded once here, as the app has it after its first diff.
beforeAll(() => import('./ReviewDiff'), 60_000);
beforeEach(() => {
  installFake();
});

describe('AttemptPanel', () => {
  it('opens on the latest attempt, and shows a failed one with its error, decision, gate and failing test', async () => {
    await useRunDetail.getState().open(RUN_IDS.health);
    const step = useRunDetail.getState().byId[RUN_IDS.health]!.doc!.steps[1]!;
    render(<AttemptPanel runId={RUN_IDS.health} step={step} waitingWakeAt={null} />);

    expect(screen.getByRole('tab', { name: /Attempt 2/ }).getAttribute('aria-selected')).toBe('true');
    await screen.findByText('test passed');

    fireEvent.click(screen.getByRole('tab', { name: /Attempt 1/ }));
    await screen.findByText('test failed');
    expect(screen.getByText('1 test failed: Player > heal() caps at max health')).toBeTruthy();
    expect(screen.getByText(/retry 1 of 3 in 60 s/)).toBeTruthy();
    expect(screen.getByText('after waiting 1 min')).toBeTruthy();

    const table = screen.getByRole('table');
    expect(within(table).getByText('1 failing test')).toBeTruthy();
    expect(within(table).getByText('100')).toBeTruthy();
    expect(within(table).getByText('120')).toBeTruthy();
    expect(within(table).getByText('src/player.test.ts:42')).toBeTruthy();

    const output = screen.getByRole('log', { name: 'output of gate test' });
    expect(output.textContent).toContain('AssertionError');
    // ANSI colours become palette classes, not escape codes.
    expect(output.textContent).not.toContain('\u001b');
    expect(output.querySelector('.ansi-red')).not.toBeNull();
    expect((await screen.findByRole('region', { name: 'attempt diff' })).querySelector('.diff-add')).not.toBeNull();
  });

  it('counts down the backoff of the decision the run is waiting on', async () => {
    await useRunDetail.getState().open(RUN_IDS.waiting);
    const step = useRunDetail.getState().byId[RUN_IDS.waiting]!.doc!.steps[1]!;
    const wakeAt = new Date(Date.now() + 75_000).toISOString();
    render(<AttemptPanel runId={RUN_IDS.waiting} step={step} waitingWakeAt={wakeAt} />);
    await waitFor(() => expect(screen.getByText(/next attempt/).textContent).toMatch(/next attempt in 1:1[45]/));
    expect(screen.getByText(/escalating to claude-opus-5-5, new session/)).toBeTruthy();
  });

  it('says when a step has not been attempted', () => {
    render(<AttemptPanel runId="r" step={{ index: 3, title: 'x', status: 'pending', commit: null, attempts: [] }} waitingWakeAt={null} />);
    expect(screen.getByText('Step 3 has not been attempted yet.')).toBeTruthy();
  });
});

describe('AttemptPanel failure locations', () => {
  it('links a failure whose file is in the diff to that new line of the diff, and highlights it', async () => {
    await useRunDetail.getState().open(RUN_IDS.health);
    const step = useRunDetail.getState().byId[RUN_IDS.health]!.doc!.steps[1]!;
    render(<AttemptPanel runId={RUN_IDS.health} step={step} waitingWakeAt={null} />);
    fireEvent.click(screen.getByRole('tab', { name: /Attempt 1/ }));
    await screen.findByText('test failed');

    const diff = await screen.findByRole('region', { name: 'attempt diff' });
    expect(diff.querySelector('[aria-current="location"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'src/player.test.ts:42' }));
    // src/player.test.ts's hunk starts at new line 36: line 42 is the added `it('heal() caps at max health'` line.
    await waitFor(() => expect(diff.querySelector('[aria-current="location"]')?.textContent).toBe("42+  it('heal() caps at max health', () => {"));
    expect(screen.getByRole('log', { name: 'output of gate test' }).querySelector('.vline-target')).toBeNull();
  });

  it('links a failure whose file is not in the diff to the gate-output line naming that line (absolute paths too)', async () => {
    await useRunDetail.getState().open(RUN_IDS.failed);
    const step = useRunDetail.getState().byId[RUN_IDS.failed]!.doc!.steps[0]!;
    render(<AttemptPanel runId={RUN_IDS.failed} step={step} waitingWakeAt={null} />);
    const link = await screen.findByRole('button', { name: '/home/dev/code/http-kit/src/ws/reconnect.ts:58:19' });
    fireEvent.click(link);
    const output = screen.getByRole('log', { name: /output of gate/ });
    // tsc writes `file(line,col)`: the line of error 58, not the first line naming the file.
    await waitFor(() => expect(output.querySelector('.vline-target')?.textContent).toContain('reconnect.ts(58,19)'));
    expect(screen.getByRole('region', { name: 'attempt diff' }).querySelector('[aria-current="location"]')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'src/ws/reconnect.ts:41:7' }));
    await waitFor(() => expect(output.querySelector('.vline-target')?.textContent).toContain('reconnect.ts(41,7)'));
  });
});

describe('AttemptPanel puts the failure first', () => {
  it('shows the failing-tests table, then the decision, then the raw gate logs collapsed', async () => {
    await useRunDetail.getState().open(RUN_IDS.health);
    const step = useRunDetail.getState().byId[RUN_IDS.health]!.doc!.steps[1]!;
    const { container } = render(<AttemptPanel runId={RUN_IDS.health} step={step} waitingWakeAt={null} />);
    fireEvent.click(screen.getByRole('tab', { name: /Attempt 1/ }));
    await screen.findByText('test failed');
    const table = container.querySelector('table.failing-tests')!;
    const decision = container.querySelector('.decision')!;
    const logs = container.querySelector('details.gate-logs') as HTMLDetailsElement;
    expect(table.compareDocumentPosition(decision) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(decision.compareDocumentPosition(logs) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(logs.open).toBe(false);
  });
});

describe('AttemptPanel diff base', () => {
  it("shows a retry's own change by default, with the step's and the whole run's change one click away", async () => {
    await useRunDetail.getState().open(RUN_IDS.health);
    const step = useRunDetail.getState().byId[RUN_IDS.health]!.doc!.steps[1]!;
    render(<AttemptPanel runId={RUN_IDS.health} step={step} waitingWakeAt={null} />);
    const own = await screen.findByRole('radio', { name: 'This attempt (since attempt 1)' });
    expect(own.getAttribute('aria-checked')).toBe('true');
    const whole = screen.getByRole('radio', { name: 'Whole run' });
    fireEvent.click(whole);
    expect(whole.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('radio', { name: "Since the step's start" })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('region', { name: 'attempt diff' })).toBeTruthy());
  });
});

describe('AttemptPanel counts (issue 20 item 22)', () => {
  const gate = (name: string, passed: boolean, failures: Array<Record<string, unknown>> = []) => ({
    gate: name,
    command: 'npm test',
    passed,
    exitCode: passed ? 0 : 1,
    signal: null,
    timedOut: false,
    durationMs: 5,
    output: 'x',
    outputBytes: 1,
    failures,
  });

  it('says "1 of 2 passed" when a gate failed on its flaky re-run too', async () => {
    const failure = { name: 'test_player_health', message: 'Expected 100, got 0', expected: '100', actual: '0', file: null, line: null };
    const fake = installFake();
    const original = fake.bridge.invoke.bind(fake.bridge);
    fake.bridge.invoke = async (method, input) => {
      const r = await original(method, input);
      if (method !== 'runs.attempt' || !r.ok) return r;
      const d = r.value as { gates: unknown[] };
      return { ok: true, value: { ...d, gates: [gate('test', false, [failure]), gate('test (flaky check)', false, [failure]), gate('build', true)] } };
    };
    await useRunDetail.getState().open(RUN_IDS.health);
    const step = useRunDetail.getState().byId[RUN_IDS.health]!.doc!.steps[1]!;
    render(<AttemptPanel runId={RUN_IDS.health} step={step} waitingWakeAt={null} />);
    fireEvent.click(screen.getByRole('tab', { name: /Attempt 1/ }));
    expect(await screen.findByText(/1 of 2 passed/)).toBeTruthy();
    expect(screen.queryByText(/of 3 passed/)).toBeNull();
  });

  it('a test-first attempt: repository-relative paths, the error line instead of empty pills, the user’s sentence with the agent’s words folded (issue 34 item 5)', async () => {
    const WT = '/tmp/ratchet-home/worktrees/slug-1';
    const loadFailure = { name: `${WT}/test/slug.test.mjs`, message: null, expected: null, actual: null, file: `${WT}/test/slug.test.mjs`, line: null };
    const output = [
      `✖ ${WT}/test/slug.test.mjs (41.2ms)`,
      "  Error: Cannot find module '../src/slug.mjs'",
      `      at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)`,
      'ℹ tests 1',
    ].join('\n');
    const agentWords =
      "test first: the gates passed with your new test in place (test/slug.test.mjs): the test must fail until the step's change is made — make it check what this step adds, and leave the implementation (revert it if you wrote it) for the next attempt";
    const fake = installFake();
    const original = fake.bridge.invoke.bind(fake.bridge);
    fake.bridge.invoke = async (method, input) => {
      const r = await original(method, input);
      if (method !== 'runs.attempt' || !r.ok) return r;
      const d = r.value as { gates: unknown[] };
      return {
        ok: true,
        value: {
          ...d,
          errorClass: 'tdd_violation',
          errorMessage: agentWords,
          gates: [{ ...gate('test', false, [loadFailure]), output, outputBytes: output.length }],
        },
      };
    };
    await useRunDetail.getState().open(RUN_IDS.health);
    const step = useRunDetail.getState().byId[RUN_IDS.health]!.doc!.steps[1]!;
    render(<AttemptPanel runId={RUN_IDS.health} step={step} waitingWakeAt={null} worktree={WT} runLive={false} />);
    fireEvent.click(screen.getByRole('tab', { name: /Attempt 1/ }));
    const table = await screen.findByRole('table');
    // The failing test file's path is the repository's, in its name and its location.
    expect(table.textContent).not.toContain(WT);
    expect(within(table).getAllByText('test/slug.test.mjs').length).toBeGreaterThan(0);
    // No empty Expected/Got pills: the line that says why.
    expect(within(table).getByText("Error: Cannot find module '../src/slug.mjs'")).toBeTruthy();
    expect(within(table).queryByText('—')).toBeNull();
    // The user reads a sentence of the app's; the agent's words ("your new test…") are folded under their own label.
    const box = screen.getByRole('note', { name: '' });
    const sentence = box.querySelector('.error-sentence')?.textContent ?? box.textContent!;
    expect(sentence).toMatch(/^Test first: the gates passed with the attempt’s new test in place \(test\/slug\.test\.mjs\)/);
    expect(sentence).not.toMatch(/your/);
    const folded = within(box).getByText('Prompt sent to the agent').closest('details')!;
    expect(folded.open).toBe(false);
    expect(folded.textContent).toContain('your new test');
  });
});

// @vitest-environment jsdom
// Tests for the step timeline: status, attempts, failures, duration and cost per step; choosing a step by click or arrow keys.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { makeRuns, RUN_IDS } from '../../dev/fixtures-runs';
import { StepTimeline } from './StepTimeline';
import { StatusIcon } from './StatusBadge';
import { money } from '../lib/format';

afterEach(cleanup);
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const doc = makeRuns(NOW).find((r) => r.doc.id === RUN_IDS.health)!.doc;
const timing = {
  '2:1': { startedAt: '2026-11-22T10:00:00.000Z', finishedAt: '2026-11-22T10:01:00.000Z' },
  '2:2': { startedAt: '2026-11-22T10:02:00.000Z', finishedAt: '2026-11-22T10:02:30.000Z' },
};

describe('StepTimeline', () => {
  it('shows each step with its status, attempts, failures, duration, cost and commit', () => {
    render(<StepTimeline steps={doc.steps} selected={2} onSelect={() => undefined} timing={timing} now={NOW} />);
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const step2 = within(items[1]!);
    expect(step2.getByRole('img', { name: 'succeeded' })).toBeTruthy();
    expect(step2.getByText('2 attempts')).toBeTruthy();
    expect(step2.getByText('1 failed (test failure)')).toBeTruthy();
    expect(step2.getByText('1 min 30 s')).toBeTruthy();
    const cost = doc.steps[1]!.attempts.reduce((t, a) => t + a.costUsd!, 0);
    expect(step2.getByText(money(cost))).toBeTruthy();
    expect(step2.getByText('b7d20f4c')).toBeTruthy();
    expect(items[1]!.querySelector('button')!.getAttribute('aria-current')).toBe('step');
    // No timing known for step 1: its duration is not invented.
    expect(within(items[0]!).getByText('—')).toBeTruthy();
  });

  it('selects a step on click and with the arrow keys', () => {
    const onSelect = vi.fn();
    render(<StepTimeline steps={doc.steps} selected={2} onSelect={onSelect} timing={{}} now={NOW} />);
    fireEvent.click(screen.getByText('Emit a died signal at zero health'));
    expect(onSelect).toHaveBeenLastCalledWith(3);
    const buttons = screen.getAllByRole('button');
    fireEvent.keyDown(buttons[1]!, { key: 'ArrowUp' });
    expect(onSelect).toHaveBeenLastCalledWith(1);
  });

  it('arrow keys move through every step and keep the focus; the list is one Tab stop (issue 34 item 7)', () => {
    const onSelect = vi.fn();
    render(<StepTimeline steps={doc.steps} selected={1} onSelect={onSelect} timing={{}} now={NOW} />);
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.tabIndex)).toEqual([0, -1, -1]);
    buttons[0]!.focus();
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(buttons[1]);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(buttons[2]);
    expect(onSelect).toHaveBeenLastCalledWith(3);
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(document.activeElement).toBe(buttons[0]);
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(buttons[2]);
  });

  it('a stopped step does not keep the running icon (issue 13 item 4)', () => {
    const stopped = doc.steps.map((s, i) =>
      i === 2 ? { ...s, status: 'pending' as const, attempts: [{ ...s.attempts[0]!, outcome: 'interrupted' as const }] } : s,
    );
    const { unmount } = render(<StepTimeline steps={stopped} selected={3} onSelect={() => undefined} timing={{}} now={NOW} runActive={false} />);
    const step3 = within(screen.getAllByRole('listitem')[2]!);
    expect(step3.getByRole('img', { name: 'stopped' })).toBeTruthy();
    expect(step3.queryByRole('img', { name: 'running' })).toBeNull();
    unmount();
    // A run stopped before the engine reset its step: the stored status still says running, the run does not.
    const stale = doc.steps.map((s, i) => (i === 2 ? { ...s, status: 'running' as const } : s));
    render(<StepTimeline steps={stale} selected={3} onSelect={() => undefined} timing={{}} now={NOW} runActive={false} />);
    expect(within(screen.getAllByRole('listitem')[2]!).getByRole('img', { name: 'stopped' })).toBeTruthy();
  });

  it('shows a run waiting to retry with a clock on its step, not a spinner (issue 34 item 11)', () => {
    const waiting = makeRuns(NOW).find((r) => r.doc.id === RUN_IDS.waiting)!.doc;
    const steps = waiting.steps.map((st) => (st.status === 'failed' || st.status === 'pending' ? st : st));
    const current = steps.find((st) => st.status !== 'succeeded')!;
    const withRunning = steps.map((st) => (st === current ? { ...st, status: 'running' as const } : st));
    render(<StepTimeline steps={withRunning} selected={null} onSelect={() => undefined} timing={{}} now={NOW} runWaiting />);
    expect(screen.getByRole('img', { name: 'waiting to retry' })).toBeTruthy();
    expect(document.querySelector('.status-icon.spinning')).toBeNull();
  });

  it('marks a test-first attempt red as expected, not with a check, and the step as test first (issue 34 item 5)', () => {
    const steps = doc.steps.map((st, i) =>
      i === 0
        ? {
            ...st,
            attempts: [
              { ...st.attempts[0]!, n: 1, outcome: 'red' as const },
              { ...st.attempts[0]!, n: 2, outcome: 'passed' as const },
            ],
          }
        : st,
    );
    render(<StepTimeline steps={steps} selected={null} onSelect={() => undefined} timing={{}} now={NOW} />);
    const first = within(screen.getAllByRole('listitem')[0]!);
    expect(first.getByText('test first')).toBeTruthy();
    cleanup();
    render(<StatusIcon status="red" />);
    const mark = screen.getByRole('img', { name: /red, as expected/ });
    expect(mark.getAttribute('data-mark')).toBe('red');
    expect(mark.className).not.toContain('tone-good');
  });
});

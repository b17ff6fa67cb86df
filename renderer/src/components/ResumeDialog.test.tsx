// @vitest-environment jsdom
// Tests for the resume dialog: safe defaults preselected, the user's choices and auto-progress sent to runs.resume.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RUN_IDS } from '../../dev/fixtures-runs';
import type { FakeBridge } from '../../dev/fake-bridge';
import { makeResumeInfo } from '../../dev/fixtures-misc';
import { installFake, NOW } from '../test-helpers';
import { ResumeDialog } from './ResumeDialog';

let fake: FakeBridge;
afterEach(cleanup);
beforeEach(() => {
  // The safe default is deliberately not the first option, so preselecting "the first" would be caught.
  fake = installFake({
    overrides: {
      'runs.resumeInfo': ({ runId }) => {
        const info = makeResumeInfo(fake.runs.get(runId)!.doc, fake.runs.get(runId)!.summary.title, NOW);
        info.plan.required = info.plan.required.map((r) => (r.code === 'dirty_tree' ? { ...r, options: ['stash', 'rescue_commit', 'abort'] } : r));
        return info;
      },
    },
  });
});

const group = (name: RegExp) => screen.getAllByRole('group').find((g) => name.test(g.querySelector('legend')?.textContent ?? ''))!;

describe('ResumeDialog', () => {
  it('counts the runs a step kept failing in, not its failures: one run four times is "in this run" (issue 34 item 10)', async () => {
    fake = installFake({
      overrides: {
        'runs.resumeInfo': ({ runId }) => {
          const info = makeResumeInfo(fake.runs.get(runId)!.doc, fake.runs.get(runId)!.summary.title, NOW);
          const one = info.repeatedFailures[0]!;
          info.repeatedFailures = [1, 2, 3, 4].map((n) => ({ ...one, runId, n }));
          return info;
        },
      },
    });
    render(<ResumeDialog runId={RUN_IDS.interrupted} onClose={() => undefined} onResumed={() => undefined} />);
    expect(await screen.findByText(/It failed 4 times in this run\./)).toBeTruthy();
    expect(screen.queryByText(/across runs/)).toBeNull();
  });

  it('shows the plan, preselects each safe default, and sends the chosen options', async () => {
    const onResumed = vi.fn();
    render(<ResumeDialog runId={RUN_IDS.interrupted} onClose={() => undefined} onResumed={onResumed} />);
    await screen.findByText('Migrate the config loader to zod');
    expect(screen.getByText(/Retry step 2/)).toBeTruthy();
    expect(screen.getByText(/step 1: Describe the config schema with zod/)).toBeTruthy();
    expect(screen.getByText('This step keeps failing')).toBeTruthy();
    // Two runs in the fixture's list (one earlier run twice, this one once): counted as runs, not failures (issue 34 item 10).
    expect(screen.getByText(/It failed 3 times across 2 runs\./)).toBeTruthy();
    expect(screen.getByText('src/config/load.ts')).toBeTruthy();

    const dirty = group(/dirty tree/);
    const wrong = group(/wrong branch/);
    expect((within(dirty).getByLabelText(/rescue commit/) as HTMLInputElement).checked).toBe(true);
    expect((within(wrong).getByLabelText(/Check out the run’s branch/) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Run to the end') as HTMLInputElement).checked).toBe(true);

    fireEvent.click(within(dirty).getByLabelText(/stash/));
    fireEvent.click(screen.getByLabelText('Stop after this step'));
    fireEvent.click(screen.getByRole('button', { name: 'Proceed' }));

    await waitFor(() => expect(onResumed).toHaveBeenCalledWith(RUN_IDS.interrupted));
    expect(fake.calls.find((c) => c.method === 'runs.resume')!.input).toEqual({
      runId: RUN_IDS.interrupted,
      choices: { dirty_tree: 'stash', wrong_branch: 'checkout_branch' },
      auto: 'step',
      skipStep: false,
      // The contract's default: the dialog resumes with the pre-run check in force (Run anyway is the run screen's own button).
      runAnyway: false,
    });
  });

  it('shows phase x/total, the last step with its agent/model and status, and the agent the next step will use (seed 003)', async () => {
    fake = installFake({
      overrides: {
        'runs.resumeInfo': ({ runId }) => ({
          ...makeResumeInfo(fake.runs.get(runId)!.doc, fake.runs.get(runId)!.summary.title, NOW),
          phase: { index: 2, total: 3, name: 'Loader' },
          lastStep: { index: 2, title: 'Parse the file', agent: 'anthropic', model: 'claude-sonnet-5-5', status: 'failed' },
          nextAgent: { agent: 'anthropic', model: 'claude-opus-5-5' },
        }),
      },
    });
    render(<ResumeDialog runId={RUN_IDS.interrupted} onClose={() => undefined} onResumed={() => undefined} />);
    expect(await screen.findByText('2/3 — Loader')).toBeTruthy();
    expect(screen.getByText('2: Parse the file (anthropic, claude-sonnet-5-5) — failed')).toBeTruthy();
    expect(screen.getByText('anthropic, claude-opus-5-5')).toBeTruthy();
  });

  it('says an interrupted run’s last step was interrupted, not running (issue 20 item 14)', async () => {
    fake = installFake({
      overrides: {
        'runs.resumeInfo': ({ runId }) => ({
          ...makeResumeInfo(fake.runs.get(runId)!.doc, fake.runs.get(runId)!.summary.title, NOW),
          status: 'interrupted',
          lastStep: { index: 1, title: 'Add add()', agent: 'anthropic', model: 'claude-sonnet-5-5', status: 'running' },
        }),
      },
    });
    render(<ResumeDialog runId={RUN_IDS.interrupted} onClose={() => undefined} onResumed={() => undefined} />);
    expect(await screen.findByText('1: Add add() (anthropic, claude-sonnet-5-5) — interrupted')).toBeTruthy();
  });

  it('sends the safe defaults untouched when the user just proceeds', async () => {
    render(<ResumeDialog runId={RUN_IDS.interrupted} onClose={() => undefined} onResumed={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Proceed' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'runs.resume')).toBe(true));
    expect(fake.calls.find((c) => c.method === 'runs.resume')!.input).toMatchObject({
      choices: { dirty_tree: 'rescue_commit', wrong_branch: 'checkout_branch' },
      auto: 'run',
    });
  });

  it('shows the engine’s error and keeps the dialog open when resuming fails', async () => {
    fake = installFake({
      overrides: {
        'runs.resume': () => {
          throw new Error('The worktree is locked by another process.');
        },
      },
    });
    const onResumed = vi.fn();
    render(<ResumeDialog runId={RUN_IDS.interrupted} onClose={() => undefined} onResumed={onResumed} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Proceed' }));
    expect(await screen.findByText('The worktree is locked by another process.')).toBeTruthy();
    expect(onResumed).not.toHaveBeenCalled();
  });

  it('closes on Escape', async () => {
    const onClose = vi.fn();
    render(<ResumeDialog runId={RUN_IDS.interrupted} onClose={onClose} onResumed={() => undefined} />);
    await screen.findByText('Migrate the config loader to zod');
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
});

// @vitest-environment jsdom
// The run screen tells the truth at a glance: an interrupted run's attempt does not say running, no
// gate spinner turns, its diff resolves, and its step lasts as long as the attempt did, not until now.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { RUN_IDS } from '../../dev/fixtures-runs';
import type { FakeBridge } from '../../dev/fake-bridge';
import { getApi } from '../api/client';
import { connectEvents } from '../stores/engine-events';
import { installFake, NOW } from '../test-helpers';
import { runTimes, RunScreen } from './RunScreen';

let off: (() => void) | null = null;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  off?.();
  off = null;
  vi.useRealTimers();
  cleanup();
});

const iso = (ms: number) => new Date(ms).toISOString();
/** The "gate test running: npm test" line, with its spinner. */
const gateRunningLine = () => [...document.querySelectorAll('p')].find((p) => /gate test running/.test(p.textContent ?? '')) ?? null;
const STARTED = NOW - 13 * 60_000;

/** The interrupted fixture run, its last attempt left as the dead process left it (outcome running, a gate started). */
function interruptedMidGate(fake: FakeBridge): void {
  const r = fake.runs.get(RUN_IDS.interrupted)!;
  r.doc = {
    ...r.doc,
    steps: r.doc.steps.map((s) => (s.index === 2 ? { ...s, attempts: s.attempts.map((a) => (a.n === 2 ? { ...a, outcome: 'running' as const } : a)) } : s)),
  };
  fake.record(RUN_IDS.interrupted, 'attempt.started', { attemptId: 72, step: 2, n: 2, model: 'claude-sonnet-5-5', agent: 'anthropic', round: 0 }, iso(STARTED));
  fake.record(RUN_IDS.interrupted, 'agent.transcript', { attemptId: 72, kind: 'text', text: 'Reading the loader before changing it.' }, iso(STARTED + 3_000));
  fake.record(RUN_IDS.interrupted, 'gate.started', { attemptId: 72, gate: 'test', command: 'npm test' }, iso(STARTED + 8_000));
}

describe('an interrupted run does not look alive (issue 20 item 14)', () => {
  it('shows its last attempt stopped, with no spinner, a diff that loads, and no duration counted up to now', async () => {
    const fake = installFake();
    interruptedMidGate(fake);
    render(<RunScreen runId={RUN_IDS.interrupted} step={2} />);
    const panel = await screen.findByRole('tabpanel', { name: 'attempt 2' });
    expect(within(panel).queryAllByText('running')).toHaveLength(0);
    expect(within(panel).getAllByText('interrupted').length).toBeGreaterThan(0);
    expect(document.querySelector('.spinner')).toBeNull();
    expect(gateRunningLine()).toBeNull();
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'runs.attemptDiff')).toBe(true));
    await waitFor(() => expect(screen.queryByText('Loading the diff…')).toBeNull());
    const step2 = screen.getAllByRole('listitem').find((li) => li.textContent?.includes('Load and validate config files'))!;
    expect(step2.textContent).not.toMatch(/13 min/);
    expect(within(step2).getByRole('img', { name: 'stopped' })).toBeTruthy();
  });

  it('keeps what the agent said in an attempt its process never finished (the engine ends it as interrupted)', async () => {
    const fake = installFake({ history: false });
    interruptedMidGate(fake);
    fake.record(
      RUN_IDS.interrupted,
      'attempt.finished',
      { attemptId: 72, outcome: 'interrupted', errorClass: null, summary: null, finishedAt: iso(STARTED + 8_000) },
      iso(NOW - 60_000),
    );
    // As the engine has it: a transcript is stored when an attempt finishes, which this one never did.
    const original = fake.bridge.invoke.bind(fake.bridge);
    fake.bridge.invoke = async (method, input) => {
      const r = await original(method, input);
      return method === 'runs.attempt' && r.ok ? { ok: true, value: { ...(r.value as object), transcript: [] } } : r;
    };
    render(<RunScreen runId={RUN_IDS.interrupted} step={2} />);
    const panel = await screen.findByRole('tabpanel', { name: 'attempt 2' });
    expect(await within(panel).findByText('Reading the loader before changing it.')).toBeTruthy();
  });

  it('ends the attempt where the engine says it ended when the run is found interrupted live', async () => {
    // Only this attempt's events: the step's duration is this attempt's.
    const fake = installFake({ history: false });
    interruptedMidGate(fake);
    const r = fake.runs.get(RUN_IDS.interrupted)!;
    r.doc = { ...r.doc, status: 'running' };
    off = connectEvents(getApi());
    render(<RunScreen runId={RUN_IDS.interrupted} step={2} />);
    await waitFor(() => expect(gateRunningLine()).not.toBeNull());
    fake.engineEvent(RUN_IDS.interrupted, 'attempt.finished', {
      attemptId: 72,
      outcome: 'interrupted',
      errorClass: null,
      summary: null,
      finishedAt: iso(STARTED + 8_000),
    });
    fake.engineEvent(RUN_IDS.interrupted, 'run.status', { status: 'interrupted', reason: 'The process running this run stopped during it.', wakeAt: null });
    await waitFor(() => expect(gateRunningLine()).toBeNull());
    const step2 = screen.getAllByRole('listitem').find((li) => li.textContent?.includes('Load and validate config files'))!;
    await waitFor(() => expect(step2.textContent).toMatch(/\b8 s\b/));
    expect(document.querySelector('.spinner')).toBeNull();
  });
});

const FAILED_REASON = [
  'Step 1 "Reconnect with jittered backoff" failed: compilation error: limit of 2 retries reached.',
  'Attempts summary:',
  '1. Initial: Compilation error',
  '2. Retry 1: the same compilation error again',
  'Remaining issues:',
  "- Compilation error: Property 'jitter' does not exist on type 'BackoffOptions'.",
  '',
  'Next steps:',
  '1. Review the errors above',
  '2. Check if the task description was clear enough',
  '3. Update the task or the plan with more specific instructions (`ratchet plan <run-id> --edit plan.yml`)',
  '4. Retry the run (`ratchet retry <run-id>`, or Retry in the app): the step gets its retries afresh',
].join('\n');

describe('terminal text in the app (issue 20 item 20)', () => {
  it('shows a failed run’s reason as paragraphs and lists, with no CLI command, and the page’s own buttons', async () => {
    const fake = installFake();
    const r = fake.runs.get(RUN_IDS.failed)!;
    r.doc = { ...r.doc, reason: FAILED_REASON };
    r.summary = { ...r.summary, reason: FAILED_REASON };
    render(<RunScreen runId={RUN_IDS.failed} step={null} />);
    await screen.findByRole('heading', { level: 1 });
    const header = document.querySelector('.run-header')!;
    expect(header.textContent).not.toMatch(/ratchet (plan|retry|resume)|<run-id>|`/);
    const more = header.querySelector('details.run-reason-more')!;
    expect(within(more as HTMLElement).getByText('Next steps')).toBeTruthy();
    const lists = more.querySelectorAll('ol, ul');
    expect(lists.length).toBe(3);
    expect(lists[2]!.querySelectorAll('li')).toHaveLength(4);
    // The buttons the reason's next steps named stand out: Revise plan (Retry is the primary already).
    expect(within(header as HTMLElement).getByRole('button', { name: /Revise plan/ }).className).toContain('suggested');
  });
});

describe('the estimate a run started with (issue 33)', () => {
  it('is set against what the run spent (estimate-text.test.ts: over its 90th percentile)', async () => {
    const fake = installFake();
    const r = fake.runs.get(RUN_IDS.interrupted)!;
    const estimate = { usd: { p50: 0.4, p90: 1.1 }, minutes: { p50: 6.2, p90: 13.8 }, basis: { runs: 23 }, confidence: 'ok' as const };
    r.doc = { ...r.doc, costUsd: 0.31, estimate };
    render(<RunScreen runId={RUN_IDS.interrupted} step={null} />);
    expect((await screen.findByLabelText('estimate against actual')).textContent).toBe('about $0.40, up to $1.10 · 6–14 min · spent $0.31, so far');
  });

  it('says when the run started and how long it took (issue 34 item 11)', () => {
    const at = (minAgo: number) => new Date(NOW - minAgo * 60_000).toISOString();
    expect(runTimes('succeeded', at(3), new Date(NOW - 3 * 60_000 + 58_000).toISOString(), NOW)).toBe('started 3 min ago · took 58 s');
    expect(runTimes('running', new Date(NOW - 91_000).toISOString(), at(1), NOW)).toBe('started 1 min 31 s ago');
  });
});

describe('a scheduled run (issue 35)', () => {
  it('says in its header which schedule started it, with its cron and zone', async () => {
    const fake = installFake();
    const r = fake.runs.get(RUN_IDS.interrupted)!;
    r.doc = { ...r.doc, schedule: { id: 'sch-1a2b3c4d', cron: '0 3 * * *', tz: 'Europe/Paris' } };
    render(<RunScreen runId={RUN_IDS.interrupted} step={null} />);
    expect((await screen.findByLabelText('started by')).textContent).toBe('Started by schedule sch-1a2b3c4d · 0 3 * * * (Europe/Paris)');
  });

  it('says nothing of the kind for a run started by hand', async () => {
    installFake();
    render(<RunScreen runId={RUN_IDS.interrupted} step={null} />);
    await screen.findByText('repository');
    expect(screen.queryByLabelText('started by')).toBeNull();
  });
});

// Delivery against a real local HTTP server: ntfy's text POST and headers, the webhook's JSON, retries on 5xx, dead ports and hanging servers.
import { afterEach, describe, expect, it } from 'vitest';
import { NO_TARGETS, WebhookPayload } from '../../../shared/notify';
import { ntfyRequest } from './channels/ntfy';
import { deliver, headerText, redactUrl } from './deliver';
import { buildNotice } from './messages';
import { createNotifier, resolveTargets, type DeliveryReport } from './notifier';
import { deadPort, startCaptureServer, type CaptureServer } from './testing/capture-server';

// Generous per-request time: a loaded machine must not turn a delivered notice into a retry.
const FAST = { timeoutMs: 10_000, retries: 2, backoffMs: () => 20 };
const failed = buildNotice({
  runId: 'r1',
  task: 'Add login',
  repo: '/src/app',
  costUsd: 0.42,
  status: 'failed',
  event: 'run.failed',
  step: { index: 3, title: 'Write tests' },
  attempts: 4,
  maxAttempts: 4,
  cause: 'test_failure',
});
const recovered = buildNotice({
  runId: 'r1',
  task: 'Add login',
  repo: '/src/app',
  costUsd: 0.3,
  status: 'running',
  event: 'step.succeeded_after_retry',
  step: { index: 2, title: 'Tests' },
  attempts: 2,
  maxAttempts: 4,
});

let servers: CaptureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
async function server(opts?: Parameters<typeof startCaptureServer>[0]) {
  const s = await startCaptureServer(opts);
  servers.push(s);
  return s;
}

describe('ntfy and webhook requests', () => {
  it('posts the sentence as plain text to the topic with Title, Priority and Tags (high for a failure, default otherwise)', async () => {
    const s = await server();
    const reports: DeliveryReport[] = [];
    const n = createNotifier({ targets: { ...NO_TARGETS, ntfy: `${s.url}/my-topic` }, report: (r) => reports.push(r), tuning: FAST });
    n.send(failed);
    n.send(recovered);
    await n.flush(5000);
    expect(s.requests).toHaveLength(2);
    const [a, b] = [s.requests.find((r) => r.headers.priority === 'high')!, s.requests.find((r) => r.headers.priority === 'default')!];
    expect(a.method).toBe('POST');
    expect(a.path).toBe('/my-topic');
    expect(a.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(a.headers.title).toBe("Ratchet: 'Add login' failed");
    expect(a.headers.tags).toBe('x');
    expect(a.body).toBe("Run 'Add login' failed at step 3 'Write tests' after 4 attempts ($0.42): Test failure. Next: ratchet retry r1");
    expect(b.body).toContain('succeeded on attempt 2/4');
    expect(b.headers.tags).toBe('white_check_mark,arrows_counterclockwise');
    expect(reports.map((r) => [r.event, r.target, r.result])).toEqual(
      expect.arrayContaining([
        ['run.failed', 'ntfy', { ok: true, tries: 1 }],
        ['step.succeeded_after_retry', 'ntfy', { ok: true, tries: 1 }],
      ]),
    );
  });

  it('sends a title that is not ASCII as an RFC 2047 encoded word, which decodes back to it', async () => {
    const s = await server();
    const n = buildNotice({
      runId: 'r1',
      repo: '/src/app',
      costUsd: 0.1,
      task: 'Añadir login — ✓',
      event: 'run.succeeded',
      status: 'succeeded',
      stepsDone: 1,
      stepsTotal: 1,
      branch: 'b',
    });
    await deliver(ntfyRequest(`${s.url}/t`, n), new AbortController().signal, FAST);
    const m = /^=\?UTF-8\?B\?(.+)\?=$/.exec(String(s.requests[0]!.headers.title));
    expect(Buffer.from(m![1]!, 'base64').toString('utf8')).toBe("Ratchet: 'Añadir login — ✓' succeeded");
    expect(s.requests[0]!.body).toContain('Añadir login — ✓');
    expect(headerText('plain\nline')).toBe('plain line');
  });

  it('posts the webhook exactly { event, runId, task, repo, status, step, attempts, maxAttempts, costUsd, message } as JSON', async () => {
    const s = await server();
    const n = createNotifier({
      targets: { ...NO_TARGETS, webhook: `${s.url.replace('//', '//ci:s3cret@')}/hook?token=abc` },
      report: () => undefined,
      tuning: FAST,
    });
    n.send(failed);
    await n.flush(5000);
    const r = s.requests[0]!;
    expect(r.path).toBe('/hook?token=abc');
    expect(r.headers['content-type']).toBe('application/json');
    // Credentials in the URL travel as Basic authorization (fetch refuses them in the URL).
    expect(r.headers.authorization).toBe(`Basic ${Buffer.from('ci:s3cret').toString('base64')}`);
    const body = JSON.parse(r.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['event', 'runId', 'task', 'repo', 'status', 'step', 'attempts', 'maxAttempts', 'costUsd', 'message']);
    expect(WebhookPayload.parse(body)).toEqual({
      event: 'run.failed',
      runId: 'r1',
      task: 'Add login',
      repo: '/src/app',
      status: 'failed',
      step: 3,
      attempts: 4,
      maxAttempts: 4,
      costUsd: 0.42,
      message: failed.body,
    });
  });
});

describe('delivery', () => {
  it('retries a server that answers 500, then 200', async () => {
    const s = await server({ statuses: [500] });
    const r = await deliver(ntfyRequest(`${s.url}/t`, failed), new AbortController().signal, FAST);
    expect(r).toEqual({ ok: true, tries: 2 });
    expect(s.requests).toHaveLength(2);
  });

  it('does not retry a 4xx other than 429 (the request itself is wrong)', async () => {
    const s = await server({ statuses: [403, 200] });
    const r = await deliver(ntfyRequest(`${s.url}/t`, failed), new AbortController().signal, FAST);
    expect(r).toEqual({ ok: false, tries: 1, reason: 'HTTP 403 Forbidden' });
    const busy = await server({ statuses: [429] });
    expect(await deliver(ntfyRequest(`${busy.url}/t`, failed), new AbortController().signal, FAST)).toEqual({ ok: true, tries: 2 });
  });

  it('gives up on a dead port after its retries, saying why without the secret part of the URL', async () => {
    const port = await deadPort();
    const url = `http://user:pw@127.0.0.1:${port}/secret-topic?auth=tk_123`;
    const reports: DeliveryReport[] = [];
    const n = createNotifier({ targets: { ...NO_TARGETS, ntfy: url }, report: (r) => reports.push(r), tuning: FAST });
    n.send(failed);
    await n.flush(5000);
    expect(reports).toHaveLength(1);
    const r = reports[0]!;
    expect(r.url).toBe(`http://127.0.0.1:${port}/…`);
    expect(r.result).toMatchObject({ ok: false, tries: 3 });
    expect(JSON.stringify(r)).toContain('ECONNREFUSED');
    expect(JSON.stringify(r)).not.toMatch(/secret-topic|tk_123|pw@/);
  });

  it('flush waits no longer than its bound for a server that never answers, and reports the notice as not delivered', async () => {
    const s = await server({ hang: true });
    const reports: DeliveryReport[] = [];
    const n = createNotifier({
      targets: { ...NO_TARGETS, ntfy: `${s.url}/t`, webhook: `${s.url}/hook` },
      report: (r) => reports.push(r),
      tuning: { timeoutMs: 60_000, retries: 2, backoffMs: () => 10 },
    });
    const sent = Date.now();
    n.send(failed);
    expect(Date.now() - sent).toBeLessThan(500);
    const started = Date.now();
    await n.flush(400);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(reports.map((r) => [r.target, r.result.ok])).toEqual(
      expect.arrayContaining([
        ['ntfy', false],
        ['webhook', false],
      ]),
    );
    expect(reports[0]!.result).toMatchObject({ reason: expect.stringContaining('stopped waiting') });
  });

  it('a per-request timeout counts as a failed try, then retries', async () => {
    const s = await server({ hang: true });
    const r = await deliver(ntfyRequest(`${s.url}/t`, failed), new AbortController().signal, { timeoutMs: 100, retries: 1, backoffMs: () => 10 });
    expect(r).toEqual({ ok: false, tries: 2, reason: 'no answer within 0.1 s' });
    expect(s.requests).toHaveLength(2);
  });
});

describe('targets', () => {
  it('takes each target from the workflow when it names it (null switches it off), else from Settings', () => {
    const settings = { ...NO_TARGETS, ntfy: 'https://ntfy.example.com/mine', webhook: 'https://hooks.example.com/x' };
    expect(resolveTargets(undefined, settings)).toEqual(settings);
    expect(resolveTargets({ ntfy: 'https://ntfy.example.com/team' }, settings)).toEqual({ ...settings, ntfy: 'https://ntfy.example.com/team' });
    expect(resolveTargets({ webhook: null }, settings)).toEqual({ ...settings, webhook: null });
  });

  it('redacts a URL to its scheme and host', () => {
    expect(redactUrl('https://ntfy.example.com/topic?auth=x')).toBe('https://ntfy.example.com/…');
    expect(redactUrl('https://hooks.example.com/')).toBe('https://hooks.example.com');
  });
});

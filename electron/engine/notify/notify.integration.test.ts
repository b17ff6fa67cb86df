// Integration: real runs (scripted Anthropic server, real git and gates) notify a real local HTTP server, and an undeliverable notification never fails or holds a run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookPayload } from '../../../shared/notify';
import { startScriptedServer, type ScriptedServer, type ScriptResponse } from '../../scripted/server';
import { createEngine, type EngineDeps } from '../engine';
import { readRunMetas } from '../git/run-refs';
import { create, fixtureProject, queue, say, turn } from '../testing/fixture-project';
import { flipGate } from '../testing/flip-gate';
import { TEST_SANDBOX_MODE } from '../testing/sandbox-mode';
import { deadPort, startCaptureServer, type CaptureServer } from './testing/capture-server';

let scripted: ScriptedServer | undefined;
let hooks: CaptureServer[] = [];
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
  await Promise.all(hooks.map((h) => h.close()));
  hooks = [];
});

const work = (file: string): ScriptResponse[] => [turn(create(file, `${file}\n`)), say('done')];
const NO_WAIT = 'backoff: { base_s: 0, max_s: 0, jitter: 0 }\nflaky_check: false';
const FAST: EngineDeps['notify'] = { tuning: { timeoutMs: 10_000, retries: 2, backoffMs: () => 20 }, flushMs: 15_000 };

async function hook(opts?: Parameters<typeof startCaptureServer>[0]) {
  const h = await startCaptureServer(opts);
  hooks.push(h);
  return h;
}

async function run(yaml: string, responses: ScriptResponse[], opts: { settings?: object; notify?: EngineDeps['notify'] } = {}) {
  const p = fixtureProject(yaml);
  if (opts.settings) {
    mkdirSync(p.home, { recursive: true });
    writeFileSync(join(p.home, 'settings.json'), JSON.stringify(opts.settings));
  }
  scripted = await startScriptedServer({ script: { rules: queue(...responses) } });
  const engine = createEngine({
    home: p.home,
    env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: scripted.url },
    sandbox: TEST_SANDBOX_MODE,
    notify: opts.notify ?? FAST,
  });
  const events: Array<{ type: string; payload: Record<string, unknown>; at: number }> = [];
  engine.onEvent((e) => events.push({ type: e.type, payload: e.payload, at: Date.now() }));
  const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
  const doc = await engine.execute(runId, new AbortController().signal);
  const returnedAt = Date.now();
  engine.close();
  await engine.releaseSandbox();
  return { runId, doc, events, returnedAt, repo: p.repo };
}

describe('notifications from a real run', () => {
  it('a run that fails after its retries sends ntfy a high-priority message and the webhook its JSON', async () => {
    const h = await hook();
    const yaml = `gates: { test: "echo 'not ok 1 - adds'; exit 1" }\n${NO_WAIT}\nmax_retries: 1\nnotify: { ntfy: "${h.url}/ratchet-topic", webhook: "${h.url}/hook?token=Tok_SECRET-9" }\nsteps:\n  - title: Write tests\n`;
    const { runId, doc, events, repo } = await run(yaml, [...work('a1'), ...work('a2')]);
    expect(doc.status).toBe('failed');
    // The URLs (a token may be in them) stay in Ratchet's store, out of the repository's meta ref.
    const meta = (await readRunMetas(repo)).find((m) => m.runId === runId)!;
    expect(JSON.stringify(meta)).not.toContain('Tok_SECRET-9');
    const ntfy = h.requests.filter((r) => r.path === '/ratchet-topic');
    const webhook = h.requests.filter((r) => r.path === '/hook?token=Tok_SECRET-9');
    expect(ntfy).toHaveLength(1);
    expect(ntfy[0]!.headers.priority).toBe('high');
    expect(ntfy[0]!.headers.title).toBe("Ratchet: 'Write tests' failed");
    expect(ntfy[0]!.body).toMatch(
      new RegExp(
        `^Run 'Write tests' failed at step 1 'Write tests' after 2 attempts \\((\\$\\d+\\.\\d+|cost unknown)\\): Test failure\\. Next: ratchet retry ${runId}$`,
      ),
    );
    expect(webhook).toHaveLength(1);
    expect(webhook[0]!.headers['content-type']).toBe('application/json');
    const payload = WebhookPayload.parse(JSON.parse(webhook[0]!.body));
    expect(payload).toMatchObject({
      event: 'run.failed',
      runId,
      task: 'Write tests',
      status: 'failed',
      step: 1,
      attempts: 2,
      maxAttempts: 2,
      message: ntfy[0]!.body,
    });
    expect(payload.repo).toBe(doc.repo);
    expect(payload.costUsd).toBe(doc.costUsd);
    // Delivered, and said so in the run's events (with the host only).
    const sent = events.filter((e) => e.type === 'notify.sent').map((e) => e.payload);
    expect(sent).toEqual(
      expect.arrayContaining([
        { event: 'run.failed', target: 'ntfy', url: `${h.url}/…`, tries: 1 },
        { event: 'run.failed', target: 'webhook', url: `${h.url}/…`, tries: 1 },
      ]),
    );
  });

  it('success after a retry, a budget alert and the success itself go out at default priority; a dead webhook is logged and the run still succeeds', async () => {
    const h = await hook();
    const port = await deadPort();
    const yaml = `gates: { test: ${JSON.stringify(flipGate(1))} }\n${NO_WAIT}\nbudget: { task_usd: 100, alert_at: 0.000001 }\nnotify: { ntfy: "${h.url}/t", webhook: "http://127.0.0.1:${port}/hook?secret=s3" }\nsteps:\n  - title: Flaky step\n`;
    const { doc, events } = await run(yaml, [...work('a1'), ...work('a2')]);
    expect(doc.status).toBe('succeeded');
    const byPriority = h.requests.map((r) => [r.headers.title, r.headers.priority]);
    expect(byPriority).toEqual(
      expect.arrayContaining([
        ["Ratchet: 'Flaky step' recovered", 'default'],
        ['Ratchet: budget alert', 'default'],
        ["Ratchet: 'Flaky step' succeeded", 'default'],
      ]),
    );
    expect(h.requests.find((r) => r.headers.title === "Ratchet: 'Flaky step' recovered")!.body).toContain("step 1 'Flaky step' succeeded on attempt 2/");
    const failed = events.filter((e) => e.type === 'notify.failed').map((e) => e.payload);
    expect(failed.map((f) => f.event).sort()).toEqual(['budget.alert', 'run.succeeded', 'step.succeeded_after_retry']);
    for (const f of failed) {
      expect(f).toMatchObject({ target: 'webhook', url: `http://127.0.0.1:${port}/…`, tries: 3, reason: expect.stringContaining('ECONNREFUSED') });
      expect(JSON.stringify(f)).not.toContain('s3');
    }
  });

  it('a server that never answers does not hold the run beyond the bound; the notice is logged as not delivered (targets from Settings)', async () => {
    const h = await hook({ hang: true });
    const yaml = `gates: { test: "true" }\n${NO_WAIT}\nsteps:\n  - title: Quick\n`;
    const { doc, events, returnedAt } = await run(yaml, work('a1'), {
      settings: { notify: { ntfy: `${h.url}/slow` } },
      notify: { tuning: { timeoutMs: 60_000, retries: 2, backoffMs: () => 20 }, flushMs: 300 },
    });
    expect(doc.status).toBe('succeeded');
    const ended = events.find((e) => e.type === 'run.status' && e.payload.status === 'succeeded')!.at;
    expect(returnedAt - ended).toBeLessThan(3000);
    expect(h.requests).toHaveLength(1);
    expect(events.find((e) => e.type === 'notify.failed')?.payload).toMatchObject({
      event: 'run.succeeded',
      target: 'ntfy',
      reason: expect.stringContaining('stopped waiting'),
    });
  });

  it('an escalated step (the same failure again, on_repeat: escalate) tells the targets the run needs you, at default priority', async () => {
    const h = await hook();
    const yaml = `gates: { test: "echo 'not ok 1 - adds'; exit 1" }\n${NO_WAIT}\non_repeat: { after: 2, action: escalate }\nnotify: { ntfy: "${h.url}/t", webhook: "${h.url}/hook" }\nsteps:\n  - title: Stuck\n`;
    const { runId, doc } = await run(yaml, [...work('a1'), ...work('a2')]);
    expect(doc.status).toBe('paused');
    const ntfy = h.requests.find((r) => r.path === '/t')!;
    expect(ntfy.headers.priority).toBe('default');
    expect(ntfy.body).toContain(`Run 'Stuck' needs you at step 1 'Stuck'`);
    expect(ntfy.body).toContain(`then ratchet resume ${runId}`);
    const body = WebhookPayload.parse(JSON.parse(h.requests.find((r) => r.path === '/hook')!.body));
    expect(body).toMatchObject({ event: 'run.needs_you', status: 'paused', step: 1, attempts: 2 });
  });

  it('a run paused at its task budget tells the targets it needs you, with the command that gives it more', async () => {
    const h = await hook();
    const yaml = `gates: { test: "echo 'not ok 1 - adds'; exit 1" }\n${NO_WAIT}\nbudget: { task_usd: 0.0001, alert_at: 1 }\nnotify: { webhook: "${h.url}/hook" }\nsteps:\n  - title: Pricey\n`;
    const { runId, doc } = await run(yaml, [...work('a1'), ...work('a2')]);
    expect(doc.status).toBe('paused');
    const bodies = h.requests.map((r) => WebhookPayload.parse(JSON.parse(r.body)));
    expect(bodies).toEqual([expect.objectContaining({ event: 'run.needs_you', status: 'paused', step: 1 })]);
    expect(bodies[0]!.message).toContain(`Next: ratchet resume ${runId} --budget <usd>`);
  });

  it('a drafted plan waiting for approval tells the targets the run needs you, with the command that approves it', async () => {
    const h = await hook();
    const p = fixtureProject(`gates: { test: "true" }\nnotify: { webhook: "${h.url}/hook" }\nsteps:\n  - title: Draft me\n`);
    const engine = createEngine({ home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k' }, sandbox: TEST_SANDBOX_MODE, notify: FAST });
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }), { awaitApproval: true });
    engine.close();
    await engine.releaseSandbox();
    const body = WebhookPayload.parse(JSON.parse(h.requests[0]!.body));
    expect(body).toMatchObject({ event: 'run.needs_you', runId, status: 'waiting_approval', step: null });
    expect(body.message).toContain(`Next: review the drafted plan, then ratchet resume ${runId} --approve`);
  });

  it('a workflow that sets a target to null switches the one in Settings off for its runs', async () => {
    const h = await hook();
    const yaml = `gates: { test: "true" }\n${NO_WAIT}\nnotify: { ntfy: null }\nsteps:\n  - title: Quiet\n`;
    const { doc, events } = await run(yaml, work('a1'), { settings: { notify: { ntfy: `${h.url}/t`, webhook: `${h.url}/hook` } } });
    expect(doc.status).toBe('succeeded');
    expect(h.requests.map((r) => r.path)).toEqual(['/hook']);
    expect(events.filter((e) => e.type === 'notify.sent').map((e) => e.payload.target)).toEqual(['webhook']);
  });
});

// A notification channel is one record (shared/notify-channels/) and one sender (here): a channel registered there alone
// shows up in the workflow's `notify:`, Settings, the events' `target`, the trust prompt, and is sent to.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { methods } from '../../../../shared/contract';
import { eventPayloads } from '../../../../shared/engine-events';
import { NO_TARGETS, NotifySettings, WorkflowNotify } from '../../../../shared/notify';
import { UserSettings } from '../../settings/settings-store';
import { trustItems } from '../../trust/trust-items';
import { parseWorkflow } from '../../workflow/load-workflow';
import { withCredentials } from '../deliver';
import { buildNotice } from '../messages';
import { createNotifier, resolveTargets, type DeliveryReport } from '../notifier';
import { startCaptureServer, type CaptureServer } from '../testing/capture-server';
import type * as SharedChannels from '../../../../shared/notify-channels';
import type * as EngineChannels from './index';
import type { ChannelSender } from './index';

// A channel Ratchet does not have, registered the way a new one is: a record in the shared list, a sender in the engine's.
vi.mock('../../../../shared/notify-channels', async (importOriginal) => {
  const real = await importOriginal<typeof SharedChannels>();
  const { targetUrl } = await import('../../../../shared/notify-channels/channel');
  const pager = {
    name: 'pager',
    target: targetUrl('the pager URL', 'https://pager.example.com/ratchet'),
    to: 'the pager',
    field: { label: 'Pager URL', placeholder: 'none', help: 'Pages someone.', invalid: 'Give a valid pager URL, or leave it empty.' },
  };
  return { ...real, NOTIFY_CHANNELS: [...real.NOTIFY_CHANNELS, pager] };
});
vi.mock('./index', async (importOriginal) => {
  const real = await importOriginal<typeof EngineChannels>();
  const { withCredentials: creds } = await import('../deliver');
  const pager: ChannelSender = (url, n) => ({
    target: 'pager' as never,
    url: creds(url).url,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: `PAGE ${n.title}`,
  });
  return { ...real, CHANNEL_SENDERS: { ...real.CHANNEL_SENDERS, pager } };
});

let servers: CaptureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe('a notification channel registered as a record and a sender', () => {
  it("is a key of the workflow's notify:, checked with the channel's own schema and words", () => {
    const ok = parseWorkflow(`notify: { pager: "https://pager.example.com/team", ntfy: null }\nsteps:\n  - title: a\n`);
    expect(ok.ok && ok.workflow.notify).toEqual({ pager: 'https://pager.example.com/team', ntfy: null });
    const bad = parseWorkflow(`notify:\n  pager: pager.example.com\nsteps:\n  - title: a\n`);
    expect(!bad.ok && bad.problems).toEqual([
      { line: 2, path: 'notify.pager', message: 'the pager URL must be a full http:// or https:// URL, e.g. https://pager.example.com/ratchet' },
    ]);
    expect(Object.keys(WorkflowNotify.shape)).toEqual(Object.keys(NO_TARGETS));
    expect(Object.keys(WorkflowNotify.shape).at(-1)).toBe('pager');
  });

  it("is a Settings target (null by default, in the stored file and the contract's settings.set)", () => {
    expect(NO_TARGETS).toHaveProperty('pager', null);
    expect(UserSettings.parse({}).notify).toEqual(NO_TARGETS);
    expect(UserSettings.parse({ notify: { ntfy: 'https://ntfy.example.com/t' } }).notify).toEqual({ ...NO_TARGETS, ntfy: 'https://ntfy.example.com/t' });
    expect(NotifySettings.safeParse({ pager: 'ftp://x' }).success).toBe(false);
    const set = methods['settings.set'].input.shape.notify;
    expect(set.parse({ pager: 'https://pager.example.com/me' })).toEqual({ ...NO_TARGETS, pager: 'https://pager.example.com/me' });
  });

  it("is a notify.sent / notify.failed event's target", () => {
    const sent = { event: 'run.failed', target: 'pager', url: 'https://pager.example.com/…', tries: 1 };
    expect(eventPayloads['notify.sent'].parse(sent)).toEqual(sent);
    expect(eventPayloads['notify.failed'].safeParse({ ...sent, reason: 'HTTP 500' }).success).toBe(true);
    expect(eventPayloads['notify.sent'].safeParse({ ...sent, target: 'carrier-pigeon' }).success).toBe(false);
  });

  it('is listed when the user is asked to trust a workflow that names it, with the same warning as the others', () => {
    const r = parseWorkflow(`notify: { pager: "https://pager.example.com/team", webhook: "https://hooks.example.com/x" }\nsteps:\n  - title: a\n`);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const items = trustItems(r.workflow).filter((i) => i.source.startsWith('notify'));
    expect(items.map((i) => [i.source, i.command])).toEqual([
      ['notify webhook', 'https://hooks.example.com/x'],
      ['notify pager', 'https://pager.example.com/team'],
    ]);
    expect(items[1]!.warning).toBe(items[0]!.warning);
  });

  it('is sent to, after the workflow-over-Settings precedence, and its delivery reported under its name', async () => {
    const s = await startCaptureServer();
    servers.push(s);
    const targets = resolveTargets({ pager: `${s.url}/page` } as never, { ...NO_TARGETS, pager: 'https://pager.example.com/settings' } as never);
    expect(targets).toEqual({ ...NO_TARGETS, pager: `${s.url}/page` });
    const reports: DeliveryReport[] = [];
    const n = createNotifier({ targets, report: (r) => reports.push(r), tuning: { timeoutMs: 10_000, retries: 0 } });
    expect(n.active).toBe(true);
    n.send(
      buildNotice({
        runId: 'r1',
        task: 'Add login',
        repo: '/src/app',
        costUsd: 0.1,
        status: 'succeeded',
        event: 'run.succeeded',
        stepsDone: 1,
        stepsTotal: 1,
        branch: 'b',
      }),
    );
    await n.flush(10_000);
    expect(s.requests.map((r) => [r.path, r.body])).toEqual([['/page', "PAGE Ratchet: 'Add login' succeeded"]]);
    expect(reports.map((r) => [r.target, r.result.ok])).toEqual([['pager', true]]);
    expect(withCredentials('https://u:p@pager.example.com/x').url).toBe('https://pager.example.com/x');
  });
});

describe('where the channels are named', () => {
  it('only the channel records and their senders name a channel in product code', () => {
    const root = join(__dirname, '../../../..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== 'node_modules' && e.name !== 'testing') walk(p);
        } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) files.push(p);
      }
    };
    for (const dir of ['electron', 'shared', 'renderer/src']) walk(join(root, dir));
    const naming = files.filter((f) => /['"](ntfy|webhook)['"]/.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    expect(naming.sort()).toEqual([
      'electron/engine/notify/channels/ntfy.ts',
      'electron/engine/notify/channels/webhook.ts',
      'shared/notify-channels/ntfy.ts',
      'shared/notify-channels/webhook.ts',
    ]);
  });
});

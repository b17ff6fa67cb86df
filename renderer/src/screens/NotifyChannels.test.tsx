// @vitest-environment jsdom
// The renderer's side of a notification channel: a channel registered in shared/notify-channels/ alone gets its Settings
// field (its label, help and checks) and its name in the Activity log.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_TARGETS } from '../../../shared/notify';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { FakeBridge } from '../../dev/fake-bridge';
import type * as SharedChannels from '../../../shared/notify-channels';
import { describeEvent } from '../lib/activity';
import { installFake } from '../test-helpers';
import { SettingsScreen } from './SettingsScreen';
import { checkSettings, type SettingsFields } from './settings-form';

vi.mock('../../../shared/notify-channels', async (importOriginal) => {
  const real = await importOriginal<typeof SharedChannels>();
  const { targetUrl } = await import('../../../shared/notify-channels/channel');
  const pager = {
    name: 'pager',
    target: targetUrl('the pager URL', 'https://pager.example.com/ratchet'),
    to: 'the pager',
    field: {
      label: 'Pager URL',
      placeholder: 'none — e.g. https://pager.example.com/ratchet',
      help: 'Pages `on-call` when a run fails.',
      invalid: 'Give a valid pager URL.',
    },
  };
  return { ...real, NOTIFY_CHANNELS: [...real.NOTIFY_CHANNELS, pager] };
});

let fake: FakeBridge;
afterEach(cleanup);
beforeEach(() => {
  fake = installFake();
});

describe('a notification channel registered as a record', () => {
  it('has its field in Settings › Notifications, checked with its schema, and saved with the others', async () => {
    render(<SettingsScreen />);
    const pager = await screen.findByLabelText('Pager URL');
    expect(pager.getAttribute('placeholder')).toBe('none — e.g. https://pager.example.com/ratchet');
    expect(screen.getByText('on-call').tagName).toBe('CODE');
    fireEvent.change(pager, { target: { value: 'pager.example.com' } });
    expect(screen.getByText('the pager URL must be a full http:// or https:// URL, e.g. https://pager.example.com/ratchet').getAttribute('role')).toBe('alert');
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByText(/Not saved: one field needs a fix/)).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(false);
    fireEvent.change(pager, { target: { value: ' https://pager.example.com/me ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(true));
    const input = fake.calls.find((c) => c.method === 'settings.set')!.input as { notify: unknown };
    expect(input.notify).toEqual({ ...NO_TARGETS, pager: 'https://pager.example.com/me' });
  });

  it("names a bad value in the channel's own sentence when the form is checked", () => {
    const fields = {
      model: 'm',
      preset: 'conservative',
      taskUsd: '',
      dailyUsd: '',
      alertPct: '80',
      concurrency: '2',
      notifications: true,
      worktreeFolder: '',
      sandbox: true,
      prices: [],
    } satisfies Omit<SettingsFields, 'notify'>;
    const bad = checkSettings({ ...fields, notify: { ...NO_TARGETS, pager: 'pager.example.com' } as never });
    expect(!bad.ok && bad.errors).toEqual({ 'notify.pager': 'Give a valid pager URL.' });
    expect(checkSettings({ ...fields, notify: { ...NO_TARGETS, pager: null } as never }).ok).toBe(true);
  });

  it('is named in the Activity log by its own words', () => {
    const at = '2026-11-22T12:00:00.000Z';
    const payload = { event: 'run.failed', target: 'pager', url: 'https://pager.example.com/…', tries: 3 };
    expect(describeEvent({ id: 1, runId: 'r1', type: 'notify.sent', at, payload })).toBe('Notification sent to the pager');
    expect(describeEvent({ id: 2, runId: 'r1', type: 'notify.failed', at, payload: { ...payload, reason: 'HTTP 500' } })).toBe(
      'A notification to the pager could not be delivered after 3 tries: HTTP 500',
    );
  });
});

// @vitest-environment jsdom
// Settings › Notifications: URLs are checked with the contract's schema before saving, and saved as one settings.set (empty = none).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_TARGETS } from '../../../shared/notify';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { FakeBridge } from '../../dev/fake-bridge';
import { installFake } from '../test-helpers';
import { SettingsScreen } from './SettingsScreen';

let fake: FakeBridge;
afterEach(cleanup);
beforeEach(() => {
  fake = installFake();
});

describe('Settings › Notifications', () => {
  it('explains each field, refuses a URL that is not one, and saves the targets', async () => {
    render(<SettingsScreen />);
    const ntfy = await screen.findByLabelText(/ntfy topic URL/);
    expect(screen.getByText(/fails after its retries \(high priority\)/)).toBeTruthy();
    expect(screen.getByText(/event, runId, task, repo, status, step, attempts, maxAttempts, costUsd, message/)).toBeTruthy();
    fireEvent.change(ntfy, { target: { value: 'ntfy.example.com/topic' } });
    expect(
      screen.getByText('the ntfy topic URL must be a full http:// or https:// URL, e.g. https://ntfy.example.com/my-ratchet-runs').getAttribute('role'),
    ).toBe('alert');
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByText(/Not saved: one field needs a fix/)).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(false);
    fireEvent.change(ntfy, { target: { value: ' https://ntfy.example.com/my-runs ' } });
    fireEvent.change(screen.getByLabelText(/Webhook URL/), { target: { value: 'https://hooks.example.com/ratchet' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(true));
    const input = fake.calls.find((c) => c.method === 'settings.set')!.input as { notify: unknown };
    expect(input.notify).toEqual({ ...NO_TARGETS, ntfy: 'https://ntfy.example.com/my-runs', webhook: 'https://hooks.example.com/ratchet' });
  });

  it('saves an emptied field as no target', async () => {
    render(<SettingsScreen />);
    fireEvent.change(await screen.findByLabelText(/Webhook URL/), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(true));
    expect((fake.calls.find((c) => c.method === 'settings.set')!.input as { notify: unknown }).notify).toEqual(NO_TARGETS);
  });
});

// @vitest-environment jsdom
// Tests for Settings: the key is write-only, where it is kept is said, and edits are sent as one settings.set.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { FakeBridge } from '../../dev/fake-bridge';
import { installFake } from '../test-helpers';
import { SettingsScreen } from './SettingsScreen';

let fake: FakeBridge;
afterEach(cleanup);
beforeEach(() => {
  fake = installFake();
});

describe('SettingsScreen', () => {
  it('never shows the key, says where it is kept, and empties the field after saving', async () => {
    render(<SettingsScreen />);
    const field = (await screen.findByLabelText('new API key')) as HTMLInputElement;
    expect(field.type).toBe('password');
    expect(field.value).toBe('');
    expect(screen.getByText(/operating system’s keychain/)).toBeTruthy();
    expect(screen.getByText(/basic_text backend/)).toBeTruthy();
    fireEvent.change(field, { target: { value: 'sk-ant-test-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    await screen.findByText('Key saved.');
    expect(fake.calls.find((c) => c.method === 'settings.setApiKey')!.input).toEqual({ key: 'sk-ant-test-123' });
    expect(((await screen.findByLabelText('new API key')) as HTMLInputElement).value).toBe('');
  });

  it('saves budgets and an edited price, and refuses an invalid price', async () => {
    render(<SettingsScreen />);
    fireEvent.change(await screen.findByLabelText('Per task (USD)'), { target: { value: '7.5' } });
    fireEvent.change(screen.getByLabelText('claude-opus-5-5 input price'), { target: { value: '-1' } });
    expect((screen.getByRole('button', { name: 'Save settings' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('claude-opus-5-5 input price'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(true));
    const input = fake.calls.find((c) => c.method === 'settings.set')!.input as { budget: unknown; pricing: Record<string, { input: number }> };
    expect(input.budget).toEqual({ taskUsd: 7.5, dailyUsd: 20, alertAt: 0.8 });
    expect(input.pricing['claude-opus-5-5']!.input).toBe(12);
  });
});

// @vitest-environment jsdom
// Tests for Settings: the key is write-only, where it is kept is said, and edits are sent as one settings.set.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { FakeBridge } from '../../dev/fake-bridge';
import { installFake } from '../test-helpers';
import { SAVED_NOTE_MS, SettingsScreen } from './SettingsScreen';
// The pricing table Ratchet ships.
import shippedPricing from '../../../resources/pricing.json';

let fake: FakeBridge;
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
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

  it('lets "Key saved." fade like every success note; it does not stay for good (issue 34 item 10)', async () => {
    render(<SettingsScreen />);
    const field = (await screen.findByLabelText('new API key')) as HTMLInputElement;
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.change(field, { target: { value: 'sk-ant-test-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    await screen.findByText('Key saved.');
    await act(async () => {
      vi.advanceTimersByTime(SAVED_NOTE_MS + 100);
    });
    await waitFor(() => expect(screen.queryByText('Key saved.')).toBeNull());
  });

  it('saves budgets and an edited price, and refuses an invalid price at its field, in a sentence', async () => {
    render(<SettingsScreen />);
    fireEvent.change(await screen.findByLabelText('Per task (USD)'), { target: { value: '7.5' } });
    fireEvent.click(screen.getByRole('button', { name: /Edit prices/ }));
    fireEvent.change(screen.getByLabelText('claude-opus-5-5 input price'), { target: { value: '-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    const field = screen.getByLabelText('claude-opus-5-5 input price');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    // The sentence sits next to the field (its accessible description), not only in the footer.
    const said = document.getElementById(field.getAttribute('aria-describedby') ?? '');
    expect(said?.textContent).toBe('Input price for claude-opus-5-5 must be a number ≥ 0.');
    expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(false);
    fireEvent.change(screen.getByLabelText('claude-opus-5-5 input price'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(true));
    const input = fake.calls.find((c) => c.method === 'settings.set')!.input as { budget: unknown; pricing: Record<string, { input: number }> };
    expect(input.budget).toEqual({ taskUsd: 7.5, dailyUsd: 20, alertAt: 0.8 });
    expect(input.pricing['claude-opus-5-5']!.input).toBe(12);
  });

  it('saves the shipped pricing table as it is (claude-haiku-5-5 cache write 0.125), says so, and the word goes away later', async () => {
    // The defaults Ratchet ships: resources/pricing.json, no budgets.
    await fake.bridge.invoke('settings.set', { pricing: shippedPricing.models, budget: { taskUsd: null, dailyUsd: null, alertAt: 0.8 } });
    fake.calls.length = 0;
    render(<SettingsScreen />);
    const save = await screen.findByRole('button', { name: 'Save settings' });
    fireEvent.click(screen.getByRole('button', { name: /Edit prices/ }));
    expect((screen.getByLabelText('claude-haiku-5-5 cache write price') as HTMLInputElement).value).toBe('0.125');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(save);
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(true));
    const input = fake.calls.find((c) => c.method === 'settings.set')!.input as { pricing: Record<string, { cache_write: number }> };
    expect(input.pricing['claude-haiku-5-5']!.cache_write).toBe(0.125);
    expect((await screen.findByText('Settings saved')).getAttribute('role')).toBe('status');
    await act(async () => {
      vi.advanceTimersByTime(6000);
    });
    expect(screen.queryByText('Settings saved')).toBeNull();
  });

  it('accepts any decimal budget (0.004 per task, 2.25 a day)', async () => {
    render(<SettingsScreen />);
    fireEvent.change(await screen.findByLabelText('Per task (USD)'), { target: { value: '0.004' } });
    fireEvent.change(screen.getByLabelText('Per day (USD)'), { target: { value: '2.25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(true));
    expect((fake.calls.find((c) => c.method === 'settings.set')!.input as { budget: unknown }).budget).toEqual({
      taskUsd: 0.004,
      dailyUsd: 2.25,
      alertAt: 0.8,
    });
  });

  it('names a zero budget and a missing model name at their fields', async () => {
    render(<SettingsScreen />);
    fireEvent.change(await screen.findByLabelText('Per day (USD)'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: /Edit prices/ }));
    fireEvent.click(screen.getByRole('button', { name: '+ Add model' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByText('The daily budget must be more than $0 (leave it empty for none).')).toBeTruthy();
    expect(screen.getByText('Model 4 needs a name.')).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(false);
  });

  it('marks an empty Default model at its field in a sentence, and sends nothing (issue 20 item 18)', async () => {
    render(<SettingsScreen />);
    const model = await screen.findByLabelText('Default model');
    fireEvent.change(model, { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(model.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(model.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Name the default model (for example claude-sonnet-5-5).');
    expect(fake.calls.some((c) => c.method === 'settings.set')).toBe(false);
    expect(screen.queryByText(/invalid_type|"code"|\[\s*\{/)).toBeNull();
  });

  it('never says "Settings saved" next to "Not saved" (issue 20 item 18)', async () => {
    render(<SettingsScreen />);
    fireEvent.change(await screen.findByLabelText('Per task (USD)'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Settings saved');
    fireEvent.change(screen.getByLabelText('Per task (USD)'), { target: { value: '-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByText(/Not saved: one field needs a fix/)).toBeTruthy();
    expect(screen.queryByText('Settings saved')).toBeNull();
  });

  it('says what is wrong with a key the API refused, and not "Key saved." (issue 20 item 18)', async () => {
    fake = installFake({
      overrides: {
        'settings.setApiKey': () => {
          throw Object.assign(new Error('The API refused this key (invalid x-api-key). The key was not saved.'), { code: 'api_key_refused' });
        },
      },
    });
    render(<SettingsScreen />);
    fireEvent.change(await screen.findByLabelText('new API key'), { target: { value: 'sk-ant-typo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    expect((await screen.findByText(/invalid x-api-key/)).id).toBe('key-error');
    expect(screen.queryByText('Key saved.')).toBeNull();
    expect(screen.getByLabelText('new API key').getAttribute('aria-invalid')).toBe('true');
  });

  it('folds the pricing table to one line, "N models · Edit prices" (issue 34 item 8)', async () => {
    render(<SettingsScreen />);
    const toggle = await screen.findByRole('button', { name: /^\d+ models · Edit prices$/ });
    expect(screen.queryByLabelText('claude-opus-5-5 input price')).toBeNull();
    fireEvent.click(toggle);
    expect(screen.getByLabelText('claude-opus-5-5 input price')).toBeTruthy();
  });

  it('puts Team and every section that saves itself above the form’s Save: nothing sits under a Save it is not part of (issue 34 item 8)', async () => {
    render(<SettingsScreen />);
    const team = await screen.findByRole('heading', { name: 'Team' });
    const save = screen.getByRole('button', { name: 'Save settings' });
    expect(team.compareDocumentPosition(save) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // The Save's footer ends the page: no section after it.
    const footer = save.closest('footer')!;
    const sections = [...document.querySelectorAll('.screen section')];
    expect(sections.filter((sec) => footer.compareDocumentPosition(sec) & Node.DOCUMENT_POSITION_FOLLOWING)).toEqual([]);
  });
});

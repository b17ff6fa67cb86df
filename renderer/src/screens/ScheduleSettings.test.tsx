// @vitest-environment jsdom
// Settings › Schedules: the cron field's next five times in words, a bad expression said at once, a schedule added and paused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { FakeBridge } from '../../dev/fake-bridge';
import { installFake } from '../test-helpers';
import { ScheduleSettings } from './ScheduleSettings';

let fake: FakeBridge;
afterEach(() => cleanup());
beforeEach(() => {
  fake = installFake();
});

describe('ScheduleSettings', () => {
  it('shows the next five times of the cron expression in words, says why a bad one does not read, and adds and pauses a schedule', async () => {
    render(<ScheduleSettings />);
    fireEvent.change(screen.getByLabelText('Cron expression'), { target: { value: '30 4 * * *' } });
    fireEvent.change(screen.getByPlaceholderText(/Europe\/Paris/), { target: { value: 'Europe/Paris' } });
    const next = await screen.findByRole('list', { name: 'Next times' });
    await within(next).findAllByText(/04:30 \(Europe\/Paris\)$/);
    expect(within(next).getAllByRole('listitem')).toHaveLength(5);
    fireEvent.change(screen.getByLabelText('Cron expression'), { target: { value: '30 25 * * *' } });
    await screen.findByText(/Invalid cron expression "30 25 \* \* \*"/);
    expect((screen.getByRole('button', { name: 'Add schedule' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('Cron expression'), { target: { value: '30 4 * * *' } });
    fireEvent.change(screen.getByPlaceholderText('/path/to/repo'), { target: { value: '/repo/app' } });
    await screen.findByRole('list', { name: 'Next times' });
    fireEvent.click(screen.getByRole('button', { name: 'Add schedule' }));
    const item = await screen.findByTestId('schedule-sch-1');
    expect(item.textContent).toContain('30 4 * * * (Europe/Paris) — /repo/app');
    fireEvent.click(within(item).getByRole('button', { name: 'Pause' }));
    await within(item).findByText('paused');
    expect(fake.calls.find((c) => c.method === 'schedules.setPaused')!.input).toEqual({ id: 'sch-1', paused: true });
  });

  it('says when schedules fire in the app’s words, with no terminal commands (issue 34 item 9)', () => {
    render(<ScheduleSettings />);
    const intro = screen.getByRole('heading', { name: 'Schedules' }).nextElementSibling!;
    expect(intro.textContent).not.toMatch(/ratchet /);
    expect(intro.querySelector('code')).toBeNull();
    expect(intro.textContent).toMatch(/while this app or another Ratchet host on this machine is running/);
  });
});

// @vitest-environment jsdom
// New task before the form is filled in: no API key is said at the top with its ways out (save a key here, Claude Code), and Open… works in a browser.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { APP_INFO, GO_REPO, makeSettings } from '../../dev/fixtures-misc';
import { REPO } from '../../dev/fixtures-runs';
import { installFake } from '../test-helpers';
import { NewTaskScreen } from './NewTaskScreen';
import { SettingsScreen } from './SettingsScreen';

afterEach(() => {
  cleanup();
  location.hash = '';
});

function noKey(setApiKey?: (key: string | null) => unknown) {
  const settings = { ...makeSettings(), apiKeySet: false, apiKeySource: 'none' as const, apiKeyWarning: null };
  return installFake({
    overrides: {
      'settings.get': () => settings,
      'settings.setApiKey': ({ key }) => {
        setApiKey?.(key);
        return Object.assign(settings, { apiKeySet: key !== null, apiKeySource: 'session' as const });
      },
    },
  });
}

describe('New task without an API key', () => {
  it('says so at the top before anything is filled in, and runs with Claude Code when the user picks it', async () => {
    const fake = noKey();
    render(<NewTaskScreen repoPath={GO_REPO} />);
    const notice = await screen.findByRole('region', { name: 'no API key' });
    expect(notice.textContent).toContain('No Anthropic API key is set');
    expect((screen.getByRole('button', { name: 'Start run' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Health' } });
    fireEvent.change(screen.getByLabelText('step 1 title'), { target: { value: 'Add health' } });
    expect(screen.getByText(/Needs an API key \(or Claude Code as the agent\)/)).toBeTruthy();
    fireEvent.click(within(notice).getByRole('button', { name: 'Use Claude Code instead' }));
    expect(screen.queryByRole('region', { name: 'no API key' })).toBeNull();
    expect((screen.getByLabelText('Agent') as HTMLSelectElement).value).toBe('claude-code');
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(location.hash).toMatch(/^#\/runs\//));
    expect(fake.calls.find((c) => c.method === 'runs.start')?.input).toMatchObject({ agent: 'claude-code', steps: [{ title: 'Add health' }] });
  });

  it('saves a key inline; a refusal is shown next to the key field', async () => {
    let refuse = true;
    noKey(() => {
      if (refuse) throw new Error('An API key has no spaces or line breaks in it. Paste the key alone.');
    });
    render(<NewTaskScreen repoPath={REPO} />);
    const notice = await screen.findByRole('region', { name: 'no API key' });
    fireEvent.change(within(notice).getByLabelText('API key'), { target: { value: 'sk ant' } });
    fireEvent.click(within(notice).getByRole('button', { name: 'Save key' }));
    expect((await within(notice).findByRole('alert')).textContent).toContain('no spaces');
    refuse = false;
    fireEvent.change(within(notice).getByLabelText('API key'), { target: { value: 'sk-ant-1' } });
    fireEvent.click(within(notice).getByRole('button', { name: 'Save key' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'no API key' })).toBeNull());
  });

  it('shows a failed save in Settings next to the key field', async () => {
    noKey(() => {
      throw new Error('The key could not be stored.');
    });
    render(<SettingsScreen />);
    const field = await screen.findByLabelText('new API key');
    fireEvent.change(field, { target: { value: 'sk-ant-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    const alert = await screen.findByText('The key could not be stored.');
    expect(alert.closest('section')?.getAttribute('aria-labelledby')).toBe('h-key');
    expect(field.getAttribute('aria-describedby')).toBe('key-error');
  });
});

describe('Open… in the browser host', () => {
  it("walks the host's folders and opens a repository", async () => {
    const fake = installFake({ overrides: { 'app.info': () => ({ ...APP_INFO, host: 'headless' }) } });
    render(<NewTaskScreen repoPath={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Open a repository' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'code' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'open website' }));
    await waitFor(() => expect(location.hash).toBe(`#/new?repo=${encodeURIComponent('/home/dev/code/website')}`));
    expect(fake.calls.some((c) => c.method === 'repos.pick')).toBe(false);
  });

  it('uses the native dialog in the desktop app', async () => {
    const fake = installFake();
    render(<NewTaskScreen repoPath={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open…' }));
    await waitFor(() => expect(location.hash).toBe(`#/new?repo=${encodeURIComponent(REPO)}`));
    expect(fake.calls.some((c) => c.method === 'repos.pick')).toBe(true);
  });
});

describe('the folder browser', () => {
  it('keeps a path typed before the first listing arrives', async () => {
    let answer: (() => void) | null = null;
    installFake({
      overrides: {
        'app.info': () => ({ ...APP_INFO, host: 'headless' }),
        'repos.browse': ({ dir }) =>
          new Promise((ok) => {
            answer = () => ok({ dir: dir ?? '/home/dev', parent: '/home', isGitRepo: false, entries: [], truncated: 0 });
          }),
      },
    });
    render(<NewTaskScreen repoPath={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open…' }));
    const field = await screen.findByLabelText('folder path');
    await waitFor(() => expect(answer).not.toBeNull());
    fireEvent.change(field, { target: { value: '/srv/code' } });
    answer!();
    await screen.findByRole('list');
    expect((field as HTMLInputElement).value).toBe('/srv/code');
  });
});

describe('New task’s agent choice (issue 34 item 8)', () => {
  it('says the Anthropic API needs a key only when none is set: not with a key, not while the settings load', async () => {
    let answer: (v: unknown) => void = () => undefined;
    const settings = new Promise((resolve) => (answer = resolve));
    installFake({ overrides: { 'settings.get': () => settings as never } });
    render(<NewTaskScreen repoPath={REPO} />);
    const agent = (await screen.findByLabelText('Agent')) as HTMLSelectElement;
    expect(agent.options[0]!.textContent).toBe('Claude through the Anthropic API');
    answer({ ...makeSettings(), apiKeySet: true });
    await waitFor(() => expect(agent.options[0]!.textContent).toBe('Claude through the Anthropic API'));
    cleanup();
    noKey();
    render(<NewTaskScreen repoPath={REPO} />);
    const without = (await screen.findByLabelText('Agent')) as HTMLSelectElement;
    await waitFor(() => expect(without.options[0]!.textContent).toBe('Claude through the Anthropic API (needs an API key)'));
  });
});
